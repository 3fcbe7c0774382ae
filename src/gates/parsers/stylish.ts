import { createFinding, type Finding, type Severity } from '../report/finding.js';
import { splitIgnoredFiles } from './eslint-json.js';
import { lines, relativeToRoot, verdict, withCoverage, type Parser } from './parser.js';

// The "stylish" family of default formatters, one file heading then one row per problem:
//   eslint      `/abs/src/a.js` then `  2:9   error    message  rule`
//   stylelint   `src/a.css`     then `  3:3  ✖  message  rule`
//   xo          `  src/a.js:1:7` then `  ✖  1:7  message  rule`
//   tsd         `  index.test-d.ts:5:19` then `  ✖  5:19  message` (no rule; 6:0 for a whole line)
// Columns are padded with two or more spaces, so a row splits on runs of 2+ spaces: the
// position and the severity come first (either order), then the message, then the rule.
// Every scan below is a split or an anchored regex with no nested quantifier: linear.

const POSITION = /^(\d{1,9}):(\d{1,9})$/;
const SEVERITY_WORDS: Record<string, Severity> = {
  error: 'error',
  '✖': 'error',
  '×': 'error',
  x: 'error',
  warning: 'warning',
  '⚠': 'warning',
  '‼': 'warning',
  '!': 'warning',
  info: 'info',
  ℹ: 'info',
};
/** xo's heading: the file and its first problem's position, indented. */
const XO_HEADING = /^\s+(\S+):\d{1,9}:\d{1,9}$/;
/** Summary lines, never a file heading: `✖ 3 problems (…)`, `3 errors`, `0 problems`. */
const SUMMARY = /^(?:[✖×⚠‼!]\s|\d+\s+(?:problems?|errors?|warnings?)\b)/;

interface Row {
  line: number | null;
  column: number | null;
  severity: Severity;
  message: string;
  rule: string | null;
}

function parseRow(text: string): Row | undefined {
  if (!/^\s/.test(text)) return undefined;
  const parts = text.trim().split(/\s{2,}/);
  if (parts.length < 3) return undefined;
  let position = POSITION.exec(parts[0]!);
  let severity = SEVERITY_WORDS[parts[1]!];
  if (!position || !severity) {
    position = POSITION.exec(parts[1]!);
    severity = SEVERITY_WORDS[parts[0]!];
  }
  if (!position || !severity) return undefined;
  const rest = parts.slice(2);
  // A rule id has no spaces; a parse error row (`Parsing error: …`) has no rule column.
  const rule = rest.length >= 2 && !/\s/.test(rest[rest.length - 1]!) ? rest.pop()! : null;
  // eslint puts file-level messages (`File ignored because…`) at 0:0: no position.
  return {
    line: Number(position[1]) || null,
    column: Number(position[2]) || null,
    severity,
    message: rest.join('  '),
    rule,
  };
}

/** Reads stylish-family text on both streams: one finding per row, under its file heading. */
export function parseStylishText(text: string, root: string): Finding[] {
  const findings: Finding[] = [];
  let file: string | null = null;
  for (const line of lines(text, findings)) {
    if (line.trim() === '') continue;
    const row = file !== null ? parseRow(line) : undefined;
    if (row) {
      findings.push(createFinding({ file, ...row }));
      continue;
    }
    const xoHeading = XO_HEADING.exec(line);
    if (xoHeading) file = relativeToRoot(xoHeading[1]!, root);
    else if (!/^\s/.test(line))
      file = SUMMARY.test(line) ? null : relativeToRoot(line.trim(), root);
  }
  return findings;
}

function stylishParser(name: string, summary: string): Parser {
  return {
    name,
    summary,
    parse(output) {
      return verdict(
        output.exitCode,
        parseStylishText(`${output.stdout}\n${output.stderr}`, output.root),
      );
    },
  };
}

/**
 * ESLint's stylish output lists only files with problems: a file it ignored shows as a
 * "File ignored" notice, a clean file not at all. So nothing was checked only when every
 * path of the call was ignored.
 */
export const eslintStylishParser: Parser = {
  name: 'eslint-stylish',
  summary: "eslint's default (stylish) output",
  parse(output) {
    const parsed = parseStylishText(`${output.stdout}\n${output.stderr}`, output.root);
    const { findings, notChecked } = splitIgnoredFiles(parsed);
    return withCoverage(verdict(output.exitCode, findings), output, notChecked);
  },
};
export const stylelintParser = stylishParser('stylelint', "stylelint's default (string) output");
export const xoParser = stylishParser('xo', "xo's default output");
export const tsdParser = stylishParser('tsd', "tsd's output (xo's layout, on stderr)");

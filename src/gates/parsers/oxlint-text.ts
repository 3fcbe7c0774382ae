import { createFinding, type Finding, type Severity } from '../report/finding.js';
import { lines, relativeToRoot, verdict, type Parser } from './parser.js';

// oxlint's default (graphical) report, one block per diagnostic:
//     x eslint(eqeqeq): Expected === and instead saw ==        (`×` with colour)
//      ,-[src/app.js:2:9]                                      (`╭─[` with colour)
// `!`/`⚠` is a warning; `☞`/`i` advice. The rule is kept as oxlint prints it, `eslint(eqeqeq)`,
// as its JSON format does.

const HEADLINE = /^\s{2}([x×!⚠☞i]) (.*)$/;
const RULE_PREFIX = /^([\w-]{1,64}\([^()\s]{1,128}\)): /;
const LOCATION = /^\s+(?:,-|╭─)\[(.*):(\d{1,9}):(\d{1,9})\]$/;
const MARKS: Record<string, Severity> = {
  x: 'error',
  '×': 'error',
  '!': 'warning',
  '⚠': 'warning',
  '☞': 'info',
  i: 'info',
};

export function parseOxlintText(text: string, root: string): Finding[] {
  const findings: Finding[] = [];
  let last: Finding | undefined;
  for (const line of lines(text, findings)) {
    const headline = HEADLINE.exec(line);
    if (headline) {
      const rule = RULE_PREFIX.exec(headline[2]!);
      last = createFinding({
        severity: MARKS[headline[1]!]!,
        rule: rule ? rule[1]! : null,
        message: rule ? headline[2]!.slice(rule[0].length) : headline[2]!,
      });
      findings.push(last);
      continue;
    }
    const location = LOCATION.exec(line);
    // Only the first location of a block is the diagnostic's own.
    if (location && last && last.file === null) {
      last.file = relativeToRoot(location[1]!, root);
      last.line = Number(location[2]);
      last.column = Number(location[3]);
    }
  }
  return findings;
}

/** `oxlint` with its default output format. */
export const oxlintTextParser: Parser = {
  name: 'oxlint-text',
  summary: "oxlint's default (graphical) output",
  parse(output) {
    return verdict(
      output.exitCode,
      parseOxlintText(`${output.stdout}\n${output.stderr}`, output.root),
    );
  },
};

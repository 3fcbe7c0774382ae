import { createFinding, type Finding, type Severity } from '../report/finding.js';
import {
  lines,
  positiveInteger,
  relativeToRoot,
  verdict,
  withCoverage,
  jsonArrayOnEitherStream,
  type GateOutput,
  type ParseResult,
  type Parser,
} from './parser.js';
import { textFallback } from './text-lines.js';

// markdownlint-cli and markdownlint-cli2 print one problem a line (on stderr):
//   docs/guide.md:3:26 error MD009/no-trailing-spaces Trailing spaces [Expected: 0 or 2; Actual: 1]
//   README.md:5 MD022/blanks-around-headings Headings should be surrounded by blank lines
// The severity word is there from markdownlint-cli 0.45 and markdownlint-cli2 0.18 on; the
// column only when the rule names a range. The rule names (code, then aliases) have no
// space. markdownlint-cli2's progress and summary (`Linting: 3 files`) go to stdout. The
// paths are relative (no drive colon): the file ends at the first colon, so each line is
// matched in one anchored pass.
const PROBLEM =
  /^(?<file>[^:\s][^:]*):(?<line>\d{1,9})(?::(?<col>\d{1,9}))? (?:(?<sev>error|warning) )?(?<rule>[A-Za-z][\w-]*(?:\/[\w-]+)*) (?<msg>\S.*)$/s;

/** markdownlint-cli's word when its files, directories and globs matched no Markdown file. */
const NO_MATCHING_FILES = /^No matching files found$/m;
/** markdownlint-cli before 0.50 prints its usage instead, and exits 0. */
const USAGE = /^Usage: markdownlint /m;
/** markdownlint-cli2's count of the files it lints (`Linting: 0 file(s)` in old versions). */
const LINTING_COUNT = /^Linting: (\d+) file/m;

function severityOf(word: string | undefined): Severity {
  return word === 'warning' ? 'warning' : 'error';
}

/** markdownlint's one-line message: the description, its detail and its context. */
function problemMessage(description: string, detail: unknown, context: unknown): string {
  return (
    description +
    (typeof detail === 'string' && detail !== '' ? ` [${detail}]` : '') +
    (typeof context === 'string' && context !== '' ? ` [Context: "${context}"]` : '')
  );
}

/** Reads markdownlint's text lines (either CLI). */
export function parseMarkdownlintText(text: string, root: string): Finding[] {
  const findings: Finding[] = [];
  for (const line of lines(text, findings)) {
    if (!line.includes(':')) continue;
    const match = PROBLEM.exec(line.trimEnd());
    if (!match?.groups) continue;
    findings.push(
      createFinding({
        file: relativeToRoot(match.groups.file!, root),
        line: Number(match.groups.line),
        column: match.groups.col ? Number(match.groups.col) : null,
        severity: severityOf(match.groups.sev),
        rule: match.groups.rule!,
        message: match.groups.msg!,
      }),
    );
  }
  return findings;
}

/** Nothing checked, when the output says so: no Markdown file matched, or cli2 linted none. */
function nothingLinted(output: GateOutput): string | undefined {
  const both = `${output.stdout}\n${output.stderr}`;
  if (NO_MATCHING_FILES.test(both))
    return 'markdownlint found no Markdown file to lint ("No matching files found")';
  if (USAGE.test(both))
    return 'markdownlint linted nothing: it printed its usage, which it does when no Markdown file matched';
  const count = LINTING_COUNT.exec(output.stdout);
  if (count && Number(count[1]) === 0) return 'markdownlint-cli2 linted 0 files';
  return undefined;
}

function withNothingLinted(result: ParseResult, output: GateOutput): ParseResult {
  const why = nothingLinted(output);
  return why === undefined ? result : withCoverage(result, output, [], why);
}

/**
 * markdownlint-cli and markdownlint-cli2's default text: `file:line[:col] [severity]
 * MDxxx/alias description [detail] [Context: "..."]`. Exit 1 when a problem is an error.
 */
export const markdownlintTextParser: Parser = {
  name: 'markdownlint-text',
  summary: "markdownlint-cli and markdownlint-cli2's default output (file:line[:col] MDxxx/name …)",
  parse(output) {
    const findings = parseMarkdownlintText(`${output.stdout}\n${output.stderr}`, output.root);
    return withNothingLinted(verdict(output.exitCode, findings), output);
  },
};

interface MarkdownlintJsonProblem {
  fileName?: string;
  lineNumber?: number;
  ruleNames?: string[];
  ruleDescription?: string;
  errorDetail?: string | null;
  errorContext?: string | null;
  errorRange?: [number, number] | null;
  severity?: string;
}

/**
 * `markdownlint --json` (markdownlint-cli): an array of problems `{fileName, lineNumber,
 * ruleNames, ruleDescription, errorDetail, errorContext, errorRange [column, length],
 * severity}` on stderr, and nothing at all when there is none. The message matches the
 * text output's, so a script's text and the marker gate's JSON read alike.
 */
export const markdownlintJsonParser: Parser = {
  name: 'markdownlint-json',
  summary: 'markdownlint --json (markdownlint-cli; stderr, empty when clean)',
  parse(output) {
    const document = jsonArrayOnEitherStream(output) as MarkdownlintJsonProblem[] | undefined;
    if (!document) {
      const quiet = output.exitCode === 0 && `${output.stdout}${output.stderr}`.trim() === '';
      if (quiet) return { findings: [], passed: true };
      if (nothingLinted(output)) return withNothingLinted({ findings: [], passed: false }, output);
      return textFallback(output, 'no markdownlint JSON on stderr: read the output');
    }
    const findings = document.map((problem) =>
      createFinding({
        file: problem.fileName ? relativeToRoot(problem.fileName, output.root) : null,
        line: positiveInteger(problem.lineNumber),
        column: positiveInteger(problem.errorRange?.[0]),
        severity: severityOf(problem.severity),
        rule: (problem.ruleNames ?? []).join('/') || null,
        message: problemMessage(
          problem.ruleDescription ?? '',
          problem.errorDetail,
          problem.errorContext,
        ),
      }),
    );
    return verdict(output.exitCode, findings);
  },
};

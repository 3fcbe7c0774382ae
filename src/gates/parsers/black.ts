import { createFinding } from '../report/finding.js';
import { lines, relativeToRoot, verdict, withCoverage, type Parser } from './parser.js';
import { formatterFindings } from './unified-diff.js';

const WOULD_REFORMAT = /^would reformat (?<file>.+)$/s;
// `error: cannot format app.py: Cannot parse: 1:6: def f(:` (newer black adds `for target
// version Python 3.x` after `parse`).
const CANNOT_FORMAT = /^error: cannot format (?<file>.+?): (?<msg>\S.*)$/s;
const PARSE_POSITION = /^Cannot parse[^:]*: (?<line>\d+):(?<col>\d+): /;
// `1 file would be reformatted, 2 files would be left unchanged.`
const SUMMARY = /(?:^|, )(?<count>\d+) files? would be reformatted/;
const NOTHING = /^No Python files are present to be formatted\. Nothing to do/;

const NOT_FORMATTED = 'not formatted (black fixes it)';

/**
 * `black --check --diff`: the diff on stdout, one finding per hunk at its first changed
 * line; on stderr `would reformat <path>` per file (a file with no hunk shown is one
 * whole-file finding), `error: cannot format <path>: Cannot parse: line:col: ...` for
 * a file it cannot parse (exit 123), and "No Python files are present" when it checked
 * nothing (exit 0: never a pass). A summary counting files no line named adds a finding.
 */
export const blackParser: Parser = {
  name: 'black',
  summary: 'black --check [--diff] (diff hunks, would reformat, cannot parse)',
  parse(output) {
    const findings = formatterFindings(
      output,
      output.stderr,
      'black',
      NOT_FORMATTED,
      (line) => WOULD_REFORMAT.exec(line)?.groups?.file,
    );
    const named = new Set(findings.map((finding) => finding.file)).size;
    let counted = 0;
    let nothing: string | undefined;
    for (const raw of lines(output.stderr, findings)) {
      const line = raw.trimEnd();
      const failed = line.startsWith('error: ') ? CANNOT_FORMAT.exec(line) : null;
      if (failed?.groups) {
        const position = PARSE_POSITION.exec(failed.groups.msg!);
        findings.push(
          createFinding({
            file: relativeToRoot(failed.groups.file!, output.root),
            line: position ? Number(position.groups!.line) : null,
            // lib2to3 counts columns from 0.
            column: position ? Number(position.groups!.col) + 1 : null,
            rule: 'black',
            message: failed.groups.msg!,
          }),
        );
        continue;
      }
      const summary = SUMMARY.exec(line);
      if (summary?.groups) counted = Number(summary.groups.count);
      if (NOTHING.test(line)) nothing = 'black found no Python file to check';
    }
    if (counted > named) {
      const missing = counted - named;
      findings.push(
        createFinding({
          rule: 'black',
          message: `black counted ${missing} more file${missing === 1 ? '' : 's'} to reformat than it named (run \`black --check .\` to see them)`,
        }),
      );
    }
    return withCoverage(verdict(output.exitCode, findings), output, [], nothing);
  },
};

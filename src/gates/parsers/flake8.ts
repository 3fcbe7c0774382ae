import { createFinding, type Finding } from '../report/finding.js';
import { lines, relativeToRoot, verdict, withCoverage, type Parser } from './parser.js';

// `./src/app.py:2:1: F401 'os' imported but unused` (the default --format): the code is a
// letter and digits from flake8 itself or a plugin (E, W, F, C9, B, D...).
const VIOLATION =
  /^(?<file>[^\s:][^:]*?):(?<line>\d+):(?<col>\d+): (?<code>[A-Z]+\d+) (?<msg>.*)$/s;
// `--benchmark`: `2          total files processed`.
const FILES_PROCESSED = /^(?<count>\d+)\s+total files processed$/;

/**
 * flake8's default report: `path:line:col: CODE message` per violation on stdout, every
 * one an error (flake8 exits 1 on any). With `--benchmark` (the marker gate's) it also
 * counts the files it processed: 0 is nothing checked, never a pass (flake8 exits 0
 * having skipped every path its `exclude` names).
 */
export const flake8Parser: Parser = {
  name: 'flake8',
  summary: 'flake8 (path:line:col: CODE message; --benchmark counts the files)',
  parse(output) {
    const findings: Finding[] = [];
    let processed: number | undefined;
    for (const raw of lines(output.stdout, findings)) {
      const line = raw.trimEnd();
      const match = VIOLATION.exec(line);
      if (match?.groups) {
        findings.push(
          createFinding({
            file: relativeToRoot(match.groups.file!, output.root),
            // E902 (a path it cannot read) is at line 0 or 1, column 0 or 1.
            line: Math.max(1, Number(match.groups.line)),
            column: Math.max(1, Number(match.groups.col)),
            rule: match.groups.code!,
            message: match.groups.msg!,
          }),
        );
        continue;
      }
      const counted = FILES_PROCESSED.exec(line);
      if (counted?.groups) processed = Number(counted.groups.count);
    }
    const result = verdict(output.exitCode, findings);
    return processed === 0 && findings.length === 0
      ? withCoverage(
          result,
          output,
          [],
          'flake8 processed no file (every path is excluded, or none is a Python file)',
        )
      : result;
  },
};

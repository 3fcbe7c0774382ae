import { createFinding, type Finding } from '../report/finding.js';
import { parseOxlintText } from './oxlint-text.js';
import { lines, relativeToRoot, verdict, type Parser } from './parser.js';

// `oxfmt --check` lists each unformatted file with its time, between a heading and a summary:
//   Checking formatting...
//   src/a.js (0ms)
//   Format issues found in above 1 files. Run without `--check` to fix.
// `oxfmt --list-different` prints the bare paths instead. Neither names a line: the gate
// locates one by formatting the file (run/locate-format.ts). A file oxfmt cannot parse is
// a graphical diagnostic on stderr, with its line (exit 2, oxfmt 0.79):
//     x Expected `:` but found `Identifier`
//      ,-[src/broken.js:3:10]

const CHECKED_FILE = /^(\S.*) \(\d{1,9}(?:\.\d+)?m?s\)$/;
const NOT_A_FILE =
  /^(?:Checking formatting|Format issues found|Finished in|All matched files|No config found|Usage:|Error|error)/;

export function parseOxfmtText(text: string, root: string): Finding[] {
  const findings: Finding[] = [];
  for (const line of lines(text, findings)) {
    const trimmed = line.trim();
    if (trimmed === '' || NOT_A_FILE.test(trimmed)) continue;
    const checked = CHECKED_FILE.exec(trimmed);
    const file = checked ? checked[1]! : /\s/.test(trimmed) ? undefined : trimmed;
    if (file === undefined) continue;
    findings.push(
      createFinding({
        file: relativeToRoot(file, root),
        rule: 'oxfmt',
        message: 'not formatted (oxfmt fixes it)',
      }),
    );
  }
  return findings;
}

export const oxfmtParser: Parser = {
  name: 'oxfmt',
  summary: 'oxfmt --check or --list-different',
  parse(output) {
    // stderr carries notices (`No config found, using defaults…`), never file names to
    // format, and the diagnostics of files oxfmt could not parse.
    return verdict(output.exitCode, [
      ...parseOxfmtText(output.stdout, output.root),
      ...parseOxlintText(output.stderr, output.root),
    ]);
  },
};

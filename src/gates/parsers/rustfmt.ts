import { createFinding, type Finding } from '../report/finding.js';
import { lines, relativeToRoot, verdict, type Parser } from './parser.js';

// rustfmt 1.x: `Diff in /abs/src/main.rs:6:`; older releases: `Diff in /abs/src/main.rs at line 6:`.
const DIFF_HEADER = /^Diff in (?<file>.+?)(?::(?<line>\d+):| at line (?<atLine>\d+):)\s*$/;

/** `cargo fmt --check` / `rustfmt --check`: one finding per diff hunk; exit 1 when a file would change. */
export const rustfmtParser: Parser = {
  name: 'rustfmt',
  summary: 'cargo fmt --check / rustfmt --check diffs',
  parse(output) {
    const findings: Finding[] = [];
    for (const line of lines(`${output.stdout}\n${output.stderr}`)) {
      const match = DIFF_HEADER.exec(line);
      if (!match?.groups) continue;
      findings.push(
        createFinding({
          file: relativeToRoot(match.groups.file!, output.root),
          line: Number(match.groups.line ?? match.groups.atLine),
          rule: 'rustfmt',
          message: 'not formatted (cargo fmt fixes it)',
        }),
      );
    }
    return verdict(output.exitCode, findings);
  },
};

import { createFinding, type Finding } from '../report/finding.js';
import { lines, relativeToRoot, verdict, type Parser } from './parser.js';

// rustfmt 1.x: `Diff in /abs/src/main.rs:6:`; older releases: `Diff in /abs/src/main.rs at line 6:`.
// Matched on the line with its end trimmed, so no `\s*$` follows the lazy file part.
const DIFF_HEADER = /^Diff in (?<file>.+?)(?::(?<line>\d+):| at line (?<atLine>\d+):)$/s;

interface Hunk {
  file: string;
  /** The line the hunk starts at: its first line is often unchanged context. */
  line: number;
  /** Context lines seen before the first `-` or `+` line; null once it was found. */
  context: number | null;
}

function finding(hunk: Hunk): Finding {
  return createFinding({
    file: hunk.file,
    // The first changed line: the header's line plus the context lines before it.
    line: hunk.line + (hunk.context ?? 0),
    rule: 'rustfmt',
    message: 'not formatted (cargo fmt fixes it)',
  });
}

/**
 * `cargo fmt --check` / `rustfmt --check`: one finding per diff hunk, at the hunk's
 * first changed line (the header names the first line of the hunk, usually context);
 * exit 1 when a file would change.
 */
export const rustfmtParser: Parser = {
  name: 'rustfmt',
  summary: 'cargo fmt --check / rustfmt --check diffs',
  parse(output) {
    const findings: Finding[] = [];
    let hunk: Hunk | null = null;
    for (const line of lines(`${output.stdout}\n${output.stderr}`, findings)) {
      const match = line.startsWith('Diff in ') ? DIFF_HEADER.exec(line.trimEnd()) : null;
      if (match?.groups) {
        if (hunk) findings.push(finding(hunk));
        hunk = {
          file: relativeToRoot(match.groups.file!, output.root),
          line: Number(match.groups.line ?? match.groups.atLine),
          context: 0,
        };
        continue;
      }
      if (!hunk || hunk.context === null) continue;
      if (line.startsWith('-') || line.startsWith('+')) {
        findings.push(finding(hunk));
        hunk.context = null;
      } else if (line.startsWith(' ') || line === '') hunk.context += 1;
      else {
        // Not diff text: the hunk's changes were not shown; report its header line.
        findings.push(finding(hunk));
        hunk.context = null;
      }
    }
    if (hunk && hunk.context !== null) findings.push(finding({ ...hunk, context: 0 }));
    return verdict(output.exitCode, findings);
  },
};

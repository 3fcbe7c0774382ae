import { createFinding, type Finding } from '../report/finding.js';
import { MAX_PARSED_FINDINGS } from './parse-budget.js';
import { lines, relativeToRoot, verdict, type Parser } from './parser.js';
import { parseColonLine } from './text-lines.js';

const DIFF_HEADER = /^diff (?:-u )?\S.*? (?<file>\S.*)$/;
const HUNK_HEADER = /^@@ -(?<line>\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/;

function unformatted(file: string, line: number | null): Finding {
  return createFinding({
    file,
    line,
    rule: 'gofmt',
    message: 'not formatted (gofmt -w fixes it)',
  });
}

/**
 * `gofmt -l -d` (or plain `-l`): the files that need formatting, and with `-d` their
 * diffs, one finding per hunk at its first changed line; a listed file with no diff shown
 * is one whole-file finding. gofmt exits 0 either way (golang/go#24230), so any finding
 * fails the gate. Syntax errors come as `file:line:col: message` on stderr with exit 2.
 */
export const gofmtParser: Parser = {
  name: 'gofmt',
  summary: 'gofmt -l [-d] (file list, diff hunks)',
  parse(output) {
    const findings: Finding[] = [];
    const listed: string[] = [];
    const located = new Set<string>();
    let file: string | null = null;
    let hunk: { line: number; context: number } | null = null;
    for (const line of lines(output.stdout, findings)) {
      const diff = line.startsWith('diff ') ? DIFF_HEADER.exec(line.trimEnd()) : null;
      if (diff?.groups) {
        file = relativeToRoot(diff.groups.file!, output.root);
        hunk = null;
        continue;
      }
      if (file !== null) {
        if (line.startsWith('--- ') || line.startsWith('+++ ') || line.startsWith('\\')) continue;
        const header = line.startsWith('@@') ? HUNK_HEADER.exec(line) : null;
        if (header?.groups) {
          hunk = { line: Number(header.groups.line), context: 0 };
          continue;
        }
        if (line.startsWith(' ')) {
          if (hunk) hunk.context += 1;
          continue;
        }
        if (line.startsWith('-') || line.startsWith('+')) {
          if (hunk) {
            findings.push(unformatted(file, hunk.line + hunk.context));
            located.add(file);
            hunk = null; // one finding per hunk
          }
          continue;
        }
      }
      // Anything else is a `-l` line: a file that needs formatting.
      const name = line.trim();
      if (name === '') continue;
      file = null;
      // Bounded like the findings themselves: a flood of lines is not a flood of files.
      if (listed.length < MAX_PARSED_FINDINGS) listed.push(relativeToRoot(name, output.root));
    }
    for (const name of listed) if (!located.has(name)) findings.push(unformatted(name, null));
    for (const line of lines(output.stderr, findings)) {
      const syntax = parseColonLine(line, output.root);
      if (syntax) findings.push({ ...syntax, severity: 'error' });
    }
    return verdict(output.exitCode, findings);
  },
};

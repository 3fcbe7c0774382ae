import { createFinding, type Finding } from '../report/finding.js';
import { relativeToRoot, verdict, type Parser } from './parser.js';
import { matchedLines } from './text-lines.js';
import { diffHunks } from './unified-diff.js';

// On stderr, a file it cannot parse: `bad.sh:1:1: if statement must end with "fi"`.
const SYNTAX_ERROR = /^(?<file>[^\s:][^:]*?):(?<line>\d+):(?<col>\d+): (?<msg>\S.*)$/s;
const NOT_FORMATTED = 'not formatted (shfmt fixes it)';

/**
 * `shfmt -d` (a unified diff per file, `+++ path`: one finding per hunk at its first
 * changed line) and `shfmt -l` (the files it would change, one a line: one whole-file
 * finding each; shfmt 3.6 exits 0 even then, so a listed file is an error the verdict
 * sees). A file it cannot parse is named on stderr at its line and column.
 */
export const shfmtParser: Parser = {
  name: 'shfmt',
  summary: 'shfmt -d (diff hunks) or -l (file names), parse errors',
  parse(output) {
    const findings: Finding[] = [];
    const listed: string[] = [];
    for (const hunk of diffHunks(output.stdout, findings, (line) => {
      if (line.trim() !== '') listed.push(line.trimEnd());
    }))
      findings.push(
        createFinding({
          file: relativeToRoot(hunk.file, output.root),
          line: hunk.line,
          rule: 'shfmt',
          message: NOT_FORMATTED,
        }),
      );
    const named = new Set(findings.map((finding) => finding.file));
    for (const name of listed) {
      const file = relativeToRoot(name, output.root);
      if (!named.has(file))
        findings.push(createFinding({ file, rule: 'shfmt', message: NOT_FORMATTED }));
      named.add(file);
    }
    matchedLines(output.stderr, SYNTAX_ERROR, 'shfmt', output.root, findings);
    return verdict(output.exitCode, findings);
  },
};

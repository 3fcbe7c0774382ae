import { createFinding, type Finding } from '../report/finding.js';
import { lines, relativeToRoot, verdict, type Parser } from './parser.js';
import { parseColonLine } from './text-lines.js';

/**
 * `gofmt -l`: the files that need formatting on stdout. gofmt exits 0 either way
 * (golang/go#24230), so any listed file fails the gate. Syntax errors come as
 * `file:line:col: message` on stderr with exit 2.
 */
export const gofmtParser: Parser = {
  name: 'gofmt',
  summary: 'gofmt -l (file list)',
  parse(output) {
    const findings: Finding[] = [];
    for (const line of lines(output.stdout, findings)) {
      const file = line.trim();
      if (file === '') continue;
      findings.push(
        createFinding({
          file: relativeToRoot(file, output.root),
          rule: 'gofmt',
          message: 'not formatted (gofmt -w fixes it)',
        }),
      );
    }
    for (const line of lines(output.stderr, findings)) {
      const located = parseColonLine(line, output.root);
      if (located) findings.push({ ...located, severity: 'error' });
    }
    return verdict(output.exitCode, findings);
  },
};

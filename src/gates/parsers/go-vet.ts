import { createFinding, type Finding } from '../report/finding.js';
import { lines, relativeToRoot, verdict, type Parser } from './parser.js';
import { parseColonLine } from './text-lines.js';

type VetTree = Record<
  string,
  Record<string, { posn?: string; message?: string }[] | { error?: string }>
>;

const POSITION = /^(?<file>.+?):(?<line>\d+):(?<col>\d+)$/;

function findingsFromTree(tree: VetTree, root: string): Finding[] {
  const findings: Finding[] = [];
  for (const analyzers of Object.values(tree)) {
    for (const [analyzer, entries] of Object.entries(analyzers)) {
      if (!Array.isArray(entries)) {
        if (entries.error) findings.push(createFinding({ rule: analyzer, message: entries.error }));
        continue;
      }
      for (const entry of entries) {
        const position = POSITION.exec(entry.posn ?? '');
        findings.push({
          file: position?.groups ? relativeToRoot(position.groups.file!, root) : null,
          line: position?.groups ? Number(position.groups.line) : null,
          column: position?.groups ? Number(position.groups.col) : null,
          endLine: null,
          endColumn: null,
          severity: 'error',
          rule: analyzer,
          message: entry.message ?? '',
        });
      }
    }
  }
  return findings;
}

/**
 * `go vet` (text: `./file.go:7:2: message` after `# package` lines, exit 1 or 2) and
 * `go vet -json` (JSON trees on stderr, and exit 0 even with findings: golang/go#53509).
 * Either way any finding fails the gate.
 */
export const goVetParser: Parser = {
  name: 'go-vet',
  summary: 'go vet, text or -json (stderr)',
  parse(output) {
    const findings: Finding[] = [];
    let pending: string[] | null = null;
    for (const line of lines(`${output.stderr}\n${output.stdout}`)) {
      if (pending) {
        pending.push(line);
        if (line === '}') {
          try {
            findings.push(
              ...findingsFromTree(JSON.parse(pending.join('\n')) as VetTree, output.root),
            );
            pending = null;
          } catch {
            // Not the end of the tree yet (a nested closing brace at column 0 is rare): keep reading.
          }
        }
        continue;
      }
      if (line === '{') {
        pending = [line];
        continue;
      }
      if (line.startsWith('#')) continue;
      const located = parseColonLine(line, output.root);
      if (located) findings.push({ ...located, severity: 'error' });
    }
    return verdict(output.exitCode, findings);
  },
};

import { createFinding, type Finding } from '../report/finding.js';
import { tryParseJson } from './parse-budget.js';
import { lines, relativeToRoot, verdict, type Parser } from './parser.js';
import { parseColonLine } from './text-lines.js';

interface VetDiagnostic {
  posn?: string;
  /** Newer x/tools add the end of the range. */
  end?: string;
  message?: string;
  category?: string;
}

type VetTree = Record<string, Record<string, VetDiagnostic[] | { error?: string }>>;

const POSITION = /^(?<file>.+):(?<line>\d+):(?<col>\d+)$/;
// Type errors: `vet: ./x.go:3:19: undefined: foo` (the `vet: ` prefix since Go 1.12).
const VET_PREFIX = 'vet: ';

function position(posn: string | undefined, root: string) {
  const match = posn ? POSITION.exec(posn) : null;
  if (!match?.groups) return { file: null, line: null, column: null };
  return {
    file: relativeToRoot(match.groups.file!, root),
    line: Number(match.groups.line),
    column: Number(match.groups.col),
  };
}

function findingsFromTree(tree: VetTree, root: string): Finding[] {
  const findings: Finding[] = [];
  for (const analyzers of Object.values(tree)) {
    if (!analyzers || typeof analyzers !== 'object') continue;
    for (const [analyzer, entries] of Object.entries(analyzers)) {
      if (!Array.isArray(entries)) {
        // An analyzer (or the type checker) that failed on the package.
        if (entries?.error) {
          const located = parseColonLine(entries.error, root);
          findings.push(
            located
              ? { ...located, severity: 'error', rule: analyzer }
              : createFinding({ rule: analyzer, message: entries.error }),
          );
        }
        continue;
      }
      for (const entry of entries) {
        const start = position(entry.posn, root);
        const end = position(entry.end, root);
        findings.push({
          ...start,
          endLine: end.line,
          endColumn: end.column,
          severity: 'error',
          rule: entry.category ? `${analyzer}/${entry.category}` : analyzer,
          message: entry.message ?? '',
        });
      }
    }
  }
  return findings;
}

/**
 * Collects a JSON tree printed over several lines (go vet -json indents with tabs and
 * ends each tree with `}` at column 0). The depth is counted character by character,
 * strings skipped, so each line is read once and the tree is parsed once when it
 * closes: linear, however many `}` lines the output has.
 */
class JsonBlock {
  private readonly parts: string[] = [];
  private depth = 0;
  private inString = false;
  private escaped = false;

  /** Adds a line; returns the whole block when it closes, null while it is open. */
  add(line: string): string | null {
    this.parts.push(line);
    for (let index = 0; index < line.length; index += 1) {
      const char = line[index];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (char === '\\') this.escaped = true;
        else if (char === '"') this.inString = false;
      } else if (char === '"') this.inString = true;
      else if (char === '{' || char === '[') this.depth += 1;
      else if (char === '}' || char === ']') {
        this.depth -= 1;
        if (this.depth <= 0) return this.parts.join('\n');
      }
    }
    return null;
  }
}

function parseTree(text: string, root: string): Finding[] | null {
  const tree = tryParseJson(text);
  return tree && typeof tree === 'object' ? findingsFromTree(tree as VetTree, root) : null;
}

/**
 * `go vet` (text: `./file.go:7:2: message` after `# package` lines, type errors as
 * `vet: ./file.go:3:13: message`; exit 1 or 2) and `go vet -json` (JSON trees on
 * stderr, and exit 0 even with findings: golang/go#53509; type errors still text).
 * Either way any finding fails the gate.
 */
export const goVetParser: Parser = {
  name: 'go-vet',
  summary: 'go vet, text or -json (stderr)',
  parse(output) {
    const findings: Finding[] = [];
    let block: JsonBlock | null = null;
    for (const line of lines(`${output.stderr}\n${output.stdout}`, findings)) {
      if (!block && line.startsWith('{')) block = new JsonBlock();
      if (block) {
        const closed = block.add(line);
        if (closed === null) continue;
        block = null;
        const tree = parseTree(closed, output.root);
        if (tree) findings.push(...tree);
        continue;
      }
      if (line === '' || line.startsWith('#')) continue;
      const text = line.startsWith(VET_PREFIX) ? line.slice(VET_PREFIX.length) : line;
      const located = parseColonLine(text, output.root);
      if (located) findings.push({ ...located, severity: 'error' });
    }
    return verdict(output.exitCode, findings);
  },
};

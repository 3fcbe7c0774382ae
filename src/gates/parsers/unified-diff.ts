import { createFinding, type Finding } from '../report/finding.js';
import { lines, relativeToRoot, type GateOutput } from './parser.js';

const HUNK_HEADER = /^@@ -(?<line>\d+)(?:,(?<old>\d+))? \+\d+(?:,(?<new>\d+))? @@/;

/** One hunk of a unified diff: the file (as its `+++` line names it) and its first changed line. */
export interface DiffHunk {
  file: string;
  line: number;
}

/** A hunk being read: where it starts, its context so far, and the lines it has left. */
interface OpenHunk {
  start: number;
  context: number;
  changed: boolean;
  oldLeft: number;
  newLeft: number;
}

/**
 * The hunks of a unified diff (`--- old` / `+++ new` headers, `@@ -l,n +l,m @@` hunks), each
 * at its first changed line of the old file: the hunk's start plus its leading context
 * lines. A hunk ends after the line counts its header gives, so a removed line that reads
 * `--- x` is no header. The `+++` name loses what formatters add after it: a tab and a
 * timestamp (black), `:after` (isort). Lines outside a diff go to `other`, in order.
 */
export function diffHunks(
  text: string,
  findings: readonly unknown[],
  other: (line: string) => void = () => {},
): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  let file: string | null = null;
  let hunk: OpenHunk | null = null;
  for (const line of lines(text, findings)) {
    if (hunk) {
      const kind = line === '' ? ' ' : line[0];
      if (kind === '\\') continue;
      if (kind === ' ' || kind === '-' || kind === '+') {
        if (kind !== '+') hunk.oldLeft -= 1;
        if (kind !== '-') hunk.newLeft -= 1;
        if (kind === ' ' && !hunk.changed) hunk.context += 1;
        if (kind !== ' ' && !hunk.changed) {
          hunk.changed = true;
          hunks.push({ file: file!, line: Math.max(1, hunk.start + hunk.context) });
        }
        if (hunk.oldLeft <= 0 && hunk.newLeft <= 0) hunk = null;
        continue;
      }
      hunk = null;
    }
    if (line.startsWith('--- ')) continue;
    if (line.startsWith('+++ ')) {
      file = line
        .slice(4)
        .replace(/\t.*$/s, '')
        .replace(/:after$/, '');
      continue;
    }
    const header = file !== null && line.startsWith('@@') ? HUNK_HEADER.exec(line) : null;
    if (header?.groups) {
      hunk = {
        start: Number(header.groups.line),
        context: 0,
        changed: false,
        oldLeft: Number(header.groups.old ?? 1),
        newLeft: Number(header.groups.new ?? 1),
      };
      continue;
    }
    file = null;
    other(line);
  }
  return hunks;
}

/**
 * The findings of a formatter's check that prints diffs (black, isort): one per hunk at
 * its first changed line, then one whole-file finding per file only `namedFile` names
 * (a `would reformat <path>` line of `text`, when no diff was printed for it).
 */
export function formatterFindings(
  output: GateOutput,
  text: string,
  rule: string,
  message: string,
  namedFile: (line: string) => string | undefined,
): Finding[] {
  const findings: Finding[] = [];
  for (const hunk of diffHunks(output.stdout, findings)) {
    const file = relativeToRoot(hunk.file, output.root);
    findings.push(createFinding({ file, line: hunk.line, rule, message }));
  }
  const named = new Set(findings.map((finding) => finding.file));
  for (const line of lines(text, findings)) {
    const name = namedFile(line.trimEnd());
    if (name === undefined) continue;
    const file = relativeToRoot(name, output.root);
    if (!named.has(file)) findings.push(createFinding({ file, rule, message }));
    named.add(file);
  }
  return findings;
}

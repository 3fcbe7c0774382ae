import { createFinding, type Finding, type Severity } from '../report/finding.js';
import { biomePath } from './biome-json.js';
import { lines, verdict, type Parser } from './parser.js';

// Biome's default (pretty) reporter, one block per diagnostic:
//   src/app.js:2:9 lint/suspicious/noDoubleEquals  FIXABLE  ━━━━━━━━
//   (blank)
//     × Using == may be unsafe if you are relying on type coercion.
// A format diagnostic has no position (`src/app.js format ━━━`), but the diff under it
// does: `  2   │ - old text` (old line number), `      2 │ + new text` (new line number),
// `  1 1 │   context`; its first changed line becomes the finding's. The run's summary block
// (`check ━━━`, `ci ━━━`, `lint ━━━`) has no file and is skipped. The marker is `×`/`!`/`i`
// without colour and `✖`/`⚠`/`ℹ` with it.

/** A heading ends in a rule of `━`; before it, the location, the category and any tags. */
const HEADING_RULE = /\s━+$/;
const LOCATION = /^(.*):(\d{1,9}):(\d{1,9})$/;
const MESSAGE = /^\s{2}([×✖!⚠iℹ]) (.*)$/;
const NOT_SHOWN = /^Diagnostics not shown: (\d{1,9})\.$/m;
/** One line of a diff: the old and/or new line number, `│`, then ` `, `-` or `+`. */
const DIFF_LINE = /^\s*(\d{1,9})?(?:\s+(\d{1,9}))?\s*│ ([-+ ])/;

/**
 * Reads a format diagnostic's diff, line by line, for the first line of the file that
 * changes: a removed line's old number, or for an insertion the line after the last
 * unchanged one.
 */
class FirstChangedLine {
  private lastOld = 0;
  line: number | null = null;

  read(text: string): void {
    if (this.line !== null) return;
    const diff = DIFF_LINE.exec(text);
    if (!diff || diff[1] === undefined) return;
    const first = Number(diff[1]);
    if (diff[3] === '-') this.line = first;
    else if (diff[3] === '+') this.line = this.lastOld + 1;
    else this.lastOld = first;
  }
}
const MARKS: Record<string, Severity> = {
  '×': 'error',
  '✖': 'error',
  '!': 'warning',
  '⚠': 'warning',
  i: 'info',
  ℹ: 'info',
};

interface Heading {
  file: string;
  line: number | null;
  column: number | null;
  rule: string;
}

function parseHeading(line: string, root: string): Heading | undefined {
  const rule = HEADING_RULE.exec(line);
  if (!rule || /^\s/.test(line)) return undefined;
  const words = line.slice(0, rule.index).trim().split(/\s+/);
  // `<location> <category> [TAGS…]`: tags are upper case (FIXABLE); the location may
  // hold spaces; a lone word is the run's summary block (`check`, `ci`, `lint`).
  while (words.length > 0 && /^[A-Z]+$/.test(words[words.length - 1]!)) words.pop();
  if (words.length < 2) return undefined;
  const category = words.pop()!;
  const where = words.join(' ');
  const located = LOCATION.exec(where);
  return {
    file: biomePath(located ? located[1]! : where, root),
    line: located ? Number(located[2]) : null,
    column: located ? Number(located[3]) : null,
    rule: category,
  };
}

export function parseBiomeText(text: string, root: string): Finding[] {
  const findings: Finding[] = [];
  let pending: Heading | undefined;
  let locating: { finding: Finding; diff: FirstChangedLine } | undefined;
  for (const line of lines(text, findings)) {
    const heading = parseHeading(line, root);
    if (heading) {
      pending = heading;
      locating = undefined;
      continue;
    }
    if (locating) {
      locating.diff.read(line);
      if (locating.diff.line !== null) {
        locating.finding.line = locating.diff.line;
        locating = undefined;
      }
      continue;
    }
    const message = pending ? MESSAGE.exec(line) : null;
    if (message && pending) {
      const finding = createFinding({
        file: pending.file,
        line: pending.line,
        column: pending.column,
        severity: MARKS[message[1]!]!,
        rule: pending.rule,
        message: message[2]!.trim(),
      });
      findings.push(finding);
      if (pending.rule === 'format' && pending.line === null)
        locating = { finding, diff: new FirstChangedLine() };
      pending = undefined;
    }
  }
  return findings;
}

/** `biome check|ci|lint|format` default output, on stderr (Biome 2) or stdout (Biome 1). */
export const biomeTextParser: Parser = {
  name: 'biome-text',
  summary: "biome's default (pretty) output",
  parse(output) {
    const text = `${output.stdout}\n${output.stderr}`;
    const result = verdict(output.exitCode, parseBiomeText(text, output.root));
    // Biome prints at most 20 diagnostics by default and counts the rest.
    const hidden = NOT_SHOWN.exec(text);
    if (hidden) {
      const note = `Biome printed only part of its diagnostics (${hidden[1]} not shown; --max-diagnostics raises the limit)`;
      result.note = result.note ? `${result.note}; ${note}` : note;
    }
    return result;
  },
};

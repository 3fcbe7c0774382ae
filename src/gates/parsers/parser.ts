import path from 'node:path';
import type { Finding, Severity } from '../report/finding.js';
import { currentBudget, MAX_PARSED_FINDINGS, tryParseJson } from './parse-budget.js';

/** What a gate run produced, as the parser sees it (ANSI already stripped). */
export interface GateOutput {
  stdout: string;
  stderr: string;
  /** null when the process was killed by a signal. */
  exitCode: number | null;
  /** True when stdout or stderr went past the parse buffer and was cut. */
  truncated: boolean;
  /** The gate's working directory; absolute paths inside it become relative. */
  root: string;
  /** The command's argv, when the caller knows it (tsc's build mode checks several projects). */
  argv?: readonly string[];
  /** The call's paths as appended to argv, relative to root; none: the gate's own targets. */
  paths?: readonly string[];
}

/** A path the tool says it did not check, and why (its own words, first sentence). */
export interface NotChecked {
  path: string;
  reason: string;
}

export interface ParseResult {
  findings: Finding[];
  passed: boolean;
  /** Why the verdict differs from what the exit code alone says, when it does. */
  note?: string;
  /** The machine format the parser expects was not there (the raw stdout then joins the report). */
  unparsed?: boolean;
  /** Parsing stopped before the end of the output (time budget, cancellation): findings may be missing. */
  incomplete?: boolean;
  /** Paths the tool said it skipped (ignored, no matching config, matched no file). */
  notChecked?: NotChecked[];
  /**
   * The tool says it checked nothing at all: why. Never a pass (status `nothing-checked`),
   * whatever the exit code.
   */
  nothingChecked?: string;
}

export interface Parser {
  name: string;
  /** What the parser reads, for `list` and the docs. */
  summary: string;
  parse(output: GateOutput): ParseResult;
}

/**
 * The usual rule: a gate passes when it exits 0 and reported no error. Exit 0 with
 * errors is the "false clean" trap (go vet -json, gofmt -l, hostile scripts); a
 * non-zero exit fails even when nothing could be parsed.
 */
export function verdict(exitCode: number | null, findings: readonly Finding[]): ParseResult {
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  const passed = exitCode === 0 && errors === 0;
  const result: ParseResult = { findings: [...findings], passed };
  if (exitCode === 0 && errors > 0) {
    result.note = `exit code 0, but the output reports ${errors} error${errors === 1 ? '' : 's'}`;
  } else if (exitCode !== 0 && exitCode !== null && findings.length === 0) {
    result.note = `exit code ${exitCode} with no finding the parser recognised: read the output`;
  }
  return result;
}

/**
 * Adds what the tool said it did not check to a verdict: `nothingChecked` when it checked
 * none of the call's paths (`whole` when the output alone proves it checked nothing), and
 * `passed` is then false. A tool that skipped some paths still ran: the verdict stays.
 */
export function withCoverage(
  result: ParseResult,
  output: GateOutput,
  notChecked: readonly NotChecked[],
  whole?: string,
): ParseResult {
  if (notChecked.length === 0 && whole === undefined) return result;
  const skipped = new Set(notChecked.map((entry) => entry.path));
  const given = (output.paths ?? []).map((file) => relativeToRoot(file, output.root));
  const everyPath = given.length > 0 && given.every((file) => skipped.has(file));
  const why =
    whole ??
    (everyPath
      ? `none of the ${given.length} given path${given.length === 1 ? ' was' : 's were'} checked (${notChecked[0]!.reason})`
      : undefined);
  if (why === undefined) return { ...result, notChecked: [...notChecked] };
  // The tool's word explains its exit code: the "no finding recognised" note would mislead.
  const { note: _exitNote, ...rest } = result;
  return {
    ...rest,
    ...(notChecked.length > 0 ? { notChecked: [...notChecked] } : {}),
    nothingChecked: why,
    passed: false,
  };
}

const WINDOWS_ABSOLUTE = /^[A-Za-z]:[\\/]/;

/** Root-relative with forward slashes when inside the root; otherwise as the tool printed it. */
export function relativeToRoot(file: string, root: string): string {
  const absolute = path.isAbsolute(file) || WINDOWS_ABSOLUTE.test(file);
  if (absolute) {
    const relative = path.relative(root, file);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return file;
    return relative.split(path.sep).join('/');
  }
  return file.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
}

export function toSeverity(value: unknown): Severity {
  const text = String(value ?? '').toLowerCase();
  if (text === 'error' || text === 'fatal' || text === 'failure' || text === 'err') return 'error';
  if (text.startsWith('error')) return 'error';
  if (text === 'warning' || text === 'warn') return 'warning';
  return 'info';
}

export function positiveInteger(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

/**
 * Iterates the lines of a text: CRLF, LF, and a lone CR (progress output redraws a line
 * with it) each end a line, so no parser regex ever meets a CR inside a line. The next
 * CR and LF positions are remembered until passed, so the whole text is scanned once
 * (a generator over `split` cost twice as much per line; a 2-byte line is the worst
 * case). Stops early when the parse budget in force runs out.
 */
class LineIterator implements IterableIterator<string> {
  private at = 0;
  private nextLf = -2;
  private nextCr = -2;
  private finished = false;
  private readonly budget = currentBudget();

  constructor(
    private readonly text: string,
    private readonly findings: readonly unknown[] | undefined,
  ) {}

  [Symbol.iterator](): IterableIterator<string> {
    return this;
  }

  next(): IteratorResult<string, undefined> {
    if (this.finished || this.budget?.spent()) return { value: undefined, done: true };
    if (this.findings && this.findings.length >= MAX_PARSED_FINDINGS) {
      if (this.budget) this.budget.capped = true;
      return { value: undefined, done: true };
    }
    const { text, at } = this;
    if (this.nextLf !== -1 && this.nextLf < at) this.nextLf = text.indexOf('\n', at);
    if (this.nextCr !== -1 && this.nextCr < at) this.nextCr = text.indexOf('\r', at);
    const lf = this.nextLf;
    const cr = this.nextCr;
    let end: number;
    if (cr !== -1 && (lf === -1 || cr < lf)) {
      end = cr;
      this.at = cr + 1 === lf ? lf + 1 : cr + 1;
    } else if (lf !== -1) {
      end = lf;
      this.at = lf + 1;
    } else {
      end = text.length;
      this.finished = true;
    }
    return { value: text.slice(at, end), done: false };
  }
}

/**
 * The lines of a tool's output, in linear time. Iteration stops early when the parse
 * budget in force (see parse-budget.ts) runs out, or when `findings` (the parser's own
 * list, if given) reaches MAX_PARSED_FINDINGS; the parse is then reported incomplete.
 */
export function lines(text: string, findings?: readonly unknown[]): IterableIterator<string> {
  return new LineIterator(text, findings);
}

const BACKSLASH = 0x5c;
const QUOTE = 0x22;

/**
 * Where the JSON value that ends `text` begins, found by walking back from its last
 * closing bracket: strings are skipped (a quote preceded by an even run of backslashes
 * bounds one; JSON strings hold no raw newline), brackets are counted, and the opener
 * that brings the depth back to 0 is the start. Each character is looked at a bounded
 * number of times. -1 when the brackets never balance.
 */
function jsonValueStart(text: string): number {
  let depth = 0;
  for (let index = text.length - 1; index >= 0; index -= 1) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      // Back to the opening quote: the nearest quote not escaped by a backslash.
      let cursor = index - 1;
      for (;;) {
        while (cursor >= 0 && text.charCodeAt(cursor) !== QUOTE && text.charCodeAt(cursor) !== 0x0a)
          cursor -= 1;
        if (cursor < 0 || text.charCodeAt(cursor) === 0x0a) return -1;
        let backslashes = 0;
        while (text.charCodeAt(cursor - 1 - backslashes) === BACKSLASH) backslashes += 1;
        if (backslashes % 2 === 0) break;
        cursor -= backslashes + 1;
      }
      index = cursor;
    } else if (code === 0x5d /* ] */ || code === 0x7d /* } */) depth += 1;
    else if (code === 0x5b /* [ */ || code === 0x7b /* { */) {
      depth -= 1;
      if (depth === 0) return index;
      if (depth < 0) return -1;
    }
  }
  return -1;
}

/**
 * Finds the JSON document a tool printed, tolerating text before it (package-manager
 * banners, warnings): the value that ends the output, starting a line with `opener`.
 * Linear time: one backward scan and one JSON.parse (trying JSON.parse at every line
 * that starts with the opener was quadratic). Returns undefined when nothing parses.
 */
export function extractJson(text: string, opener: '[' | '{'): unknown {
  const trimmed = text.trim();
  if (trimmed === '' || currentBudget()?.spentNow()) return undefined;
  const start = jsonValueStart(trimmed);
  if (start === -1 || trimmed[start] !== opener) return undefined;
  // The document starts a line (a `[` inside a banner line is not one).
  const lineStart = trimmed.lastIndexOf('\n', start - 1) + 1;
  if (trimmed.slice(lineStart, start).trim() !== '') return undefined;
  return tryParseJson(trimmed.slice(start));
}

/**
 * The JSON array a tool printed on either stream (stylelint 16 and markdownlint-cli print
 * their reports on stderr), stdout first; undefined when neither holds one.
 */
export function jsonArrayOnEitherStream(output: GateOutput): unknown[] | undefined {
  for (const text of [output.stdout, output.stderr]) {
    const document = extractJson(text, '[');
    if (Array.isArray(document)) return document;
  }
  return undefined;
}

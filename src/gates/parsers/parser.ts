import path from 'node:path';
import type { Finding, Severity } from '../report/finding.js';
import { currentBudget } from './parse-budget.js';

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
}

export interface ParseResult {
  findings: Finding[];
  passed: boolean;
  /** Why the verdict differs from what the exit code alone says, when it does. */
  note?: string;
  /** The machine format the parser expects was not there (the raw stdout then joins the report). */
  unparsed?: boolean;
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

// CRLF, LF, and a lone CR (progress output redraws a line with it): a lone CR ends a
// line too, so no parser regex ever meets a CR inside a line.
const LINE_BREAK = /\r\n|\r|\n/;

/**
 * The lines of a tool's output, in linear time. Iteration stops early when the parse
 * budget in force (see parse-budget.ts) runs out; the parse is then reported incomplete.
 */
export function* lines(text: string): Generator<string, void, undefined> {
  const budget = currentBudget();
  for (const line of text.split(LINE_BREAK)) {
    if (budget?.spent()) return;
    yield line;
  }
}

/**
 * Finds the JSON document a tool printed, tolerating text before it (package-manager
 * banners, warnings). Returns undefined when nothing parses.
 */
export function extractJson(text: string, opener: '[' | '{'): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    // Fall through: look for the document's first line.
  }
  let index = trimmed.indexOf(`\n${opener}`);
  while (index !== -1) {
    try {
      return JSON.parse(trimmed.slice(index + 1));
    } catch {
      index = trimmed.indexOf(`\n${opener}`, index + 1);
    }
  }
  return undefined;
}

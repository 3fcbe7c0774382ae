import { stripAnsi } from '../report/ansi.js';
import { orderForListing } from '../report/budget.js';
import { findParser } from './index.js';
import { MAX_JSON_FAILURES, MAX_PARSED_FINDINGS, runWithBudget } from './parse-budget.js';
import type { ParseResult } from './parser.js';

/** How long a parser may read one gate's output before it stops and says so. */
export const PARSE_BUDGET_MS = 5000;
export { MAX_PARSED_FINDINGS };

/** One gate's raw output and the parser to read it with (structured-clonable, for the worker). */
export interface ParseRequest {
  parser: string;
  /** Decoded but not yet ANSI-stripped. */
  stdout: string;
  stderr: string;
  exitCode: number | null;
  truncated: boolean;
  root: string;
  /** The command and the call's paths, for parsers that weigh what the tool skipped. */
  argv?: readonly string[];
  paths?: readonly string[];
  budgetMs: number;
}

export interface ParseStepResult {
  parsed: ParseResult;
  /**
   * stdout with terminal escapes removed, only when the report shows it (the parser found
   * no machine format: `parsed.unparsed`); copying 8 MiB back from the worker otherwise
   * would cost the event loop for nothing.
   */
  stdout?: string;
}

/**
 * A verdict that admits the parse did not finish: findings may be missing. A failing
 * exit code still fails; exit 0 no longer passes on its own, since the part not read
 * may hold errors (a gate never reports clean when its output was not checked).
 */
export function incompleteResult(
  result: ParseResult,
  exitCode: number | null,
  why: string,
): ParseResult {
  const notes = [result.note, `${why}: findings may be incomplete`];
  // What was not read may show files the tool did check: no claim that it checked nothing.
  const { nothingChecked: _unproven, ...rest } = result;
  let passed = rest.passed;
  if (passed) {
    passed = false;
    notes.push(
      `exit code ${exitCode}, but the output was not read to the end, so the gate is not reported clean`,
    );
  }
  return { ...rest, passed, incomplete: true, note: notes.filter(Boolean).join('; ') };
}

/**
 * The parse step, synchronous: strip escapes, run the parser under its time budget, cap
 * the findings. Every piece is linear in the output; the worker runs this for large
 * outputs (parse-off-loop.ts), the caller's thread for small ones.
 */
export function parseGateOutputSync(request: ParseRequest): ParseStepResult {
  const stdout = stripAnsi(request.stdout);
  const stderr = stripAnsi(request.stderr);
  const parser = findParser(request.parser);
  if (!parser) {
    return { parsed: { findings: [], passed: false, note: `unknown parser "${request.parser}"` } };
  }
  const { value, incomplete, capped, jsonGaveUp } = runWithBudget(request.budgetMs, () =>
    parser.parse({
      stdout,
      stderr,
      exitCode: request.exitCode,
      truncated: request.truncated,
      root: request.root,
      ...(request.argv ? { argv: request.argv } : {}),
      ...(request.paths ? { paths: request.paths } : {}),
    }),
  );
  let parsed = value;
  if (parsed.findings.length > MAX_PARSED_FINDINGS) {
    const total = parsed.findings.length;
    parsed = {
      ...parsed,
      // Errors first, spread across files: one noisy file cannot push another file's
      // error out of the kept findings.
      findings: orderForListing(parsed.findings).slice(0, MAX_PARSED_FINDINGS),
      note: [
        parsed.note,
        `the output reports ${total} findings; ${MAX_PARSED_FINDINGS} are kept, errors first and spread across files`,
      ]
        .filter(Boolean)
        .join('; '),
    };
  }
  if (capped) {
    parsed = incompleteResult(
      parsed,
      request.exitCode,
      `parsing stopped at ${MAX_PARSED_FINDINGS} findings; the rest of the output was not read`,
    );
  }
  if (jsonGaveUp) {
    parsed = incompleteResult(
      parsed,
      request.exitCode,
      `parsing stopped trying JSON after ${MAX_JSON_FAILURES} lines that were not JSON`,
    );
  }
  if (incomplete) {
    parsed = incompleteResult(
      parsed,
      request.exitCode,
      `parsing stopped after its ${request.budgetMs / 1000} s budget`,
    );
  }
  return parsed.unparsed ? { parsed, stdout } : { parsed };
}

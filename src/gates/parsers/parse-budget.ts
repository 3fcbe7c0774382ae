/**
 * A time budget for one parse. Parsing runs synchronously (in the parse worker), so
 * the budget in force is module state: `lines()` and the JSON helpers consult it, and
 * every parser that iterates with them stops when it runs out, without passing it
 * around. `runWithBudget` sets it, runs the parse and says whether it was cut short.
 */
export class ParseBudget {
  private readonly deadline: number;
  private calls = 0;
  /** Set once the clock passed the deadline; stays set. */
  exhausted = false;
  /** Set when a parser stopped reading because it had MAX_PARSED_FINDINGS findings. */
  capped = false;
  /** Failed JSON.parse calls so far; past MAX_JSON_FAILURES, no more are tried. */
  jsonFailures = 0;

  constructor(readonly budgetMs: number) {
    this.deadline = Date.now() + budgetMs;
  }

  /** True once the time is up. Cheap enough to call per line: reads the clock every 256 calls. */
  spent(): boolean {
    if (this.exhausted) return true;
    this.calls += 1;
    if ((this.calls & 0xff) === 0 && Date.now() > this.deadline) this.exhausted = true;
    return this.exhausted;
  }

  /** A check before one indivisible step (a JSON.parse): reads the clock now. */
  spentNow(): boolean {
    if (!this.exhausted && Date.now() > this.deadline) this.exhausted = true;
    return this.exhausted;
  }
}

/**
 * Findings one parse collects at most: a runaway output (millions of `file:1:` lines)
 * would otherwise cost seconds in finding objects, deduplication and the copy back from
 * the worker, for a list no one reads.
 */
export const MAX_PARSED_FINDINGS = 10_000;

/**
 * Lines that looked like JSON and were not, before a parser stops trying: a failed
 * JSON.parse throws, and 2 M lines of `{x}` cost 4 s even without stack traces.
 */
export const MAX_JSON_FAILURES = 1000;

let current: ParseBudget | null = null;

/**
 * JSON.parse that counts its failures against the parse in progress: undefined for text
 * that is not JSON, and for everything once MAX_JSON_FAILURES were seen (the parse is
 * then reported incomplete).
 */
export function tryParseJson(text: string): unknown {
  if (current && current.jsonFailures >= MAX_JSON_FAILURES) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    if (current) current.jsonFailures += 1;
    return undefined;
  }
}

/** The budget of the parse in progress; null outside `runWithBudget` (no limit). */
export function currentBudget(): ParseBudget | null {
  return current;
}

/**
 * Runs `parse` under a budget of `budgetMs`; `incomplete` says it ran out of time,
 * `capped` that it stopped at MAX_PARSED_FINDINGS, `jsonGaveUp` that it stopped trying
 * JSON after MAX_JSON_FAILURES failures.
 */
export function runWithBudget<T>(
  budgetMs: number,
  parse: () => T,
): { value: T; incomplete: boolean; capped: boolean; jsonGaveUp: boolean } {
  const previous = current;
  const budget = new ParseBudget(budgetMs);
  const stackTraceLimit = Error.stackTraceLimit;
  current = budget;
  // Parsers try JSON.parse on lines that may not be JSON: without stack traces a failed
  // parse costs about a microsecond, not over ten (2 M lines of `{` took 29 s).
  Error.stackTraceLimit = 0;
  try {
    const value = parse();
    return {
      value,
      incomplete: budget.exhausted,
      capped: budget.capped,
      jsonGaveUp: budget.jsonFailures >= MAX_JSON_FAILURES,
    };
  } finally {
    current = previous;
    Error.stackTraceLimit = stackTraceLimit;
  }
}

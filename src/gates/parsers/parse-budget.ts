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

let current: ParseBudget | null = null;

/** The budget of the parse in progress; null outside `runWithBudget` (no limit). */
export function currentBudget(): ParseBudget | null {
  return current;
}

/**
 * Runs `parse` under a budget of `budgetMs`; `incomplete` says it ran out of time,
 * `capped` that it stopped at MAX_PARSED_FINDINGS.
 */
export function runWithBudget<T>(
  budgetMs: number,
  parse: () => T,
): { value: T; incomplete: boolean; capped: boolean } {
  const previous = current;
  const budget = new ParseBudget(budgetMs);
  current = budget;
  try {
    const value = parse();
    return { value, incomplete: budget.exhausted, capped: budget.capped };
  } finally {
    current = previous;
  }
}

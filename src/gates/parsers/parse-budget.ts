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

let current: ParseBudget | null = null;

/** The budget of the parse in progress; null outside `runWithBudget` (no limit). */
export function currentBudget(): ParseBudget | null {
  return current;
}

/** Runs `parse` under a budget of `budgetMs`; `incomplete` says it stopped early. */
export function runWithBudget<T>(
  budgetMs: number,
  parse: () => T,
): { value: T; incomplete: boolean } {
  const previous = current;
  const budget = new ParseBudget(budgetMs);
  current = budget;
  try {
    const value = parse();
    return { value, incomplete: budget.exhausted };
  } finally {
    current = previous;
  }
}

// A hook's budget, on its own: the command hook and the channel read it before anything
// that runs gates is loaded (a command hook answered by the server loads no gate code).

/** How long a hook waits for its gates by default; a call's `budgetMs` overrides it. */
export const DEFAULT_BUDGET_MS = {
  sessionStart: 300_000,
  afterEdit: 60_000,
  beforeStop: 300_000,
} as const;
export const MIN_BUDGET_MS = 100;
/** The longest delay a timer holds (2^31-1 ms, about 24.8 days): a longer one fires at once. */
export const MAX_BUDGET_MS = 2 ** 31 - 1;

/** Why `value` is no budget a hook can wait (`name` as the caller spells it), or undefined. */
export function budgetProblem(value: unknown, name = '"budgetMs"'): string | undefined {
  if (!Number.isSafeInteger(value))
    return `${name} is a whole number of milliseconds, e.g. ${DEFAULT_BUDGET_MS.afterEdit}`;
  if ((value as number) < MIN_BUDGET_MS)
    return `${name} ${value as number} is below ${MIN_BUDGET_MS}: pass at least ${MIN_BUDGET_MS} (ms)`;
  if ((value as number) > MAX_BUDGET_MS)
    return `${name} ${value as number} is over ${MAX_BUDGET_MS}, the longest wait a timer holds (about 24.8 days): pass at most ${MAX_BUDGET_MS} (ms)`;
  return undefined;
}

/** A budget a timer can hold, whatever reached here. */
export function clampBudget(ms: number): number {
  return Math.min(Math.max(Number.isFinite(ms) ? ms : MIN_BUDGET_MS, MIN_BUDGET_MS), MAX_BUDGET_MS);
}

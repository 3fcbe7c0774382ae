import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import type { JsonSchema, ToolResult } from '../server/tool.js';

/**
 * Where a call's time goes, phase by phase, when MCP_GATES_TIMING=1 is in the server's
 * environment (the bench sets it; hook answers then carry `timing`). Off, a phase costs one
 * store lookup: nothing is measured, kept or shown. Phases of one gate are named after it
 * (`lint.fingerprint`); a warm worker measures its own (`lint.worker.ledger`) and sends them
 * with its reply.
 */
export const TIMING_VARIABLE = 'MCP_GATES_TIMING';

export function timingWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[TIMING_VARIABLE] === '1';
}

/** Milliseconds per phase; a phase met twice adds up. */
export type PhaseTimes = Record<string, number>;

interface Timings {
  phases: PhaseTimes;
  prefix: string;
}

const current = new AsyncLocalStorage<Timings>();

/** Runs `work` recording its phases when timing is wanted; returns them beside its value. */
export async function withPhaseTimes<T>(
  work: () => Promise<T>,
): Promise<{ value: T; phases?: PhaseTimes }> {
  if (!timingWanted()) return { value: await work() };
  const phases: PhaseTimes = {};
  const value = await current.run({ phases, prefix: '' }, work);
  return { value, phases };
}

/** The `timing` of a tool's structured result (hook tools, gate tools). */
export const TIMING_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'Milliseconds per phase of the call; only with MCP_GATES_TIMING=1 in the server.',
  additionalProperties: { type: 'number' },
};

/** Puts a timed call's phases into its result's structured content as `timing`. */
export function withTiming(result: ToolResult, phases: PhaseTimes | undefined): ToolResult {
  if (phases && result.structuredContent)
    (result.structuredContent as Record<string, unknown>).timing = phases;
  return result;
}

/** Runs `work` with its phases named under `name.` (one gate of a call). */
export function underPhase<T>(name: string, work: () => T): T {
  const timings = current.getStore();
  if (!timings) return work();
  return current.run({ phases: timings.phases, prefix: `${timings.prefix}${name}.` }, work);
}

/** Adds `ms` to `phase` of the call running now, if it is timed. */
export function addPhase(phase: string, ms: number): void {
  const timings = current.getStore();
  if (!timings) return;
  const name = `${timings.prefix}${phase}`;
  timings.phases[name] = (timings.phases[name] ?? 0) + ms;
}

/** Adds every phase of `phases` (a worker's, measured in its own process) under `prefix.`. */
export function addPhases(prefix: string, phases: PhaseTimes | undefined): void {
  if (phases) for (const [phase, ms] of Object.entries(phases)) addPhase(`${prefix}.${phase}`, ms);
}

/** Runs `work` (sync or async) and adds its time to `phase` when the call is timed. */
export function timed<T>(phase: string, work: () => T): T {
  if (!current.getStore()) return work();
  const start = performance.now();
  const result = work();
  if (result instanceof Promise)
    return result.finally(() => addPhase(phase, performance.now() - start)) as T;
  addPhase(phase, performance.now() - start);
  return result;
}

/** A recorder of phases for code outside any call's store (a warm worker's own steps). */
export class PhaseClock {
  readonly phases: PhaseTimes = {};
  private last = performance.now();

  /** Adds the time since the last mark (or since it was made) to `phase`. */
  mark(phase: string): void {
    const now = performance.now();
    this.phases[phase] = (this.phases[phase] ?? 0) + (now - this.last);
    this.last = now;
  }
}

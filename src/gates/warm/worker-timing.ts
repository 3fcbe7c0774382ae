import { performance } from 'node:perf_hooks';
import { timingWanted, type PhaseTimes } from '../phase-timing.js';
import { withoutRecording } from './read-ledger.js';

/**
 * A warm worker's own phases of the call it runs (phase-timing.ts), sent with its reply
 * when MCP_GATES_TIMING=1 reached it. The clock is read outside the ledger: the worker's
 * own timing is no read of the tool's.
 */
let phases: PhaseTimes | undefined;
const wanted = timingWanted();

/** Starts a call's phases (none when timing is not wanted). */
export function startWorkerPhases(): void {
  phases = wanted ? {} : undefined;
}

/** The call's phases, once: the next call starts its own. */
export function takeWorkerPhases(): PhaseTimes | undefined {
  const taken = phases;
  phases = undefined;
  return taken;
}

/** Runs `work` and adds its time to `phase` of the call, when timed. */
export function workerTimed<T>(phase: string, work: () => T): T {
  if (phases === undefined) return work();
  const own = phases;
  const start = withoutRecording(() => performance.now());
  const add = () => {
    const end = withoutRecording(() => performance.now());
    own[phase] = (own[phase] ?? 0) + (end - start);
  };
  const result = work();
  if (result instanceof Promise) return result.finally(add) as T;
  add();
  return result;
}

/** Adds a count (questions checked) to the call's phases, when timed; its name ends in `.count`. */
export function workerCount(name: string, count: number): void {
  if (phases !== undefined) phases[name] = (phases[name] ?? 0) + count;
}

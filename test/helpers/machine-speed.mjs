// How much slower than the reference (a quiet 2-core machine) this one runs now, for the
// timeouts that are no part of what a test checks: a hang guard, a wait for a process or a
// file. Such a limit times the machine, not the code, so it stretches with the machine:
// the wall time of a fixed piece of CPU work against its time on the reference, or the
// load average per core, whichever says slower (a busy machine can give one short
// measurement a free core). MCP_GATES_TEST_SLOWDOWN=<factor> sets it instead.
import os from 'node:os';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';

/** Best wall time of work() on the reference machine (measured: 5.8 to 6.5 ms). */
const REFERENCE_MS = 6;
/** Never below 1 (a faster machine keeps the stated limits), never above this. */
const MAX_SLOWDOWN = 10;

function work() {
  const text = JSON.stringify(Array.from({ length: 4000 }, (_, i) => ({ i, s: `item ${i}` })));
  let sum = 0;
  for (let round = 0; round < 4; round += 1)
    sum += JSON.parse(text).length + createHash('sha256').update(text).digest()[0];
  return sum;
}

/** The load average per core now, where the platform has one (Windows says 0). */
export function loadPerCore() {
  return os.loadavg()[0] / Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
}

const forced = Number(process.env.MCP_GATES_TEST_SLOWDOWN);
const FORCED = Number.isFinite(forced) && forced > 0 ? forced : undefined;

function measure() {
  if (FORCED) return FORCED;
  work(); // JIT warm-up
  let best = Infinity;
  for (let run = 0; run < 5; run += 1) {
    const started = performance.now();
    work();
    best = Math.min(best, performance.now() - started);
  }
  return Math.min(MAX_SLOWDOWN, Math.max(1, best / REFERENCE_MS, loadPerCore()));
}

/** This machine's slowdown against the reference, measured once per process (>= 1). */
export const SLOWDOWN = measure();

/** The slowdown now: SLOWDOWN, or the load per core if that has risen above it since. */
export function slowdownNow() {
  return FORCED ?? Math.max(SLOWDOWN, Math.min(MAX_SLOWDOWN, loadPerCore()));
}

/** `ms` stretched by the slowdown: for limits that guard a wait, never for what a test checks. */
export function scaled(ms) {
  return Math.ceil(ms * SLOWDOWN);
}

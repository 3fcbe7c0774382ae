// Linear time checked by growth, not by a time limit (issue 23): the same work at two
// sizes 8x apart, in one process, compared by CPU time. A ratio holds on a slow or busy
// machine, where a fixed limit in milliseconds fails linear code.
import { expect } from 'chai';

/**
 * LINEAR_LONG=1 (.ci/run's linear stage) measures growth on the inputs an audit found
 * stalls on, megabytes; npm test on inputs a few times smaller, where one case takes
 * seconds: the ratio between two sizes, not the size, tells linear from quadratic.
 */
export const LINEAR_LONG = process.env.LINEAR_LONG === '1';

/** The large size is this many times the small one. */
export const SIZE_FACTOR = 8;
/**
 * 8x the input may cost at most this many times the CPU: linear code measures 6.7 to
 * 10.7x (mostly 7 to 8.7x), n log n about 9x, a quadratic step 64x (an injected one
 * measured 33x with linear work beside it): 16x leaves linear code room for noise.
 */
export const MAX_GROWTH = 16;
/**
 * Best of up to this many runs per size: a GC or a late JIT tier lands in one run, not all.
 * More runs happen only while the ratio is over MAX_GROWTH; under the load of CI, 3 runs
 * left linear code at 16.5x and 17.1x (small sizes of 2 and 18 ms), where a quadratic step
 * stays at 33-64x however many runs.
 */
const RUNS = 7;
/** Only a stall guard (a quadratic 8 MiB parse takes minutes), never a speed limit. */
export const STALL_MS = 10_000;

/**
 * Milliseconds of CPU this process spent in `work`: the work is synchronous and
 * single-threaded, and CPU time, unlike the wall clock, does not grow when other jobs
 * share the machine.
 */
export function cpuMs(work) {
  const started = process.cpuUsage();
  const value = work();
  const spent = process.cpuUsage(started);
  return { value, ms: (spent.user + spent.system) / 1000 };
}

/**
 * Best-of CPU times of `timed(large)` and `timed(small)` (each returns `{ms}`), runs
 * interleaved so a slow spell of the machine hits both sizes. The large run goes first
 * and warms the JIT for the small one, so one pair usually settles it; more runs happen
 * only while the ratio is over MAX_GROWTH, as they can only lower it. Returns the times,
 * the ratio, a label for messages and the first large run's result.
 */
export function growth(timed, small, large = small * SIZE_FACTOR) {
  let smallMs = Infinity;
  let largeMs = Infinity;
  let first;
  for (let run = 0; run < RUNS; run += 1) {
    const measured = timed(large);
    first ??= measured;
    largeMs = Math.min(largeMs, measured.ms);
    smallMs = Math.min(smallMs, timed(small).ms);
    if (largeMs <= MAX_GROWTH * smallMs) break;
  }
  const ratio = largeMs / smallMs;
  const label = `${smallMs.toFixed(1)} ms at ${small}, ${largeMs.toFixed(1)} ms at ${large}: ${ratio.toFixed(1)}x`;
  return { smallMs, largeMs, ratio, label, first };
}

/** Fails a stall (over STALL_MS at the large size) or growth over MAX_GROWTH. */
export function expectLinear(measured, what) {
  expect(measured.largeMs, `${what}: ${measured.label} (stall guard)`).to.be.below(STALL_MS);
  expect(measured.ratio, `${what}: ${measured.label}`).to.be.at.most(MAX_GROWTH);
}

import os from 'node:os';

/**
 * How much memory a warm worker may keep. A worker whose RSS after a call is above its cap
 * is stopped (the next call starts a fresh one); one that is above it after its very first
 * call would be stopped after every call, so its gate runs cold from then on, and the
 * result says why.
 *
 * The default cap is sized to the project: GROWTH_FACTOR times the worker's RSS after its
 * first call (what the tool needs for this project: a TypeScript program of 3,000 files
 * takes a few GB, a lint worker a few hundred MB), at least FLOOR_BYTES, at most a
 * fraction of the machine's memory. MCP_GATES_WARM_MEMORY_MB sets a fixed cap instead.
 * Each worker's V8 heap limit (--max-old-space-size) is raised to at least the highest
 * cap, so a big program reaches its cap, which stops it cleanly, before V8's own
 * default limit (a quarter of the memory, at most 4 GB) would crash it.
 */

export const MEMORY_CAP_VARIABLE = 'MCP_GATES_WARM_MEMORY_MB';
const MB = 1024 * 1024;
/** No default cap is below this (what the pool used as a fixed cap before). */
const FLOOR_BYTES = 1024 * MB;
/** A worker may grow to this many times its RSS after its first call. */
export const GROWTH_FACTOR = 3;
/** No default cap is above this share of the machine's memory. */
const MACHINE_SHARE = 0.5;

export interface MemoryPolicy {
  /** A fixed cap (MCP_GATES_WARM_MEMORY_MB, or the pool's option), when one is set. */
  fixedBytes?: number;
  floorBytes: number;
  ceilingBytes: number;
  /** Why the variable was ignored, when it was set but is not a number of megabytes. */
  ignored?: string;
}

/** The policy in force for `env` on a machine with `totalBytes` of memory. */
export function memoryPolicy(
  env: NodeJS.ProcessEnv = process.env,
  totalBytes: number = os.totalmem(),
  fixedBytes?: number,
): MemoryPolicy {
  const ceilingBytes = Math.max(FLOOR_BYTES, Math.floor(totalBytes * MACHINE_SHARE));
  const policy: MemoryPolicy = { floorBytes: FLOOR_BYTES, ceilingBytes };
  if (fixedBytes !== undefined) return { ...policy, fixedBytes };
  const text = env[MEMORY_CAP_VARIABLE]?.trim();
  if (!text) return policy;
  const megabytes = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(megabytes) || megabytes < 1)
    return {
      ...policy,
      ignored: `${MEMORY_CAP_VARIABLE}=${text} is not a whole number of megabytes; the default applies`,
    };
  return { ...policy, fixedBytes: megabytes * MB };
}

/** The cap of a worker whose RSS after its first call was `firstCallRss`. */
export function capFor(policy: MemoryPolicy, firstCallRss: number): number {
  if (policy.fixedBytes !== undefined) return policy.fixedBytes;
  return Math.min(policy.ceilingBytes, Math.max(policy.floorBytes, GROWTH_FACTOR * firstCallRss));
}

/** The V8 heap limit a worker starts with, in MB: at least any cap it can be given. */
export function heapLimitMb(policy: MemoryPolicy): number {
  return Math.ceil(Math.max(policy.ceilingBytes, policy.fixedBytes ?? 0) / MB);
}

/** The worker's execArgv: the raised heap limit, unless the gate's NODE_OPTIONS sets its own. */
export function workerExecArgv(policy: MemoryPolicy, env: NodeJS.ProcessEnv): string[] {
  if (/--max[-_]old[-_]space[-_]size/.test(env.NODE_OPTIONS ?? '')) return [];
  return [`--max-old-space-size=${heapLimitMb(policy)}`];
}

export const megabytes = (bytes: number) => `${Math.round(bytes / MB)} MB`;

/** One line for `doctor`: the cap in force and how to change it. */
export function describeMemoryPolicy(policy: MemoryPolicy): string {
  const rule =
    policy.fixedBytes !== undefined
      ? `${megabytes(policy.fixedBytes)} per worker (${MEMORY_CAP_VARIABLE})`
      : `${GROWTH_FACTOR}x a worker's RSS after its first call, between ${megabytes(policy.floorBytes)} and ${megabytes(policy.ceilingBytes)} (half this machine's memory); ${MEMORY_CAP_VARIABLE} sets a fixed cap`;
  return policy.ignored ? `${rule} (${policy.ignored})` : rule;
}

/**
 * Warm gates (issue 11). Wiring into runGate is a few lines:
 *
 *   const warm = warmToolOf(argv) && config.warm !== false
 *     ? await pool.run({ root, argv, timeoutMs, signal, env: gateEnvironment(root, env) })
 *     : undefined;
 *   ran        -> parse { exitCode, stdout, stderr } with the gate's existing parser (the
 *                 output is the cold command's), and write stdout/stderr into the capture
 *                 as runGateCommand's tee does;
 *   not-warmable, or worker-died -> run cold with runGateCommand (reason for `doctor`);
 *   cancelled / timed-out        -> report as runGateCommand would.
 *
 * Warm only when the gate's program resolves to the root's own node_modules/.bin: the
 * workers load the root's own eslint/prettier/typescript packages, which is what that
 * binary runs (a global eslint on PATH is another version).
 */
export { WarmPool, warmToolOf } from './warm-pool.js';
export type { WarmPoolOptions, WarmRunRequest, WarmRunResult } from './warm-pool.js';
export type { WarmTool } from './warm-protocol.js';

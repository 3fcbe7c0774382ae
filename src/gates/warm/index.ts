/**
 * Warm gates (issue 11). `serve` owns one WarmPool for its life and passes it to the gate
 * tools (GateToolOptions.warm); run/run-warm.ts runs each check command through it when
 * warm-plan.ts allows (the project's own eslint 8.57+, prettier 2.8+ or tsc up to 6 from its own
 * node_modules/.bin; a package.json script whose body is one such command; each step of a
 * split chain), turns the answer into the RunOutcome runGateCommand would give (output
 * into the capture in write order, cancel and timeout reported alike), and runs the
 * command cold when the worker answers not-warmable or dies. `mcp-gates run` never starts
 * a worker; `serve --no-warm` and a gate's `"warm": false` turn warm off.
 */
export { WarmPool, warmToolOf } from './warm-pool.js';
export type { WarmPoolOptions, WarmRunRequest, WarmRunResult } from './warm-pool.js';
export type { WarmTool } from './warm-protocol.js';
export { gateWarmCapability, warmPlanOf, type WarmPlan } from './warm-plan.js';

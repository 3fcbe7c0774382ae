export { WarmPool, warmToolOf } from './warm-pool.js';
export type { WarmPoolOptions, WarmRunRequest, WarmRunResult } from './warm-pool.js';
export type { WarmTool } from './warm-protocol.js';

/**
 * Messages between a WarmPool (in the server) and a warm worker (a child process), over
 * the child's private IPC channel (newline-delimited JSON on a pipe of its own: no
 * socket, no port, no token file). One call at a time per worker.
 */

import type { WarmTool } from '../tools/tool.js';
import type { PhaseTimes } from '../phase-timing.js';
import type { Incremental } from './tool-adapter.js';

export type { WarmTool };

export const WARM_TOOLS: readonly WarmTool[] = ['eslint', 'prettier', 'tsc'];

/** Pool -> worker: run the tool with these arguments (argv without the program name). */
export interface WarmRunMessage {
  type: 'run';
  id: number;
  args: string[];
}

/** Worker -> pool. */
export type WarmReply =
  | {
      type: 'result';
      id: number;
      exitCode: number;
      stdout: string;
      stderr: string;
      /** Runs of [stream, characters] in write order (0 stdout, 1 stderr). */
      order?: [0 | 1, number][];
      /** The earlier result of the same arguments, everything it read unchanged (read-ledger.ts). */
      reused: boolean;
      /** When not reused: the first input that changed, or what made the last run unreplayable. */
      notReusedBecause?: string;
      /** Files kept and checked again by an incremental run. */
      incremental?: Incremental;
      rssBytes: number;
      /** The worker's own phases of the call, when MCP_GATES_TIMING=1 (phase-timing.ts). */
      phases?: PhaseTimes;
    }
  /** This invocation is one the worker cannot answer exactly as the cold command would. */
  | { type: 'not-warmable'; id: number; reason: string; rssBytes: number }
  /** An input changed since it was loaded: the pool stops this worker; a fresh one answers. */
  | { type: 'stale'; id: number; reason: string };

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { GateSpec } from '../gate-spec.js';
import { addPhase, addPhases, timed } from '../phase-timing.js';
import { warmPlanOf } from '../warm/warm-plan.js';
import type { WarmPool } from '../warm/warm-pool.js';
import type { Incremental } from '../warm/tool-adapter.js';
import {
  gateEnvironment,
  GateOutput,
  runGateCommand,
  stoppedProblem,
  type RunOutcome,
  type RunRequest,
} from './runner.js';

/** What the result says about warm: whether a worker answered, and whether it was new. */
export interface WarmHint {
  /** A warm worker answered this call (no process was started for the tool itself). */
  used: boolean;
  /** This call started a worker (first use, or a restart after an input changed). */
  started: boolean;
  /**
   * The worker returned its earlier result of the same command: everything that run read
   * (files, directories, links) is unchanged, so a rerun would say the same.
   */
  reused?: boolean;
  /** Why it ran cold, or why the worker was restarted. */
  reason?: string;
  /** Files kept and checked again by an incremental run (ESLint). */
  incremental?: Incremental;
}

export interface WarmUse {
  pool: WarmPool;
  gate: GateSpec;
}

const PROGRESS_INTERVAL_MS = 1000;

/**
 * Size and modification time of every file directly in `directory`: configs live there
 * (eslint.config.js, tsconfig.json, .prettierrc, package.json, eslint-suppressions.json),
 * so a remembered not-warmable answer is asked again once one of them changes.
 */
function topLevelSignature(directory: string): string {
  const hash = createHash('sha256');
  try {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      if (!entry.isFile()) continue;
      try {
        const stat = fs.statSync(path.join(directory, entry.name));
        hash.update(`${entry.name}\0${stat.size}\0${stat.mtimeMs}\n`);
      } catch {
        // Gone meanwhile: its absence is in the signature.
      }
    }
  } catch {
    // An unreadable directory: the cold run reports it.
  }
  return hash.digest('hex');
}

/**
 * Runs one gate command in a warm worker when it may (warm/warm-plan.ts) and cold with
 * runGateCommand otherwise. A warm answer becomes the RunOutcome the cold run would give:
 * its stdout and stderr go through the same GateOutput (into the active capture, the
 * report text, the parse copies), its cancel and timeout read as the cold runner's. A
 * not-warmable answer or a worker that died runs the command cold, in the time left.
 */
export async function runMaybeWarm(
  request: RunRequest,
  warm: WarmUse | undefined,
): Promise<{ outcome: RunOutcome; hint?: WarmHint }> {
  if (!warm) return { outcome: await runGateCommand(request) };
  const started = Date.now();
  const cold = async (reason: string) => ({
    outcome: await runGateCommand({
      ...request,
      timeoutMs: Math.max(1, request.timeoutMs - (Date.now() - started)),
    }),
    hint: { used: false, started: false, reason },
  });
  if (warm.gate.warm === false) return cold('"warm": false in mcp-gates.json');
  const env = request.env ?? process.env;
  const plan = warmPlanOf(warm.gate, request.argv, request.root, env);
  if (!plan.warm) return cold(plan.reason);
  // The cold runner reports a cancel before the start as its own end.
  if (request.signal.aborted) return cold('cancelled before it started');
  const answerKey = JSON.stringify([request.root, plan.argv, topLevelSignature(request.root)]);
  const known = warm.pool.knownCold(answerKey);
  if (known) return cold(known);

  const output = new GateOutput(started, request.stdoutInReport ?? true, request.ownTranscript);
  const { onProgress } = request;
  const progress = onProgress
    ? setInterval(() => onProgress(Date.now() - started, 0), PROGRESS_INTERVAL_MS)
    : undefined;
  let result;
  try {
    result = await timed('warm.call', () =>
      warm.pool.run({
        root: request.root,
        argv: plan.argv,
        tool: plan.tool,
        timeoutMs: request.timeoutMs,
        signal: request.signal,
        env: gateEnvironment(request.root, env),
      }),
    );
  } finally {
    if (progress) clearInterval(progress);
  }
  if (result.kind === 'ran') {
    addPhases('worker', result.phases);
    if (result.startedWorker) addPhase('worker.started', 1);
  }
  if (result.kind === 'not-warmable') {
    warm.pool.rememberCold(answerKey, result.reason);
    return cold(result.reason);
  }
  if (result.kind === 'failed') {
    if (result.end === 'worker-died') return cold(result.reason);
    const outcome = output.finish(
      {
        end: result.end,
        exitCode: null,
        signal: null,
        problem: stoppedProblem(result.end, request.timeoutMs),
      },
      plan.resolved,
    );
    return { outcome, hint: { used: true, started: false, reason: result.reason } };
  }
  writeInOrder(output, result);
  const outcome = output.finish(
    { end: 'exited', exitCode: result.exitCode, signal: null },
    plan.resolved,
  );
  return {
    outcome,
    hint: {
      used: true,
      started: result.startedWorker,
      ...(result.reused ? { reused: true } : {}),
      ...(result.incremental ? { incremental: result.incremental } : {}),
      ...(result.restartedBecause || result.stoppedBecause
        ? {
            reason: [
              ...(result.restartedBecause ? [`worker restarted: ${result.restartedBecause}`] : []),
              ...(result.stoppedBecause ? [`worker stopped: ${result.stoppedBecause}`] : []),
            ].join('; '),
          }
        : {}),
    },
  };
}

/**
 * The worker's output into the run's sink in the order it was written (runs of
 * [stream, characters]); without an order, stdout then stderr (how a tool that reports on
 * stdout and sums up on stderr reads in a cold run).
 */
function writeInOrder(
  output: GateOutput,
  result: { stdout: string; stderr: string; order?: [0 | 1, number][] },
): void {
  const order = result.order ?? [
    [0, result.stdout.length],
    [1, result.stderr.length],
  ];
  const offsets = [0, 0];
  for (const [stream, length] of order) {
    const text = stream === 0 ? result.stdout : result.stderr;
    const part = text.slice(offsets[stream], offsets[stream]! + length);
    offsets[stream]! += length;
    if (part) output.write(stream === 0 ? 'stdout' : 'stderr', Buffer.from(part, 'utf8'));
  }
  // Whatever an order left out (it never should) still reaches the run.
  const restOut = result.stdout.slice(offsets[0]);
  const restErr = result.stderr.slice(offsets[1]);
  if (restOut) output.write('stdout', Buffer.from(restOut, 'utf8'));
  if (restErr) output.write('stderr', Buffer.from(restErr, 'utf8'));
}

/**
 * Prettier's output for one file (`prettier <file>` prints the formatted text and writes
 * nothing) from the warm worker that ran the gate's check, for run/locate-format.ts: the
 * text, null when prettier failed on the file, undefined when no worker may answer (the
 * caller then runs prettier cold). The warm plan is made once for all the files.
 */
export function warmFormatter(
  warm: WarmUse,
  request: { runDir: string; env: NodeJS.ProcessEnv; signal: AbortSignal; timeoutMs: number },
): (absolute: string) => Promise<string | null | undefined> {
  // Decided once per call, on first use: most checks locate nothing.
  let plan: ReturnType<typeof warmPlanOf> | undefined;
  return async (absolute) => {
    if (warm.gate.warm === false || request.signal.aborted) return undefined;
    plan ??= warmPlanOf(warm.gate, ['prettier'], request.runDir, request.env);
    if (!plan.warm) return undefined;
    const result = await warm.pool.run({
      root: request.runDir,
      argv: [...plan.argv, absolute],
      tool: plan.tool,
      timeoutMs: request.timeoutMs,
      signal: request.signal,
      // The gate's own environment: the same worker that ran the check answers.
      env: gateEnvironment(request.runDir, request.env),
    });
    if (result.kind === 'not-warmable') return undefined;
    if (result.kind === 'failed') return result.end === 'worker-died' ? undefined : null;
    return result.exitCode === 0 ? result.stdout : null;
  };
}

/** How many not-kept parts a result names (the first ones met). */
const RELINTED_SAMPLE = 5;

function combinedIncremental(hints: readonly WarmHint[]): { incremental?: Incremental } {
  const parts = hints.flatMap((hint) => (hint.incremental ? [hint.incremental] : []));
  if (parts.length === 0) return {};
  const dropped = parts.flatMap((part) => (part.droppedBecause ? [part.droppedBecause] : []));
  const relinted = parts.flatMap((part) => part.relintedBecause ?? []);
  return {
    incremental: {
      kept: parts.reduce((sum, part) => sum + part.kept, 0),
      checked: parts.reduce((sum, part) => sum + part.checked, 0),
      ...(dropped.length > 0 ? { droppedBecause: dropped.join('; ') } : {}),
      ...(relinted.length > 0 ? { relintedBecause: relinted.slice(0, RELINTED_SAMPLE) } : {}),
    },
  };
}

/** One hint for a call that ran several commands (steps, or a fix and its check). */
export function combineWarmHints(hints: readonly WarmHint[]): WarmHint | undefined {
  if (hints.length === 0) return undefined;
  if (hints.length === 1) return hints[0];
  const reasons = [...new Set(hints.flatMap((hint) => (hint.reason ? [hint.reason] : [])))];
  return {
    used: hints.some((hint) => hint.used),
    started: hints.some((hint) => hint.started),
    ...(hints.some((hint) => hint.used) && hints.every((hint) => !hint.used || hint.reused)
      ? { reused: true }
      : {}),
    ...(reasons.length > 0 ? { reason: reasons.join('; ') } : {}),
    ...combinedIncremental(hints),
  };
}

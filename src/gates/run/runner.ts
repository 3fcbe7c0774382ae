import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { activeCapture } from '../../capture/index.js';
import { stripAnsi } from '../report/ansi.js';
import { BoundedTranscript } from './bounded-transcript.js';
import { releaseGate, watchGate } from './gate-lifeline.js';
import { signalProcessTree, terminateProcessTree } from './process-tree.js';
import { ENV_REDIRECTS } from '../tools/index.js';
import { privateCaches } from './private-caches.js';
import { childPathValue, resolveCommand, type ResolvedCommand } from './resolve-command.js';

/** Per stream, what the parser gets at most; beyond it parsing works on a prefix. */
export const PARSE_LIMIT_BYTES = 8 * 1024 * 1024;
/** Head and tail of the captured output kept in the report. */
export const REPORT_LIMIT_BYTES = 32 * 1024;
/** Polite-stop window before SIGKILL: short on cancel (the client is gone), longer on timeout. */
const CANCEL_GRACE_MS = 400;
const TIMEOUT_GRACE_MS = 2000;
/** After the gate itself exits, how long descendants may hold its pipes open. */
const STRAGGLER_GRACE_MS = 5000;
const PROGRESS_INTERVAL_MS = 1000;
/** After the tree is killed, how long the pipes may take to deliver what is left. */
const PIPE_DRAIN_MS = 1000;

export interface RunRequest {
  root: string;
  argv: readonly string[];
  timeoutMs: number;
  signal: AbortSignal;
  /** Called about once a second while the gate runs (never after the run settles). */
  onProgress?: (elapsedMs: number, outputBytes: number) => void;
  env?: NodeJS.ProcessEnv;
  /**
   * Whether stdout joins the report (default true). Machine-format gates (JSON on
   * stdout) say false: the parser reads it and the report lists the findings instead.
   */
  stdoutInReport?: boolean;
  /**
   * Keep the output in this run's own transcript even inside a capture: runs in parallel
   * within one dispatch (the `check` tool) must not interleave into the one capture.
   */
  ownTranscript?: boolean;
}

export type RunEnd = 'exited' | 'timed-out' | 'cancelled' | 'not-found' | 'spawn-failed';

export interface CapturedOutput {
  text: string;
  totalBytes: number;
  truncated: boolean;
  logPath?: string;
}

export interface RunOutcome {
  end: RunEnd;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  durationMs: number;
  /**
   * Decoded, at most PARSE_LIMIT_BYTES each, terminal escapes still in: the parse step
   * (parsers/parse-off-loop.ts) strips them with the parse, off the event loop.
   */
  stdout: string;
  stderr: string;
  /** stdout or stderr went past the parse limit. */
  parseTruncated: boolean;
  /** Everything the gate wrote, both streams. */
  outputBytes: number;
  /** What the report shows: the capture's head and tail (or our own, outside a capture). */
  output: CapturedOutput;
  resolved: ResolvedCommand;
  /** Why the gate did not run or did not finish, for the report. */
  problem?: string;
}

/**
 * What the parser gets of one stream, at most PARSE_LIMIT_BYTES. Chunks are decoded as
 * they arrive (StringDecoder keeps a character split across chunks whole), so the end of
 * a run costs one join, not a decode of 8 MiB in one go on the event loop; stripping
 * and parsing happen in the parse step (parsers/parse-off-loop.ts).
 */
class StreamCopy {
  private readonly parts: string[] = [];
  private readonly decoder = new StringDecoder('utf8');
  private bytes = 0;
  truncated = false;

  push(chunk: Buffer): void {
    const room = PARSE_LIMIT_BYTES - this.bytes;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part.length < chunk.length) this.truncated = true;
    this.parts.push(this.decoder.write(part));
    this.bytes += part.length;
  }

  text(): string {
    this.parts.push(this.decoder.end());
    const text = this.parts.join('');
    this.parts.length = 0;
    return text;
  }
}

/** `2 s`, `2.5 s`: the configured timeout as people wrote it. */
function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** The report's problem line for a run that was stopped (cold or warm alike). */
export function stoppedProblem(end: 'timed-out' | 'cancelled', timeoutMs: number): string {
  return end === 'timed-out'
    ? `timed out after ${formatSeconds(timeoutMs)}; the process tree was killed`
    : 'cancelled; the process tree was killed';
}

type FinishedRun = Omit<
  RunOutcome,
  'durationMs' | 'stdout' | 'stderr' | 'parseTruncated' | 'outputBytes' | 'output' | 'resolved'
>;

/**
 * Where one run's output goes: every chunk into the active capture (stderr always,
 * stdout when the report shows it) in arrival order, or a bounded transcript outside a
 * capture, and a bounded decoded copy of each stream for the parser. The cold runner
 * feeds it from the pipes, a warm run (run-warm.ts) from the worker's answer.
 */
export class GateOutput {
  // Through this run's own capture handle: a run the server abandoned after a cancel
  // reads nothing here rather than a later call's output.
  private readonly capture;
  private readonly transcript = new BoundedTranscript(REPORT_LIMIT_BYTES);
  private readonly stdout = new StreamCopy();
  private readonly stderr = new StreamCopy();
  outputBytes = 0;

  constructor(
    private readonly started: number,
    private readonly stdoutInReport: boolean,
    /** Only this run's own transcript, never the active capture (parallel gates of `check`). */
    ownTranscript = false,
  ) {
    this.capture = ownTranscript ? undefined : activeCapture();
  }

  write(stream: 'stdout' | 'stderr', chunk: Buffer): void {
    this.outputBytes += chunk.length;
    (stream === 'stdout' ? this.stdout : this.stderr).push(chunk);
    if (stream === 'stdout' && !this.stdoutInReport) return;
    // Only into this run's own capture, while it lasts (a gate that outlives its call
    // never writes into a later call's); a write error is said in the report.
    if (this.capture) this.capture.write(chunk);
    else this.transcript.push(chunk);
  }

  finish(partial: FinishedRun, resolved: ResolvedCommand): RunOutcome {
    const output = this.capture
      ? this.capture.take({ limitBytes: REPORT_LIMIT_BYTES })
      : this.transcript.report();
    return {
      ...partial,
      durationMs: Date.now() - this.started,
      stdout: this.stdout.text(),
      stderr: this.stderr.text(),
      parseTruncated: this.stdout.truncated || this.stderr.truncated,
      outputBytes: this.outputBytes,
      output: { ...output, text: stripAnsi(output.text) },
      resolved,
    };
  }
}

export function gateEnvironment(root: string, base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...base,
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    CARGO_TERM_COLOR: 'never',
  };
  // Caches a tool cannot be sent elsewhere are turned off, warm workers included.
  for (const write of ENV_REDIRECTS)
    if (write.redirect && 'env' in write.redirect && write.redirect.value !== undefined)
      env[write.redirect.env] = write.redirect.value;
  // Windows spells it Path; set whichever the environment already uses.
  const key = Object.keys(env).find((name) => name.toUpperCase() === 'PATH') ?? 'PATH';
  env[key] = childPathValue(root, base);
  return env;
}

/**
 * Runs one gate command: no shell, stdin ignored (a child that reads gets EOF), cwd =
 * root, colour off. Every output chunk is written into the active capture in arrival
 * order and kept (bounded) for the parser. On timeout or abort the whole process tree
 * is killed, and this resolves only after the gate's pipes have closed, so the capture
 * guard is never released under a live gate.
 */
export async function runGateCommand(request: RunRequest): Promise<RunOutcome> {
  const started = Date.now();
  const baseEnv = request.env ?? process.env;
  const resolved = resolveCommand(request.argv, request.root, baseEnv);
  const output = new GateOutput(started, request.stdoutInReport ?? true, request.ownTranscript);
  const finish = (partial: FinishedRun): RunOutcome => output.finish(partial, resolved);

  if (!resolved.ok) {
    return finish({
      end: 'not-found',
      exitCode: null,
      signal: null,
      problem: `${resolved.reason}.\nFix: ${resolved.fix}`,
    });
  }
  if (request.signal.aborted) {
    return finish({
      end: 'cancelled',
      exitCode: null,
      signal: null,
      problem: 'cancelled before it started',
    });
  }

  // Caches a check would write under the root go to a private directory (tools/*.ts).
  const caches = privateCaches(request.argv, resolved, { runDir: request.root, env: baseEnv });
  let child: ChildProcessByStdio<null, Readable, Readable>;
  try {
    child = spawn(resolved.file, caches.args, {
      cwd: request.root,
      env: { ...gateEnvironment(request.root, baseEnv), ...caches.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // POSIX: lead a process group so the whole tree can be killed. Windows: a detached
      // child gets a console window of its own, and taskkill /T needs no group.
      detached: process.platform !== 'win32',
      windowsHide: true,
      shell: false,
    });
  } catch (error) {
    // spawn throws synchronously for some refusals (E2BIG): nothing ran, nothing to keep.
    caches.cleanup();
    throw error;
  }
  // Tied to the server's life at once: no process of its tree outlives the server.
  watchGate(child);

  child.stdout.on('data', (chunk: Buffer) => output.write('stdout', chunk));
  child.stderr.on('data', (chunk: Buffer) => output.write('stderr', chunk));

  let end: RunEnd = 'exited';
  let problem: string | undefined;
  const timers: ReturnType<typeof setTimeout>[] = [];
  let killing: Promise<void> = Promise.resolve();
  const closePipes = () => {
    child.stdout.destroy();
    child.stderr.destroy();
  };
  const stop = (reason: RunEnd, graceMs: number, why: string) => {
    if (end !== 'exited') return;
    end = reason;
    problem = why;
    // Awaited before reporting: the tree is dead before the capture guard is released.
    killing = terminateProcessTree(child, graceMs).then(() => {
      // A process that left the group (setsid) could hold the pipes open forever.
      timers.push(setTimeout(closePipes, PIPE_DRAIN_MS));
    });
  };

  const timeout = setTimeout(
    () => stop('timed-out', TIMEOUT_GRACE_MS, stoppedProblem('timed-out', request.timeoutMs)),
    request.timeoutMs,
  );
  const onAbort = () =>
    stop('cancelled', CANCEL_GRACE_MS, stoppedProblem('cancelled', request.timeoutMs));
  request.signal.addEventListener('abort', onAbort, { once: true });
  const progress = request.onProgress
    ? setInterval(
        () => request.onProgress!(Date.now() - started, output.outputBytes),
        PROGRESS_INTERVAL_MS,
      )
    : undefined;

  try {
    const closed = await new Promise<{
      code: number | null;
      signal: NodeJS.Signals | null;
      error?: Error;
    }>((resolve) => {
      child.once('error', (error) => resolve({ code: null, signal: null, error }));
      child.once('exit', () => {
        // Descendants that outlive the gate and keep its pipes open get a grace period.
        timers.push(
          setTimeout(() => {
            void signalProcessTree(child, 'SIGKILL');
            timers.push(setTimeout(closePipes, PIPE_DRAIN_MS));
          }, STRAGGLER_GRACE_MS),
        );
      });
      child.once('close', (code, signal) => resolve({ code, signal }));
    });
    await killing;
    if (closed.error) {
      return finish({
        end: 'spawn-failed',
        exitCode: null,
        signal: null,
        problem: `could not start ${resolved.file}: ${closed.error.message}`,
      });
    }
    return finish({
      end,
      exitCode: closed.code,
      signal: closed.signal,
      ...(problem ? { problem } : {}),
    });
  } finally {
    // The call is over: nothing of the gate's tree may keep running (a background
    // child that closed its stdio would otherwise survive the call and the server).
    releaseGate(child);
    caches.cleanup();
    clearTimeout(timeout);
    if (progress) clearInterval(progress);
    for (const timer of timers) clearTimeout(timer);
    request.signal.removeEventListener('abort', onAbort);
  }
}

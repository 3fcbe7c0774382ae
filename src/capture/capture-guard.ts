import fs from 'node:fs';
import { ChildProcess } from 'node:child_process';
import { CaptureError } from './capture-error.js';
import {
  CaptureFile,
  removeCaptureDirectory,
  reportLimit,
  sweepStaleCaptureDirectories,
  type CapturedReport,
} from './capture-file.js';
import { loadNativeCapture } from './load-native.js';
import type { NativeCaptureBinding } from './native-binding.js';

export interface CaptureModeInfo {
  mode: 'native' | 'degraded';
  /** Where the addon came from (a prebuild or build/Release), in native mode. */
  binding?: string;
  /** Why the addon is not used, in degraded mode. */
  reason?: string;
}

/**
 * One run's capture, the handle begin returns. Everything done through it concerns
 * that run only: once the run's capture has ended (a run the server abandoned after
 * cancelling it included), it reads, writes and keeps nothing, so a late caller can
 * never consume or pollute a later run's output.
 */
export interface ActiveCapture {
  /**
   * The capture file's descriptor, to give to children. Reading it hands the file
   * out: a child may hold it after the run, so it is never reused by a later run.
   */
  readonly fd: number;
  /** Bytes captured since the capture began. */
  bytesWritten(): number;
  /**
   * Reports what this run captured since its last take (or since begin) and marks it
   * consumed; after this run's capture ended, an empty report.
   */
  take(options?: { limitBytes?: number }): CapturedReport;
  /**
   * Writes all of `chunk` into this run's capture (a child's piped output, in arrival
   * order). False, writing nothing, once this run's capture has ended. A failed write
   * (disk full) is said in the report instead of thrown.
   */
  write(chunk: Uint8Array): boolean;
}

/**
 * idle → starting (waiting for std streams to drain) → active → idle. Every operation
 * checks the phase; `end` in idle is a no-op, so restoring is idempotent.
 * active → lingering → active | idle: a quiet run with another run queued right behind
 * may leave the fds on the (still empty) file until the next tick; the next begin
 * then resumes without two dup2 round trips, and the tick restores if none comes.
 */
type GuardPhase = 'idle' | 'starting' | 'active' | 'lingering';

type PatchableStream = NodeJS.WriteStream & { _type?: string; _handle?: { fd?: number } };

const FORCE_DEGRADED_ENV = 'MCP_GATES_CAPTURE';

let modeInfo: CaptureModeInfo | undefined;
let native: NativeCaptureBinding | undefined;
let phase: GuardPhase = 'idle';
/** The file captures write to; reused while it stays empty and nobody may hold it. */
let file: CaptureFile | undefined;
/** The run whose capture is active (phase 'active'), else undefined. */
let current: CaptureSession | undefined;
let stdioGuarded = false;
let processHooksInstalled = false;
const restoreStreamWrites: (() => void)[] = [];
const FREE_SPACE_CHECK_INTERVAL_MS = 1000;
let lastFreeSpaceCheck = 0;

const EMPTY_REPORT: CapturedReport = { text: '', totalBytes: 0, truncated: false };

/** The handle begin returns: a run's capture, with what the dispatch wrapper needs. */
export class CaptureSession implements ActiveCapture {
  /** How far this run's output has been taken (starts at the file's size at begin). */
  consumedOffset: number;
  ended = false;
  /** A child may hold the file (childStdio(), a spawn, the fd read): never reuse it. */
  handedOut = false;
  /** The first failed write into this capture (disk full): the report says so. */
  writeProblem: string | undefined;

  constructor(
    readonly file: CaptureFile,
    readonly startOffset: number,
  ) {
    this.consumedOffset = startOffset;
  }

  get fd(): number {
    this.handedOut = true;
    return this.file.fd;
  }

  private get live(): boolean {
    return !this.ended && current === this && phase === 'active';
  }

  bytesWritten(): number {
    return this.live ? this.file.size() - this.startOffset : 0;
  }

  take(options: { limitBytes?: number } = {}): CapturedReport {
    const limit = reportLimit(options.limitBytes);
    if (!this.live) return { ...EMPTY_REPORT };
    const end = this.file.size();
    const report = this.file.read(this.consumedOffset, end, limit);
    this.consumedOffset = end;
    return report;
  }

  write(chunk: Uint8Array): boolean {
    if (!this.live) return false;
    try {
      let written = 0;
      while (written < chunk.length) {
        written += fs.writeSync(this.file.fd, chunk, written, chunk.length - written);
      }
    } catch (error) {
      this.noteWriteError(error);
    }
    return true;
  }

  noteWriteError(error: unknown): void {
    if (this.writeProblem !== undefined) return;
    const code = (error as NodeJS.ErrnoException | undefined)?.code ?? String(error);
    this.writeProblem = `writing the capture file ${this.file.path} failed (${code}), so some output is missing. Fix: free space in the temp directory, or point TMPDIR (TEMP on Windows) at a writable directory with room.`;
  }

  /** Whether a report of this run was cut and named its full log. */
  hasLog(): boolean {
    return this.file.isKept;
  }

  /**
   * Deletes the full log this run's report named: that report is not delivered (the
   * run was cancelled, abandoned, or the server is ending).
   */
  discardLog(): void {
    this.file.discardLog();
  }
}

/**
 * Records that a write meant for the active capture failed, so the report says output
 * is missing instead of the write crashing the server. Outside a capture: ignored.
 */
export function noteCaptureWriteError(error: unknown): void {
  if (phase === 'active') current?.noteWriteError(error);
}

/** Loads the addon once; degraded when it cannot load or MCP_GATES_CAPTURE=degraded. */
export function captureMode(): CaptureModeInfo {
  if (modeInfo) return modeInfo;
  if (process.env[FORCE_DEGRADED_ENV] === 'degraded') {
    modeInfo = { mode: 'degraded', reason: `forced by ${FORCE_DEGRADED_ENV}=degraded` };
    return modeInfo;
  }
  const loaded = loadNativeCapture();
  if (loaded.ok) {
    native = loaded.binding;
    fdLevel = native.backend === 'posix';
    modeInfo = { mode: 'native', binding: loaded.bindingPath };
  } else {
    modeInfo = { mode: 'degraded', reason: loaded.reason };
  }
  return modeInfo;
}

/** True where fd 1 and fd 2 of this very process can be retargeted (POSIX with the addon). */
let fdLevel = false;

function fdLevelCapture(): boolean {
  captureMode();
  return fdLevel;
}

/** The native binding, for test hooks and the benchmark; undefined in degraded mode. */
export function nativeBindingForTest(): NativeCaptureBinding | undefined {
  captureMode();
  return native;
}

/**
 * The start-up stdio guard (idempotent). POSIX with the addon: the protocol gets
 * private close-on-exec copies of fds 0 and 1; fd 1 then points at fd 2 and fd 0 at
 * /dev/null, so no console.log, native printf or child can touch the channel.
 * Windows and degraded mode cannot move node's own fds 0 and 1: the protocol keeps
 * them, `process.stdout` is redirected to `process.stderr` in JS, the Win32 standard
 * handles are moved (Windows), and children must use `childStdio()`, which never
 * hands them fd 0 or fd 1.
 */
export function guardStdio(): { inputFd: number; outputFd: number } {
  captureMode();
  // Start-up: the leftovers of servers that died without cleaning up go now.
  sweepStaleCaptureDirectories();
  const fds = native ? native.guardStdio() : { inputFd: 0, outputFd: 1 };
  if (!stdioGuarded) {
    stdioGuarded = true;
    if (!fdLevelCapture()) redirectStdoutStreamToStderr();
  }
  return fds;
}

function redirectStdoutStreamToStderr(): void {
  // Whoever asks for process.stdout from now on (console.log included) gets stderr.
  Object.defineProperty(process, 'stdout', {
    configurable: true,
    enumerable: true,
    get: () => process.stderr,
  });
}

/** Whether the stdio guard is in place (tools' children then never see the channel). */
export function isStdioGuarded(): boolean {
  return stdioGuarded;
}

/** A std stream with queued writes, if any (checked synchronously, right before a switch). */
function busyStream(): PatchableStream | undefined {
  const { stdout, stderr } = process as { stdout: PatchableStream; stderr: PatchableStream };
  if (!stdout.destroyed && stdout.writableLength > 0) return stdout;
  if (!stderr.destroyed && stderr.writableLength > 0) return stderr;
  return undefined;
}

/** Resolves once `stream` drains or closes; rejects if `signal` aborts first. */
function drained(stream: PatchableStream, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const settle = () => {
      stream.off('drain', settle);
      stream.off('close', settle);
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = () => {
      settle();
      reject(signal!.reason);
    };
    stream.once('drain', settle);
    stream.once('close', settle);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Whether `stream` writes through descriptor `fd` itself (so dup2 onto `fd` reaches it). */
function writesThroughFd(stream: PatchableStream, fd: number): boolean {
  if (stream._type === 'fs') return (stream as unknown as { fd?: number }).fd === fd;
  return stream._handle?.fd === fd;
}

/**
 * Redirects a std stream's write() to the capture file where dup2 cannot reach it: a
 * TTY (libuv writes through a reopened terminal fd), Windows and degraded mode.
 */
function patchStreamWrite(stream: PatchableStream, captureFd: number): void {
  const hadOwnWrite = Object.prototype.hasOwnProperty.call(stream, 'write');
  const ownWrite = stream.write;
  stream.write = function writeToCapture(
    chunk: string | Uint8Array,
    encodingOrCallback?: BufferEncoding | ((error?: Error | null) => void),
    callback?: (error?: Error | null) => void,
  ): boolean {
    const encoding = typeof encodingOrCallback === 'string' ? encodingOrCallback : 'utf8';
    const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    try {
      let written = 0;
      while (written < bytes.length) {
        written += fs.writeSync(captureFd, bytes, written, bytes.length - written);
      }
    } catch (error) {
      noteCaptureWriteError(error);
    }
    if (done) process.nextTick(done, null);
    return true;
  } as typeof stream.write;
  restoreStreamWrites.push(() => {
    if (hadOwnWrite) stream.write = ownWrite;
    else delete (stream as { write?: unknown }).write;
  });
}

function installProcessHooks(): void {
  if (processHooksInstalled) return;
  processHooksInstalled = true;
  // A write to fd 1 or 2 that fails while they point at the capture file (disk full)
  // is reported, not thrown; std streams recover after an error (Node undestroys them).
  // Outside a capture such an error (the host closed our stderr) must not kill the server.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', noteCaptureWriteError);
  // A crash during a capture must print its trace on the real stderr, not the file.
  process.on('uncaughtExceptionMonitor', () => abandonCapture());
  // Registered before the directory's own 'exit' listener (the first file is made
  // after this), so the file is closed before its directory is removed.
  process.on('exit', () => {
    abandonCapture();
    file?.dispose();
    file = undefined;
    removeCaptureDirectory();
  });
  watchChildSpawns();
}

/**
 * A child started while a capture is active may inherit the capture file (fd-level
 * capture hands fds 1 and 2 to every 'inherit' child) and outlive the run: the file is
 * then never reused. Every asynchronous spawn (spawn, exec, execFile, fork) goes
 * through ChildProcess#spawn; spawnSync does not, but its child has exited by the time
 * it returns (a daemon it started is the residual case childStdio() users avoid).
 */
function watchChildSpawns(): void {
  const prototype = ChildProcess.prototype as unknown as {
    spawn?: (this: ChildProcess, ...args: unknown[]) => unknown;
  };
  const spawnChild = prototype.spawn;
  if (typeof spawnChild !== 'function') return;
  prototype.spawn = function spawnNotingCapture(this: ChildProcess, ...args: unknown[]) {
    noteChildStarting();
    return spawnChild.apply(this, args);
  };
}

/** A child is about to start: the capture file it may inherit is never reused. */
function noteChildStarting(): void {
  if (phase === 'active' && current) current.handedOut = true;
  // Fds still on a lingering file between two runs: restore them first, so the child
  // gets the real stderr rather than a file the next run would read.
  else if (phase === 'lingering') endLingering();
}

/**
 * Retires the current file once it received output, was kept as a log, or may be held
 * by a child: the next capture gets a fresh one, so bytes from a child or daemon a
 * tool left running land in a file nobody reads rather than in the next tool's report.
 * A quiet capture that handed nothing out leaves the file empty and unheld, and it is
 * reused, so the common case creates no file.
 */
function retireFileIfUsed(sizeAtEnd: number, handedOut: boolean): void {
  if (!file || (sizeAtEnd === 0 && !file.isKept && !handedOut)) return;
  file.dispose();
  file = undefined;
}

/**
 * Starts capturing stdout and stderr of this process and of children started with
 * `childStdio()` (or with inherited stdio, on POSIX with the addon). Waits first until
 * process.stdout/stderr have no queued writes: retargeting an fd under a pending libuv
 * write queue aborts the process. Without queued writes the switch happens before
 * this returns.
 */
export function beginCapture(
  signal?: AbortSignal | (() => AbortSignal),
): CaptureSession | Promise<CaptureSession> {
  if (phase === 'lingering') {
    const resumed = resumeLingering();
    if (resumed) return resumed;
  }
  if (phase !== 'idle') {
    throw new CaptureError('ECAPTURE_ACTIVE', 'begin', phase, 'captures never nest or overlap');
  }
  captureMode();
  phase = 'starting';
  if (busyStream()) return beginWhenDrained(typeof signal === 'function' ? signal() : signal);
  return switchOrFail();
}

async function beginWhenDrained(signal?: AbortSignal): Promise<CaptureSession> {
  try {
    for (let busy = busyStream(); busy; busy = busyStream()) {
      signal?.throwIfAborted();
      await drained(busy, signal);
    }
  } catch (error) {
    phase = 'idle';
    throw error;
  }
  return switchOrFail();
}

/** The switch itself: synchronous, so nothing can queue a write before it. */
function switchOrFail(): CaptureSession {
  try {
    return switchToCapture();
  } catch (error) {
    phase = 'idle';
    throw error;
  }
}

function switchToCapture(): CaptureSession {
  // First: a file made below and then refused (full disk) is still removed at exit.
  installProcessHooks();
  const fresh = file === undefined;
  const target = (file ??= CaptureFile.create());
  // statfs costs about as much as the whole switch: check a new file, and a reused one
  // at most once a second (a disk that fills mid-run is caught by the write errors).
  const now = Date.now();
  if (fresh || now - lastFreeSpaceCheck > FREE_SPACE_CHECK_INTERVAL_MS) {
    target.checkFreeSpace();
    lastFreeSpaceCheck = now;
  }
  // Reading the getters also creates the streams now, on the original fds: a stream
  // first created during a capture would stay a synchronous file stream for good.
  const stdout = process.stdout as PatchableStream;
  const stderr = process.stderr as PatchableStream;
  const startOffset = native ? native.begin({ fd: target.fd, path: target.path }) : target.size();
  try {
    if (!fdLevel || !writesThroughFd(stderr, 2)) patchStreamWrite(stderr, target.fd);
    if (stdout !== stderr && (!fdLevel || !writesThroughFd(stdout, 1))) {
      patchStreamWrite(stdout, target.fd);
    }
  } catch (error) {
    restoreStreams();
    native?.end();
    throw error;
  }
  return startSession(target, startOffset);
}

function startSession(target: CaptureFile, startOffset: number): CaptureSession {
  current = new CaptureSession(target, startOffset);
  phase = 'active';
  return current;
}

function restoreStreams(): void {
  while (restoreStreamWrites.length > 0) restoreStreamWrites.pop()!();
}

/**
 * Reports what the active run captured since its last take (or since begin) and marks
 * it consumed. Outside a capture there is nothing to take: an empty report. A caller
 * that may outlive its run (a cancelled gate) takes through its own ActiveCapture.
 */
export function takeCapture(options: { limitBytes?: number } = {}): CapturedReport {
  const limit = reportLimit(options.limitBytes);
  if (phase !== 'active' || !current) return { ...EMPTY_REPORT };
  return current.take({ limitBytes: limit });
}

/**
 * Ends `capture` (default: the active one): restores stdout and stderr and reports
 * what it captured and was not yet taken. Idempotent: a capture that already ended,
 * or none, restores nothing and returns an empty report.
 */
export function endCapture(
  options: { limitBytes?: number; linger?: boolean; capture?: ActiveCapture } = {},
): CapturedReport {
  const limit = reportLimit(options.limitBytes);
  const session = current;
  if (phase !== 'active' || !session || !file) return { ...EMPTY_REPORT };
  if (options.capture !== undefined && options.capture !== session) return { ...EMPTY_REPORT };
  session.ended = true;
  current = undefined;
  if (options.linger && lingerIfQuiet(session)) return { ...EMPTY_REPORT };
  const sizeAtRestore = restore();
  const end = sizeAtRestore ?? file.size();
  const report =
    end > session.consumedOffset
      ? file.read(session.consumedOffset, end, limit)
      : { ...EMPTY_REPORT };
  if (session.writeProblem !== undefined) report.problem = session.writeProblem;
  retireFileIfUsed(end, session.handedOut);
  return report;
}

/** Restores streams and fds; the native backend reports the file size at the restore. */
function restore(): number | null {
  phase = 'idle';
  restoreStreams();
  return native ? native.end() : null;
}

/** Restores without reading anything back: the crash and shutdown path. Idempotent. */
export function abandonCapture(): void {
  if (current) current.ended = true;
  current = undefined;
  if (phase === 'active' || phase === 'lingering') restore();
}

let lingerSize = 0;

/**
 * Lingers only where nothing needs undoing but the fds (native fd capture, no patches)
 * and the file is empty and unheld: a run that handed it to a child never lingers.
 */
function lingerIfQuiet(session: CaptureSession): boolean {
  if (
    !native ||
    !fdLevel ||
    restoreStreamWrites.length > 0 ||
    session.writeProblem !== undefined ||
    session.handedOut
  ) {
    return false;
  }
  const size = native.size(session.file);
  if (size !== session.startOffset || size !== session.consumedOffset) return false;
  phase = 'lingering';
  lingerSize = size;
  setImmediate(restoreIfStillLingering);
  return true;
}

function restoreIfStillLingering(): void {
  if (phase === 'lingering') endLingering();
}

/**
 * Restores a lingering capture. Bytes that arrived while it lingered belong to no tool
 * run: they were meant for stderr, so they go there now (bounded), and the file retires.
 */
function endLingering(): void {
  const size = restore() ?? lingerSize;
  if (!file || size <= lingerSize) return;
  const stray = file.read(lingerSize, size, reportLimit(undefined));
  try {
    fs.writeSync(2, stray.text);
  } catch {
    // The real stderr is gone (the host closed it): nowhere left to say it.
  }
  // Over the limit, the stray text names its full log on stderr: that log stays.
  retireFileIfUsed(size, false);
}

/**
 * Resumes a lingering capture. It lingers only while another run is queued, and that
 * run starts in the same microtask chain, so no code of this process can write in
 * between; another process could, as it could during any capture (a daemon a tool left
 * running), so the file is not sized again here: that syscall was a quarter of a
 * pipelined call. The free-space check still comes due once a second.
 */
function resumeLingering(): CaptureSession | undefined {
  if (file && Date.now() - lastFreeSpaceCheck <= FREE_SPACE_CHECK_INTERVAL_MS) {
    return startSession(file, lingerSize);
  }
  endLingering();
  return undefined;
}

export function captureState(): GuardPhase {
  return phase;
}

/** The active run's capture handle; null outside a capture. */
export function activeCapture(): ActiveCapture | null {
  return phase === 'active' && current ? current : null;
}

/**
 * The stdio a tool passes to spawn() so its child's output is captured on every
 * platform and mode. stdin is always 'ignore': tools never prompt.
 */
// A plain tuple (it is a StdioOptions): the published types must not need @types/node.
export function childStdio(): ['ignore', 'inherit' | number, 'inherit' | number] {
  // The child may outlive the run holding the capture file: it is never reused.
  noteChildStarting();
  if (phase === 'active' && current && !fdLevelCapture()) {
    return ['ignore', current.file.fd, current.file.fd];
  }
  if (fdLevelCapture() || !stdioGuarded) return ['ignore', 'inherit', 'inherit'];
  // Windows or degraded, between captures: fd 1 is still the protocol channel.
  return ['ignore', 2, 'inherit'];
}

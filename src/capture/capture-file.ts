import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CaptureStorageError } from './capture-error.js';

/** A bounded view of captured bytes. */
export interface CapturedReport {
  /** Everything, or the head and the tail around a marker when over the limit. */
  text: string;
  /** Bytes captured in the range reported. */
  totalBytes: number;
  truncated: boolean;
  /** The full capture on disk (mode 0600), only when truncated. */
  logPath?: string;
  /** Why some output is missing (a write into the capture file failed, e.g. ENOSPC). */
  problem?: string;
}

export const DEFAULT_REPORT_LIMIT_BYTES = 64 * 1024;
/** Truncated logs kept per process; older ones are deleted as new ones appear. */
const KEPT_LOG_LIMIT = 16;

/** The report limit to use: `limitBytes` checked, or the default. */
export function reportLimit(limitBytes: number | undefined): number {
  const limit = limitBytes ?? DEFAULT_REPORT_LIMIT_BYTES;
  if (!Number.isSafeInteger(limit) || limit < 64) {
    const error = new RangeError(`limitBytes must be an integer >= 64, got ${String(limitBytes)}`);
    throw Object.assign(error, { code: 'ERR_OUT_OF_RANGE' });
  }
  return limit;
}

let privateDirectory: string | undefined;
const keptLogs: string[] = [];
/** Set by keepCaptureLogs(): this process delivers every report it makes. */
let logsOutliveProcess = false;

/**
 * Capture directories are named `mcp-gates-capture-<pid>-<random>`: the pid lets a
 * later process tell a dead server's leftovers (SIGKILL, power loss) from a live one's.
 */
const DIRECTORY_PREFIX = 'mcp-gates-capture-';
const DIRECTORY_NAME = /^mcp-gates-capture-(\d+)-[A-Za-z0-9]+$/;

/** Below this much free space in the temp directory a capture is refused, not silently cut. */
export const MIN_FREE_BYTES = 1024 * 1024;

function describeFsError(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return code ? `${code} (${message})` : String(message ?? error);
}

/** A private (0700) directory for this process's capture files, made on first use. */
function captureDirectory(): string {
  if (privateDirectory === undefined) {
    sweepStaleCaptureDirectories();
    try {
      privateDirectory = fs.mkdtempSync(
        path.join(os.tmpdir(), `${DIRECTORY_PREFIX}${process.pid}-`),
      );
      // At every exit that runs JS (EOF, signals handled by the server, EPIPE, a crash):
      // even a directory no capture ever used (a full disk refused the first one).
      process.once('exit', removeCaptureDirectory);
    } catch (error) {
      throw new CaptureStorageError(os.tmpdir(), describeFsError(error));
    }
  }
  return privateDirectory;
}

/** Throws ECAPTURE_TMPDIR when `directory` has less than MIN_FREE_BYTES free. */
export function checkFreeSpace(directory: string): void {
  let free: number;
  try {
    const stats = fs.statfsSync(directory);
    free = Number(stats.bavail) * Number(stats.bsize);
  } catch (error) {
    // The private directory was removed under us; statfs unsupported: nothing to check.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return;
    throw new CaptureStorageError(directory, describeFsError(error));
  }
  if (free < MIN_FREE_BYTES) {
    throw new CaptureStorageError(
      directory,
      `only ${free} bytes free (at least ${MIN_FREE_BYTES} needed)`,
    );
  }
}

/**
 * The file a capture writes to. One file is reused from capture to capture while it
 * stays empty (the common, quiet case costs no file creation); a file that received
 * output is replaced at the next begin, so bytes from a daemon a tool left running
 * land in a file nobody reads instead of the next tool's report.
 */
export class CaptureFile {
  readonly path: string;
  readonly fd: number;
  private kept = false;

  private constructor(filePath: string, fd: number) {
    this.path = filePath;
    this.fd = fd;
  }

  static create(): CaptureFile {
    const directory = captureDirectory();
    const filePath = path.join(directory, `capture-${process.pid}-${Date.now()}-${sequence++}.log`);
    // O_APPEND: concurrent writers (tool, children, grandchildren) share one offset
    // safely. libuv opens with O_CLOEXEC, so only the dup2 target (fd 2) is inherited.
    let fd: number;
    try {
      fd = fs.openSync(
        filePath,
        fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_RDWR | fs.constants.O_APPEND,
        0o600,
      );
    } catch (error) {
      throw new CaptureStorageError(directory, describeFsError(error));
    }
    return new CaptureFile(filePath, fd);
  }

  /** Throws ECAPTURE_TMPDIR when the file's directory is (nearly) full. */
  checkFreeSpace(): void {
    checkFreeSpace(path.dirname(this.path));
  }

  size(): number {
    return fs.fstatSync(this.fd).size;
  }

  /** Keeps this file on disk as a full log; it is no longer reused. */
  keep(): string {
    if (!this.kept) {
      this.kept = true;
      keptLogs.push(this.path);
      while (keptLogs.length > KEPT_LOG_LIMIT) rmQuietly(keptLogs.shift()!);
    }
    return this.path;
  }

  get isKept(): boolean {
    return this.kept;
  }

  /** Deletes a kept log no delivered report names (the run was cancelled or abandoned). */
  discardLog(): void {
    if (!this.kept || logsOutliveProcess) return;
    const index = keptLogs.indexOf(this.path);
    if (index !== -1) keptLogs.splice(index, 1);
    rmQuietly(this.path);
  }

  /** Closes the descriptor; deletes the file unless it was kept as a log. */
  dispose(): void {
    fs.closeSync(this.fd);
    if (!this.kept) fs.rmSync(this.path, { force: true });
  }

  /** Reads bytes [start, end) bounded to `limitBytes`: all of them, or head + tail. */
  read(start: number, end: number, limitBytes: number): CapturedReport {
    const totalBytes = Math.max(0, end - start);
    if (totalBytes <= limitBytes) {
      return { text: this.readRange(start, end).toString('utf8'), totalBytes, truncated: false };
    }
    const headBytes = Math.floor(limitBytes / 2);
    const tailBytes = limitBytes - headBytes;
    const head = trimToCharacterBoundaries(
      this.readRange(start, start + headBytes + 3),
      headBytes,
      'head',
    );
    const tail = trimToCharacterBoundaries(
      this.readRange(end - tailBytes - 3, end),
      tailBytes,
      'tail',
    );
    const omitted = totalBytes - head.length - tail.length;
    const logPath = this.keep();
    const text =
      `${head.toString('utf8')}\n` +
      `[... ${omitted} bytes omitted; full output in ${logPath} ...]\n` +
      tail.toString('utf8');
    return { text, totalBytes, truncated: true, logPath };
  }

  private readRange(start: number, end: number): Buffer {
    const buffer = Buffer.allocUnsafe(Math.max(0, end - start));
    let filled = 0;
    while (filled < buffer.length) {
      const read = fs.readSync(this.fd, buffer, filled, buffer.length - filled, start + filled);
      if (read === 0) break;
      filled += read;
    }
    return buffer.subarray(0, filled);
  }
}

let sequence = 0;

/**
 * Cuts `bytes` to at most `limit` bytes without splitting a UTF-8 sequence: the head
 * keeps its start, the tail keeps its end. `bytes` may hold up to 3 extra bytes on the
 * cut side so a sequence straddling the cut can be completed or dropped whole.
 */
function trimToCharacterBoundaries(bytes: Buffer, limit: number, side: 'head' | 'tail'): Buffer {
  const isContinuation = (byte: number | undefined) => byte !== undefined && (byte & 0xc0) === 0x80;
  if (side === 'head') {
    let end = Math.min(limit, bytes.length);
    while (end > 0 && isContinuation(bytes[end])) end--;
    return bytes.subarray(0, end);
  }
  let start = Math.max(0, bytes.length - limit);
  while (start < bytes.length && isContinuation(bytes[start])) start++;
  return bytes.subarray(start);
}

function rmQuietly(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // Gone already, or not ours to remove: nothing left to do.
  }
}

/**
 * Empties and removes a capture directory without following symlinks: entries are
 * unlinked (a symlink is removed, never its target) unless `keep` says otherwise, a
 * subdirectory is left alone, and the directory itself goes only if that emptied it.
 */
function removeDirectoryOfFiles(directory: string, keep: (entry: string) => boolean): void {
  let names: string[];
  try {
    names = fs.readdirSync(directory);
  } catch {
    return;
  }
  for (const name of names) {
    const entry = path.join(directory, name);
    if (keep(entry)) continue;
    try {
      if (!fs.lstatSync(entry).isDirectory()) fs.unlinkSync(entry);
    } catch {
      // Removed meanwhile, or not removable: the rmdir below then leaves the directory.
    }
  }
  try {
    fs.rmdirSync(directory);
  } catch {
    // Not empty (kept logs, or a subdirectory nobody of ours made) or already gone.
  }
}

/**
 * Removes this process's capture directory with every file in it, kept logs included
 * (their reports were delivered while the server lived), unless keepCaptureLogs() was
 * called. Registered on 'exit' when the directory is made; idempotent, so a
 * shutdown path may call it too. Files a lingering child still holds open are
 * unlinked all the same (POSIX keeps the data until that child closes them).
 */
export function removeCaptureDirectory(): void {
  if (privateDirectory === undefined) return;
  const kept = new Set(logsOutliveProcess ? keptLogs : []);
  removeDirectoryOfFiles(privateDirectory, (entry) => kept.has(entry));
  if (kept.size === 0) {
    privateDirectory = undefined;
    keptLogs.length = 0;
  }
}

/**
 * For a one-shot process that prints every report it makes, interrupted or not (the
 * CLI's `run`): the logs its reports name are never discarded and outlive it; every
 * other capture file is still removed at exit. A server never calls this: a report
 * it does not deliver names no log, and its logs go with it.
 */
export function keepCaptureLogs(): void {
  logsOutliveProcess = true;
}

/** Whether `pid` may be a live process (EPERM: alive, someone else's). */
function processMayBeAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

let swept = false;

/**
 * Removes capture directories that servers which died without cleaning up (SIGKILL,
 * a crash of node itself) left in the temp directory; once per process.
 */
export function sweepStaleCaptureDirectories(): void {
  if (swept) return;
  swept = true;
  sweepDirectoriesOfDeadProcesses(DIRECTORY_NAME);
}

/**
 * Removes the temp directories named by `pattern` (its first group: the pid of the process
 * that made it) whose process is gone. In a shared /tmp only what is certainly ours goes:
 * our name pattern, a real directory (lstat: a symlink is never followed), owned by our
 * uid, named for a pid that no longer exists; only its files are removed, never a
 * subdirectory.
 */
export function sweepDirectoriesOfDeadProcesses(pattern: RegExp, keepNewest = 0): void {
  removeOurDirectories(
    os.tmpdir(),
    pattern,
    (pid) => pid !== process.pid && !processMayBeAlive(pid),
    keepNewest,
  );
}

/**
 * Removes the directories named by `pattern` for process `pid` in `temp`, which the
 * caller knows is dead or killed (a child it just SIGKILLed, not yet reaped), with the
 * same care as sweepDirectoriesOfDeadProcesses.
 */
export function removeDirectoriesOfProcess(temp: string, pattern: RegExp, pid: number): void {
  removeOurDirectories(temp, pattern, (named) => named === pid);
}

/** `keepNewest`: that many of the removable directories, the last modified, stay. */
function removeOurDirectories(
  temp: string,
  pattern: RegExp,
  removable: (pid: number) => boolean,
  keepNewest = 0,
): void {
  let names: string[];
  try {
    names = fs.readdirSync(temp);
  } catch {
    return; // An unusable temp directory is reported by the first use instead.
  }
  const uid = process.getuid?.();
  const found: { directory: string; modified: number }[] = [];
  for (const name of names) {
    const match = pattern.exec(name);
    if (!match || !removable(Number(match[1]))) continue;
    const directory = path.join(temp, name);
    try {
      const stats = fs.lstatSync(directory);
      if (!stats.isDirectory() || (uid !== undefined && stats.uid !== uid)) continue;
      found.push({ directory, modified: stats.mtimeMs });
    } catch {
      continue;
    }
  }
  found.sort((a, b) => b.modified - a.modified);
  for (const { directory } of found.slice(keepNewest)) {
    removeDirectoryOfFiles(directory, () => false);
  }
}

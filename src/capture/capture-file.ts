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

/** Below this much free space in the temp directory a capture is refused, not silently cut. */
export const MIN_FREE_BYTES = 1024 * 1024;

function describeFsError(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return code ? `${code} (${message})` : String(message ?? error);
}

/** A private (0700) directory for this process's capture files, made on first use. */
function captureDirectory(): string {
  if (privateDirectory === undefined) {
    try {
      privateDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-gates-capture-'));
      // Even when no capture ever starts in it (a full disk refused the first one).
      process.once('exit', removeCaptureDirectoryIfEmpty);
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
      while (keptLogs.length > KEPT_LOG_LIMIT) fs.rmSync(keptLogs.shift()!, { force: true });
    }
    return this.path;
  }

  get isKept(): boolean {
    return this.kept;
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

/** Removes this process's capture directory except kept logs (called at exit). */
export function removeCaptureDirectoryIfEmpty(): void {
  if (privateDirectory === undefined) return;
  try {
    fs.rmdirSync(privateDirectory);
  } catch {
    // Kept logs remain for the reader; the directory stays with them.
  }
}

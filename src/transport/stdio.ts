import fs from 'node:fs';
import net from 'node:net';
import tty from 'node:tty';
import type { Readable, Writable } from 'node:stream';
import { DEFAULT_MAX_LINE_BYTES, LineSplitter } from './line-splitter.js';
import type { InboundLine, Transport } from './transport.js';

export interface StdioTransportOptions {
  /** Descriptor frames are read from (default 0; the stdio guard passes a private duplicate). */
  inputFd?: number;
  /** Descriptor frames are written to (default 1; the stdio guard passes a private duplicate). */
  outputFd?: number;
  /** Longest accepted line in bytes (default 4 MiB); longer lines are discarded and reported. */
  maxLineBytes?: number;
  /** Lines read ahead of the server before the input is paused. */
  readAheadLines?: number;
  /**
   * Text read ahead of the server before the input is paused, in characters (default
   * 8 Mi): with long lines, a line count alone would let a client that stops reading
   * our output queue up to readAheadLines x maxLineBytes.
   */
  readAheadChars?: number;
}

/**
 * How long close() waits for pending output. Short: shutdown has 2 s in all, and output
 * still pending then usually means a client that stopped reading (nobody to lose it).
 */
const CLOSE_FLUSH_TIMEOUT_MS = 500;
const DEFAULT_READ_AHEAD_CHARS = 8 * 1024 * 1024;

/** Opens a stream suited to the descriptor's type: pipes and sockets are async, files are not. */
function openReadable(fd: number): Readable {
  if (tty.isatty(fd)) return new tty.ReadStream(fd);
  const stat = fs.fstatSync(fd);
  if (stat.isFIFO() || stat.isSocket())
    return new net.Socket({ fd, readable: true, writable: false });
  return fs.createReadStream('', { fd, autoClose: false });
}

function openWritable(fd: number): Writable {
  if (tty.isatty(fd)) return new tty.WriteStream(fd);
  const stat = fs.fstatSync(fd);
  if (stat.isFIFO() || stat.isSocket())
    return new net.Socket({ fd, readable: false, writable: true });
  return fs.createWriteStream('', { fd, autoClose: false });
}

/**
 * Newline-delimited frames over two file descriptors. A closed or broken output (EPIPE)
 * ends the conversation quietly: writes are dropped and `read()` reports end of input.
 */
export class StdioTransport implements Transport {
  private readonly input: Readable;
  private readonly output: Writable;
  private readonly splitter: LineSplitter;
  private readonly queue: (InboundLine | null)[] = [];
  private readonly readers: ((line: InboundLine | null) => void)[] = [];
  private readonly readAheadLines: number;
  private readonly readAheadChars: number;
  private queuedChars = 0;
  private ended = false;
  private outputBroken = false;
  private closing: Promise<void> | undefined;
  /** Settles when the full output drains (or fails); shared by every write made meanwhile. */
  private drained: Promise<void> | undefined;
  private corked = false;
  private markInputEnded!: () => void;
  readonly inputEnded = new Promise<void>((resolve) => (this.markInputEnded = resolve));

  constructor(options: StdioTransportOptions = {}) {
    this.splitter = new LineSplitter(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
    this.readAheadLines = options.readAheadLines ?? 1024;
    this.readAheadChars = options.readAheadChars ?? DEFAULT_READ_AHEAD_CHARS;
    this.input = openReadable(options.inputFd ?? 0);
    this.output = openWritable(options.outputFd ?? 1);

    const emit = (line: InboundLine) => this.deliver(line);
    this.input.on('data', (chunk: Buffer) => {
      this.splitter.push(chunk, emit);
      if (this.queue.length >= this.readAheadLines || this.queuedChars >= this.readAheadChars) {
        this.input.pause();
      }
    });
    this.input.on('end', () => this.finishInput());
    this.input.on('error', () => this.finishInput());
    this.output.on('error', () => {
      // The client went away (EPIPE, closed pipe): nobody can read what we would say.
      this.outputBroken = true;
      this.finishInput();
    });
  }

  read(): InboundLine | null | Promise<InboundLine | null> {
    const next = this.queue.shift();
    if (next !== undefined) {
      if (next?.kind === 'line') this.queuedChars -= next.text.length;
      if (this.queue.length === 0 && !this.ended) this.input.resume();
      return next;
    }
    if (this.ended) return null;
    this.input.resume();
    return new Promise((resolve) => this.readers.push(resolve));
  }

  write(line: string): void | Promise<void> {
    if (this.outputBroken || this.output.writableEnded) return;
    // Frames written in one tick leave together in one writev (a pipelined burst of
    // answers costs one syscall, not one each); the next tick flushes them.
    if (!this.corked) {
      this.corked = true;
      this.output.cork();
      process.nextTick(() => {
        this.corked = false;
        this.output.uncork();
      });
    }
    // One write call per frame: the stream keeps calls in order, so frames never interleave.
    if (this.output.write(line + '\n')) return;
    // Every write made while the output is full shares one wait: a listener pair per
    // frame made each removal O(pending frames), quadratic under a pipelined burst.
    this.drained ??= new Promise((resolve) => {
      const done = () => {
        this.output.off('drain', done);
        this.output.off('error', done);
        this.drained = undefined;
        resolve();
      };
      this.output.on('drain', done);
      this.output.on('error', done);
    });
    return this.drained;
  }

  close(): Promise<void> {
    this.closing ??= this.flushAndClose();
    return this.closing;
  }

  private async flushAndClose(): Promise<void> {
    // Lines read ahead but not handed out are requests nobody started: dropped.
    this.queue.length = 0;
    this.queuedChars = 0;
    this.finishInput();
    this.input.destroy();
    if (this.outputBroken) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, CLOSE_FLUSH_TIMEOUT_MS);
      timer.unref();
      this.output.end(() => {
        clearTimeout(timer);
        resolve();
      });
      this.output.once('error', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    // Whatever is still unwritten has no reader: drop it rather than hold the exit.
    this.output.destroy();
  }

  private finishInput(): void {
    if (this.ended) return;
    this.splitter.end((line) => this.deliver(line));
    this.ended = true;
    this.deliver(null);
    this.markInputEnded();
  }

  private deliver(line: InboundLine | null): void {
    const reader = this.readers.shift();
    if (reader) {
      reader(line);
      return;
    }
    this.queue.push(line);
    if (line?.kind === 'line') this.queuedChars += line.text.length;
  }
}

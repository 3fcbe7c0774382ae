import type { InboundLine, Transport } from './transport.js';

/**
 * A scripted conversation with no process: tests push lines in and read frames out.
 * Lines given to the constructor are queued first; `end()` is end of input.
 */
export class ReplayTransport implements Transport {
  readonly written: string[] = [];
  private readonly inbound: (InboundLine | null)[] = [];
  private readonly readers: ((line: InboundLine | null) => void)[] = [];
  private readonly watchers: (() => void)[] = [];
  private readCursor = 0;
  closed = false;

  constructor(lines: readonly string[] = []) {
    for (const line of lines) this.send(line);
  }

  /** Queues one inbound line (blank lines are skipped, as the stdio transport does). */
  send(text: string): this {
    if (text.trim() !== '') this.deliver({ kind: 'line', text });
    return this;
  }

  /** Simulates a line over the size limit. */
  sendOversize(bytes: number): this {
    this.deliver({ kind: 'oversize', bytes });
    return this;
  }

  end(): this {
    this.deliver(null);
    return this;
  }

  read(): Promise<InboundLine | null> {
    const next = this.inbound.shift();
    if (next !== undefined) return Promise.resolve(next);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => this.readers.push(resolve));
  }

  write(line: string): void {
    if (line.includes('\n')) throw new Error('a frame must not contain a raw newline');
    this.written.push(line);
    for (const wake of this.watchers.splice(0)) wake();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const reader of this.readers.splice(0)) reader(null);
  }

  /** Resolves with the next frame written after the previous `next()`, parsed. */
  async next(timeoutMs = 5000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    while (this.readCursor >= this.written.length) {
      if (Date.now() > deadline) throw new Error(`no frame written within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.watchers.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return JSON.parse(this.written[this.readCursor++]!) as Record<string, unknown>;
  }

  /** Frames written since the last `next()` or `drain()`, parsed. */
  drain(): Record<string, unknown>[] {
    const frames = this.written.slice(this.readCursor).map((line) => JSON.parse(line));
    this.readCursor = this.written.length;
    return frames;
  }

  private deliver(line: InboundLine | null): void {
    const reader = this.readers.shift();
    if (reader) reader(line);
    else this.inbound.push(line);
  }
}

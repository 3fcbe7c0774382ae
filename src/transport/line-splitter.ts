import type { InboundLine } from './transport.js';

export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into lines with a bounded buffer. Splitting happens on bytes
 * (0x0A never occurs inside a UTF-8 sequence), so a character cut across chunks is
 * decoded whole. A line longer than the limit is discarded up to its newline and
 * reported once as `oversize`; memory never exceeds the limit plus one chunk.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;
  private readonly decoder = new TextDecoder('utf-8');

  constructor(private readonly maxLineBytes: number = DEFAULT_MAX_LINE_BYTES) {}

  // Uint8Array, not Buffer, in the signature: the published types must not need @types/node.
  push(input: Uint8Array, emit: (line: InboundLine) => void): void {
    const chunk = Buffer.isBuffer(input)
      ? input
      : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.accept(chunk.subarray(start, end));
      if (newline === -1) return;
      this.finishLine(emit);
      start = newline + 1;
    }
  }

  /** Emits a final unterminated line, if any, at end of input. */
  end(emit: (line: InboundLine) => void): void {
    if (this.pendingBytes > 0 || this.discarding) this.finishLine(emit);
  }

  private accept(piece: Buffer): void {
    if (piece.length === 0) return;
    this.pendingBytes += piece.length;
    if (this.discarding) return;
    if (this.pendingBytes > this.maxLineBytes) {
      this.discarding = true;
      this.parts = [];
      return;
    }
    this.parts.push(piece);
  }

  private finishLine(emit: (line: InboundLine) => void): void {
    if (this.discarding) {
      emit({ kind: 'oversize', bytes: this.pendingBytes });
    } else {
      const bytes = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
      let text = this.decoder.decode(bytes);
      if (text.endsWith('\r')) text = text.slice(0, -1);
      if (text.trim() !== '') emit({ kind: 'line', text });
    }
    this.parts = [];
    this.pendingBytes = 0;
    this.discarding = false;
  }
}

/**
 * Keeps the head and tail of a byte stream within a budget and counts the rest: the
 * report of a gate run when no capture is active (e.g. the runner used as a library).
 */
export class BoundedTranscript {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  total = 0;

  constructor(private readonly limitBytes: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const headRoom = Math.floor(this.limitBytes / 2) - this.headBytes;
    if (headRoom > 0) {
      const part = chunk.subarray(0, headRoom);
      this.head.push(part);
      this.headBytes += part.length;
      chunk = chunk.subarray(part.length);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    const tailLimit = this.limitBytes - Math.floor(this.limitBytes / 2);
    while (this.tailBytes - this.tail[0]!.length >= tailLimit) {
      this.tailBytes -= this.tail.shift()!.length;
    }
  }

  report(): { text: string; totalBytes: number; truncated: boolean } {
    const tail = Buffer.concat(this.tail);
    const tailLimit = this.limitBytes - Math.floor(this.limitBytes / 2);
    const tailKept = tail.subarray(Math.max(0, tail.length - tailLimit));
    const truncated = this.total > this.headBytes + tailKept.length;
    const head = Buffer.concat(this.head).toString('utf8');
    if (!truncated)
      return { text: head + tailKept.toString('utf8'), totalBytes: this.total, truncated };
    const omitted = this.total - this.headBytes - tailKept.length;
    return {
      text: `${head}\n[… ${omitted} bytes omitted …]\n${tailKept.toString('utf8')}`,
      totalBytes: this.total,
      truncated,
    };
  }
}

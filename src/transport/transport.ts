/** One inbound frame: a decoded line, or the size of a line that was too long and discarded. */
export type InboundLine = { kind: 'line'; text: string } | { kind: 'oversize'; bytes: number };

/**
 * The seam between the server and the wire: read a line, write a line. Production
 * uses stdio; tests use a scripted replay double.
 */
export interface Transport {
  /**
   * The next non-blank line, or null at end of input. A line already buffered may be
   * returned directly (no promise), so a burst of input is handled without a hop per line.
   */
  read(): InboundLine | null | Promise<InboundLine | null>;
  /**
   * Writes one complete frame (no newline inside); frames never interleave. Returns a
   * promise only when the caller should wait before sending more (backpressure).
   */
  write(line: string): void | Promise<void>;
  /**
   * Stops reading, drops lines not yet read (work not started is abandoned) and flushes
   * pending writes for a bounded time. Idempotent.
   */
  close(): Promise<void>;
  /**
   * Settles once the input has ended (EOF, an input error, a broken output or close()),
   * even while nobody reads: a server waiting for a blocked output learns of the end
   * through it instead of through read(). Optional for test doubles.
   */
  readonly inputEnded?: Promise<void>;
}

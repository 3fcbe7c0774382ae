/** One inbound frame: a decoded line, or the size of a line that was too long and discarded. */
export type InboundLine = { kind: 'line'; text: string } | { kind: 'oversize'; bytes: number };

/**
 * The seam between the server and the wire: read a line, write a line. Production
 * uses stdio; tests use a scripted replay double.
 */
export interface Transport {
  /** Resolves with the next non-blank line, or null at end of input. */
  read(): Promise<InboundLine | null>;
  /** Writes one complete frame (no newline inside); frames never interleave. */
  write(line: string): Promise<void>;
  /** Stops reading and flushes pending writes. Idempotent. */
  close(): Promise<void>;
}

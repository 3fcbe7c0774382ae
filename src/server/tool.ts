/** What a tool declares about itself; shaped per negotiated revision on the way out. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type JsonSchema = Record<string, unknown>;

export interface ToolDescriptor {
  /** 1-128 characters of A-Z a-z 0-9 _ - . (validated at registration). */
  name: string;
  title?: string;
  description?: string;
  /** Root must be `type: "object"`. Draft-07 or 2020-12 (the default dialect). */
  inputSchema: JsonSchema;
  /** Validated against `structuredContent`; sent only to revisions that know it. */
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
}

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

export interface ToolContext {
  /** Aborted when the call is cancelled or the transport closes. */
  signal: AbortSignal;
  /** Sends `notifications/progress` when the caller asked for it; a no-op otherwise. */
  progress(update: ProgressUpdate): void;
  /** Whether the caller asked for progress (a progressToken was sent). */
  readonly wantsProgress: boolean;
  /** The revision the response will be shaped for, e.g. "2025-06-18" or "2026-07-28". */
  readonly revision: string;
}

/** A tool's outcome. Failures are results (`isError: true`), never protocol errors. */
export interface ToolResult {
  /** The report: the first text block of the result. */
  text: string;
  isError?: boolean;
  structuredContent?: unknown;
}

export interface Tool extends ToolDescriptor {
  run(args: Record<string, unknown>, context: ToolContext): ToolResult | Promise<ToolResult>;
}

/**
 * The seam through which every tool run passes (e.g. output capture). Runs are
 * serialized by the server, so a wrapper never sees two runs at once. `run` never
 * throws synchronously, and once `call.signal` aborts it settles within the server's
 * abort grace even if the tool never does, so a wrapper's cleanup always runs. Reading
 * `call.signal` creates it: a wrapper that can do without should not ask.
 */
export type DispatchWrapper = (
  run: () => Promise<ToolResult>,
  call: {
    toolName: string;
    signal: AbortSignal;
    /** How many tool runs are queued behind this one right now. */
    readonly queued?: number;
  },
) => Promise<ToolResult>;

import type { FromSchema } from './from-schema.js';

/** What a tool declares about itself; shaped per negotiated revision on the way out. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type JsonSchema = Record<string, unknown>;

/**
 * A Standard Schema v1 object (Zod 4, Valibot, ArkType...) that can also describe itself
 * as JSON Schema: through Standard JSON Schema (`~standard.jsonSchema`, Zod >= 4.2), a
 * `toJSONSchema()` or `toJsonSchema()` method (ArkType), or one you add, e.g. for Valibot:
 * `{ '~standard': s['~standard'], toJSONSchema: () => toJsonSchema(s) }`.
 * The JSON Schema is what clients see and what arguments are validated against on the
 * wire; the library's own `validate` then produces the value `run` receives.
 */
export interface StandardSchema<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    readonly jsonSchema?: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
      readonly output: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
  toJSONSchema?: (...args: never[]) => unknown;
  /** ArkType's spelling. */
  toJsonSchema?: (...args: never[]) => unknown;
}

export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
      }>;
    };

/** A tool's input or output schema: JSON Schema (an `as const` literal gives typed arguments) or a Standard Schema. */
export type ToolSchema = JsonSchema | StandardSchema;

/** The arguments `run` receives for an input schema. */
export type ArgsOf<S> = [S] extends [StandardSchema<unknown, infer Output>]
  ? Output
  : unknown extends FromSchema<S>
    ? Record<string, unknown>
    : FromSchema<S>;

export interface ToolDescriptor<S extends ToolSchema = ToolSchema> {
  /** 1-128 characters of A-Z a-z 0-9 _ - . (validated at registration). */
  name: string;
  title?: string;
  description?: string;
  /** Root must be `type: "object"`. Draft-07 or 2020-12 (the default dialect), or a Standard Schema. */
  inputSchema: S;
  /**
   * Validated against `structuredContent`; sent only to revisions that know it. Its root
   * need not be `type: "object"`: 2025-06-18 and 2025-11-25 allow only object output, so
   * there a non-object schema is listed wrapped as `{type: "object", properties: {result:
   * <schema>}, required: ["result"]}` and `structuredContent` is sent as `{result: <value>}`
   * (2026-07-28 clients get both as they are).
   */
  outputSchema?: ToolSchema;
  annotations?: ToolAnnotations;
  /** Sent as the tool's `_meta` to revisions that have it (2025-06-18 on). */
  _meta?: Record<string, unknown>;
}

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** Severity of a log message, lowest first (syslog's, as MCP has them). */
export type LogLevel =
  'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

export interface ToolContext {
  /** Aborted when the call is cancelled or the transport closes. */
  signal: AbortSignal;
  /** Sends `notifications/progress` when the caller asked for it; a no-op otherwise. */
  progress(update: ProgressUpdate): void;
  /**
   * Sends `notifications/message` when the client wants this level: at or above the
   * level a legacy client set (`logging/setLevel`; everything before it sets one), or
   * the `logLevel` of a 2026-07-28 request (nothing when the request has none).
   */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /** Whether the caller asked for progress (a progressToken was sent). */
  readonly wantsProgress: boolean;
  /** The revision the response will be shaped for, e.g. "2025-06-18" or "2026-07-28". */
  readonly revision: string;
  /** The request's `params._meta` (progress token, trace context...), or `{}`. */
  readonly meta: Readonly<Record<string, unknown>>;
}

/** Who a content block is for, and how much it matters (kept where the revision has them). */
export interface ContentAnnotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  /** ISO 8601; sent to 2025-06-18 and later. */
  lastModified?: string;
}

interface BlockBase {
  annotations?: ContentAnnotations;
  /** Sent to 2025-06-18 and later. */
  _meta?: Record<string, unknown>;
}

export interface TextContent extends BlockBase {
  type: 'text';
  text: string;
}

export interface ImageContent extends BlockBase {
  type: 'image';
  /** Base64. */
  data: string;
  mimeType: string;
}

/** 2025-03-26 and later; to an older client it becomes a text block saying what was left out. */
export interface AudioContent extends BlockBase {
  type: 'audio';
  /** Base64. */
  data: string;
  mimeType: string;
}

/** 2025-06-18 and later; to an older client it becomes a text block naming the URI. */
export interface ResourceLink extends BlockBase {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: Record<string, unknown> }
  | { uri: string; mimeType?: string; blob: string; _meta?: Record<string, unknown> };

export interface EmbeddedResource extends BlockBase {
  type: 'resource';
  resource: ResourceContents;
}

export type ContentBlock =
  TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/**
 * A tool's outcome. Failures are results (`isError: true`), never protocol errors.
 * `text` is shorthand for a first text block; `content` holds any blocks (after it).
 */
export type ToolResult = (
  { text: string; content?: ContentBlock[] } | { text?: string; content: ContentBlock[] }
) & {
  isError?: boolean;
  structuredContent?: unknown;
  /** The result's `_meta`. */
  _meta?: Record<string, unknown>;
};

export interface Tool<S extends ToolSchema = ToolSchema> extends ToolDescriptor<S> {
  run(args: ArgsOf<S>, context: ToolContext): ToolResult | Promise<ToolResult>;
  /**
   * `false`: the tool needs no dispatch wrapper (no output capture), so its calls skip the
   * serialized queue and run side by side, up to the server's `maxConcurrentCalls`. What
   * it writes to stdout or stderr while a captured tool runs lands in that tool's report.
   * Default `true`: wrapped and serialized, one run at a time.
   */
  capture?: boolean;
}

/**
 * Types a tool on its own (for `tools: [...]` or a module of tools): `run`'s arguments
 * are inferred from `inputSchema`, as `server.register` does.
 */
export function defineTool<const S extends ToolSchema>(tool: Tool<S>): Tool {
  return tool as unknown as Tool;
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

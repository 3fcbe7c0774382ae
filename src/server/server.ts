import { ErrorCode, ProtocolError } from '../protocol/errors.js';
import {
  classify,
  encodeFrame,
  errorFrame,
  isJsonObject,
  notificationFrame,
  parseLine,
  resultFrame,
  type InboundMessage,
  type JsonObject,
  type NotificationMessage,
  type RequestMessage,
} from '../protocol/message.js';
import {
  RawIntegerId,
  isValidIdValue,
  requestIdKey,
  type RequestId,
} from '../protocol/request-id.js';
import {
  LATEST_LEGACY_REVISION,
  LOG_LEVELS,
  META,
  MODERN_REVISIONS,
  isLegacyRevision,
  isModernRevision,
  type LegacyRevision,
  type Revision,
} from '../protocol/revisions.js';
import type { InboundLine, Transport } from '../transport/transport.js';
import { ToolRegistry, type RegisteredTool } from './registry.js';
import { describeErrors } from './schema-validator.js';
import {
  shapeIdentity,
  shapeToolDescriptor,
  shapeToolResult,
  type ServerIdentity,
} from './shape.js';
import type {
  ArgsOf,
  ContentBlock,
  DispatchWrapper,
  LogLevel,
  Tool,
  ToolResult,
  ToolSchema,
} from './tool.js';
import { ToolCall, type CallHost } from './tool-call.js';

export interface ServerOptions extends ServerIdentity {
  /** Hint text for the model, sent in `initialize` and `server/discover` results. */
  instructions?: string;
  tools?: readonly Tool[];
  /**
   * Wraps every tool run (e.g. output capture); wrapped runs are serialized. Tools
   * registered with `capture: false` skip it and run side by side.
   */
  dispatch?: DispatchWrapper;
  /** Server diagnostics, one line each (e.g. to the real stderr). Silent by default. */
  log?: (line: string) => void;
  /** How long a cancelled tool may take to wind down before its slot is released. */
  abortGraceMs?: number;
  /**
   * Most tool calls waiting behind the running one (default 1,024). A call beyond it is
   * answered at once with an isError "busy" result, so queued work cannot grow memory.
   */
  maxQueuedCalls?: number;
  /**
   * Most calls of `capture: false` tools running at once (default 16); more wait their
   * turn. Tools that are captured run one at a time whatever this is.
   */
  maxConcurrentCalls?: number;
}

export const DEFAULT_MAX_QUEUED_CALLS = 1024;
export const DEFAULT_MAX_CONCURRENT_CALLS = 16;

/** `ttlMs`/`cacheScope` of the tool list (docs/PROTOCOL.md, "Modern era"). */
const CACHE_HINTS = { ttlMs: 3_600_000, cacheScope: 'public' } as const;
const MODERN_METHODS = new Set([
  'server/discover',
  'tools/list',
  'tools/call',
  'subscriptions/listen',
]);
const NOT_INITIALIZED = 'Server not initialized: send initialize first, or send modern _meta';

/** What answering one line produces: a frame, a batch of frames, or nothing. */
type Reply = JsonObject | JsonObject[] | null;

type InFlight =
  { kind: 'tool'; call: ToolCall } | { kind: 'listen'; id: RequestId; toolsListChanged: boolean };

/** What this server offers, in both eras (docs/PROTOCOL.md, "Capabilities"). */
const CAPABILITIES = { tools: { listChanged: true }, logging: {} } as const;

/**
 * The least time between a call's last progress notification and its response: the
 * official v1 client handles a response that arrives in the same read as a notification
 * before the notification, and drops it (docs/PROTOCOL.md, "Progress").
 */
const PROGRESS_GAP_MS = 10;

class ToolRunAborted extends Error {}

const passThrough: DispatchWrapper = (run) => run();

/**
 * A tools-only MCP server for both eras at once: legacy sessions opened by
 * `initialize` and stateless 2026-07-28 requests carrying `_meta`.
 */
export class McpServer {
  private readonly identity: ServerIdentity;
  private readonly instructions: string | undefined;
  private readonly registry = new ToolRegistry();
  private log: (line: string) => void;
  private readonly abortGraceMs: number;
  private readonly maxQueuedCalls: number;
  private readonly maxConcurrentCalls: number;
  private dispatch: DispatchWrapper;
  private session:
    { revision: LegacyRevision; initialized: boolean; logLevel: LogLevel | undefined } | undefined;
  private listChangedPending = false;
  private readonly inFlight = new Map<string, InFlight>();
  private toolQueue: Promise<unknown> = Promise.resolve();
  /** Runs enqueued and not yet started. */
  private queuedRuns = 0;
  /** Runs enqueued and not yet settled: the running one plus those waiting behind it. */
  private pendingRuns = 0;
  /** Uncaptured runs (`capture: false`) started and not yet settled. */
  private readonly concurrentRuns = new Set<Promise<unknown>>();
  /** Slots of maxConcurrentCalls taken (a finished run hands its slot to the next waiting). */
  private concurrentSlots = 0;
  /** Uncaptured runs waiting for a slot, first come first served. */
  private readonly concurrentWaiting: Array<() => void> = [];
  private readonly callHost: CallHost;
  private transport: Transport | undefined;
  private closed = false;
  /** Set while the output is full: reading waits, so a client that never reads cannot grow our memory. */
  private writeBlocked: Promise<void> | undefined;

  constructor(options: ServerOptions) {
    const { name, version, title, description, websiteUrl } = options;
    this.identity = { name, version, title, description, websiteUrl };
    this.instructions = options.instructions;
    this.dispatch = options.dispatch ?? passThrough;
    this.log = options.log ?? (() => {});
    this.abortGraceMs = options.abortGraceMs ?? 1000;
    this.maxQueuedCalls = options.maxQueuedCalls ?? DEFAULT_MAX_QUEUED_CALLS;
    if (!Number.isSafeInteger(this.maxQueuedCalls) || this.maxQueuedCalls < 0) {
      throw new TypeError(
        `maxQueuedCalls must be a non-negative integer (got ${String(options.maxQueuedCalls)})`,
      );
    }
    this.maxConcurrentCalls = options.maxConcurrentCalls ?? DEFAULT_MAX_CONCURRENT_CALLS;
    if (!Number.isSafeInteger(this.maxConcurrentCalls) || this.maxConcurrentCalls < 1) {
      throw new TypeError(
        `maxConcurrentCalls must be a positive integer (got ${String(options.maxConcurrentCalls)})`,
      );
    }
    for (const tool of options.tools ?? []) this.register(tool);
    const server = () => this;
    this.callHost = {
      get closed() {
        return server().closed;
      },
      get queuedRuns() {
        return server().queuedRuns;
      },
      send: (frame) => this.send(frame),
      log: (level, data, logger, call) => {
        const meta = call.meta[META.logLevel];
        const threshold = isModernRevision(call.revision)
          ? (meta as LogLevel | undefined)
          : (this.session?.logLevel ?? 'debug');
        if (threshold !== undefined) this.sendLog(level, data, logger, threshold);
      },
    };
  }

  /**
   * Adds a tool; a name already registered throws EDUPLICATE_TOOL (`unregister` it first
   * to replace it). The tool's schemas
   * are checked and compiled now: a bad one (an unresolvable `$ref`...) throws, naming it.
   * `run`'s arguments are typed from `inputSchema` (an `as const` JSON Schema or a Standard Schema).
   */
  register<const S extends ToolSchema>(tool: Tool<S>): this {
    this.registry.register(tool as unknown as Tool);
    this.toolsChanged();
    return this;
  }

  /** Removes a tool; false when none had that name. Clients are told the list changed. */
  unregister(name: string): boolean {
    const removed = this.registry.unregister(name);
    if (removed) this.toolsChanged();
    return removed;
  }

  /**
   * Sends a log message to a legacy session, if its level (`logging/setLevel`; all
   * levels until it sets one) lets it through. 2026-07-28 clients get log messages only
   * for their own requests (`context.log`). Returns whether it was sent.
   */
  notifyLog(level: LogLevel, data: unknown, logger?: string): boolean {
    if (!this.session || this.closed) return false;
    return this.sendLog(level, data, logger, this.session.logLevel ?? 'debug');
  }

  private sendLog(
    level: LogLevel,
    data: unknown,
    logger: string | undefined,
    threshold: LogLevel,
  ): boolean {
    const rank = LOG_LEVELS.indexOf(level);
    if (rank < 0 || rank < LOG_LEVELS.indexOf(threshold)) return false;
    const params: JsonObject = { level, data: data === undefined ? null : data };
    if (logger !== undefined) params.logger = logger;
    this.send(notificationFrame('notifications/message', params));
    return true;
  }

  /** Tells connected clients the tool list changed: once per tick, however many changes. */
  private toolsChanged(): void {
    if (this.listChangedPending || !this.transport) return;
    this.listChangedPending = true;
    queueMicrotask(() => {
      this.listChangedPending = false;
      if (this.closed) return;
      if (this.session) this.send(notificationFrame('notifications/tools/list_changed', {}));
      for (const entry of this.inFlight.values()) {
        if (entry.kind === 'listen' && entry.toolsListChanged) {
          this.send(
            notificationFrame('notifications/tools/list_changed', {
              _meta: { [META.subscriptionId]: entry.id },
            }),
          );
        }
      }
    });
  }

  /** Sets the wrapper every tool run goes through. */
  setDispatch(wrapper: DispatchWrapper): this {
    this.dispatch = wrapper;
    return this;
  }

  /** Sets where the server's own diagnostics go (one line each). */
  setLog(log: (line: string) => void): this {
    this.log = log;
    return this;
  }

  /** Serves until the transport reports end of input; then aborts work and flushes. */
  async serve(transport: Transport): Promise<void> {
    this.transport = transport;
    let inputEnded = false;
    const ended = transport.inputEnded?.then(() => (inputEnded = true));
    for (;;) {
      // A full output pauses reading, so a client that never reads cannot grow our
      // memory; but once the input has ended (EOF, signal), nothing more can arrive:
      // the lines left are few (the read-ahead), and waiting on a client that stopped
      // reading would hold the shutdown forever.
      if (this.writeBlocked && !inputEnded) {
        await (ended ? Promise.race([this.writeBlocked, ended]) : this.writeBlocked);
      }
      let line = transport.read();
      if (isThenable(line)) line = await line;
      if (line === null) break;
      this.handleLine(line);
    }
    await this.shutdown();
  }

  private async shutdown(): Promise<void> {
    this.closed = true;
    const subscriptions: RequestId[] = [];
    for (const entry of this.inFlight.values()) {
      if (entry.kind === 'tool') entry.call.abort(new Error('the client closed the connection'));
      else subscriptions.push(entry.id);
    }
    await Promise.race([
      Promise.all([this.toolQueue, ...this.concurrentRuns]),
      delay(this.abortGraceMs + 250),
    ]);
    // Graceful end of listen streams: a result, never a server-sent cancel (docs/PROTOCOL.md section 9).
    for (const id of subscriptions) {
      this.send(resultFrame(id, this.stampModern({ _meta: { [META.subscriptionId]: id } })));
    }
    await this.transport?.close();
  }

  private send(frame: JsonObject): void {
    const transport = this.transport;
    if (!transport) return;
    let pending: void | Promise<void>;
    try {
      pending = transport.write(encodeFrame(frame));
    } catch (error) {
      this.log(`mcp-gates: could not write a frame: ${String(error)}`);
      return;
    }
    if (!pending) return;
    const blocked: Promise<void> = pending
      .catch((error: unknown) => this.log(`mcp-gates: could not write a frame: ${String(error)}`))
      .then(() => {
        if (this.writeBlocked === blocked) this.writeBlocked = undefined;
      });
    this.writeBlocked = blocked;
  }

  /** Handles one line; synchronous requests are answered before this returns. */
  private handleLine(line: InboundLine): void {
    let reply: Reply | Promise<Reply>;
    try {
      if (line.kind === 'oversize') {
        reply = errorFrame(
          null,
          new ProtocolError(
            ErrorCode.InvalidRequest,
            `Invalid Request: a line of ${line.bytes} bytes exceeds the server's line limit and was discarded`,
          ),
        );
      } else {
        const parsed = parseLine(line.text);
        reply =
          'batch' in parsed
            ? this.handleBatch(parsed.batch)
            : this.handleMessage(parsed.message, false);
      }
    } catch (error) {
      this.log(`mcp-gates: internal error while handling a line: ${describeThrown(error)}`);
      return;
    }
    if (!isThenable(reply)) {
      if (reply !== null) this.send(reply as JsonObject);
      return;
    }
    reply.then(
      (settled) => {
        if (settled !== null) this.send(settled as JsonObject);
      },
      (error: unknown) =>
        this.log(`mcp-gates: internal error while handling a line: ${describeThrown(error)}`),
    );
  }

  /** JSON-RPC batches exist only in a 2025-03-26 session (docs/PROTOCOL.md section 2). */
  private async handleBatch(batch: unknown[]): Promise<Reply> {
    if (this.session?.revision !== '2025-03-26') {
      return errorFrame(
        null,
        new ProtocolError(ErrorCode.InvalidRequest, 'Invalid Request: batches are not supported'),
      );
    }
    if (batch.length === 0) {
      return errorFrame(
        null,
        new ProtocolError(ErrorCode.InvalidRequest, 'Invalid Request: empty batch'),
      );
    }
    const replies = await Promise.all(
      batch.map((value) => this.handleMessage(classify(value), true)),
    );
    const answered = replies.filter((reply): reply is JsonObject => reply !== null);
    return answered.length > 0 ? answered : null;
  }

  private handleMessage(
    message: InboundMessage,
    inBatch: boolean,
  ): JsonObject | null | Promise<JsonObject | null> {
    switch (message.kind) {
      case 'invalid':
        return errorFrame(message.id, message.error);
      case 'response':
        this.log('mcp-gates: ignored a response object: this server sends no requests');
        return null;
      case 'notification':
        this.handleNotification(message);
        return null;
      case 'request':
        return this.handleRequest(message, inBatch);
    }
  }

  private handleNotification(message: NotificationMessage): void {
    if (message.method === 'notifications/cancelled') {
      const requestId = message.params?.requestId;
      if (!isValidIdValue(requestId) && !(requestId instanceof RawIntegerId)) return;
      const key = requestIdKey(requestId);
      const entry = this.inFlight.get(key);
      if (entry?.kind === 'tool') {
        const reason = message.params?.reason;
        entry.call.abort(
          new Error(typeof reason === 'string' ? reason : 'cancelled by the client'),
        );
      } else if (entry?.kind === 'listen') {
        this.inFlight.delete(key);
      }
      return;
    }
    if (message.method === 'notifications/initialized') {
      if (this.session) this.session.initialized = true;
      return;
    }
    if (message.nullId) {
      this.log(
        `mcp-gates: ignored "${message.method}" sent with "id": null (MCP ids are never null)`,
      );
    }
  }

  private handleRequest(
    message: RequestMessage,
    inBatch: boolean,
  ): JsonObject | null | Promise<JsonObject | null> {
    const { id } = message;
    if (this.inFlight.has(requestIdKey(id))) {
      return errorFrame(
        id,
        new ProtocolError(
          ErrorCode.InvalidRequest,
          'Invalid Request: duplicate request id: a request with this id is still in flight',
        ),
      );
    }
    try {
      const reply = this.route(message, inBatch);
      if (!isThenable(reply)) return reply;
      return reply.catch((error: unknown) => this.errorReply(message, error));
    } catch (error) {
      return this.errorReply(message, error);
    }
  }

  private errorReply(message: RequestMessage, error: unknown): JsonObject {
    if (error instanceof ProtocolError) return errorFrame(message.id, error);
    this.log(
      `mcp-gates: internal error in ${message.method}: ${(error as Error)?.stack ?? String(error)}`,
    );
    return errorFrame(message.id, new ProtocolError(ErrorCode.InternalError, 'Internal error'));
  }

  /** The era dispatcher of docs/PROTOCOL.md section 3. */
  private route(
    message: RequestMessage,
    inBatch: boolean,
  ): Promise<JsonObject | null> | JsonObject | null {
    const { id, method, params } = message;
    const meta = params?._meta;
    if (isJsonObject(meta) && Object.hasOwn(meta, META.protocolVersion)) {
      return this.routeModern(message, meta);
    }
    if (method === 'initialize') {
      if (inBatch) {
        throw new ProtocolError(
          ErrorCode.InvalidRequest,
          'Invalid Request: initialize must not be batched',
        );
      }
      return resultFrame(id, this.initialize(params));
    }
    if (method === 'ping') return resultFrame(id, {});
    if (method === 'server/discover' || method === 'subscriptions/listen') {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Invalid params: ${method} needs params._meta with "${META.protocolVersion}"`,
      );
    }
    if (!this.session) throw new ProtocolError(ErrorCode.InvalidRequest, NOT_INITIALIZED);
    const revision = this.session.revision;
    switch (method) {
      case 'tools/list':
        return resultFrame(id, this.listTools(params, revision));
      case 'tools/call':
        return this.callTool(message, revision);
      case 'logging/setLevel': {
        const level = params?.level;
        if (!(LOG_LEVELS as readonly unknown[]).includes(level)) {
          throw invalidParams(`logging/setLevel "level" must be one of ${LOG_LEVELS.join(', ')}`);
        }
        this.session.logLevel = level as LogLevel;
        return resultFrame(id, {});
      }
      default:
        throw methodNotFound(method);
    }
  }

  private initialize(params: JsonObject | undefined): JsonObject {
    if (this.session) {
      throw new ProtocolError(
        ErrorCode.InvalidRequest,
        `Invalid Request: already initialized (protocol ${this.session.revision}); start a new process for a new session`,
      );
    }
    if (!params || typeof params.protocolVersion !== 'string') {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        'Invalid params: initialize needs a string "protocolVersion"',
      );
    }
    if (!isJsonObject(params.capabilities)) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        'Invalid params: initialize needs a "capabilities" object',
      );
    }
    if (!isImplementation(params.clientInfo)) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        'Invalid params: initialize needs "clientInfo" with string "name" and "version"',
      );
    }
    const requested = params.protocolVersion;
    const revision = isLegacyRevision(requested) ? requested : LATEST_LEGACY_REVISION;
    this.session = { revision, initialized: false, logLevel: undefined };
    const result: JsonObject = {
      protocolVersion: revision,
      capabilities: CAPABILITIES,
      serverInfo: shapeIdentity(this.identity, revision),
    };
    if (this.instructions !== undefined) result.instructions = this.instructions;
    return result;
  }

  private routeModern(
    message: RequestMessage,
    meta: JsonObject,
  ): Promise<JsonObject | null> | JsonObject | null {
    const { id, method, params } = message;
    const version = meta[META.protocolVersion];
    if (typeof version !== 'string') {
      throw invalidParams(`_meta "${META.protocolVersion}" must be a string`);
    }
    if (!isModernRevision(version)) {
      throw new ProtocolError(
        ErrorCode.UnsupportedProtocolVersion,
        'Unsupported protocol version',
        {
          supported: [...MODERN_REVISIONS],
          requested: version,
        },
      );
    }
    if (!MODERN_METHODS.has(method)) throw methodNotFound(method);
    validateEnvelope(meta);

    switch (method) {
      case 'server/discover': {
        const result: JsonObject = {
          supportedVersions: [...MODERN_REVISIONS],
          capabilities: CAPABILITIES,
        };
        if (this.instructions !== undefined) result.instructions = this.instructions;
        return resultFrame(id, this.stampModern({ ...result, ...CACHE_HINTS }));
      }
      case 'tools/list':
        return resultFrame(
          id,
          this.stampModern({ ...this.listTools(params, version), ...CACHE_HINTS }),
        );
      case 'subscriptions/listen':
        return this.listen(id, params!);
      default:
        return this.callTool(message, version);
    }
  }

  /** Adds the 2026-07-28 result vocabulary: `resultType` and the server's identity. */
  private stampModern(result: JsonObject): JsonObject {
    const meta = isJsonObject(result._meta) ? result._meta : {};
    return {
      resultType: 'complete',
      ...result,
      _meta: { ...meta, [META.serverInfo]: shapeIdentity(this.identity, MODERN_REVISIONS[0]) },
    };
  }

  /** `subscriptions/listen`: acknowledge, honour `toolsListChanged` only, stay open. */
  private listen(id: RequestId, params: JsonObject): null {
    const filter = params.notifications;
    if (!isJsonObject(filter)) {
      throw invalidParams('subscriptions/listen needs a "notifications" filter object');
    }
    const toolsListChanged = filter.toolsListChanged === true;
    this.inFlight.set(requestIdKey(id), { kind: 'listen', id, toolsListChanged });
    this.send(
      notificationFrame('notifications/subscriptions/acknowledged', {
        _meta: { [META.subscriptionId]: id },
        notifications: toolsListChanged ? { toolsListChanged: true } : {},
      }),
    );
    return null;
  }

  private listTools(params: JsonObject | undefined, revision: Revision): JsonObject {
    if (params?.cursor !== undefined) {
      throw invalidParams('unknown cursor: this server returns its whole tool list in one page');
    }
    return { tools: this.registry.list().map((entry) => shapeToolDescriptor(entry, revision)) };
  }

  private async callTool(message: RequestMessage, revision: Revision): Promise<JsonObject | null> {
    const { id, params } = message;
    const modern = isModernRevision(revision);
    const name = params?.name;
    if (typeof name !== 'string') throw invalidParams('tools/call needs a string "name"');
    const args = params!.arguments;
    if (args !== undefined && !isJsonObject(args)) {
      throw invalidParams('tools/call "arguments" must be an object');
    }
    const entry = this.registry.get(name);
    if (!entry) throw invalidParams(`Unknown tool: ${name}`);

    const answer = (result: ToolResult): JsonObject => {
      const shaped = shapeToolResult(entry, result, revision);
      return resultFrame(id, modern ? this.stampModern(shaped) : shaped);
    };
    let input: unknown = args ?? {};
    const validateInput = compiled(() => entry.validateInput);
    if (!validateInput(input)) {
      const text = `Invalid arguments for tool "${name}":\n${describeErrors(validateInput)}`;
      return answer({ text, isError: true });
    }
    if (entry.parseInput) {
      // The schema library's own parse: defaults, transforms, refinements JSON Schema lacks.
      const parsed = await entry.parseInput.validate(input);
      if (parsed.issues) {
        const text = `Invalid arguments for tool "${name}":\n${describeIssues(parsed.issues)}`;
        return answer({ text, isError: true });
      }
      input = parsed.value;
    }

    const uncaptured = entry.tool.capture === false;
    if (
      uncaptured
        ? this.concurrentSlots >= this.maxConcurrentCalls &&
          this.concurrentWaiting.length >= this.maxQueuedCalls
        : this.pendingRuns > this.maxQueuedCalls
    ) {
      return answer(this.busyResult(uncaptured));
    }

    const key = requestIdKey(id);
    const meta = params!._meta;
    const call = new ToolCall(this.callHost, name, revision, isJsonObject(meta) ? meta : {});
    this.inFlight.set(key, { kind: 'tool', call });
    try {
      const result = uncaptured
        ? await this.runBeside(() => this.runTool(entry, input, call, passThrough))
        : await this.enqueue(() => this.runTool(entry, input, call, this.dispatch));
      const gap = call.lastProgressAt + PROGRESS_GAP_MS - performance.now();
      if (gap > 0 && result !== null) await delay(gap);
      call.finish();
      if (result === null || call.aborted || this.closed) return null;
      return answer(result);
    } finally {
      call.finish();
      this.inFlight.delete(key);
    }
  }

  private busyResult(uncaptured: boolean): ToolResult {
    const queued = uncaptured
      ? `${this.concurrentWaiting.length} tool calls are already waiting behind the ${this.maxConcurrentCalls} running side by side`
      : `${this.pendingRuns - 1} tool calls are already queued behind the running one`;
    return {
      text:
        `Server busy: ${queued} (the limit is ${this.maxQueuedCalls}), so this call was not queued and did not run. ` +
        'Wait for the queued calls to finish (or cancel some), then call again.',
      isError: true,
    };
  }

  /**
   * Runs an uncaptured call (`capture: false`) outside the serialized queue, at most
   * `maxConcurrentCalls` at once: no dispatch wrapper runs around it, so nothing
   * process-wide needs it to wait.
   */
  private async runBeside<T>(job: () => Promise<T>): Promise<T> {
    if (this.concurrentSlots >= this.maxConcurrentCalls) {
      await new Promise<void>((resolve) => this.concurrentWaiting.push(resolve));
    } else {
      this.concurrentSlots++;
    }
    const run = job();
    const settled = run.catch(() => {});
    this.concurrentRuns.add(settled);
    try {
      return await run;
    } finally {
      this.concurrentRuns.delete(settled);
      const next = this.concurrentWaiting.shift();
      if (next) next();
      else this.concurrentSlots--;
    }
  }

  /** Tool runs are serialized in arrival order: the dispatch wrapper may be process-global. */
  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    this.queuedRuns++;
    this.pendingRuns++;
    const run = this.toolQueue
      .then(() => {
        this.queuedRuns--;
        return job();
      })
      .finally(() => this.pendingRuns--);
    this.toolQueue = run.catch(() => {});
    return run;
  }

  private async runTool(
    entry: RegisteredTool,
    args: unknown,
    call: ToolCall,
    dispatch: DispatchWrapper,
  ): Promise<ToolResult | null> {
    if (call.aborted) return null; // cancelled while queued: never started
    const { tool } = entry;
    const invoke = (): Promise<ToolResult> => {
      let value: ToolResult | Promise<ToolResult>;
      try {
        value = tool.run(args as ArgsOf<ToolSchema>, call);
      } catch (error) {
        return Promise.reject(error);
      }
      if (!isThenable(value)) return Promise.resolve(value);
      return settleOrAbandon(Promise.resolve(value), call.signal, this.abortGraceMs);
    };
    let result: ToolResult;
    try {
      result = checkResultShape(await dispatch(invoke, call), tool.name);
    } catch (error) {
      if (call.aborted) return null;
      result = { text: `Tool "${tool.name}" failed: ${describeThrown(error)}`, isError: true };
    }
    const validateOutput = result.isError ? undefined : compiled(() => entry.validateOutput);
    if (validateOutput) {
      // As the SDKs do: a result its outputSchema refuses is the tool's failure, not the protocol's.
      if (result.structuredContent === undefined) {
        return {
          text: `Tool "${tool.name}" declares an outputSchema but returned no structuredContent: return structuredContent that matches it, or isError: true`,
          isError: true,
        };
      }
      if (!validateOutput(result.structuredContent)) {
        return {
          text: `Tool "${tool.name}" returned structuredContent that does not match its outputSchema:\n${describeErrors(validateOutput)}`,
          isError: true,
        };
      }
    }
    return result;
  }
}

function invalidParams(detail: string): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, `Invalid params: ${detail}`);
}

function methodNotFound(method: string): ProtocolError {
  return new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
}

function isImplementation(value: unknown): boolean {
  return isJsonObject(value) && typeof value.name === 'string' && typeof value.version === 'string';
}

/** The `_meta` checks of docs/PROTOCOL.md section 3. */
function validateEnvelope(meta: JsonObject): void {
  if (!isJsonObject(meta[META.clientCapabilities])) {
    throw invalidParams(`_meta needs a "${META.clientCapabilities}" object`);
  }
  if (Object.hasOwn(meta, META.clientInfo) && !isImplementation(meta[META.clientInfo])) {
    throw invalidParams(`_meta "${META.clientInfo}" needs string "name" and "version"`);
  }
  if (
    Object.hasOwn(meta, META.logLevel) &&
    !(LOG_LEVELS as readonly unknown[]).includes(meta[META.logLevel])
  ) {
    throw invalidParams(`_meta "${META.logLevel}" must be one of ${LOG_LEVELS.join(', ')}`);
  }
  if (Object.hasOwn(meta, 'progressToken') && !isValidIdValue(meta.progressToken)) {
    throw invalidParams('_meta "progressToken" must be a string or an integer');
  }
}

/**
 * Waits for the tool; once aborted, waits at most `graceMs` more so a tool that
 * never settles cannot hold the serialized queue (or the capture guard) forever.
 */
function settleOrAbandon(
  pending: Promise<ToolResult>,
  signal: AbortSignal,
  graceMs: number,
): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      timer = setTimeout(() => reject(new ToolRunAborted('abandoned after cancellation')), graceMs);
    };
    pending.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * A validator, compiled on first use. registration checked the schema, so one that
 * still does not compile is a bug (ours or ajv's): an internal error naming the tool.
 */
function compiled<T>(get: () => T): T {
  try {
    return get();
  } catch (error) {
    throw new ProtocolError(ErrorCode.InternalError, `Internal error: ${(error as Error).message}`);
  }
}

/** One line per issue of a Standard Schema parse, e.g. `/city: Expected string`. */
function describeIssues(
  issues: ReadonlyArray<{
    message: string;
    path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined;
  }>,
): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? [])
        .map((segment) => `/${String(typeof segment === 'object' ? segment.key : segment)}`)
        .join('');
      return `${path || '(root)'}: ${issue.message}`;
    })
    .join('\n');
}

const STRING_FIELDS: Record<ContentBlock['type'], readonly string[]> = {
  text: ['text'],
  image: ['data', 'mimeType'],
  audio: ['data', 'mimeType'],
  resource_link: ['uri', 'name'],
  resource: [],
};

/** Why a content block is malformed, or undefined when it is fine. */
function contentProblem(block: unknown): string | undefined {
  if (!isJsonObject(block)) return 'is not an object';
  const required = STRING_FIELDS[block.type as ContentBlock['type']];
  if (!required || !Object.hasOwn(STRING_FIELDS, block.type as string)) {
    return `has unknown type ${JSON.stringify(block.type)} (use text, image, audio, resource_link or resource)`;
  }
  for (const field of required) {
    if (typeof block[field] !== 'string')
      return `("${block.type as string}") needs a string "${field}"`;
  }
  if (block.type === 'resource') {
    const resource = block.resource;
    if (
      !isJsonObject(resource) ||
      typeof resource.uri !== 'string' ||
      (typeof resource.text !== 'string' && typeof resource.blob !== 'string')
    ) {
      return '("resource") needs "resource": {uri, text} or {uri, blob} with strings';
    }
  }
  if (block.annotations !== undefined && !isJsonObject(block.annotations)) {
    return '"annotations" must be an object';
  }
  if (block._meta !== undefined && !isJsonObject(block._meta)) return '"_meta" must be an object';
  return undefined;
}

function checkResultShape(result: unknown, toolName: string): ToolResult {
  const malformed = (why: string): ToolResult => ({
    text: `Tool "${toolName}" returned a malformed result: ${why}`,
    isError: true,
  });
  if (!isJsonObject(result))
    return malformed('expected an object like {text?, content?, isError?, structuredContent?}');
  if (result.text !== undefined && typeof result.text !== 'string') {
    return malformed('"text" must be a string');
  }
  if (result.content !== undefined) {
    if (!Array.isArray(result.content)) return malformed('"content" must be an array of blocks');
    for (const [index, block] of result.content.entries()) {
      const problem = contentProblem(block);
      if (problem !== undefined) return malformed(`content[${index}] ${problem}`);
    }
  }
  if (result.text === undefined && result.content === undefined) {
    return malformed('it needs "text" or a "content" array');
  }
  if (result.isError !== undefined && typeof result.isError !== 'boolean') {
    return malformed('"isError" must be a boolean');
  }
  if (result._meta !== undefined && !isJsonObject(result._meta)) {
    return malformed('"_meta" must be an object');
  }
  if (result.structuredContent !== undefined) {
    try {
      JSON.stringify(result.structuredContent);
    } catch (error) {
      return malformed(
        `"structuredContent" is not JSON-serializable (${(error as Error).message})`,
      );
    }
  }
  return result as unknown as ToolResult;
}

function describeThrown(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

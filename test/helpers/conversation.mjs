// A replay-double conversation with a McpServer in which every frame the server
// writes is validated against the schema of the revision it answers.
import { McpServer, ReplayTransport } from '../../dist/index.js';
import { frameViolations } from './schema.mjs';
import { scaled } from './machine-speed.mjs';

export const PV = 'io.modelcontextprotocol/protocolVersion';
export const MODERN = '2026-07-28';

/** A valid modern envelope, optionally with extra `_meta` members. */
export function modernMeta(extra = {}) {
  return { [PV]: MODERN, 'io.modelcontextprotocol/clientCapabilities': {}, ...extra };
}

export function idKey(id) {
  return `${typeof id}:${id}`;
}

export function testTools() {
  return [
    {
      name: 'echo',
      title: 'Echo',
      description: 'Returns its text',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
      run: ({ text }) => ({ text }),
    },
    {
      name: 'slow',
      description: 'Waits, reports progress, honours cancellation',
      inputSchema: { type: 'object', properties: { ms: { type: 'integer', minimum: 0 } } },
      run: ({ ms = 200 }, { signal, progress }) =>
        new Promise((resolve) => {
          let step = 0;
          const tick = setInterval(
            () => progress({ progress: ++step, total: 10, message: `step ${step}` }),
            ms / 10,
          );
          const timer = setTimeout(() => {
            clearInterval(tick);
            resolve({ text: `waited ${ms} ms` });
          }, ms);
          signal.addEventListener('abort', () => {
            clearInterval(tick);
            clearTimeout(timer);
            resolve({ text: 'aborted' });
          });
        }),
    },
    {
      name: 'structured',
      description: 'Returns structured output',
      inputSchema: { type: 'object', additionalProperties: false },
      outputSchema: {
        type: 'object',
        properties: { count: { type: 'integer' } },
        required: ['count'],
      },
      run: () => ({ text: '{"count":3}', structuredContent: { count: 3 } }),
    },
    {
      name: 'list_output',
      description: 'Returns an array as structured output',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'array', items: { type: 'string' } },
      run: () => ({ text: '["a","b"]', structuredContent: ['a', 'b'] }),
    },
    {
      name: 'throws',
      description: 'Throws',
      inputSchema: { type: 'object' },
      run: () => {
        throw new Error('boom on purpose');
      },
    },
  ];
}

/** A tool that counts its runs (`tool.runs`), to prove a frame never ran it. */
export function countingTool() {
  const tool = {
    name: 'count',
    inputSchema: { type: 'object' },
    runs: 0,
    run: () => ({ text: String(++tool.runs) }),
  };
  return tool;
}

export class Conversation {
  constructor(options = {}) {
    this.transport = new ReplayTransport();
    this.server = new McpServer({
      name: 'test-server',
      version: '1.2.3',
      title: 'Test Server',
      description: 'A server under test',
      websiteUrl: 'https://example.com',
      instructions: 'Use the tools.',
      tools: testTools(),
      abortGraceMs: 200,
      ...options,
    });
    this.requests = new Map();
    this.sessionRevision = undefined;
    this.violations = [];
    this.frames = [];
    this.waiters = [];
    const write = this.transport.write.bind(this.transport);
    this.transport.write = async (line) => {
      this.inspect(line);
      return write(line);
    };
    this.served = this.server.serve(this.transport);
    this.nextId = 1;
  }

  /** Sends a raw line, or an object serialized as one line. */
  send(message) {
    const line = typeof message === 'string' ? message : JSON.stringify(message);
    try {
      const value = JSON.parse(line);
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item && typeof item === 'object' && 'id' in item && typeof item.method === 'string') {
          const meta = item.params?._meta;
          const modern = meta !== null && typeof meta === 'object' && PV in meta;
          // A duplicate of an unanswered id is refused; the original keeps its era.
          if (!this.requests.has(idKey(item.id))) {
            this.requests.set(idKey(item.id), { method: item.method, modern });
          }
        }
      }
    } catch {
      // not JSON: the server answers a parse error
    }
    this.transport.send(line);
  }

  /** Sends a request and resolves with its response frame. */
  async request(method, params, id = this.nextId++) {
    const message = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message.params = params;
    this.send(message);
    return this.waitFor(
      (frame) => !Array.isArray(frame) && frame.id === id && !('method' in frame),
    );
  }

  /** Sends `notifications/cancelled` for `requestId` (with a reason when given). */
  cancel(requestId, reason) {
    const params = reason === undefined ? { requestId } : { requestId, reason };
    this.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params });
  }

  async initialize(protocolVersion = '2025-11-25') {
    const response = await this.request('initialize', {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'test-client', version: '0.0.1' },
    });
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response;
  }

  modern(method, params = {}, id) {
    return this.request(method, { ...params, _meta: modernMeta(params._meta) }, id);
  }

  /** Resolves with the first frame (already written or future) that matches. */
  waitFor(predicate, timeoutMs = scaled(5000)) {
    const found = this.frames.find(predicate);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('expected frame not written in time')),
        timeoutMs,
      );
      this.waiters.push({ predicate, resolve, timer });
    });
  }

  /** Lets pending work settle, then returns every frame written so far. */
  async settle(ms = 30) {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return this.frames;
  }

  async end() {
    this.transport.end();
    await this.served;
  }

  inspect(line) {
    let frame;
    try {
      frame = JSON.parse(line);
    } catch {
      this.violations.push(`not JSON: ${line.slice(0, 200)}`);
      return;
    }
    this.frames.push(frame);
    const request =
      !Array.isArray(frame) && 'id' in frame ? this.requests.get(idKey(frame.id)) : undefined;
    let revision;
    if (request?.modern || frame.method === 'notifications/subscriptions/acknowledged') {
      revision = MODERN;
    } else if (request?.method === 'initialize' && frame.result) {
      revision = frame.result.protocolVersion;
      this.sessionRevision = revision;
    } else {
      revision = this.sessionRevision ?? '2025-11-25';
    }
    for (const problem of frameViolations(frame, revision, request?.method)) {
      this.violations.push(problem);
    }
    if (request && 'result' in frame) this.requests.delete(idKey(frame.id));
    for (const waiter of [...this.waiters]) {
      if (waiter.predicate(frame)) {
        clearTimeout(waiter.timer);
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      }
    }
  }
}

/**
 * Mocha hooks: a fresh conversation before each test (handed to `assign`, then to the
 * optional `prepare`), ended after it with no schema violation allowed.
 */
export function eachConversation(assign, prepare) {
  let current;
  beforeEach(async () => {
    current = new Conversation();
    assign(current);
    if (prepare) await prepare(current);
  });
  afterEach(async () => {
    await current.end();
    if (current.violations.length > 0) {
      throw new Error(`frames violating the schema:\n${current.violations.join('\n')}`);
    }
  });
}

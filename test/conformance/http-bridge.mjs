#!/usr/bin/env node
// Test infrastructure, not part of the package: a Streamable HTTP front for a stdio MCP
// server, as far as the official conformance suite needs, since the suite speaks only
// HTTP and mcp-gates only stdio.
//
//   node http-bridge.mjs [--port N] [--fresh-stateless] -- <command> [args...]
//
// Prints "listening on http://127.0.0.1:PORT/mcp" on stdout once ready.
// - Each `initialize` POST spawns its own stdio child (one legacy session per process,
//   as over stdio) and gets an Mcp-Session-Id; later POSTs with that header go to it.
//   A POST with no session id that is not `initialize` (modern, stateless requests)
//   goes to one shared child, or with --fresh-stateless to a child of its own that
//   ends with the POST (for servers that pin one era per stdio connection).
// - A POST carrying requests is answered as an SSE stream: whatever the child sends
//   while the stream is open (progress, log messages) is delivered on it, and the stream
//   ends with the last response. Request ids are renumbered on the way to the child, so
//   concurrent clients of the shared child never collide. A POST with only
//   notifications or responses gets 202.
// - Stateless requests follow the 2026-07-28 HTTP binding: Mcp-Protocol-Version and
//   Mcp-Method must match the body (else 400, HeaderMismatch), and a lone error answer
//   is plain JSON with its HTTP status (400 for rejections, 404 for an unknown method).
// - GET (a standalone SSE stream) is 405, which the transport allows; DELETE ends a session.
// - Host and Origin must be loopback (DNS rebinding protection), else 403.
// - A session idle for IDLE_MS, or the oldest idle one beyond MAX_SESSIONS, is ended by
//   closing its child's stdin, which is how a stdio server is told to stop.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';

const IDLE_MS = 5000;
const MAX_SESSIONS = 8;
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

const separator = process.argv.indexOf('--');
const options = process.argv.slice(2, separator > 0 ? separator : undefined);
const freshStateless = options.includes('--fresh-stateless');
const portIndex = options.indexOf('--port');
const port = portIndex >= 0 ? Number(options[portIndex + 1]) : 0;
const command = separator > 0 ? process.argv.slice(separator + 1) : [];
if (command.length === 0) {
  process.stderr.write(
    'usage: http-bridge.mjs [--port N] [--fresh-stateless] -- <command> [args...]\n',
  );
  process.exit(2);
}

/** One stdio child: the requests it owes answers for, and the SSE streams open on it. */
class Child {
  constructor(label) {
    this.label = label;
    this.nextId = 1;
    this.pending = new Map(); // bridge id -> { stream, originalId }
    this.streams = []; // open SSE responses, newest last
    this.lastActive = Date.now();
    this.exited = false;
    this.process = spawn(command[0], command.slice(1), {
      stdio: ['pipe', 'pipe', 'inherit'],
      shell: false,
    });
    this.process.on('error', (error) => this.exit(`could not start: ${error.message}`));
    this.process.on('exit', (code, signal) => this.exit(`exited (${signal ?? code})`));
    this.process.stdin.on('error', () => {}); // EPIPE after an exit: reported by 'exit'
    const lines = createInterface({ input: this.process.stdout });
    lines.on('line', (line) => this.receive(line));
  }

  get busy() {
    return this.pending.size > 0;
  }

  send(message) {
    this.lastActive = Date.now();
    this.process.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Forwards a request, renumbered; its response will be written to `stream`. */
  request(message, stream) {
    const id = this.nextId++;
    this.pending.set(id, { stream, originalId: message.id });
    this.send({ ...message, id });
  }

  receive(line) {
    this.lastActive = Date.now();
    let parsed;
    try {
      parsed = JSON.parse(line);
    } catch {
      process.stderr.write(`http-bridge: ${this.label} wrote a non-JSON line: ${line}\n`);
      return;
    }
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) this.route(message);
  }

  route(message) {
    const isResponse = !('method' in message) && this.pending.has(message.id);
    if (!isResponse) {
      // A notification or a server-to-client request: to the newest open stream.
      const stream = this.streams.at(-1);
      if (stream) stream.event(message);
      else
        process.stderr.write(`http-bridge: ${this.label}: no open stream for ${line(message)}\n`);
      return;
    }
    const { stream, originalId } = this.pending.get(message.id);
    this.pending.delete(message.id);
    stream.answer({ ...message, id: originalId });
  }

  exit(reason) {
    if (this.exited) return;
    this.exited = true;
    process.stderr.write(`http-bridge: ${this.label} ${reason}\n`);
    for (const [, { stream, originalId }] of this.pending) {
      stream.answer({
        jsonrpc: '2.0',
        id: originalId,
        error: { code: -32603, message: `the stdio server ${reason}` },
      });
    }
    this.pending.clear();
    for (const [id, session] of sessions) if (session === this) sessions.delete(id);
    if (stateless === this) stateless = undefined;
  }

  close() {
    this.process.stdin.end();
  }
}

const line = (message) => JSON.stringify(message).slice(0, 200);

/**
 * HTTP status of a stateless (2026-07-28) request answered by a lone error: the HTTP
 * binding makes rejections 400 and an unknown method 404. Sessions keep 200.
 */
const ERROR_STATUS = new Map([
  [-32601, 404],
  [-32602, 400],
  [-32020, 400],
  [-32021, 400],
  [-32022, 400],
]);

/**
 * The answers to one POST's requests, as an SSE stream; but a stateless request
 * (`mapStatus`) answered by nothing but an error in ERROR_STATUS gets one JSON
 * response with that HTTP status.
 */
function openStream(child, response, expected, mapStatus) {
  const session = child.sessionId ? { 'mcp-session-id': child.sessionId } : {};
  let remaining = expected;
  let streaming = false;
  const stream = {
    event(message) {
      if (!streaming) {
        streaming = true;
        response.writeHead(200, {
          'content-type': 'text/event-stream',
          'cache-control': 'no-cache',
          ...session,
        });
      }
      response.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    },
    answer(message) {
      remaining--;
      const status = mapStatus && ERROR_STATUS.get(message.error?.code);
      if (status && !streaming && expected === 1) {
        detach();
        return reply(response, status, message, session);
      }
      stream.event(message);
      if (remaining === 0) {
        detach();
        response.end();
      }
    },
  };
  const detach = () => (child.streams = child.streams.filter((open) => open !== stream));
  response.on('close', detach);
  child.streams.push(stream);
  return stream;
}

const modernVersion = (message) =>
  message?.params?._meta?.['io.modelcontextprotocol/protocolVersion'];

/**
 * The 2026-07-28 HTTP binding repeats the body's protocol version, method and tool name
 * in the Mcp-Protocol-Version, Mcp-Method and Mcp-Name headers (values trimmed, RFC 9110);
 * a missing or different one is a HeaderMismatch. Returns why, or undefined when they agree.
 */
function headerMismatch(request, message) {
  const version = modernVersion(message);
  if (version === undefined) return undefined; // not a modern request
  const header = (name) => request.headers[name]?.trim();
  const differs = (name, value) =>
    `${name} header ${JSON.stringify(header(name.toLowerCase()))} does not match the body's ${JSON.stringify(value)}`;
  if (header('mcp-protocol-version') !== version) return differs('Mcp-Protocol-Version', version);
  if (header('mcp-method') !== message.method) return differs('Mcp-Method', message.method);
  const name = message.method === 'tools/call' ? message.params?.name : undefined;
  if (name !== undefined && header('mcp-name') !== name) return differs('Mcp-Name', name);
  return undefined;
}

const sessions = new Map();
let sessionCount = 0;
let statelessCount = 0;
let stateless;

function reapSessions() {
  const now = Date.now();
  const idle = [...sessions.values()].filter((child) => !child.busy);
  for (const child of idle) if (now - child.lastActive > IDLE_MS) child.close();
  idle.sort((a, b) => a.lastActive - b.lastActive);
  for (const child of idle.slice(0, Math.max(0, sessions.size - MAX_SESSIONS))) child.close();
}
setInterval(reapSessions, 1000).unref();

function loopbackHeaders(request) {
  const host = request.headers.host?.replace(/:\d+$/, '');
  if (!host || !LOOPBACK.has(host)) return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return LOOPBACK.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}

function reply(response, status, body, headers = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(body === undefined ? undefined : JSON.stringify(body));
}

const rpcError = (code, message) => ({ jsonrpc: '2.0', id: null, error: { code, message } });

async function readBody(request) {
  const chunks = [];
  let size = 0;
  for await (const chunk of request) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error(`body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function handlePost(request, response) {
  let parsed;
  try {
    parsed = JSON.parse(await readBody(request));
  } catch (error) {
    return reply(response, 400, rpcError(-32700, `Parse error: ${error.message}`));
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  const sessionId = request.headers['mcp-session-id'];
  let child;
  // A legacy initialize opens a session; one carrying modern _meta is a stateless
  // request like any other (and answered as a removed method).
  if (messages.some((message) => message?.method === 'initialize' && !modernVersion(message))) {
    child = new Child(`session ${++sessionCount}`);
    child.sessionId = randomUUID();
    sessions.set(child.sessionId, child);
  } else if (sessionId !== undefined) {
    child = sessions.get(sessionId);
    if (!child) return reply(response, 404, rpcError(-32001, 'Session not found'));
  }
  const requests = messages.filter((message) => message?.method && message.id !== undefined);
  let fresh = false;
  if (!child && freshStateless) {
    // Nothing outlives a stateless POST, so a notification alone has nobody to reach.
    if (requests.length === 0) return reply(response, 202);
    child = new Child(`stateless request ${++statelessCount}`);
    fresh = true;
  } else if (!child) {
    stateless ??= new Child('stateless server');
    child = stateless;
  }
  if (requests.length === 0) {
    for (const message of messages) child.send(message);
    return reply(response, 202);
  }
  if (!child.sessionId && requests.length === 1) {
    const mismatch = headerMismatch(request, requests[0]);
    if (mismatch) {
      const error = { code: -32020, message: `Header mismatch: ${mismatch}` };
      if (fresh) child.close();
      return reply(response, 400, { jsonrpc: '2.0', id: requests[0].id, error });
    }
  }
  const stream = openStream(child, response, requests.length, !child.sessionId);
  if (fresh) response.on('close', () => child.close());
  for (const message of messages) {
    if (requests.includes(message)) child.request(message, stream);
    else child.send(message);
  }
}

const server = createServer((request, response) => {
  if (!loopbackHeaders(request)) {
    return reply(response, 403, rpcError(-32000, 'Host and Origin must be loopback'));
  }
  if (new URL(request.url, 'http://localhost').pathname !== '/mcp') {
    return reply(response, 404, rpcError(-32000, 'Not found: the endpoint is /mcp'));
  }
  if (request.method === 'POST') {
    return void handlePost(request, response).catch((error) => {
      if (!response.headersSent) reply(response, 500, rpcError(-32603, error.message));
      else response.end();
    });
  }
  if (request.method === 'DELETE') {
    const child = sessions.get(request.headers['mcp-session-id']);
    if (!child) return reply(response, 404, rpcError(-32001, 'Session not found'));
    child.close();
    sessions.delete(child.sessionId);
    return reply(response, 200);
  }
  reply(response, 405, undefined, { allow: 'POST, DELETE' });
});

server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}/mcp\n`);
});

const stop = () => {
  for (const child of sessions.values()) child.close();
  stateless?.close();
  server.close();
  setTimeout(() => process.exit(0), 500).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

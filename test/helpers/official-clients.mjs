// The official MCP clients (v1 @modelcontextprotocol/sdk, v2 @modelcontextprotocol/client
// in each era mode) driving a server process over stdio, every message recorded.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { frameViolations } from './schema.mjs';
import { REPO_ROOT } from './spawn-server.mjs';

function installedVersion(name) {
  const manifest = path.join(REPO_ROOT, 'node_modules', name, 'package.json');
  return JSON.parse(readFileSync(manifest, 'utf8')).version;
}

export const V1 = `v1 @modelcontextprotocol/sdk ${installedVersion('@modelcontextprotocol/sdk')}`;
export const V2 = `v2 @modelcontextprotocol/client ${installedVersion('@modelcontextprotocol/client')}`;

/**
 * Each official client in each era it can open, for a server started with
 * `serverParams` ({command, args, cwd, stderr}); `make()` builds an unconnected session.
 */
export function clientCombinations(serverParams) {
  const v2Session = (versionNegotiation) => ({
    client: new V2Client({ name: 'interop-v2', version: '0.0.1' }, { versionNegotiation }),
    transport: new V2StdioTransport(serverParams),
    callTool: (client, params, options) => client.callTool(params, options),
  });
  return [
    {
      client: V1,
      era: 'legacy (initialize)',
      expect: { era: 'legacy', revision: '2025-11-25' },
      make: () => ({
        client: new V1Client({ name: 'interop-v1', version: '0.0.1' }),
        transport: new V1StdioTransport(serverParams),
        callTool: (client, params, options) => client.callTool(params, undefined, options),
      }),
    },
    {
      client: V2,
      era: "legacy (versionNegotiation mode 'legacy')",
      expect: { era: 'legacy', revision: '2025-11-25' },
      make: () => v2Session({ mode: 'legacy' }),
    },
    {
      client: V2,
      era: "modern (versionNegotiation mode { pin: '2026-07-28' })",
      expect: { era: 'modern', revision: '2026-07-28' },
      make: () => v2Session({ mode: { pin: '2026-07-28' } }),
    },
    {
      client: V2,
      era: "auto (versionNegotiation mode 'auto', server/discover probe)",
      expect: { era: 'modern', revision: '2026-07-28' },
      make: () => v2Session({ mode: 'auto' }),
    },
  ];
}

/** Connects a client, recording every message it sends and every message it receives. */
export async function connect(combination) {
  const session = combination.make();
  const { client, transport } = session;
  session.sent = [];
  session.received = [];
  session.clientErrors = [];
  session.stderr = '';
  transport.stderr?.on('data', (chunk) => (session.stderr += chunk.toString('utf8')));
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    session.sent.push(message);
    return send(message, options);
  };
  // The client installs (and may chain) its handler on connect: every handler it sets
  // is wrapped, and each message is recorded once whichever wrapper sees it first.
  let handler;
  const recorded = new WeakSet();
  // Which read of the server's stdout delivered each message (v1 transport only): frames
  // of one read are handled together, which is how the v1 client loses a notification.
  let reads = 0;
  session.readOf = new WeakMap();
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler,
    set: (value) => {
      handler =
        typeof value === 'function'
          ? (message, extra) => {
              if (!recorded.has(message)) {
                recorded.add(message);
                session.received.push(message);
                session.readOf.set(message, reads);
              }
              return value(message, extra);
            }
          : value;
    },
  });
  client.onerror = (error) => session.clientErrors.push(error);
  await client.connect(transport);
  // Added after the transport's own listener: counts a read once its frames are handled.
  transport._process?.stdout?.on('data', () => reads++);
  session.call = (params, options) => session.callTool(client, params, options);
  return session;
}

export function requestMethod(session, id) {
  return session.sent.find((message) => message.id === id && 'method' in message)?.method;
}

/** Every frame the client received is valid for the negotiated revision. */
export function expectValidFrames(session, revision) {
  const problems = session.received.flatMap((frame) =>
    frameViolations(frame, revision, requestMethod(session, frame.id)),
  );
  expect(problems).to.deep.equal([]);
  expect(session.clientErrors.map(String)).to.deep.equal([]);
}

/**
 * The progress frames of one call (`sent`, in wire order) past those handed to onprogress
 * (`updates`) were read in one piece with its `response`: the official clients handle such
 * a response first and drop the notifications read with it (reporting each as one of an
 * unknown token). That report is allowed for them, no other.
 */
export function progressReadWithResponse(session, sent, updates, response, what) {
  const dropped = sent.slice(updates.length);
  for (const frame of dropped)
    expect(
      session.readOf.get(frame),
      `${what}: progress ${frame.params.progress} read apart from the response, and dropped`,
    ).to.equal(session.readOf.get(response));
  session.clientErrors = session.clientErrors.filter(
    (error) =>
      !(
        /progress notification for an unknown token/.test(String(error)) &&
        dropped.some((frame) => String(error).includes(`"progress":${frame.params.progress},`))
      ),
  );
}

export function textOf(result) {
  return result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('');
}

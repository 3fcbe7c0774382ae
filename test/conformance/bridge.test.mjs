// The conformance harness's own plumbing, through real processes: the HTTP bridge in
// front of the everything fixture. scripts/conformance.mjs trusts both; this pins the
// behaviour the official suite relies on, so a bridge bug is not read as a library bug.
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { modernMeta } from '../helpers/spawn-server.mjs';
import { legacyInitialize } from './payloads.mjs';

const BRIDGE = fileURLToPath(new URL('./http-bridge.mjs', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./everything-server.mjs', import.meta.url));

/** POSTs one JSON-RPC body; resolves with status, headers and the JSON-RPC messages sent back. */
function post(url, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => {
          const sse = response.headers['content-type']?.startsWith('text/event-stream');
          const messages = sse
            ? [...text.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1]))
            : text === ''
              ? []
              : [JSON.parse(text)];
          resolve({ status: response.statusCode, headers: response.headers, messages });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify(body));
  });
}

const initialize = legacyInitialize('bridge-test');

/** Modern request headers the 2026-07-28 HTTP binding asks for. */
const modernHeaders = (method, name) => ({
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': method,
  ...(name ? { 'mcp-name': name } : {}),
});

describe('conformance HTTP bridge in front of the everything fixture', function () {
  let bridge;
  let url;

  before(async function () {
    bridge = spawn(process.execPath, [BRIDGE, '--', process.execPath, FIXTURE], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    bridge.stderr.resume();
    url = await new Promise((resolve, reject) => {
      let out = '';
      bridge.stdout.on('data', (chunk) => {
        out += chunk;
        const found = /listening on (\S+)/.exec(out);
        if (found) resolve(found[1]);
      });
      bridge.once('exit', (code) => reject(new Error(`bridge exited (${code}) before listening`)));
    });
  });

  after(async function () {
    if (!bridge || bridge.exitCode !== null) return;
    const exited = new Promise((resolve) => bridge.once('exit', resolve));
    bridge.kill('SIGTERM');
    await exited;
  });

  it('opens a session on initialize and delivers progress before the result, in order', async function () {
    const opened = await post(url, initialize);
    expect(opened.status).to.equal(200);
    const session = opened.headers['mcp-session-id'];
    expect(session).to.match(/^[0-9a-f-]{36}$/);
    expect(opened.messages).to.have.length(1);
    expect(opened.messages[0]).to.include({ id: 1 });
    expect(opened.messages[0].result.protocolVersion).to.equal('2025-11-25');

    const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
    expect((await post(url, initialized, { 'mcp-session-id': session })).status).to.equal(202);

    const call = {
      jsonrpc: '2.0',
      id: 'call-1',
      method: 'tools/call',
      params: { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: 'p' } },
    };
    const answered = await post(url, call, { 'mcp-session-id': session });
    expect(answered.headers['content-type']).to.match(/^text\/event-stream/);
    const progress = answered.messages.filter((m) => m.method === 'notifications/progress');
    expect(progress.map((m) => m.params.progress)).to.deep.equal([0, 50, 100]);
    // The response comes last, with the client's own id back (the bridge renumbers).
    expect(answered.messages.at(-1)).to.include({ id: 'call-1' });
    expect(answered.messages.at(-1).result.content[0].text).to.equal('Progress test completed');
  });

  it('answers an unknown session with 404 and a non-loopback Host with 403', async function () {
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    expect((await post(url, list, { 'mcp-session-id': 'no-such-session' })).status).to.equal(404);
    const rebinding = await post(url, initialize, { host: 'evil.example.com' });
    expect(rebinding.status).to.equal(403);
  });

  it('serves stateless modern requests and applies the 2026-07-28 HTTP binding', async function () {
    const list = { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: modernMeta() } };
    const listed = await post(url, list, modernHeaders('tools/list'));
    expect(listed.status).to.equal(200);
    expect(listed.headers['mcp-session-id']).to.equal(undefined);
    const names = listed.messages.at(-1).result.tools.map((tool) => tool.name);
    expect(names).to.include.members(['test_simple_text', 'json_schema_2020_12_tool']);

    const mismatch = await post(url, list, modernHeaders('tools/call'));
    expect(mismatch.status).to.equal(400);
    expect(mismatch.messages[0]).to.deep.include({ id: 3 });
    expect(mismatch.messages[0].error.code).to.equal(-32020);

    const unknown = { jsonrpc: '2.0', id: 4, method: 'no/such', params: { _meta: modernMeta() } };
    const missing = await post(url, unknown, modernHeaders('no/such'));
    expect(missing.status).to.equal(404);
    expect(missing.messages[0].error.code).to.equal(-32601);
  });
});

// A live tool list: `mcp-gates serve` in a temp repository updates its tools when
// mcp-gates.json changes, and the official v2 client sees notifications/tools/list_changed
// (a legacy session and a 2026-07-28 listen stream); a broken config keeps the last good tools.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI, cleanupTemporary, envWithTools, makeRepo } from './fixtures/gates-support.mjs';
import { frameViolations } from './helpers/schema.mjs';
import { killPid } from './helpers/spawn-server.mjs';

function gate(description) {
  return { description, command: ['node', '-e', 'process.exit(0)'], parser: 'generic' };
}

function writeConfig(root, gates) {
  // Written whole and renamed over, as editors save: the watcher sees one settled change.
  const file = path.join(root, 'mcp-gates.json');
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify({ gates }, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
}

/** Resolves with the next tool list the client's listChanged handler reports. */
function nextChange(changes) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no tools/list_changed within 10 s')), 10000);
    changes.push((tools) => {
      clearTimeout(timer);
      resolve(tools);
    });
  });
}

async function serveWithClient(root, versionNegotiation) {
  const waiting = [];
  const client = new Client(
    { name: 'live-tools', version: '0.0.1' },
    {
      versionNegotiation,
      listChanged: {
        tools: {
          debounceMs: 0,
          onChanged: (error, tools) => {
            if (!error) waiting.shift()?.(tools.map((tool) => tool.name).sort());
          },
        },
      },
    },
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--root', root],
    env: envWithTools(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => (stderr += chunk.toString('utf8')));
  const received = [];
  let handler;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler,
    set: (value) => {
      handler = (message, extra) => {
        received.push(message);
        return value(message, extra);
      };
    },
  });
  await client.connect(transport);
  return { client, transport, waiting, received, stderr: () => stderr };
}

describe('live tool list (mcp-gates serve, official v2 client)', function () {
  this.timeout(30000);
  let session;

  afterEach(async () => {
    const pid = session?.transport.pid;
    await session?.client.close();
    killPid(pid);
    session = undefined;
    cleanupTemporary();
  });

  for (const [era, versionNegotiation, revision] of [
    ['legacy', { mode: 'legacy' }, '2025-11-25'],
    ['2026-07-28 (listen stream)', { mode: { pin: '2026-07-28' } }, '2026-07-28'],
  ]) {
    it(`${era}: a config edit adds and removes tools with list_changed; a broken one keeps them`, async () => {
      const root = makeRepo({ 'mcp-gates.json': { gates: { alpha: gate('first gate') } } });
      session = await serveWithClient(root, versionNegotiation);
      const names = async () =>
        (await session.client.listTools(undefined, { cacheMode: 'refresh' })).tools
          .map((tool) => tool.name)
          .sort();
      // No hooks call the hook tools here: only the gates are listed.
      expect(await names()).to.deep.equal(['alpha']);

      let changed = nextChange(session.waiting);
      writeConfig(root, { alpha: gate('first gate'), beta: gate('second gate') });
      // Two gates: the combined `check` tool joins them.
      expect(await changed).to.deep.equal(['alpha', 'beta', 'check']);

      changed = nextChange(session.waiting);
      writeConfig(root, { beta: gate('second gate') });
      expect(await changed).to.deep.equal(['beta']);

      // A config that no longer loads: the last good tools stay, stderr says why.
      fs.writeFileSync(path.join(root, 'mcp-gates.json'), '{ "gates": { "gamma": ');
      const deadline = Date.now() + 10000;
      while (!/kept the last good gates/.test(session.stderr()) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(session.stderr()).to.match(/kept the last good gates: .*mcp-gates\.json/);
      expect(await names()).to.deep.equal(['beta']);
      const call = await session.client.callTool({ name: 'beta', arguments: {} });
      expect(call.isError).to.equal(false);

      const notifications = session.received.filter(
        (frame) => frame.method === 'notifications/tools/list_changed',
      );
      expect(notifications).to.have.length(2);
      expect(session.received.flatMap((frame) => frameViolations(frame, revision))).to.deep.equal(
        [],
      );
    });
  }
});

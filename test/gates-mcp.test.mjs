// `mcp-gates serve` as a real stdio process, driven by the official MCP clients (v1
// @modelcontextprotocol/sdk and v2 @modelcontextprotocol/client): list the gates, call
// one, cancel one mid-run and find its whole process tree gone; plus the raw wire.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioTransport } from '@modelcontextprotocol/client/stdio';
import {
  CLI,
  HOSTILE,
  cleanupTemporary,
  copyRepo,
  envWithTools,
  survivors,
  waitForFile,
} from './fixtures/gates-support.mjs';

const CLIENT_INFO = { name: 'gates-mcp-test', version: '0.0.1' };

function serverParams(root) {
  return {
    command: process.execPath,
    args: [CLI, 'serve', '--root', root],
    // Any directory but the root's: the filesystem root (a drive's root on Windows).
    cwd: path.parse(process.cwd()).root,
    env: envWithTools(),
    stderr: 'pipe',
  };
}

const CLIENTS = [
  {
    label: 'v1 @modelcontextprotocol/sdk (legacy era)',
    connect: async (root) => {
      const client = new V1Client(CLIENT_INFO);
      const transport = new V1StdioTransport(serverParams(root));
      await client.connect(transport);
      return {
        client,
        transport,
        call: (params, options) => client.callTool(params, undefined, options),
      };
    },
  },
  {
    label: 'v2 @modelcontextprotocol/client (modern era, pinned 2026-07-28)',
    connect: async (root) => {
      const client = new V2Client(CLIENT_INFO, {
        versionNegotiation: { mode: { pin: '2026-07-28' } },
      });
      const transport = new V2StdioTransport(serverParams(root));
      await client.connect(transport);
      return { client, transport, call: (params, options) => client.callTool(params, options) };
    },
  },
  {
    label: 'v2 @modelcontextprotocol/client (legacy era)',
    connect: async (root) => {
      const client = new V2Client(CLIENT_INFO, { versionNegotiation: { mode: 'legacy' } });
      const transport = new V2StdioTransport(serverParams(root));
      await client.connect(transport);
      return { client, transport, call: (params, options) => client.callTool(params, options) };
    },
  },
];

/** The acceptance repo plus a hanging gate, served from mcp-gates.json. */
function servedRepo(pidFile) {
  const root = copyRepo('js-dirty');
  fs.writeFileSync(
    path.join(root, 'mcp-gates.json'),
    JSON.stringify({
      gates: {
        lint: {
          command: ['eslint', '--format', 'json', '.'],
          fix: ['eslint', '--fix', '.'],
          parser: 'eslint-json',
          paths: 'append',
        },
        typecheck: { command: ['tsc', '--noEmit', '--pretty', 'false'], parser: 'tsc' },
        hang: {
          command: [process.execPath, path.join(HOSTILE, 'hangs-with-tree.mjs'), pidFile],
          timeoutMs: 60000,
        },
        noisy: { command: [process.execPath, path.join(HOSTILE, 'stdout-and-stderr.mjs')] },
      },
    }),
  );
  return root;
}

const textOf = (result) =>
  result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('');

describe('mcp-gates serve through the official clients', function () {
  this.timeout(60000);
  after(cleanupTemporary);

  for (const { label, connect } of CLIENTS) {
    // One server per client for its tests: a call changes nothing in the tree (and the
    // cancel test checks the server is still usable after), and a server per test was
    // most of this file's CPU.
    describe(label, () => {
      let session;
      let pidFile;

      before(async () => {
        pidFile = path.join(
          fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'gates-pids-')),
          'pids.json',
        );
        session = await connect(servedRepo(pidFile));
      });

      after(async () => {
        await session?.client.close();
        fs.rmSync(path.dirname(pidFile), { recursive: true, force: true });
      });

      it('lists the gates with fix tools, truthful annotations and the output schema', async () => {
        const { tools } = await session.client.listTools();
        const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
        // No hooks call the hook tools here: only the gates are listed.
        expect(Object.keys(byName).sort()).to.deep.equal([
          'check',
          'hang',
          'lint',
          'lint_fix',
          'noisy',
          'typecheck',
        ]);
        expect(byName.lint.annotations).to.include({ readOnlyHint: true, idempotentHint: true });
        expect(byName.lint_fix.annotations).to.include({
          readOnlyHint: false,
          destructiveHint: true,
        });
        expect(byName.lint.inputSchema.properties).to.have.property('paths');
        expect(byName.typecheck.inputSchema.properties).to.not.have.property('paths');
        expect(byName.lint.outputSchema.type).to.equal('object');
      });

      it('calls lint and gets the report and the findings, isError set', async () => {
        const result = await session.call({ name: 'lint', arguments: {} });
        expect(result.isError).to.equal(true);
        expect(textOf(result)).to.match(
          /^lint: failed \(exit 1, [\d.]+ s, 3 findings \(2 errors, 1 warning\)\)/,
        );
        expect(
          result.structuredContent.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule}`),
        ).to.deep.equal([
          'src/unused.js:2:9 no-unused-vars',
          'src/unused.js:6:20 eqeqeq',
          'src/unused.js:3:3 no-console',
        ]);
        expect(result.structuredContent).to.include({ status: 'failed', findingCount: 3 });
        expect(result.structuredContent.omitted).to.include({ findings: 0 });
      });

      it('calls lint on a clean path and passes', async () => {
        const result = await session.call({ name: 'lint', arguments: { paths: ['src/ugly.js'] } });
        expect(result.isError).to.not.equal(true);
        expect(result.structuredContent).to.include({ passed: true, exitCode: 0, findingCount: 0 });
      });

      it('answers a path outside the root with an isError result, not a protocol error', async () => {
        const result = await session.call({
          name: 'lint',
          arguments: { paths: ['../../etc/passwd'] },
        });
        expect(result.isError).to.equal(true);
        expect(textOf(result)).to.match(/is outside the project root/);
      });

      it('puts what a gate writes to stdout in its report, never on the channel', async () => {
        const result = await session.call({ name: 'noisy', arguments: {} });
        expect(textOf(result))
          .to.include('OUT-MARKER from the gate')
          .and.include('ERR-MARKER from the gate');
      });

      it('reports progress during a run and kills the whole tree on cancel', async () => {
        const controller = new AbortController();
        const updates = [];
        const call = session.call(
          { name: 'hang', arguments: {} },
          {
            signal: controller.signal,
            onprogress: (update) => updates.push(update),
            timeout: 60000,
          },
        );
        call.catch(() => {});
        const pids = JSON.parse(await waitForFile(pidFile));
        await new Promise((resolve) => setTimeout(resolve, 1300));
        controller.abort();
        await call.then(
          () => expect.fail('a cancelled call must not resolve'),
          (error) => expect(String(error)).to.match(/abort|cancel/i),
        );
        expect(await survivors([pids.child, pids.grandchild], 3000)).to.deep.equal([]);
        expect(updates.length).to.be.at.least(1);
        expect(updates[0].message).to.match(/^hang: \d+ s, \d+ bytes of output$/);
        // The server is still usable after the cancellation.
        const after = await session.call({ name: 'noisy', arguments: {} });
        expect(textOf(after)).to.include('OUT-MARKER');
      });
    });
  }

  it('writes only JSON-RPC frames on stdout, whatever the gates print (raw wire)', async () => {
    const pidDir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'gates-pids-'));
    const root = servedRepo(path.join(pidDir, 'pids.json'));
    const child = spawn(process.execPath, [CLI, 'serve', '--root', root], {
      env: envWithTools(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: CLIENT_INFO },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'noisy', arguments: {} } });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'lint', arguments: {} } });
    const deadline = Date.now() + 30000;
    while (!stdout.includes('"id":3') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 25));
    child.stdin.end();
    const code = await new Promise((resolve) => child.on('close', resolve));
    fs.rmSync(pidDir, { recursive: true, force: true });
    expect(code).to.equal(0);
    const lines = stdout.split('\n').filter((line) => line !== '');
    const all = lines.map((line) => JSON.parse(line));
    // Besides the responses: one log message as each gate starts and ends.
    expect(all.filter((frame) => !('id' in frame)).map((frame) => frame.method)).to.deep.equal(
      Array(4).fill('notifications/message'),
    );
    const frames = all.filter((frame) => 'id' in frame);
    expect(frames.map((frame) => frame.id)).to.deep.equal([1, 2, 3]);
    expect(frames[1].result.content[0].text).to.include('OUT-MARKER');
    expect(frames[2].result.isError).to.equal(true);
    expect(frames[2].result.structuredContent.findingCount).to.equal(3);
    expect(stdout).to.not.include('OUT-MARKER from the gate\n');
  });
});

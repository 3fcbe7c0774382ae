// serveStdio end to end over the raw wire: a real server process, real fds.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { describe, it } from 'mocha';

const serverPath = fileURLToPath(new URL('./capture/noisy-server.mjs', import.meta.url));

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  },
};
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

function callTool(id, name) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } };
}

/** Starts the server; `frames()` collects raw stdout lines, `until(id)` waits for a response. */
function startServer(env = {}) {
  const child = spawn(process.execPath, [serverPath], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const raw = { stdout: '', stderr: '' };
  const waiters = [];
  child.stdout.on('data', (chunk) => {
    raw.stdout += chunk;
    for (const waiter of [...waiters]) waiter();
  });
  child.stderr.on('data', (chunk) => (raw.stderr += chunk));
  const exited = new Promise((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  const lines = () => raw.stdout.split('\n').filter((line) => line.length > 0);
  return {
    child,
    raw,
    exited,
    lines,
    send: (message) => child.stdin.write(JSON.stringify(message) + '\n'),
    response: (id) =>
      new Promise((resolve) => {
        const check = () => {
          const found = lines()
            .map((line) => {
              try {
                return JSON.parse(line);
              } catch {
                return undefined; // asserted separately: every line must be JSON
              }
            })
            .find((message) => message?.id === id);
          if (found) {
            waiters.splice(waiters.indexOf(check), 1);
            resolve(found);
          }
        };
        waiters.push(check);
        check();
      }),
  };
}

for (const mode of ['native', 'degraded']) {
  describe(`serveStdio (${mode} capture)`, function () {
    this.timeout(30000);
    const env = mode === 'degraded' ? { MCP_GATES_CAPTURE: 'degraded' } : {};

    it('returns every marker in the report and writes only frames on stdout', async function () {
      const server = startServer(env);
      server.send(INITIALIZE);
      await server.response(1);
      server.send(INITIALIZED);
      server.send(callTool(2, 'noisy'));
      const response = await server.response(2);
      server.child.stdin.end();
      const { code, signal } = await server.exited;
      expect([code, signal]).to.deep.equal([0, null]);
      const [text] = response.result.content.map((block) => block.text);
      expect(text.startsWith('done\n\n--- captured output (')).to.equal(true);
      for (const marker of [
        'S-console-log',
        'S-console-error',
        'S-stdout-write',
        'S-child-stdout',
        'S-child-stderr',
      ]) {
        expect(text).to.include(marker);
        expect(server.raw.stderr).to.not.include(marker);
      }
      for (const line of server.lines()) expect(() => JSON.parse(line), line).to.not.throw();
      expect(server.raw.stderr).to.include('stray console.log');
      const announced = server.raw.stderr.includes('output capture is degraded');
      expect(announced).to.equal(mode === 'degraded');
    });

    it('exits 0 on SIGTERM while a tool hangs, with fds restored for the exit', async function () {
      // reason: on Windows child.kill('SIGTERM') terminates the process; no handler runs
      if (process.platform === 'win32') this.skip();
      const server = startServer(env);
      server.send(INITIALIZE);
      await server.response(1);
      server.send(INITIALIZED);
      server.send(callTool(2, 'hang'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      server.child.kill('SIGTERM');
      const { code, signal } = await server.exited;
      expect([code, signal]).to.deep.equal([0, null]);
      // The hanging tool's output stayed in its capture, never on the channel.
      expect(server.raw.stdout).to.not.include('S-hang-started');
      for (const line of server.lines()) expect(() => JSON.parse(line), line).to.not.throw();
    });
  });
}

describe('serveStdio stdio guard (native)', function () {
  this.timeout(30000);

  it('keeps a child with inherited stdio from forging a frame on the channel', async function () {
    // reason: Windows cannot move node's fd 1, so an 'inherit' child writes to the channel
    // by design (children must use childStdio() there; see src/capture/capture-guard.ts)
    if (process.platform === 'win32') this.skip();
    const server = startServer();
    server.send(INITIALIZE);
    await server.response(1);
    server.send(INITIALIZED);
    server.send(callTool(2, 'forger'));
    const response = await server.response(2);
    server.child.stdin.end();
    await server.exited;
    const [text] = response.result.content.map((block) => block.text);
    expect(text).to.include('forger done');
    expect(text).to.include('"text":"forged"');
    for (const line of server.lines()) expect(() => JSON.parse(line), line).to.not.throw();
    const responsesToTwo = server.lines().filter((line) => JSON.parse(line).id === 2);
    expect(responsesToTwo).to.have.length(1);
    // The forged frame arrived only as captured text inside the real response.
    expect(
      server
        .lines()
        .some((line) =>
          line.startsWith(
            '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"forged"',
          ),
        ),
    ).to.equal(false);
  });
});

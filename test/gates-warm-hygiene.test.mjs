// Warm calls die like cold calls, through real `mcp-gates serve` processes (issue 18,
// attacks 10 and 11): what an ESLint rule starts in the warm worker (a child it unrefs,
// and that child's child) is gone when the call returns, when the call is cancelled, when
// the worker or the server is SIGKILLed; a warm worker killed on cancel or timeout has its private
// `mcp-gates-warm-*` directory removed before the next call, and a clean exit (code 0)
// leaves neither a process nor a directory behind. Each server has a TMPDIR of its own.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ServerProcess, killAllServers, killPid } from './helpers/spawn-server.mjs';
import {
  CLI,
  cleanupTemporary,
  envWithTools,
  makeTempDir,
  survivors,
  tempDirEnv,
} from './fixtures/gates-support.mjs';
import { makeWarmRepo } from './fixtures/warm/warm-fixture.mjs';

const REVISION = '2025-11-25';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Started by the rule: starts a grandchild, writes both pids, then waits 5 minutes;
// neither holds the worker's stdio, as a background helper a plugin forks would not.
const CHILD = `const { spawn } = require('node:child_process');
const fs = require('node:fs');
const grandchild = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 300000)'], { stdio: 'ignore' });
grandchild.unref();
const file = process.argv[2];
fs.writeFileSync(file + '.tmp', JSON.stringify([process.pid, grandchild.pid]));
fs.renameSync(file + '.tmp', file);
setTimeout(() => {}, 300000);
`;

// A rule that, on a file holding SPAWN_CHILD, starts CHILD with unref() (once its pids
// are written: the test knows them before the call ends); on SPAWN_AND_WAIT it then
// blocks 30 s, a call to cancel or kill the server under.
const RULE = `
    spawns: {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const text = context.sourceCode.text;
        const directory = process.env.MCP_GATES_HYGIENE_PIDS;
        if (!directory || !text.includes('SPAWN_')) return {};
        const file = path.join(directory, \`pids-\${process.pid}-\${Date.now()}.json\`);
        spawn(process.execPath, [CHILD, file], { stdio: 'ignore' }).unref();
        const pause = new Int32Array(new SharedArrayBuffer(4));
        const end = Date.now() + 10000;
        while (!fs.existsSync(file) && Date.now() < end) Atomics.wait(pause, 0, 0, 20);
        if (text.includes('SPAWN_AND_WAIT')) Atomics.wait(pause, 0, 0, 30000);
        return {};
      },
    },`;

// Prettier formats a .slow file after blocking 30 s: a prettier call to cancel mid-run.
const SLOW_PLUGIN = `export const languages = [{ name: 'slow', parsers: ['slow'], extensions: ['.slow'] }];
export const parsers = {
  slow: {
    astFormat: 'slow',
    parse(text) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30000);
      return { type: 'slow', text };
    },
    locStart: () => 0,
    locEnd: (node) => node.text.length,
  },
};
export const printers = { slow: { print: (path) => path.node.text } };
`;

const LINT = ['eslint', '--format', 'json'];
const SLOW_FORMAT = ['prettier', '--check', '--plugin', './slow-plugin.mjs', 'wait.slow'];
const GATES = {
  lint: { command: [...LINT, 'src'], parser: 'eslint-json' },
  waitlint: { command: [...LINT, 'blocked'], parser: 'eslint-json' },
  format: { command: ['prettier', '--check', 'src'], parser: 'prettier' },
  slowformat: { command: SLOW_FORMAT, parser: 'prettier' },
  quickformat: { command: SLOW_FORMAT, parser: 'prettier', timeoutMs: 3000 },
  // Cold, queued behind the call before it: once answered, that call has ended.
  marker: { command: [process.execPath, '-e', ''] },
};

function hygieneRepo() {
  const root = makeWarmRepo('mcp-gates-hygiene-');
  const pluginDir = path.join(root, 'node_modules', 'eslint-plugin-local');
  const plugin = path.join(pluginDir, 'index.js');
  fs.writeFileSync(path.join(pluginDir, 'child.cjs'), CHILD);
  fs.writeFileSync(
    plugin,
    `import { spawn } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const CHILD = fileURLToPath(new URL('./child.cjs', import.meta.url));
${fs.readFileSync(plugin, 'utf8').replace('rules: {', `rules: {${RULE}`)}`,
  );
  const config = path.join(root, 'eslint.config.js');
  fs.writeFileSync(
    config,
    fs
      .readFileSync(config, 'utf8')
      .replace("'local/no-todo': 'warn'", "'local/no-todo': 'warn', 'local/spawns': 'error'"),
  );
  fs.writeFileSync(
    path.join(root, 'src', 'spawn.ts'),
    '// SPAWN_CHILD\nexport const spawned = 1;\n',
  );
  fs.mkdirSync(path.join(root, 'blocked'));
  fs.writeFileSync(
    path.join(root, 'blocked', 'wait.ts'),
    '// SPAWN_AND_WAIT\nexport const waited = 1;\n',
  );
  fs.writeFileSync(path.join(root, 'slow-plugin.mjs'), SLOW_PLUGIN);
  fs.writeFileSync(path.join(root, 'wait.slow'), 'slow\n');
  fs.writeFileSync(path.join(root, 'mcp-gates.json'), JSON.stringify({ gates: GATES }, null, 2));
  return root;
}

const callFrame = (id, name) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {} },
});
const cancelFrame = (requestId) => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: { requestId, reason: 'warm hygiene test' },
});

/** Entries a warm worker's private directory would have in `tmp` (all, or `pid`'s). */
function workerDirectories(tmp, pid) {
  const prefix = pid === undefined ? 'mcp-gates-warm-' : `mcp-gates-warm-${pid}-`;
  return fs.readdirSync(tmp).filter((name) => name.startsWith(prefix));
}

describe('warm calls die like cold calls (real servers)', function () {
  this.timeout(60000);
  let root;
  let tmp;
  let pidDir;
  let server;

  before(function () {
    if (process.platform === 'win32') {
      // reason: the fixture's rule waits with Atomics and the checks read pids; the Job
      // Object path is covered by the wine lifeline tests.
      this.skip();
    }
    root = hygieneRepo();
  });
  beforeEach(async function () {
    tmp = makeTempDir('mcp-gates-hygiene-tmp-');
    pidDir = makeTempDir('mcp-gates-hygiene-pids-');
    server = new ServerProcess([CLI, 'serve', '--root', root], {
      env: envWithTools({ ...tempDirEnv(tmp), MCP_GATES_HYGIENE_PIDS: pidDir }),
    });
    await server.initialize(REVISION);
  });
  afterEach(function () {
    killAllServers();
    // On code that leaves them (main before this change), the test must not leave them too.
    for (const pid of startedPids()) killPid(pid);
  });
  after(cleanupTemporary);

  /** Every pid the rule's children wrote so far (child and grandchild of each spawn). */
  function startedPids() {
    if (!pidDir || !fs.existsSync(pidDir)) return [];
    return fs
      .readdirSync(pidDir)
      .filter((name) => name.endsWith('.json'))
      .flatMap((name) => JSON.parse(fs.readFileSync(path.join(pidDir, name), 'utf8')));
  }

  async function waitForPids(count) {
    const deadline = Date.now() + 15000;
    while (startedPids().length < count && Date.now() < deadline) await sleep(25);
    const pids = startedPids();
    expect(pids, 'the rule started its child and grandchild').to.have.length.of.at.least(count);
    return pids;
  }

  async function call(id, name, timeoutMs = 45000) {
    const reply = await server.request(id, 'tools/call', { name, arguments: {} }, timeoutMs);
    expect(reply.result, JSON.stringify(reply)).to.be.an('object');
    return reply.result;
  }

  it("kills what an ESLint rule started (unref'd child and its child) when the warm call returns", async function () {
    const first = await call(2, 'lint');
    expect(first.structuredContent.warm).to.deep.include({ used: true, started: true });
    const pids = await waitForPids(2);
    expect(await survivors(pids, 3000)).to.deep.equal([]);
    // The worker itself lives on; a run that started a process is never reused.
    const second = await call(3, 'lint');
    // The rule's poll of its per-call pid file is an answer asked once that has since
    // changed: the worker may be replaced for it (worker-main.ts), never for the kill.
    const warm = second.structuredContent.warm;
    expect(warm.used).to.equal(true);
    if (warm.started)
      expect(warm.reason).to.match(/asked it once|asked it before, did not ask again/);
    expect(warm).to.not.have.property('reused');
    const both = await waitForPids(4);
    expect(await survivors(both, 3000)).to.deep.equal([]);
  });

  it('leaves no process and no mcp-gates-warm-* directory after a clean exit (code 0)', async function () {
    await call(2, 'format');
    const [directory] = workerDirectories(tmp);
    expect(directory, 'the prettier worker made its private directory').to.be.a('string');
    const workerPid = Number(/^mcp-gates-warm-(\d+)-/.exec(directory)[1]);
    await call(3, 'lint');
    const pids = await waitForPids(2);
    server.child.stdin.end();
    expect(await server.exitWithin(5000)).to.deep.equal({ code: 0, signal: null });
    expect(await survivors([...pids, workerPid], 3000)).to.deep.equal([]);
    expect(workerDirectories(tmp)).to.deep.equal([]);
  });

  it("removes a cancelled warm call's worker directory before the next call, and leaves none at exit", async function () {
    await call(2, 'format');
    const [directory] = workerDirectories(tmp);
    const workerPid = Number(/^mcp-gates-warm-(\d+)-/.exec(directory)[1]);
    await server.send(callFrame(3, 'slowformat'));
    // The same worker takes the call and blocks in the plugin's parser.
    await sleep(1500);
    await server.send(cancelFrame(3));
    await call(4, 'marker');
    expect(await survivors([workerPid], 3000)).to.deep.equal([]);
    expect(workerDirectories(tmp, workerPid)).to.deep.equal([]);
    server.child.stdin.end();
    expect(await server.exitWithin(5000)).to.deep.equal({ code: 0, signal: null });
    expect(workerDirectories(tmp)).to.deep.equal([]);
  });

  it("removes a timed-out warm call's worker directory before the result", async function () {
    await call(2, 'format');
    const [directory] = workerDirectories(tmp);
    const workerPid = Number(/^mcp-gates-warm-(\d+)-/.exec(directory)[1]);
    const timedOut = await call(3, 'quickformat');
    expect(timedOut.isError).to.equal(true);
    expect(timedOut.structuredContent.warm.used).to.equal(true);
    expect(workerDirectories(tmp, workerPid)).to.deep.equal([]);
    expect(await survivors([workerPid], 3000)).to.deep.equal([]);
  });

  it('kills what the rule started when its warm call is cancelled', async function () {
    await server.send(callFrame(2, 'waitlint'));
    const pids = await waitForPids(2);
    await server.send(cancelFrame(2));
    await call(3, 'marker');
    expect(await survivors(pids, 3000)).to.deep.equal([]);
  });

  it('kills what the rule started when its worker is SIGKILLed mid-call', async function () {
    await server.send(callFrame(2, 'waitlint'));
    const pids = await waitForPids(2);
    const worker = Number(
      spawnSync('ps', ['-o', 'ppid=', '-p', String(pids[0])], { encoding: 'utf8' }).stdout,
    );
    expect(worker).to.be.above(1);
    process.kill(worker, 'SIGKILL');
    expect(await survivors(pids, 3000)).to.deep.equal([]);
  });

  it('kills what the rule started when the server is SIGKILLed mid-call (the lifeline)', async function () {
    await server.send(callFrame(2, 'waitlint'));
    const pids = await waitForPids(2);
    server.child.kill('SIGKILL');
    await server.exit;
    expect(await survivors(pids, 3000)).to.deep.equal([]);
  });
});

// Fault injection through real processes: stdin EOF, SIGTERM and SIGINT while a gate (with
// a grandchild, both ignoring SIGTERM) or an in-process tool is under capture; tools that
// return malformed or non-serializable results, throw, reject or never settle; a temp
// directory that is missing, read-only or full. Each server runs with TMPDIR pointed at a
// directory of its own, so "no temp file left behind" is checked exactly.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { frameViolations } from './helpers/schema.mjs';
import { ServerProcess, killAllServers } from './helpers/spawn-server.mjs';
import {
  CLI,
  HOSTILE,
  cleanupTemporary,
  envWithTools,
  isAlive,
  makeRepo,
  makeTempDir,
  survivors,
  tempDirEnv,
  waitForFile,
} from './fixtures/gates-support.mjs';

const FAULTY_SERVER = fileURLToPath(new URL('./fixtures/faulty-server.mjs', import.meta.url));
const REVISION = '2025-11-25';
const EXIT_BUDGET_MS = 2000;
/** A stack trace or an unhandled error printed by Node. */
const CRASH_OUTPUT = /^\s+at .+[:(]\d+|Unhandled|uncaught|ERR_STREAM/im;
const FIX_ADVICE = /Fix: .*TMPDIR/;

const textOf = (frame) => frame.result.content.map((block) => block.text).join('');

function callFrame(id, name, args = {}, meta) {
  const params = { name, arguments: args };
  if (meta) params._meta = meta;
  return { jsonrpc: '2.0', id, method: 'tools/call', params };
}

/** Every stdout line is a schema-valid JSON-RPC frame, and stderr holds no crash. */
function expectCleanChannel(server) {
  expect(server.stdoutBytes.length, 'an unterminated stdout line').to.equal(0);
  for (const line of server.lines) {
    const frame = JSON.parse(line);
    expect(frameViolations(frame, REVISION), line).to.deep.equal([]);
  }
  expect(server.stderr).to.not.match(CRASH_OUTPUT);
}

const injectors = {
  'stdin EOF': (server) => server.child.stdin.end(),
  SIGTERM: (server) => server.child.kill('SIGTERM'),
  SIGINT: (server) => server.child.kill('SIGINT'),
  SIGHUP: (server) => server.child.kill('SIGHUP'),
};

/** On Windows child.kill() terminates the server forcibly: no handler runs, no clean exit. */
const signalOnWindows = (fault) => fault !== 'stdin EOF' && process.platform === 'win32';

/** Injects the fault and asserts the exit: code 0 within the 2 s budget. */
async function injectAndExit(server, fault) {
  injectors[fault](server);
  const exit = await server.exitWithin(EXIT_BUDGET_MS);
  expect(exit, `exit after ${fault}`).to.deep.equal({ code: 0, signal: null });
}

/**
 * `mcp-gates serve` (TMPDIR = `tmpdir`, initialized) of a repository with one gate,
 * `name`, that runs the hostile fixture `script` with a file to write its pids to.
 */
async function serveScriptGate(tmpdir, name, script, gateKeys = {}) {
  const pidFile = path.join(makeTempDir('mcp-gates-faults-pids-'), 'pids.json');
  const root = makeRepo({
    'mcp-gates.json': {
      gates: {
        [name]: { command: [process.execPath, path.join(HOSTILE, script), pidFile], ...gateKeys },
      },
    },
  });
  const server = new ServerProcess([CLI, 'serve', '--root', root], {
    env: envWithTools(tempDirEnv(tmpdir)),
  });
  await server.initialize(REVISION);
  return { server, pidFile };
}

/** Gate "hang": a gate and a grandchild that ignore SIGTERM and never end. */
function serveHangingGate(tmpdir, gateKeys = {}) {
  return serveScriptGate(tmpdir, 'hang', 'hangs-with-tree.mjs', { timeoutMs: 60000, ...gateKeys });
}

/** Linux: the pids whose parent is `pid` (from /proc); [] elsewhere. */
function childrenOf(pid) {
  if (process.platform !== 'linux') return [];
  const children = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return children;
}

/** Mounts a tmpfs (root only); returns a reason to skip when that is not permitted. */
const mounted = [];
function mountTmpfs(options) {
  if (process.platform !== 'linux') return { skip: 'tmpfs mounts are Linux only' };
  const directory = makeTempDir('mcp-gates-tmpfs-');
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', directory], {
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    return {
      skip: `cannot mount a tmpfs here (${(result.stderr || result.error?.message || '').trim()})`,
    };
  }
  mounted.push(directory);
  return { directory };
}

function unmountAll() {
  while (mounted.length > 0) spawnSync('umount', ['-l', mounted.pop()]);
}

describe('fault injection (real processes)', function () {
  this.timeout(30000);
  let tmp;

  beforeEach(() => {
    tmp = makeTempDir('mcp-gates-faults-tmpdir-');
  });

  afterEach(() => {
    killAllServers();
    unmountAll();
    cleanupTemporary();
  });

  describe('mcp-gates serve with a gate running (gate + grandchild, both ignore SIGTERM)', () => {
    for (const fault of Object.keys(injectors)) {
      it(`${fault}: the gate's whole tree is killed, temp files removed, exit 0 within 2 s`, async function () {
        if (signalOnWindows(fault)) this.skip(); // reason: no signal handler runs on Windows
        const { server, pidFile } = await serveHangingGate(tmp);
        await server.send(callFrame(2, 'hang', {}, { progressToken: 'hang' }));
        const pids = JSON.parse(await waitForFile(pidFile));
        // The capture is live: its private directory exists in our TMPDIR, beside the
        // run's private cache directory (run/private-caches.ts).
        const live = fs.readdirSync(tmp);
        expect(live.filter((name) => name.startsWith('mcp-gates-caches-'))).to.have.length(1);
        expect(live).to.have.length(2);
        if (process.platform !== 'win32') {
          // Windows has no POSIX modes: stat reports 0o777 for any directory.
          for (const name of live)
            expect(fs.statSync(path.join(tmp, name)).mode & 0o777).to.equal(0o700);
        }

        await injectAndExit(server, fault);
        expect(await survivors([pids.child, pids.grandchild], 500)).to.deep.equal([]);
        expect(fs.readdirSync(tmp)).to.deep.equal([]);
        expectCleanChannel(server);
        // The aborted call gets no response: the client is gone.
        expect(server.frames.filter((frame) => frame.id === 2)).to.deep.equal([]);
      });
    }
  });

  describe('mcp-gates serve while the client has stopped reading (output blocked)', () => {
    for (const fault of Object.keys(injectors)) {
      it(`${fault}: exit 0 within 2 s, the gate's tree killed, TMPDIR empty`, async function () {
        if (signalOnWindows(fault)) this.skip(); // reason: no signal handler runs on Windows
        // 200 KB per tools/list answer: a few fill every buffer between us.
        const { server, pidFile } = await serveHangingGate(tmp, {
          description: 'd'.repeat(200 * 1024),
        });
        await server.send(callFrame(2, 'hang'));
        const pids = JSON.parse(await waitForFile(pidFile));
        // The client stops reading, then asks for 40 answers of 200 KB (8 MB in all).
        server.child.stdout.pause();
        const lists = Array.from({ length: 40 }, (_, index) =>
          JSON.stringify({ jsonrpc: '2.0', id: 10 + index, method: 'tools/list' }),
        );
        await server.write(lists.join('\n') + '\n');
        // Long enough for the server to fill the pipe and stop on the blocked write.
        await new Promise((resolve) => setTimeout(resolve, 500));

        const injectedAt = Date.now();
        await injectAndExit(server, fault);
        expect(Date.now() - injectedAt).to.be.lessThan(EXIT_BUDGET_MS);
        expect(await survivors([pids.child, pids.grandchild], 500)).to.deep.equal([]);
        expect(fs.readdirSync(tmp)).to.deep.equal([]);
        expect(server.stderr).to.not.match(CRASH_OUTPUT);
      });
    }
  });

  describe('gate processes never outlive their call or their server', () => {
    it("a background child in the gate's group with closed stdio is dead once the call returns", async () => {
      const { server, pidFile } = await serveScriptGate(tmp, 'leave', 'leaves-background.mjs');
      const reply = await server.request(2, 'tools/call', { name: 'leave', arguments: {} });
      expect(textOf(reply)).to.include('LEFT A BACKGROUND CHILD');
      const pids = JSON.parse(fs.readFileSync(pidFile, 'utf8'));
      // SIGKILL is delivered at once; the allowance is for the kernel to tear it down.
      expect(await survivors([pids.child, pids.background], 500)).to.deep.equal([]);
      server.child.stdin.end();
      expect(await server.exitWithin(EXIT_BUDGET_MS)).to.deep.equal({ code: 0, signal: null });
    });

    it("SIGKILL of the server: within 2 s no process of the gate's tree (nor the watchdog) is alive", async function () {
      // reason: the watchdog is POSIX (Windows uses a kill-on-close job; see SECURITY.md)
      if (process.platform === 'win32') this.skip();
      const { server, pidFile } = await serveHangingGate(tmp);
      await server.send(callFrame(2, 'hang'));
      const pids = JSON.parse(await waitForFile(pidFile));
      const helpers = childrenOf(server.pid).filter((pid) => pid !== pids.child);
      if (process.platform === 'linux') expect(helpers, 'the watchdog').to.have.length(1);
      const stdoutClosed = new Promise((resolve) => server.child.stdout.once('close', resolve));

      server.child.kill('SIGKILL');
      expect(await server.exitWithin(EXIT_BUDGET_MS)).to.deep.equal({
        code: null,
        signal: 'SIGKILL',
      });
      expect(await survivors([pids.child, pids.grandchild, ...helpers], 2000)).to.deep.equal([]);
      // The watchdog holds none of the server's fds: the client sees the channel close.
      await stdoutClosed;
    });
    it('a watchdog killed with SIGKILL is replaced at the next gate spawn', async function () {
      // reason: the watchdog is POSIX; its pid is found through /proc (Linux)
      if (process.platform !== 'linux') this.skip();
      const { server, pidFile } = await serveHangingGate(tmp);
      await server.send(callFrame(2, 'hang'));
      const first = JSON.parse(await waitForFile(pidFile));
      const [watchdog] = childrenOf(server.pid).filter((pid) => pid !== first.child);
      process.kill(watchdog, 'SIGKILL');
      fs.rmSync(pidFile);
      await server.send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 2 },
      });
      expect(await survivors([first.child, first.grandchild])).to.deep.equal([]);

      await server.send(callFrame(3, 'hang'));
      const second = JSON.parse(await waitForFile(pidFile));
      const replaced = childrenOf(server.pid).filter((pid) => pid !== second.child && isAlive(pid));
      expect(replaced).to.have.length(1);
      expect(replaced[0]).to.not.equal(watchdog);
      server.child.kill('SIGKILL');
      await server.exitWithin(EXIT_BUDGET_MS);
      expect(await survivors([second.child, second.grandchild, replaced[0]])).to.deep.equal([]);
    });
  });

  describe('an in-process tool under capture (test/fixtures/faulty-server.mjs)', () => {
    const start = (env = {}) =>
      new ServerProcess([FAULTY_SERVER], { env: { ...process.env, ...tempDirEnv(tmp), ...env } });

    for (const fault of Object.keys(injectors)) {
      it(`${fault} while a never-settling tool holds the capture: exit 0 within 2 s, no temp file left`, async function () {
        if (signalOnWindows(fault)) this.skip(); // reason: no signal handler runs on Windows
        const server = start();
        await server.initialize(REVISION);
        await server.send(callFrame(2, 'never'));
        // ping is answered while the tool runs; by then the capture has begun.
        await server.request(3, 'ping');
        expect(fs.readdirSync(tmp)).to.have.length(1);
        await injectAndExit(server, fault);
        expect(fs.readdirSync(tmp)).to.deep.equal([]);
        expectCleanChannel(server);
        expect(server.stderr).to.not.include('never settling');
      });
    }

    const malformed = [
      ['number-text', /malformed result: "text" must be a string/],
      ['null', /malformed result: expected an object/],
      ['undefined', /malformed result: expected an object/],
      ['string', /malformed result: expected an object/],
      ['array', /malformed result: expected an object/],
      ['isError-string', /malformed result: "isError" must be a boolean/],
      ['circular-structured', /"structuredContent" is not JSON-serializable \(Converting circular/],
      ['bigint-structured', /"structuredContent" is not JSON-serializable \(.*BigInt/],
      ['throwing-toJSON', /"structuredContent" is not JSON-serializable \(toJSON exploded\)/],
      ['throwing-getter', /Tool "malformed" failed: getter exploded/],
    ];

    it(`turns ${malformed.length} malformed or non-serializable results into isError results, then serves on`, async () => {
      const server = start();
      await server.initialize(REVISION);
      let id = 10;
      for (const [kind, expected] of malformed) {
        const reply = await server.request(id++, 'tools/call', {
          name: 'malformed',
          arguments: { kind },
        });
        expect(reply.result.isError, kind).to.equal(true);
        expect(textOf(reply), kind).to.match(expected);
      }
      // A lone surrogate is legal in a JS string: it travels escaped, the frame stays valid JSON.
      const surrogate = await server.request(id++, 'tools/call', {
        name: 'malformed',
        arguments: { kind: 'lone-surrogate' },
      });
      expect(textOf(surrogate)).to.equal('half \ud800 a pair');
      const after = await server.request(id, 'tools/call', {
        name: 'say',
        arguments: { text: 'after' },
      });
      expect(textOf(after)).to.equal(
        'said\n\n--- captured output (38 bytes) ---\nsaid: after\nstdout: after\nchild: after',
      );
      server.child.stdin.end();
      expect(await server.exitWithin(5000)).to.deep.equal({ code: 0, signal: null });
      expectCleanChannel(server);
      expect(fs.readdirSync(tmp)).to.deep.equal([]);
    });

    it('reports a sync throw (with its output) and a rejection as isError results', async () => {
      const server = start();
      await server.initialize(REVISION);
      const thrown = await server.request(2, 'tools/call', { name: 'throws', arguments: {} });
      expect(thrown.result.isError).to.equal(true);
      expect(textOf(thrown)).to.equal(
        'Tool "throws" failed: thrown on purpose\n\n--- captured output (15 bytes) ---\nabout to throw\n',
      );
      const rejected = await server.request(3, 'tools/call', { name: 'rejects', arguments: {} });
      expect(rejected.result).to.deep.equal({
        content: [{ type: 'text', text: 'Tool "rejects" failed: rejected on purpose' }],
        isError: true,
      });
      expectCleanChannel(server);
    });

    it('abandons a cancelled never-settling tool: no response for it, the guard restored, the next call captured alone', async () => {
      const server = start();
      await server.initialize(REVISION);
      await server.send(callFrame(2, 'never'));
      await server.request(3, 'ping');
      await server.send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 2, reason: 'fault test' },
      });
      const next = await server.request(4, 'tools/call', {
        name: 'say',
        arguments: { text: 'next' },
      });
      expect(textOf(next)).to.equal(
        'said\n\n--- captured output (35 bytes) ---\nsaid: next\nstdout: next\nchild: next',
      );
      expect(server.frames.filter((frame) => frame.id === 2)).to.deep.equal([]);
      expectCleanChannel(server);
    });
  });

  describe('the temp directory unusable', () => {
    const start = (tmpdir) =>
      new ServerProcess([FAULTY_SERVER], { env: { ...process.env, ...tempDirEnv(tmpdir) } });

    /** A refused capture: isError naming the directory, cause and fix; ping still answered. */
    async function expectRefusedThenServing(server, directory, cause) {
      await server.initialize(REVISION);
      for (const [id, name] of [
        [2, 'say'],
        [3, 'quiet'],
      ]) {
        const reply = await server.request(id, 'tools/call', { name, arguments: { text: 'x' } });
        expect(reply.result.isError, name).to.equal(true);
        const text = textOf(reply);
        expect(text).to.include(`output capture cannot use the temp directory ${directory}`);
        expect(text).to.match(cause).and.match(FIX_ADVICE);
        expect(text, 'the tool did not run').to.not.include('said: x');
      }
      expect((await server.request(4, 'ping')).result).to.deep.equal({});
      server.child.stdin.end();
      expect(await server.exitWithin(5000)).to.deep.equal({ code: 0, signal: null });
      expectCleanChannel(server);
    }

    it('missing (TMPDIR under a regular file): ECAPTURE_TMPDIR with ENOTDIR, still serving', async () => {
      const file = path.join(tmp, 'a-file');
      fs.writeFileSync(file, '');
      const directory = path.join(file, 'sub');
      // Windows reports a path under a file as not found (ERROR_PATH_NOT_FOUND).
      const cause = process.platform === 'win32' ? /ENOENT|ENOTDIR/ : /ENOTDIR/;
      await expectRefusedThenServing(start(directory), directory, cause);
    });

    it('read-only (a tmpfs mounted ro): ECAPTURE_TMPDIR with EROFS, still serving', async function () {
      const mount = mountTmpfs('ro,size=1m');
      if (mount.skip) this.skip(); // reason: mount needs root, and Linux
      await expectRefusedThenServing(start(mount.directory), mount.directory, /EROFS/);
      expect(fs.readdirSync(mount.directory)).to.deep.equal([]);
    });

    it('full (a 64 KiB tmpfs): refused before the tool runs, nothing left behind, still serving', async function () {
      const mount = mountTmpfs('size=64k');
      if (mount.skip) this.skip(); // reason: mount needs root, and Linux
      await expectRefusedThenServing(
        start(mount.directory),
        mount.directory,
        /only \d+ bytes free/,
      );
      expect(fs.readdirSync(mount.directory)).to.deep.equal([]);
    });

    it('filling up during a run (2 MiB tmpfs, 3 MB of output): isError saying output is missing, no crash', async function () {
      const mount = mountTmpfs('size=2m');
      if (mount.skip) this.skip(); // reason: mount needs root, and Linux
      const server = start(mount.directory);
      await server.initialize(REVISION);
      const flood = await server.request(2, 'tools/call', {
        name: 'flood',
        arguments: { bytes: 3_000_000 },
      });
      expect(flood.result.isError).to.equal(true);
      expect(textOf(flood)).to.match(/^flooded\n\n--- captured output/);
      expect(textOf(flood)).to.match(
        /\[capture incomplete: writing the capture file .* failed \(ENOSPC\)/,
      );
      expect(textOf(flood)).to.match(FIX_ADVICE);
      // The disk is still full (the truncated log is kept): later calls are refused clearly.
      const next = await server.request(3, 'tools/call', {
        name: 'quiet',
        arguments: { text: 'q' },
      });
      expect(textOf(next)).to.match(/only \d+ bytes free/);
      expect((await server.request(4, 'ping')).result).to.deep.equal({});
      server.child.stdin.end();
      expect(await server.exitWithin(5000)).to.deep.equal({ code: 0, signal: null });
      expectCleanChannel(server);
    });

    it('filling up while a gate floods (mcp-gates serve, 2 MiB tmpfs): isError report, no crash, still serving', async function () {
      const mount = mountTmpfs('size=2m');
      if (mount.skip) this.skip(); // reason: mount needs root, and Linux
      const root = makeRepo({
        'mcp-gates.json': {
          gates: {
            flood: { command: [process.execPath, path.join(HOSTILE, 'floods-stdout.mjs'), '3'] },
          },
        },
      });
      const server = new ServerProcess([CLI, 'serve', '--root', root], {
        env: envWithTools(tempDirEnv(mount.directory)),
      });
      await server.initialize(REVISION);
      const flood = await server.request(2, 'tools/call', { name: 'flood', arguments: {} }, 20000);
      expect(flood.result.isError).to.equal(true);
      expect(textOf(flood)).to.match(/\[capture incomplete: .*\(ENOSPC\)/);
      expect((await server.request(3, 'ping')).result).to.deep.equal({});
      server.child.stdin.end();
      expect(await server.exitWithin(5000)).to.deep.equal({ code: 0, signal: null });
      expectCleanChannel(server);
    });
  });
});

// Capture files over a server's life, through real server processes, each with a TMPDIR
// of its own: a full log is kept only while a delivered report names it; the private
// directory goes at every clean exit; leftovers of dead servers go at start (and
// nothing else in a shared temp directory); a run's capture is its own, so neither an
// abandoned gate run nor a child a quiet tool left behind reaches a later call's report.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ServerProcess, killAllServers, killPid } from './helpers/spawn-server.mjs';
import {
  CLI,
  cleanupTemporary,
  endedPid,
  envWithTools,
  makeRepo,
  makeTempDir,
  runCli,
  tempDirEnv,
  waitForFile,
} from './fixtures/gates-support.mjs';

const GATES = fileURLToPath(new URL('./capture/gates/', import.meta.url));
const LATE_CHILD_SERVER = fileURLToPath(
  new URL('./capture/late-child-server.mjs', import.meta.url),
);
const REVISION = '2025-11-25';
const EXIT_BUDGET_MS = 3000;

const textOf = (frame) => frame.result.content.map((block) => block.text).join('');

function callFrame(id, name, args = {}) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

function cancelFrame(requestId) {
  return {
    jsonrpc: '2.0',
    method: 'notifications/cancelled',
    params: { requestId, reason: 'capture lifecycle test' },
  };
}

/** Every file under `directory` (relative path and size), recursively. */
function filesUnder(directory) {
  const found = [];
  for (const entry of fs.readdirSync(directory, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    found.push({ file: path.relative(directory, file), size: fs.statSync(file).size });
  }
  return found;
}

/** A pid that certainly belonged to a process which has exited. */
function deadPid() {
  return spawnSync(process.execPath, ['-e', '']).pid;
}

const pidsToKill = [];

describe('capture files and runs over a server process life (real processes)', function () {
  this.timeout(30000);
  let tmp;

  beforeEach(() => {
    tmp = makeTempDir('mcp-gates-capture-life-');
  });

  afterEach(() => {
    killAllServers();
    while (pidsToKill.length > 0) killPid(pidsToKill.pop());
    cleanupTemporary();
  });

  /** `mcp-gates serve` on a repo with `gates`, TMPDIR private to this test. */
  function serveGates(gates) {
    const root = makeRepo({ 'mcp-gates.json': { gates } });
    return new ServerProcess([CLI, 'serve', '--root', root], {
      env: envWithTools(tempDirEnv(tmp)),
    });
  }

  /** A gate printing 100 KiB (its report is cut and names a log), then waiting. */
  function bigGate(pidFile) {
    return {
      command: [process.execPath, path.join(GATES, 'prints-then-waits.mjs'), pidFile, '100'],
      timeoutMs: 60000,
    };
  }

  it('deletes the full log of a cancelled run at once, and leaves TMPDIR empty at exit', async () => {
    const pidFile = path.join(makeTempDir('mcp-gates-capture-pids-'), 'pids.json');
    const server = serveGates({
      big: bigGate(pidFile),
      small: { command: [process.execPath, '-e', ''] },
    });
    await server.initialize(REVISION);
    await server.send(callFrame(2, 'big'));
    pidsToKill.push(JSON.parse(await waitForFile(pidFile)).child);
    await server.send(cancelFrame(2));
    // Queued behind the cancelled run: once answered, that run has ended.
    const small = await server.request(3, 'tools/call', { name: 'small', arguments: {} }, 10000);
    expect(small.result.isError).to.equal(false);
    const left = filesUnder(tmp).filter((entry) => entry.size > 0);
    expect(left, 'a log no delivered report names').to.deep.equal([]);
    server.child.stdin.end();
    expect(await server.exitWithin(EXIT_BUDGET_MS)).to.deep.equal({ code: 0, signal: null });
    expect(fs.readdirSync(tmp)).to.deep.equal([]);
    expect(server.frames.filter((frame) => frame.id === 2)).to.deep.equal([]);
  });

  it('keeps the log a delivered report names while serving, and removes it at exit', async () => {
    const script = "process.stdout.write(('c'.repeat(1023) + '\\n').repeat(100))";
    const server = serveGates({ big: { command: [process.execPath, '-e', script] } });
    await server.initialize(REVISION);
    const reply = await server.request(2, 'tools/call', { name: 'big', arguments: {} }, 10000);
    const logPath =
      reply.result.structuredContent?.logPath ?? /full log: (\S+)\)/.exec(textOf(reply))?.[1];
    expect(logPath, textOf(reply)).to.be.a('string');
    expect(fs.statSync(logPath).size).to.equal(100 * 1024);
    server.child.stdin.end();
    expect(await server.exitWithin(EXIT_BUDGET_MS)).to.deep.equal({ code: 0, signal: null });
    expect(fs.existsSync(logPath)).to.equal(false);
    expect(fs.readdirSync(tmp)).to.deep.equal([]);
  });

  it('`mcp-gates run` (a one-shot CLI that prints its report) leaves the log it names', () => {
    const script = "process.stdout.write(('c'.repeat(1023) + '\\n').repeat(100))";
    const root = makeRepo({
      'mcp-gates.json': { gates: { big: { command: [process.execPath, '-e', script] } } },
    });
    const run = runCli(['run', 'big', '--root', root], { env: envWithTools(tempDirEnv(tmp)) });
    expect(run.code, run.stderr).to.equal(0);
    const logPath = /full findings and output: (\S+)/.exec(run.stdout)?.[1];
    expect(logPath, run.stdout).to.be.a('string');
    expect(fs.statSync(logPath).size).to.equal(100 * 1024);
    expect(filesUnder(tmp).map((entry) => path.join(tmp, entry.file))).to.deep.equal([logPath]);
  });

  const faults = {
    'stdin EOF': (server) => server.child.stdin.end(),
    SIGTERM: (server) => server.child.kill('SIGTERM'),
    SIGINT: (server) => server.child.kill('SIGINT'),
    SIGHUP: (server) => server.child.kill('SIGHUP'),
    // The client closes its end of the server's stdout; the next frame meets EPIPE.
    EPIPE: async (server) => {
      server.child.stdout.destroy();
      await server.send({ jsonrpc: '2.0', id: 'after-close', method: 'ping' });
    },
  };

  for (const [fault, inject] of Object.entries(faults)) {
    it(`${fault} while a gate that printed 100 KiB runs: exit 0, TMPDIR empty`, async function () {
      // reason: on Windows child.kill() terminates the server forcibly: no handler runs
      if (process.platform === 'win32' && fault.startsWith('SIG')) this.skip();
      const pidFile = path.join(makeTempDir('mcp-gates-capture-pids-'), 'pids.json');
      const server = serveGates({ big: bigGate(pidFile) });
      await server.initialize(REVISION);
      await server.send(callFrame(2, 'big'));
      pidsToKill.push(JSON.parse(await waitForFile(pidFile)).child);
      // The capture's private directory and the run's private cache directory.
      expect(
        fs.readdirSync(tmp).filter((name) => !name.startsWith('mcp-gates-caches-')),
      ).to.have.length(1);
      expect(fs.readdirSync(tmp)).to.have.length(2);
      await inject(server);
      expect(await server.exitWithin(EXIT_BUDGET_MS)).to.deep.equal({ code: 0, signal: null });
      expect(fs.readdirSync(tmp)).to.deep.equal([]);
    });
  }

  it('removes stale capture directories of dead servers at start, and nothing else', async function () {
    // reason: needs POSIX ownership and symlinks without privileges
    if (process.platform === 'win32') this.skip();
    const dead = deadPid();
    const make = (name, files = ['capture-1.log']) => {
      const directory = path.join(tmp, name);
      fs.mkdirSync(directory, { mode: 0o700 });
      for (const file of files) fs.writeFileSync(path.join(directory, file), 'stale output\n');
      return directory;
    };
    const stale = make(`mcp-gates-capture-${dead}-AbC123`, ['capture-1.log', 'capture-2.log']);
    // A symlink inside a stale directory goes; the file it points at stays.
    const outside = path.join(tmp, 'outside.txt');
    fs.writeFileSync(outside, 'not ours to delete\n');
    fs.symlinkSync(outside, path.join(stale, 'capture-3.log'));
    const live = make(`mcp-gates-capture-${process.pid}-LiVe99`);
    const foreignName = make(`other-tool-${dead}-AbC123`);
    const noPid = make('mcp-gates-capture-OlDfMt');
    // A symlink named like a dead server's directory: neither it nor its target is touched.
    const target = make('symlink-target');
    const link = path.join(tmp, `mcp-gates-capture-${dead}-LiNk77`);
    fs.symlinkSync(target, link);
    // Another user's directory (only root can make one): untouched.
    const root = process.getuid?.() === 0;
    const foreignOwner = root ? make(`mcp-gates-capture-${dead}-NoBody`) : undefined;
    if (foreignOwner) {
      fs.chownSync(foreignOwner, 65534, 65534);
      fs.chownSync(path.join(foreignOwner, 'capture-1.log'), 65534, 65534);
    }

    const server = new ServerProcess([LATE_CHILD_SERVER], {
      env: { ...process.env, ...tempDirEnv(tmp) },
    });
    await server.initialize(REVISION);
    expect(fs.existsSync(stale), 'the dead server directory').to.equal(false);
    for (const kept of [live, foreignName, noPid, target, foreignOwner].filter(Boolean)) {
      expect(fs.readdirSync(kept), kept).to.deep.equal(['capture-1.log']);
    }
    expect(fs.lstatSync(link).isSymbolicLink()).to.equal(true);
    expect(fs.readFileSync(outside, 'utf8')).to.equal('not ours to delete\n');
    server.child.stdin.end();
    expect(await server.exitWithin(EXIT_BUDGET_MS)).to.deep.equal({ code: 0, signal: null });
  });

  describe("a run's capture is its own", () => {
    it("an abandoned cancelled gate run (pipes held 1.5 s) does not consume the next call's output", async function () {
      // reason: the holder escapes the gate's process group with setsid (POSIX only)
      if (process.platform === 'win32') this.skip();
      const pidFile = path.join(makeTempDir('mcp-gates-capture-pids-'), 'pids.json');
      const root = makeRepo({
        'mcp-gates.json': {
          gates: {
            holds: {
              command: [process.execPath, path.join(GATES, 'holds-pipes.mjs'), pidFile, '1500'],
              timeoutMs: 60000,
            },
            next: {
              command: [process.execPath, path.join(GATES, 'first-and-last-line.mjs'), '1000'],
            },
          },
        },
      });
      const server = new ServerProcess([CLI, 'serve', '--root', root], {
        env: envWithTools(tempDirEnv(tmp)),
      });
      await server.initialize(REVISION);
      await server.send(callFrame(2, 'holds'));
      const pids = JSON.parse(await waitForFile(pidFile));
      pidsToKill.push(pids.child, pids.grandchild);
      await server.send(cancelFrame(2));
      const next = await server.request(3, 'tools/call', { name: 'next', arguments: {} }, 15000);
      const report = textOf(next);
      expect(report).to.include('NEXT-FIRST-LINE');
      expect(report).to.include('NEXT-LAST-LINE');
      expect(report).to.not.include('HOLDING-PIPES');
      expect(server.frames.filter((frame) => frame.id === 2)).to.deep.equal([]);
      server.child.stdin.end();
      expect(await server.exitWithin(EXIT_BUDGET_MS)).to.deep.equal({ code: 0, signal: null });
    });

    it("a child a quiet tool started with childStdio() never writes into a later tool's report", async () => {
      const server = new ServerProcess([LATE_CHILD_SERVER], {
        env: { ...process.env, ...tempDirEnv(tmp) },
      });
      await server.initialize(REVISION);
      const spawned = await server.request(2, 'tools/call', { name: 'spawn_late', arguments: {} });
      expect(textOf(spawned)).to.match(/^spawned \d+$/);
      pidsToKill.push(Number(textOf(spawned).split(' ')[1]));
      // The child writes 300 ms after it started, while this call runs.
      const waited = await server.request(3, 'tools/call', {
        name: 'wait',
        arguments: { ms: 900 },
      });
      expect(textOf(waited)).to.equal('waited');
      server.child.stdin.end();
      expect(await server.exitWithin(EXIT_BUDGET_MS)).to.deep.equal({ code: 0, signal: null });
      expect(fs.readdirSync(tmp)).to.deep.equal([]);
    });
  });
});

describe('full-log directories of servers killed outright (real processes)', function () {
  this.timeout(30000);
  const LOG_DIRECTORY = fileURLToPath(
    new URL('../dist/gates/report/log-directory.js', import.meta.url),
  );

  /** Makes the log directory in a fresh node (kept as the CLI keeps it, or not); returns its path. */
  function makeLogDirectory(temp, { keep }) {
    const result = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(LOG_DIRECTORY)});
         ${keep ? 'm.keepFullLogs();' : ''}
         process.stdout.write(m.fullLogDirectory());`,
      ],
      { encoding: 'utf8', env: { ...process.env, TMPDIR: temp } },
    );
    expect(result.status, result.stderr).to.equal(0);
    return result.stdout;
  }

  it("a server's leftovers are swept by the next server; the CLI's logs are not", () => {
    const temp = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'mcp-gates-logsweep-'));
    try {
      const deadPid = endedPid();
      const serverLeftover = path.join(temp, `mcp-gates-logs-${deadPid}-Ab12Cd`);
      const cliLogs = path.join(temp, `mcp-gates-run-logs-${deadPid}-Ef34Gh`);
      for (const directory of [serverLeftover, cliLogs]) {
        fs.mkdirSync(directory);
        fs.writeFileSync(path.join(directory, 'lint.log'), 'findings');
      }
      const cliDirectory = makeLogDirectory(temp, { keep: true });
      expect(path.basename(cliDirectory)).to.match(/^mcp-gates-run-logs-\d+-/);
      expect(fs.existsSync(cliDirectory), 'the CLI keeps its logs past its exit').to.equal(true);
      expect(fs.existsSync(serverLeftover), 'the CLI sweeps nothing').to.equal(true);

      const serverDirectory = makeLogDirectory(temp, { keep: false });
      expect(path.basename(serverDirectory)).to.match(/^mcp-gates-logs-\d+-/);
      expect(fs.existsSync(serverDirectory), 'removed at its exit').to.equal(false);
      expect(fs.existsSync(serverLeftover), 'a killed server’s logs are swept').to.equal(false);
      expect(fs.existsSync(cliLogs), 'the CLI’s logs stay').to.equal(true);
    } finally {
      fs.rmSync(temp, { recursive: true, force: true });
    }
  });

  it("the CLI keeps the last runs' log directories (KEPT_RUN_LOG_DIRECTORIES with its own) and removes older ones", async () => {
    const { KEPT_RUN_LOG_DIRECTORIES } = await import(LOG_DIRECTORY);
    const temp = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'mcp-gates-logsweep-'));
    try {
      const deadPid = endedPid();
      const runs = Array.from({ length: KEPT_RUN_LOG_DIRECTORIES + 3 }, (_, index) => {
        const directory = path.join(temp, `mcp-gates-run-logs-${deadPid}-Run${index}`);
        fs.mkdirSync(directory);
        fs.writeFileSync(path.join(directory, 'lint.log'), 'findings');
        const when = new Date(Date.now() - (100 - index) * 60_000); // Run0 the oldest
        fs.utimesSync(directory, when, when);
        return directory;
      });
      // A live process's directory stays whatever its age.
      const live = path.join(temp, `mcp-gates-run-logs-${process.pid}-Live`);
      fs.mkdirSync(live);
      fs.utimesSync(live, new Date(0), new Date(0));
      const cliDirectory = makeLogDirectory(temp, { keep: true });
      const kept = runs.filter((directory) => fs.existsSync(directory));
      expect(kept).to.deep.equal(runs.slice(-(KEPT_RUN_LOG_DIRECTORIES - 1)));
      expect(fs.existsSync(cliDirectory)).to.equal(true);
      expect(fs.existsSync(live)).to.equal(true);
    } finally {
      fs.rmSync(temp, { recursive: true, force: true });
    }
  });
});

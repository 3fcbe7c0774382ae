// Lifecycle of warm workers through real processes: killed mid-call, owner killed,
// memory cap, idle recycle, cancel, timeout, pool size, and invocations that run cold.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WarmPool, warmToolOf } from '../dist/gates/warm/index.js';
import { cleanupTemporary, makeTempDir } from './fixtures/gates-support.mjs';
import { gateEnv, makeWarmRepo, runCold } from './fixtures/warm/warm-fixture.mjs';

const OWNER = fileURLToPath(new URL('./fixtures/warm/pool-owner.mjs', import.meta.url));
const PRETTIER = ['prettier', '--check', '.'];
const TSC = ['tsc', '--noEmit', '--pretty', 'false'];
const ESLINT = ['eslint', 'src', '--format', 'json'];
const env = gateEnv();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a process is alive (a zombie left for a non-reaping init counts as dead). */
function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

/** Waits up to `ms` for every pid to be gone; returns those still alive. */
async function survivors(pids, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!pids.some(alive)) return [];
    await sleep(50);
  }
  return pids.filter(alive);
}

function startOwner(root, mode) {
  const child = spawn(process.execPath, [OWNER, root, mode], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  const firstLine = new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) resolve(JSON.parse(text.slice(0, text.indexOf('\n'))));
    });
    child.once('exit', (code) => reject(new Error(`owner exited early (${code})`)));
  });
  return { child, firstLine };
}

describe('warm gates: worker lifecycle', function () {
  this.timeout(60000);
  let root;
  const pools = [];
  const newPool = (options) => {
    const pool = new WarmPool(options);
    pools.push(pool);
    return pool;
  };

  before(function () {
    root = makeWarmRepo();
  });
  afterEach(function () {
    while (pools.length > 0) pools.pop().close();
  });
  /**
   * One pool for the invocation tests (what runs warm and what runs cold), whose workers
   * answer one call after another whatever the last said: one start of each tool.
   */
  let invocations;
  const invocationPool = () => (invocations ??= new WarmPool());
  after(() => invocations?.close());
  after(cleanupTemporary);

  it('a worker SIGKILLed mid-call fails that call honestly; the next call starts a fresh one', async function () {
    const pool = newPool();
    const call = pool.run({ root, argv: TSC, timeoutMs: 60000, env });
    const [pid] = pool.workerPids();
    await sleep(300);
    process.kill(pid, 'SIGKILL');
    const failed = await call;
    expect(failed).to.include({ kind: 'failed', end: 'worker-died' });
    expect(failed.reason).to.match(/tsc worker was killed by SIGKILL/);
    const next = await pool.run({ root, argv: TSC, timeoutMs: 60000, env });
    expect(next).to.include({ kind: 'ran', startedWorker: true });
    expect(pool.workerPids()).to.not.include(pid);
    const cold = runCold(root, TSC, env);
    expect([next.exitCode, next.stdout]).to.deep.equal([cold.exitCode, cold.stdout]);
  });

  for (const mode of ['idle', 'busy']) {
    it(`no worker outlives its SIGKILLed owner by more than 2 s (worker ${mode})`, async function () {
      if (process.platform === 'win32' && mode === 'busy') {
        // reason: a busy worker notices its owner's death through its parent pid changing, which Windows does not do.
        this.skip();
      }
      const { child, firstLine } = startOwner(root, mode);
      const { pids } = await firstLine;
      expect(pids).to.have.length(1);
      expect(alive(pids[0])).to.equal(true);
      if (mode === 'busy') await sleep(300);
      child.kill('SIGKILL');
      expect(await survivors(pids, 2000)).to.deep.equal([]);
    });
  }

  it('a worker stuck in a synchronous check still dies with its SIGKILLed owner (watchdog)', async function () {
    if (process.platform === 'win32') {
      // reason: the watchdog watches for the parent pid to change, which Windows does not do.
      this.skip();
    }
    // A rule that blocks the worker's main thread for 20 s (asleep, not spinning a core the
    // machine shares): neither stdin nor the IPC channel can be noticed there, only the
    // watchdog thread can end it. It marks that it blocks first.
    const spinning = makeTempDir('mcp-gates-warm-spin-');
    const mark = path.join(makeTempDir('mcp-gates-warm-spin-mark-'), 'blocked');
    fs.symlinkSync(
      path.join(root, 'node_modules'),
      path.join(spinning, 'node_modules'),
      'junction',
    );
    fs.writeFileSync(path.join(spinning, 'package.json'), '{ "type": "module" }\n');
    fs.writeFileSync(path.join(spinning, 'spin.js'), 'export const spin = 1;\n');
    fs.writeFileSync(
      path.join(spinning, 'eslint.config.js'),
      `import fs from 'node:fs';
const spin = { create: () => ({ Program() { fs.writeFileSync(${JSON.stringify(mark)}, ''); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20000); } }) };
export default [{ plugins: { local: { rules: { spin } } }, rules: { 'local/spin': 'error' } }];\n`,
    );
    for (const mode of ['spin', 'spin-bare']) {
      // spin-bare: a worker off the lifeline (no addon's watchdog process kills its group),
      // so only its own watchdog, on the module loader's thread, can end it.
      fs.rmSync(mark, { force: true });
      const { child, firstLine } = startOwner(spinning, mode);
      const { pids } = await firstLine;
      // Until the worker has loaded eslint and entered the rule (its loading is async).
      for (let waited = 0; !fs.existsSync(mark); waited += 50) {
        if (waited > 30000) expect.fail(`${mode}: the blocking rule never ran`);
        await sleep(50);
      }
      expect(alive(pids[0]), mode).to.equal(true);
      child.kill('SIGKILL');
      const left = await survivors(pids, 2000);
      for (const pid of left) process.kill(pid, 'SIGKILL');
      expect(left, mode).to.deep.equal([]);
    }
  });

  it('an idle pool does not keep its owner alive, and the worker goes with it', async function () {
    const { child, firstLine } = startOwner(root, 'exit');
    const { pids, kind } = await firstLine;
    expect(kind).to.equal('ran');
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).to.equal(0);
    expect(await survivors(pids, 2000)).to.deep.equal([]);
  });

  it('a bare script awaiting a call across a worker replacement gets its answer before it exits', async function () {
    const replaced = makeWarmRepo('mcp-gates-warm-replace-');
    const { child, firstLine } = startOwner(replaced, 'replace');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const [line, code] = await Promise.all([firstLine.catch((error) => error), exited]);
    expect(code).to.equal(0);
    expect(line).to.include({ kind: 'ran', startedWorker: true });
    expect(line.restartedBecause).to.include('.prettierrc.json');
  });

  it('a worker above its memory cap after its first call is stopped, and its gate runs cold saying why', async function () {
    const pool = newPool({ memoryCapBytes: 1 });
    const first = await pool.run({ root, argv: PRETTIER, timeoutMs: 60000, env });
    expect(first).to.include({ kind: 'ran', startedWorker: true });
    expect(first.stoppedBecause).to.match(/above its cap of 0 MB after its first call/);
    expect(pool.workerPids()).to.deep.equal([]);
    // Not replaced after every call: the next call runs cold, with the reason.
    const second = await pool.run({ root, argv: PRETTIER, timeoutMs: 60000, env });
    expect(second.kind).to.equal('not-warmable');
    expect(second.reason).to.match(
      /runs cold in this server \(set MCP_GATES_WARM_MEMORY_MB above \d+/,
    );
    expect(pool.workerPids()).to.deep.equal([]);
  });

  it('a worker is reused while busy enough and recycled after its idle time', async function () {
    const pool = newPool({ idleMs: 1500, idlePerStartCall: 0 });
    await pool.run({ root, argv: PRETTIER, timeoutMs: 60000, env });
    const [pid] = pool.workerPids();
    const reused = await pool.run({ root, argv: PRETTIER, timeoutMs: 60000, env });
    expect(reused).to.include({ kind: 'ran', startedWorker: false });
    expect(await survivors([pid], 5000)).to.deep.equal([]);
    expect(pool.workerPids()).to.deep.equal([]);
    const fresh = await pool.run({ root, argv: PRETTIER, timeoutMs: 60000, env });
    expect(fresh).to.include({ kind: 'ran', startedWorker: true });
  });

  it('a worker whose first call took long waits idle longer (a multiple of that call)', async function () {
    const pool = newPool({ idleMs: 200, idlePerStartCall: 3 });
    const first = await pool.run({ root, argv: PRETTIER, timeoutMs: 60000, env });
    expect(first).to.include({ kind: 'ran', startedWorker: true });
    const [pid] = pool.workerPids();
    // Its first call (loading prettier) took longer than 200 ms, so it waits 3 times that.
    expect(first.durationMs).to.be.above(200);
    await sleep(first.durationMs * 1.5);
    expect(alive(pid), 'retired after idleMs').to.equal(true);
    expect(await survivors([pid], first.durationMs * 3 + 5000)).to.deep.equal([]);
  });

  it('no worker retires idle while another worker of the pool runs a call', async function () {
    const idleMs = 100;
    const pool = newPool({ idleMs, idlePerStartCall: 0 });
    await pool.run({ root, argv: PRETTIER, timeoutMs: 60000, env });
    const [pid] = pool.workerPids();
    const idleSince = Date.now();
    // tsc's first call (a worker started, TypeScript loaded, a whole check) outlasts
    // prettier's idle time: watched until it answers, however fast the machine is.
    let done = false;
    const busy = pool.run({ root, argv: TSC, timeoutMs: 60000, env }).then((result) => {
      done = true;
      return result;
    });
    let watchedMs = 0;
    while (!done) {
      await sleep(20);
      if (done) break;
      expect(alive(pid), `retired while tsc ran (${Date.now() - idleSince} ms idle)`).to.equal(
        true,
      );
      watchedMs = Date.now() - idleSince;
    }
    expect(watchedMs, 'tsc answered before prettier was idle twice its idle time').to.be.at.least(
      2 * idleMs,
    );
    expect((await busy).kind).to.equal('ran');
    // Once the pool is idle, the idle time counts again.
    expect(await survivors([pid], 5000)).to.deep.equal([]);
  });

  // Its worker finishes the call, refusing effects (gates-warm-incremental.test.mjs); a worker
  // that does not say so in time is killed (gates-warm-serve.test.mjs).
  it('a cancelled ESLint call is finished by its worker; the next call reaches the same one', async function () {
    const pool = newPool();
    const controller = new AbortController();
    const call = pool.run({ root, argv: ESLINT, timeoutMs: 60000, env, signal: controller.signal });
    const [pid] = pool.workerPids();
    setTimeout(() => controller.abort(), 200);
    const cancelled = await call;
    expect(cancelled).to.include({ kind: 'failed', end: 'cancelled' });
    expect(cancelled.reason).to.match(/its worker finishes the check for the next call/);
    const next = await pool.run({ root, argv: ESLINT, timeoutMs: 60000, env });
    expect(next).to.include({ kind: 'ran', startedWorker: false });
    expect(pool.workerPids()).to.deep.equal([pid]);
  });

  it('a timed-out ESLint call is finished by its worker', async function () {
    const pool = newPool();
    const call = pool.run({ root, argv: ESLINT, timeoutMs: 150, env });
    const [pid] = pool.workerPids();
    const result = await call;
    expect(result).to.include({ kind: 'failed', end: 'timed-out' });
    expect(result.reason).to.match(/150 ms; its worker finishes the check/);
    const next = await pool.run({ root, argv: ESLINT, timeoutMs: 60000, env });
    expect(next).to.include({ kind: 'ran', startedWorker: false });
    expect(pool.workerPids()).to.deep.equal([pid]);
  });

  it('keeps at most maxWorkers workers, dropping the least recently used', async function () {
    const pool = newPool({ maxWorkers: 1 });
    await pool.run({ root, argv: PRETTIER, timeoutMs: 60000, env });
    const [first] = pool.workerPids();
    // Another tool's worker (tsc: the fixture's lightest to load after prettier's).
    const typecheck = await pool.run({ root, argv: TSC, timeoutMs: 60000, env });
    expect(typecheck.kind).to.equal('ran');
    expect(pool.workerPids()).to.have.length(1);
    expect(await survivors([first], 2000)).to.deep.equal([]);
  });

  it('a config named on the command line, under any name, restarts the worker when edited', async function () {
    const pool = newPool();
    const argv = ['prettier', '--check', '--config', 'configs/format.json', 'src'];
    fs.mkdirSync(path.join(root, 'configs'), { recursive: true });
    fs.writeFileSync(path.join(root, 'configs', 'format.json'), '{ "singleQuote": true }\n');
    const first = await pool.run({ root, argv, timeoutMs: 60000, env });
    fs.writeFileSync(path.join(root, 'configs', 'format.json'), '{ "singleQuote": false }\n');
    const second = await pool.run({ root, argv, timeoutMs: 60000, env });
    expect(second).to.include({ kind: 'ran', startedWorker: true });
    expect(second.restartedBecause).to.match(/format\.json/);
    const cold = runCold(root, argv, env);
    expect([second.exitCode, second.stdout, second.stderr]).to.deep.equal([
      cold.exitCode,
      cold.stdout,
      cold.stderr,
    ]);
    expect(second.stderr).to.not.equal(first.stderr);
    fs.rmSync(path.join(root, 'configs'), { recursive: true });
  });

  it('option variants answer as the cold command does (--max-warnings, --quiet, -l, -p, print)', async function () {
    const pool = invocationPool();
    const variants = [
      ['eslint', 'src', '--format', 'json', '--max-warnings', '0'],
      ['eslint', 'src', '--format', 'json', '--quiet'],
      ['eslint', 'src/main.ts', 'src/clean.ts', '--format', 'json', '--rule', 'no-console: off'],
      ['prettier', '-l', 'src', 'package.json'],
      // Prints the formatted files (read-only): how a format finding gets its line.
      ['prettier', 'src/main.ts', 'src/clean.ts'],
      ['tsc', '-p', 'tsconfig.json', '--noEmit', '--pretty', 'false'],
    ];
    for (const argv of variants) {
      const warm = await pool.run({ root, argv, timeoutMs: 60000, env });
      const cold = runCold(root, argv, env);
      expect(warm.kind, `${argv.join(' ')}: ${warm.reason}`).to.equal('ran');
      expect([warm.exitCode, warm.stdout, warm.stderr], argv.join(' ')).to.deep.equal([
        cold.exitCode,
        cold.stdout,
        cold.stderr,
      ]);
    }
  });

  it('says not-warmable, with the reason, for invocations only the cold command reproduces', async function () {
    const pool = invocationPool();
    const cases = [
      [['eslint', '--fix', '.'], /--fix runs cold/],
      [['eslint', '--cache', '.'], /--cache runs cold/],
      [
        ['eslint', '--parser-options', 'projectService:true', 'src'],
        /src\/clean\.ts is linted with type information/,
      ],
      [['prettier', '--write', '.'], /--write runs cold/],
      [['tsc', '--noEmit', '--listFiles'], /--listFiles runs cold/],
      [['tsc', '-b'], /--build\/--watch runs cold/],
      [['biome', 'check'], /biome has no warm worker/],
    ];
    for (const [argv, reason] of cases) {
      const result = await pool.run({ root, argv, timeoutMs: 60000, env });
      expect(result.kind, argv.join(' ')).to.equal('not-warmable');
      expect(result.reason).to.match(reason);
    }
    expect(warmToolOf(['node_modules/.bin/eslint.cmd'])).to.equal('eslint');
  });

  it('leaves the native TypeScript 7 compiler cold', async function () {
    const native = makeTempDir('mcp-gates-warm-ts7-');
    fs.writeFileSync(path.join(native, 'package.json'), '{ "name": "ts7" }\n');
    fs.writeFileSync(
      path.join(native, 'tsconfig.json'),
      '{ "compilerOptions": { "noEmit": true } }\n',
    );
    fs.mkdirSync(path.join(native, 'node_modules', 'typescript'), { recursive: true });
    fs.writeFileSync(
      path.join(native, 'node_modules', 'typescript', 'package.json'),
      '{ "name": "typescript", "version": "7.0.2" }\n',
    );
    const result = await newPool().run({ root: native, argv: TSC, timeoutMs: 60000, env });
    expect(result.kind).to.equal('not-warmable');
    expect(result.reason).to.match(/typescript 7\.0\.2 ships the native tsc/);
  });
});

describe('a worker that dies says why', function () {
  it("names the uncaught error Node printed above its stack, not only the stack's last lines", async function () {
    const { lastWords } = await import('../dist/gates/warm/warm-pool.js');
    const stderr = [
      '/tmp/x/node_modules/eslint-plugin-local/index.js:3',
      '    throw new TypeError("bad plugin");',
      '    ^',
      '',
      'TypeError: bad plugin',
      '    at Object.<anonymous> (/tmp/x/node_modules/eslint-plugin-local/index.js:3:11)',
      '    at Module._compile (node:internal/modules/cjs/loader:1554:14) {',
      "  code: 'E_BAD'",
      '}',
      '',
      'Node.js v20.20.2',
      '',
    ].join('\n');
    // Before: "} |  | Node.js v20.20.2", which said nothing of the cause.
    expect(lastWords(stderr)).to.equal('TypeError: bad plugin | ... | } |  | Node.js v20.20.2');
    expect(lastWords('out of memory\n')).to.equal('out of memory');
  });
});

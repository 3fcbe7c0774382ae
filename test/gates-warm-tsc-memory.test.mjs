// What the warm tsc worker keeps in memory (issue 29 item 1, issue 28 item 5): source
// files parsed and bound under one set of compiler options never serve a program of
// another (two gates of one project, an extended config in node_modules that changed,
// moduleDetection), and a call that is cancelled or runs out of its budget leaves the
// worker's program to the next call, which is incremental and equal to a cold run.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { WarmPool } from '../dist/gates/warm/index.js';
import { cleanupTemporary, makeTempDir, REPO_ROOT } from './fixtures/gates-support.mjs';
import { installTools } from './fixtures/warm/tool-versions.mjs';
import { gateEnv, runCold } from './fixtures/warm/warm-fixture.mjs';

const env = gateEnv();
const TSC = ['tsc', '--noEmit', '--pretty', 'false'];
const STRICT = ['tsc', '-p', 'tsconfig.strict.json', '--pretty', 'false'];
const FORCE = [...TSC, '--moduleDetection', 'force'];
/** Options the binder reads: what it reports depends on them. */
const BINDER_OPTIONS = {
  allowUnreachableCode: false,
  allowUnusedLabels: false,
  noFallthroughCasesInSwitch: true,
};

const write = (root, file, text) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};
const json = (value) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * A project with `typescript` (a package directory) as its own: sources with unreachable
 * code, an unused label, a switch fallthrough, and two scripts that declare one name
 * (modules under moduleDetection force, one global scope otherwise); tsconfig.json and a
 * tsconfig.strict.json that extends it with the binder's options on.
 */
function tsProject(typescript = path.join(REPO_ROOT, 'node_modules', 'typescript')) {
  const root = makeTempDir('mcp-gates-tsc-memory-');
  fs.mkdirSync(path.join(root, 'node_modules', '.bin'), { recursive: true });
  fs.symlinkSync(typescript, path.join(root, 'node_modules', 'typescript'));
  fs.symlinkSync(
    path.join('..', 'typescript', 'bin', 'tsc'),
    path.join(root, 'node_modules', '.bin', 'tsc'),
  );
  write(root, 'package.json', json({ name: 'tsc-memory', private: true }));
  write(
    root,
    'tsconfig.json',
    json({
      compilerOptions: {
        noEmit: true,
        strict: true,
        target: 'es2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        types: [],
      },
      include: ['src'],
    }),
  );
  write(
    root,
    'tsconfig.strict.json',
    json({ extends: './tsconfig.json', compilerOptions: BINDER_OPTIONS }),
  );
  write(
    root,
    'src/flow.ts',
    `export function f(): number {
  return 1;
  console.log('never');
}
export function g(): void {
  outer: for (let i = 0; i < 2; i++) {
    console.log(i);
  }
}
export function h(n: number): number {
  let r = 0;
  switch (n) {
    case 1:
      r = 1;
    case 2:
      r = 2;
      break;
  }
  return r;
}
`,
  );
  write(root, 'src/script-one.ts', 'const shared = 1;\n');
  write(root, 'src/script-two.ts', 'const shared = 2;\n');
  return root;
}

/** Each command through the pool and cold, in order: equal each time. Returns the cold outputs. */
async function sequence(pool, root, commands, colds = new Map()) {
  const outputs = [];
  for (const [index, argv] of commands.entries()) {
    const warm = await pool.run({ root, argv, timeoutMs: 120000, env });
    // The tree is the same between calls: one cold run per command (the machine is shared).
    const key = argv.join(' ');
    if (!colds.has(key)) colds.set(key, runCold(root, argv));
    const cold = colds.get(key);
    expect(warm.kind, warm.reason).to.equal('ran');
    // One worker answers them all: the gates share its memory.
    if (index > 0) expect(warm.startedWorker, `${argv.join(' ')} restarted`).to.equal(false);
    expect(
      { exitCode: warm.exitCode, stdout: warm.stdout },
      `warm ${argv.join(' ')} (call ${index + 1})`,
    ).to.deep.equal({ exitCode: cold.exitCode, stdout: cold.stdout });
    outputs.push(cold.stdout);
  }
  return outputs;
}

const codes = (stdout) => [...new Set(stdout.match(/TS\d+/g) ?? [])].sort();

describe('warm tsc: what the worker keeps in memory', function () {
  this.timeout(300000);
  const pools = [];
  const newPool = (options) => {
    const pool = new WarmPool(options);
    pools.push(pool);
    return pool;
  };
  afterEach(async function () {
    while (pools.length > 0) await pools.pop().close();
  });
  after(cleanupTemporary);

  describe('source files per option set (issue 29 item 1)', function () {
    it('gates with different binder options or moduleDetection answer as cold, in any order', async function () {
      const root = tsProject();
      const pool = newPool();
      // Each change of gate is one a shared source file would answer wrongly: TS7029
      // missing, TS7029 kept, TS2451 kept (scripts under auto are modules under force).
      const outputs = await sequence(pool, root, [TSC, STRICT, TSC, FORCE]);
      expect(codes(outputs[0])).to.deep.equal(['TS2451']);
      expect(codes(outputs[1])).to.include('TS7029');
      expect(outputs[3]).to.equal('');
    });

    it('a config extended from node_modules that flips binder options is followed', async function () {
      const root = tsProject();
      const base = path.join('node_modules', '@acme', 'tsconfig');
      write(
        root,
        path.join(base, 'package.json'),
        json({ name: '@acme/tsconfig', version: '1.0.0' }),
      );
      const flip = (on) =>
        write(
          root,
          path.join(base, 'base.json'),
          json({ compilerOptions: on ? BINDER_OPTIONS : { noFallthroughCasesInSwitch: false } }),
        );
      const config = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.json'), 'utf8'));
      write(root, 'tsconfig.json', json({ extends: '@acme/tsconfig/base.json', ...config }));
      const pool = newPool();
      const colds = new Map();
      flip(false);
      const [off] = await sequence(pool, root, [TSC], colds);
      flip(true);
      const [on] = await sequence(pool, root, [TSC]);
      // Back to the first tree, byte for byte: its cold answer is the first one.
      flip(false);
      await sequence(pool, root, [TSC], colds);
      expect(codes(off)).to.deep.equal(['TS2451']);
      expect(codes(on)).to.include('TS7029');
    });

    it('TypeScript 5, whose binder reports unreachable code and unused labels, answers as cold', async function () {
      // reason: another TypeScript than the repository's is the version matrix's, run by
      // .ci/run's warm-versions stage (WARM_VERSIONS=all).
      if (process.env.WARM_VERSIONS !== 'all') this.skip();
      const installed = (await installTools([['typescript', '5.9.3']])).get('typescript@5.9.3');
      if (installed.skipped) this.skip();
      const root = tsProject(installed.directory);
      const pool = newPool();
      const outputs = await sequence(pool, root, [STRICT, TSC, STRICT]);
      expect(codes(outputs[0])).to.include.members(['TS7027', 'TS7028', 'TS7029']);
      expect(codes(outputs[1])).to.deep.equal(['TS2451']);
    });
  });

  describe('a cancelled call cancels its answer, not the builder (issue 28 item 5)', function () {
    /** The call through the pool and cold, equal; the warm result. */
    const equalsCold = async (pool, root, argv = TSC) => {
      const warm = await pool.run({ root, argv, timeoutMs: 120000, env });
      const cold = runCold(root, argv);
      expect(warm.kind, warm.reason).to.equal('ran');
      expect({ exitCode: warm.exitCode, stdout: warm.stdout }).to.deep.equal({
        exitCode: cold.exitCode,
        stdout: cold.stdout,
      });
      return warm;
    };

    it('a call cancelled mid-run is finished by its worker, which answers the next call', async function () {
      const root = tsProject();
      const pool = newPool();
      const controller = new AbortController();
      const call = pool.run({ root, argv: TSC, timeoutMs: 120000, env, signal: controller.signal });
      const [pid] = pool.workerPids();
      // The worker has the call (sent at once) and is loading TypeScript or checking.
      setTimeout(() => controller.abort(), 100);
      // A call behind it whose budget ends while the worker finishes the cancelled one.
      const waiting = pool.run({ root, argv: STRICT, timeoutMs: 200, env });
      const cancelled = await call;
      expect(cancelled).to.include({ kind: 'failed', end: 'cancelled' });
      expect(cancelled.reason).to.match(/finishes the check for the next call/);
      const waited = await waiting;
      expect(waited).to.include({ kind: 'failed', end: 'timed-out' });
      expect(waited.reason).to.match(/still finishing an earlier call/);
      const next = await equalsCold(pool, root);
      // The same worker, no restart; nothing changed since the cancelled call, which it
      // finished (and the waiting call never reached it): its result is the answer.
      expect(next).to.include({ startedWorker: false, reused: true });
      expect(next.restartedBecause).to.equal(undefined);
      expect(pool.workerPids()).to.deep.equal([pid]);
    });

    it('after a call past its budget and an edit, the next call starts from the finished program', async function () {
      const root = tsProject();
      const pool = newPool();
      const late = await pool.run({ root, argv: TSC, timeoutMs: 100, env });
      expect(late).to.include({ kind: 'failed', end: 'timed-out' });
      const [pid] = pool.workerPids();
      fs.appendFileSync(
        path.join(root, 'src', 'flow.ts'),
        "export const wrong: number = 'text';\n",
      );
      const next = await equalsCold(pool, root);
      expect(next.startedWorker).to.equal(false);
      // The abandoned call finished and kept its result: this one either is that result
      // (the abandoned call read the file after the edit) or knows what changed since.
      if (!next.reused) expect(next.notReusedBecause).to.match(/changed since the last run/);
      expect(next.stdout).to.include('TS2322');
      expect(pool.workerPids()).to.deep.equal([pid]);
    });

    it('an abandoned call still running past the hang bound kills its worker; the next call says why', async function () {
      const root = tsProject();
      const pool = newPool({ abandonedCallLimitMs: 50 });
      const late = await pool.run({ root, argv: TSC, timeoutMs: 20, env });
      expect(late).to.include({ kind: 'failed', end: 'timed-out' });
      const deadline = Date.now() + 5000;
      while (pool.workerPids().length > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(pool.workerPids()).to.deep.equal([]);
      const next = await equalsCold(pool, root);
      expect(next.startedWorker).to.equal(true);
      expect(next.restartedBecause).to.match(/still running after 50 ms/);
    });
  });
});

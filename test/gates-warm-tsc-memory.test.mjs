// What the warm tsc worker keeps in memory (issue 29 item 1, issue 28 item 5): source
// files parsed and bound under one set of compiler options never serve a program of
// another (two gates of one project, an extended config in node_modules that changed,
// moduleDetection), and a call that is cancelled or runs out of its budget leaves the
// worker's program to the next call, which is incremental and equal to a cold run.
// The option sets: the scripted changes of gate and extended config, then seeded random
// ones (npm test: 1 seed of 4 steps; WARM_LONG=1, .ci/run's warm-long stage: 4 seeds of 24;
// WARM_SEED=<n> replays one).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { WarmPool } from '../dist/gates/warm/index.js';
import { cleanupTemporary, makeTempDir, REPO_ROOT } from './fixtures/gates-support.mjs';
import { installTools } from './fixtures/warm/tool-versions.mjs';
import { itSeeds, pick, seededRandom, sequenceSize } from './fixtures/warm/sequence.mjs';
import { gateEnv, runCold, treeDigest } from './fixtures/warm/warm-fixture.mjs';

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
        // The libs' own checking is the same under every option set here, and was most
        // of each program's cost (their binding, where the options act, is kept); the DOM's
        // libs, which the target brings by default, were most of what was left.
        skipLibCheck: true,
        target: 'es2022',
        lib: ['es2022'],
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
  void 'never';
}
export function g(): void {
  outer: for (let i = 0; i < 2; i++) {
    void i;
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

/**
 * The cold run of `argv` on `root`'s tree now. tsc names files relative to the root, so a
 * tree with the same bytes (the same project built again, a config flipped back) has the
 * same cold answer: it is run once per command and tree (the machine is shared).
 */
const colds = new Map();
function coldOf(root, argv) {
  const key = `${argv.join(' ')}\0${treeDigest(root)}`;
  if (!colds.has(key)) colds.set(key, runCold(root, argv));
  return colds.get(key);
}

/** Each command through the pool and cold, in order: equal each time. Returns the cold outputs. */
async function sequence(pool, root, commands) {
  const outputs = [];
  for (const [index, argv] of commands.entries()) {
    const warm = await pool.run({ root, argv, timeoutMs: 120000, env });
    const cold = coldOf(root, argv);
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
    /**
     * One project whose tsconfig.json extends a config in node_modules; a state is a gate
     * and that config's binder options (on or off). Every step's answer equals cold, comes
     * from the one worker, and says what its options make of the sources: the switch
     * fallthrough (TS7029) under the binder's options alone, the scripts' shared name
     * (TS2451) unless moduleDetection forces them to be modules.
     */
    const GATES = { tsc: TSC, strict: STRICT, force: FORCE };
    const BASE = path.join('node_modules', '@acme', 'tsconfig');
    const flip = (root, on) =>
      write(
        root,
        path.join(BASE, 'base.json'),
        json({ compilerOptions: on ? BINDER_OPTIONS : { noFallthroughCasesInSwitch: false } }),
      );
    /** The changes a shared source file would answer wrongly (TS7029 missing, TS7029 kept,
     * TS2451 kept) and an extended config's flip followed there and back. */
    const SCRIPTED = [
      ['tsc', false],
      ['strict', false],
      ['tsc', false],
      ['force', false],
      ['tsc', true],
      ['tsc', false],
    ];
    const SIZE = sequenceSize({ firstSeed: 29101, quick: [1, 4], long: [4, 24] });

    itSeeds(
      SIZE.firstSeed,
      SIZE.seeds,
      `gates with different binder options or moduleDetection, and an extended config in node_modules that flips them: ${SCRIPTED.length} scripted steps and ${SIZE.steps} random, every answer equals cold`,
      async (seed, log) => {
        const root = tsProject();
        write(
          root,
          path.join(BASE, 'package.json'),
          json({ name: '@acme/tsconfig', version: '1.0.0' }),
        );
        const config = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.json'), 'utf8'));
        write(root, 'tsconfig.json', json({ extends: '@acme/tsconfig/base.json', ...config }));
        const pool = newPool();
        const random = seededRandom(seed);
        const states = Object.keys(GATES).flatMap((gate) => [
          [gate, false],
          [gate, true],
        ]);
        const steps = [...SCRIPTED];
        for (let index = 0; index < SIZE.steps; index++) {
          const [gate, on] = steps.at(-1);
          steps.push(
            pick(
              random,
              states.filter(([g, o]) => g !== gate || o !== on),
            ),
          );
        }
        const mismatches = [];
        for (const [index, [gate, on]] of steps.entries()) {
          flip(root, on);
          const argv = GATES[gate];
          const warm = await pool.run({ root, argv, timeoutMs: 120000, env });
          const cold = coldOf(root, argv);
          const binder = on || gate === 'strict';
          // TS7027 unreachable code, TS7028 the unused label, TS7029 the fallthrough.
          const expected = [
            ...(gate === 'force' ? [] : ['TS2451']),
            ...(binder ? ['TS7027', 'TS7028', 'TS7029'] : []),
          ];
          const step = `step ${index + 1}: ${gate}, extended binder options ${on ? 'on' : 'off'}`;
          log.push(`${step}: ${codes(cold.stdout).join(' ') || 'clean'}`);
          const actual = {
            kind: warm.kind,
            ...(index > 0 && { startedWorker: warm.startedWorker }),
            exitCode: warm.exitCode,
            stdout: warm.stdout,
          };
          const wanted = {
            kind: 'ran',
            ...(index > 0 && { startedWorker: false }),
            exitCode: cold.exitCode,
            stdout: cold.stdout,
          };
          if (JSON.stringify(actual) !== JSON.stringify(wanted))
            mismatches.push({ step, reason: warm.reason, warm: actual, cold: wanted });
          // What the cold run says is what the options ask for (the project is as meant).
          if (JSON.stringify(codes(cold.stdout)) !== JSON.stringify(expected))
            mismatches.push({ step, cold: cold.stdout, expected });
        }
        return mismatches;
      },
    );

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

// TypeScript on bigger projects (issue 19, items 3 and 4): the warm builder keeps each
// file's diagnostics across calls and rechecks what an edit can affect, its output equal
// to a cold tsc at each step; the worker's memory cap is sized to the project, its heap
// limit raised to match, and a worker above its cap after its first call runs cold with
// the reason said; TypeScript 7 runs incremental from build info kept outside the tree;
// a changed stat under node_modules restarts a worker only when the content changed.
import { expect } from 'chai';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { WarmPool } from '../dist/gates/warm/index.js';
import { loadTscAdapter } from '../dist/gates/warm/tsc-adapter.js';
import { signatureOf } from '../dist/gates/warm/input-fingerprint.js';
import {
  capFor,
  heapLimitMb,
  memoryPolicy,
  workerExecArgv,
} from '../dist/gates/warm/memory-cap.js';
import { planTscNoEmit } from '../dist/gates/run/tsc-build.js';
import {
  BuildInfoStore,
  persistentBuildInfoDirectory,
  runsNativeTypescript,
} from '../dist/gates/run/tsc-incremental.js';
import { cleanupTemporary, makeTempDir } from './fixtures/gates-support.mjs';
import {
  breakBody,
  breakExport,
  editBody,
  editExportedType,
  importersOf,
  moduleFile,
  writeBigProject,
} from './fixtures/warm/big-project.mjs';
import { installTools } from './fixtures/warm/tool-versions.mjs';
import { privateCollector, trackTypes } from './fixtures/warm/ts-types.mjs';
import { gateEnv, linkTypescript, makeWarmRepo, runCold } from './fixtures/warm/warm-fixture.mjs';

const N = 60;
const TSC = ['tsc', '--noEmit', '--pretty', 'false'];
const MB = 1024 * 1024;
const env = gateEnv();

/** The generated project with the worktree's typescript (6) as its own; `options` over its tsconfig's. */
function bigProject(n = N, options = {}) {
  const root = makeTempDir('mcp-gates-tsbig-');
  writeBigProject(root, n, options);
  return linkTypescript(root);
}

/** Paths of the files a tsc output names, relative and without position. */
const filesNamed = (stdout) =>
  [
    ...new Set(stdout.split('\n').flatMap((line) => /^(.+?)\(\d+,\d+\)/.exec(line)?.[1] ?? [])),
  ].sort();

describe('warm gates on bigger projects (issue 19, items 3 and 4)', function () {
  this.timeout(300000);
  after(cleanupTemporary);

  describe('warm TypeScript on a generated multi-file project', function () {
    it('generates the same project for the same N, with cross-file imports', function () {
      const a = bigProject(20);
      const b = bigProject(20);
      for (let i = 0; i < 20; i++) {
        const text = fs.readFileSync(path.join(a, moduleFile(i)), 'utf8');
        expect(text).to.equal(fs.readFileSync(path.join(b, moduleFile(i)), 'utf8'));
      }
      expect(importersOf(3, 20)).to.deep.equal([4, 6, 7, 9, 10, 11]);
      expect(fs.readFileSync(path.join(a, moduleFile(10)), 'utf8')).to.include("from './m5'");
    });

    it('rechecks only what an edit can affect, and answers as cold tsc does at every step', async function () {
      const root = bigProject();
      const ts = createRequire(path.join(root, 'package.json'))('typescript');
      const adapter = loadTscAdapter(root);
      expect(adapter).to.not.be.a('string');
      // tsc names files relative to its working directory: the worker's is the root.
      const cwd = process.cwd();
      process.chdir(root);
      ts.performance.enable();
      try {
        await editSequence(root, ts, adapter);
      } finally {
        ts.performance.disable();
        process.chdir(cwd);
      }
    });

    async function editSequence(root, ts, adapter) {
      let cold;
      /** One warm call and its cold answer (`unchanged`: the last step's tree, and its answer). */
      const step = async (unchanged = false) => {
        const before = ts.performance.getCount('beforeCheck');
        const warm = await adapter.run(TSC.slice(1));
        const checked = ts.performance.getCount('beforeCheck') - before;
        if (!unchanged) cold = runCold(root, TSC);
        expect(warm.exitCode).to.equal(cold.exitCode);
        expect(warm.stdout).to.equal(cold.stdout);
        return { checked, stdout: warm.stdout };
      };
      const first = await step();
      expect(first.checked).to.be.above(N);
      expect((await step(true)).checked).to.equal(0);
      // A body edit rechecks that file alone, the first edit of a file too: the declaration
      // signature it had is computed before the edit is compared with it (a new builder
      // records text versions as signatures, and would recheck every importer, transitively).
      editBody(root, 7);
      expect((await step()).checked).to.equal(1);
      fs.appendFileSync(path.join(root, moduleFile(7)), '\n// another body-only edit\n');
      expect((await step()).checked).to.equal(1);
      // A type error in a body: one file checked, one file reported.
      breakBody(root, 7);
      const broken = await step();
      expect(broken.checked).to.equal(1);
      expect(filesNamed(broken.stdout)).to.deep.equal([moduleFile(7)]);
      // An exported type changed: its importers are checked again (they may break), the
      // default library is not.
      editExportedType(root, 7);
      const typeEdit = await step();
      expect(typeEdit.checked).to.be.at.least(1 + importersOf(7, N).length);
      expect(typeEdit.checked).to.be.below(first.checked);
      breakExport(root, 3);
      const exportBroken = await step();
      expect(filesNamed(exportBroken.stdout)).to.include.members([
        moduleFile(3),
        ...importersOf(3, N).map(moduleFile),
      ]);
    }

    it('runs warm on the project through the pool, equal to cold after edits', async function () {
      // What is checked again after an edit is the sequence above's: the libs go unchecked.
      const root = bigProject(N, { skipLibCheck: true });
      const pool = new WarmPool();
      try {
        const call = () => pool.run({ root, argv: TSC, timeoutMs: 120000, env });
        const first = await call();
        expect(first).to.include({ kind: 'ran', exitCode: 0, startedWorker: true });
        for (const edit of [() => editBody(root, 9), () => breakExport(root, 4)]) {
          edit();
          const warm = await call();
          const cold = runCold(root, TSC);
          expect(warm).to.include({ kind: 'ran', startedWorker: false, reused: false });
          expect({ exitCode: warm.exitCode, stdout: warm.stdout }).to.deep.equal({
            exitCode: cold.exitCode,
            stdout: cold.stdout,
          });
        }
      } finally {
        await pool.close();
      }
    });
  });

  describe('warm TypeScript memory between programs', function () {
    it('collects the replaced program before checking with the new one', async function () {
      // reason: it keeps a weak reference to every type of a 20-module program (seconds of
      // CPU); run by .ci/run's memory stage (MEMORY_PROOFS=1).
      if (process.env.MEMORY_PROOFS !== '1') this.skip();
      const root = bigProject(20);
      const ts = createRequire(path.join(root, 'package.json'))('typescript');
      const gc = privateCollector();
      // Every type the first call's checker makes, held weakly.
      const types = trackTypes(ts);
      const typesAlive = types.alive;
      const collections = [];
      let checksBefore = 0;
      const adapter = loadTscAdapter(root, () => {
        gc();
        collections.push({
          checked: ts.performance.getCount('beforeCheck') - checksBefore,
          typesAlive: typesAlive(),
        });
      });
      expect(adapter).to.not.be.a('string');
      const cwd = process.cwd();
      process.chdir(root);
      ts.performance.enable();
      try {
        const call = async () => {
          checksBefore = ts.performance.getCount('beforeCheck');
          const warm = await adapter.run(TSC.slice(1));
          const cold = runCold(root, TSC);
          expect({ exitCode: warm.exitCode, stdout: warm.stdout }).to.deep.equal({
            exitCode: cold.exitCode,
            stdout: cold.stdout,
          });
        };
        await call();
        types.stop();
        // A first program replaces none.
        expect(collections).to.deep.equal([]);
        expect(typesAlive()).to.be.above(100);
        editExportedType(root, 7);
        // A new task: a WeakRef keeps its target alive until the end of the job that made
        // it or last dereferenced it.
        await new Promise((resolve) => setImmediate(resolve));
        await call();
        // Once the new builder stands and before any file is checked, the last program is
        // garbage: every type its checker made is gone.
        expect(collections).to.deep.equal([{ checked: 0, typesAlive: 0 }]);
      } finally {
        ts.performance.disable();
        types.restore();
        process.chdir(cwd);
      }
    });
  });

  describe('warm worker memory cap', function () {
    it('sizes the cap to the first call, between 1 GiB and half the machine, or fixes it by variable', function () {
      const machine = 16 * 1024 * MB;
      const policy = memoryPolicy({}, machine);
      expect(capFor(policy, 100 * MB)).to.equal(1024 * MB);
      expect(capFor(policy, 1000 * MB)).to.equal(3000 * MB);
      expect(capFor(policy, 5000 * MB)).to.equal(8 * 1024 * MB);
      expect(heapLimitMb(policy)).to.equal(8 * 1024);
      // A 3,000-file program of a few GB keeps its worker on a 16 GB machine.
      expect(capFor(policy, 2500 * MB)).to.be.above(2 * 2500 * MB);

      const fixed = memoryPolicy({ MCP_GATES_WARM_MEMORY_MB: '12000' }, machine);
      expect(capFor(fixed, 100 * MB)).to.equal(12000 * MB);
      expect(heapLimitMb(fixed)).to.equal(12000);
      const wrong = memoryPolicy({ MCP_GATES_WARM_MEMORY_MB: '2GB' }, machine);
      expect(wrong.fixedBytes).to.equal(undefined);
      expect(wrong.ignored).to.match(/not a whole number of megabytes/);

      expect(workerExecArgv(policy, {})).to.deep.equal(['--max-old-space-size=8192']);
      expect(workerExecArgv(policy, { NODE_OPTIONS: '--max-old-space-size=512' })).to.deep.equal(
        [],
      );
    });

    it('starts each worker with the raised V8 heap limit', async function () {
      if (process.platform !== 'linux') this.skip();
      const root = makeWarmRepo();
      const pool = new WarmPool();
      try {
        await pool.run({ root, argv: ['prettier', '--check', '.'], timeoutMs: 60000, env });
        const [pid] = pool.workerPids();
        const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        expect(argv).to.include(`--max-old-space-size=${heapLimitMb(pool.memoryPolicy)}`);
        expect(heapLimitMb(pool.memoryPolicy)).to.be.at.least(Math.floor(os.totalmem() / 2 / MB));
      } finally {
        await pool.close();
      }
    });
  });

  describe('warm inputs under node_modules are compared by content', function () {
    it('signs a node_modules file by its content: a new ctime alone keeps the signature', function () {
      const root = makeTempDir('mcp-gates-nm-');
      const file = path.join(root, 'node_modules', 'pkg', 'index.js');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'module.exports = 1;\n');
      const past = new Date(Date.now() - 60000);
      fs.utimesSync(file, past, past);
      const before = signatureOf(file);
      expect(before).to.match(/^sha256:/);
      const ctime = fs.statSync(file).ctimeMs;
      fs.chmodSync(file, fs.statSync(file).mode); // same mode: only the ctime moves
      fs.linkSync(file, path.join(root, 'hard-link.js')); // what a pnpm store link does
      expect(fs.statSync(file).ctimeMs).to.be.above(ctime - 1);
      expect(signatureOf(file)).to.equal(before);
      fs.writeFileSync(file, 'module.exports = 2;\n'); // same size, new content
      fs.utimesSync(file, past, past);
      expect(signatureOf(file)).to.not.equal(before);
    });

    it("keeps the worker when a loaded package's ctime moves, restarts it when its content changes", async function () {
      const root = makeWarmRepo();
      const plugin = path.join(root, 'node_modules', 'eslint-plugin-local', 'index.js');
      const pool = new WarmPool();
      const lint = () => pool.run({ root, argv: ['eslint', '.'], timeoutMs: 60000, env });
      try {
        const first = await lint();
        expect(first).to.include({ kind: 'ran', startedWorker: true });
        const [pid] = pool.workerPids();
        // Older than the racy window, so the stat fast path applies until the ctime moves.
        await new Promise((resolve) => setTimeout(resolve, 2100));
        fs.chmodSync(plugin, fs.statSync(plugin).mode);
        fs.linkSync(plugin, path.join(makeTempDir('mcp-gates-link-'), 'plugin-link.js'));
        const touched = await lint();
        expect(touched).to.include({ kind: 'ran', startedWorker: false });
        expect(touched.restartedBecause).to.equal(undefined);
        expect(pool.workerPids()).to.deep.equal([pid]);

        fs.appendFileSync(plugin, '\n// changed\n');
        const changed = await lint();
        expect(changed).to.include({ kind: 'ran', startedWorker: true });
        expect(changed.restartedBecause).to.include('eslint-plugin-local');
        expect(pool.workerPids()).to.not.include(pid);
      } finally {
        await pool.close();
      }
    });
  });

  describe('TypeScript 7: incremental with build info kept outside the tree', function () {
    this.timeout(600000);
    let ts7;
    before(async function () {
      const installed = (await installTools([['typescript', '7.0.2']])).get('typescript@7.0.2');
      if (!installed.directory) {
        console.log(`      skipped: ${installed.skipped}`);
        this.skip();
      }
      ts7 = installed.directory;
    });

    it('answers as a cold run after every edit, writing nothing into the tree', function () {
      const root = makeTempDir('mcp-gates-ts7-');
      writeBigProject(root, N);
      fs.mkdirSync(path.join(root, 'node_modules'), { recursive: true });
      fs.symlinkSync(ts7, path.join(root, 'node_modules', 'typescript'));
      const tsc = path.join(ts7, 'bin', 'tsc');
      const command = [tsc, '--noEmit', '--pretty', 'false'];
      expect(runsNativeTypescript(command, root)).to.equal(true);
      expect(runsNativeTypescript([...command, '--incremental'], root)).to.equal(false);
      const listing = () =>
        spawnSync('find', ['.', '-not', '-path', './node_modules*'], {
          cwd: root,
          encoding: 'utf8',
        })
          .stdout.split('\n')
          .sort();
      const store = new BuildInfoStore();
      const run = (argv) => {
        const result = spawnSync(argv[0], argv.slice(1), { cwd: root, encoding: 'utf8' });
        return { exitCode: result.status, stdout: result.stdout };
      };
      const call = () => {
        const plan = planTscNoEmit(command, { store, runDir: root });
        const buildInfo = plan.argv[plan.argv.length - 1];
        const restored = fs.existsSync(buildInfo);
        expect(buildInfo.startsWith(root)).to.equal(false);
        const result = run(plan.argv);
        plan.cleanup();
        expect(fs.existsSync(plan.cacheDirectory)).to.equal(false);
        return { ...result, restored };
      };
      try {
        const tree = listing();
        expect(call()).to.include({ restored: false, exitCode: 0 });
        const edits = [
          () => {},
          () => editBody(root, 5),
          () => breakBody(root, 8),
          () => breakExport(root, 4),
          () => editExportedType(root, 9),
          () =>
            fs.writeFileSync(
              path.join(root, moduleFile(8)),
              fs
                .readFileSync(path.join(root, moduleFile(8)), 'utf8')
                .replace('  const wrong: string = sum;\n', ''),
            ),
        ];
        for (const edit of edits) {
          edit();
          const incremental = call();
          expect(incremental.restored).to.equal(true);
          expect({ exitCode: incremental.exitCode, stdout: incremental.stdout }).to.deep.equal(
            run(command),
          );
        }
        expect(listing()).to.deep.equal(tree);
      } finally {
        store.close();
      }
    });

    it("keeps build info across servers in a directory private to the user, so a new server's first call is incremental", function () {
      if (typeof process.getuid !== 'function') this.skip();
      const root = makeTempDir('mcp-gates-ts7-kept-');
      writeBigProject(root, N);
      fs.mkdirSync(path.join(root, 'node_modules'), { recursive: true });
      fs.symlinkSync(ts7, path.join(root, 'node_modules', 'typescript'));
      const command = [path.join(ts7, 'bin', 'tsc'), '--noEmit', '--pretty', 'false'];
      const run = (argv) => {
        const result = spawnSync(argv[0], argv.slice(1), { cwd: root, encoding: 'utf8' });
        return { exitCode: result.status, stdout: result.stdout };
      };
      const call = (store) => {
        const plan = planTscNoEmit(command, { store, runDir: root });
        const restored = fs.existsSync(plan.argv[plan.argv.length - 1]);
        const result = run(plan.argv);
        plan.cleanup();
        return { ...result, restored };
      };
      const cache = makeTempDir('mcp-gates-cache-');
      expect(persistentBuildInfoDirectory({ XDG_CACHE_HOME: cache })).to.equal(
        path.join(cache, 'mcp-gates', 'tsbuildinfo'),
      );
      const kept = persistentBuildInfoDirectory({ XDG_CACHE_HOME: cache });
      const first = new BuildInfoStore(kept);
      expect(call(first)).to.include({ restored: false, exitCode: 0 });
      first.close();
      // The server closed: its build info stays, private to the user.
      expect(fs.statSync(kept).mode & 0o777).to.equal(0o700);
      expect(fs.readdirSync(kept).filter((name) => name.endsWith('.tsbuildinfo'))).to.have.length(
        1,
      );
      breakBody(root, 8);
      const next = new BuildInfoStore(kept);
      try {
        const incremental = call(next);
        expect(incremental.restored).to.equal(true);
        expect({ exitCode: incremental.exitCode, stdout: incremental.stdout }).to.deep.equal(
          run(command),
        );
      } finally {
        next.close();
      }
      // A directory other users can open is not used: a temporary one is, removed on close.
      fs.chmodSync(kept, 0o755);
      const open = new BuildInfoStore(kept);
      try {
        expect(call(open)).to.include({ restored: false });
      } finally {
        open.close();
      }
      expect(fs.readdirSync(kept).filter((name) => name.endsWith('.tsbuildinfo'))).to.have.length(
        1,
      );
    });
  });
});

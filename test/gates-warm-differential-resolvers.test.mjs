// Issue 30 / rule 3: the seeded warm differential on the real resolving plugins. A second
// project of the warm differential (gates-warm-differential.test.mjs has the attack
// shapes), linted with eslint-plugin-import-x 4.17.1 resolving through
// eslint-import-resolver-typescript on unrs-resolver 1.11.1 (the native resolver whose
// answers the worker replays, ledger kind `resolve`; import-x's ModuleCache, aged out in a
// call) and eslint-plugin-n 18.3.0 (its memos that expire by Date.now, and
// enhanced-resolve's CachedInputFileSystem), as vuejs/core and vite lint. Each step moves
// what those resolutions and memos depend on: an imported module created, deleted, renamed
// or exporting other names; a module only the native resolver probes; a package's
// `exports` / `main`; tsconfig `paths`; a dependency in package.json; `engines`; a body edit
// that keeps the other files; a repeat; or a warm call cancelled (or timed out) mid-run,
// whose worker finishes it while the next edit lands. After each, the warm answer must be
// the cold command's: exit code, stdout, stderr.
//
// Quick by default (npm test: one seed of 3 steps, 2-4 CPU-seconds: the cancelled
// call, a module only the resolvers probe appearing or going, and a body edit after which
// the other files' kept lints are checked by replaying their resolutions); WARM_LONG=1 runs
// 4 seeds of 30 steps of every kind, WARM_SEED=<n> replays one seed, WARM_SEEDS and
// WARM_STEPS size a run, WARM_LOG=1 prints every step. WARM_ESLINT=<version> runs it on
// that ESLint release; a run on WARM_PRETTIER alone skips it. The plugins are installed
// from npm once, into the temp directory (skipped, saying why, when npm cannot be reached).
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WarmPool } from '../dist/gates/warm/index.js';
import { cleanupTemporary } from './fixtures/gates-support.mjs';
import { gateEnv, makeWarmRepo, runColdAsync } from './fixtures/warm/warm-fixture.mjs';
import {
  another,
  answersAsCold,
  itSeeds,
  pick,
  planSteps,
  seededRandom,
  sequenceSize,
  write,
} from './fixtures/warm/sequence.mjs';
import {
  installTools,
  isCompleteInstall,
  linkTool,
  npmInstallInto,
  versionsFromEnv,
} from './fixtures/warm/tool-versions.mjs';

const {
  long: LONG,
  firstSeed: FIRST_SEED,
  seeds: SEEDS,
  steps: STEPS,
} = sequenceSize({ firstSeed: 30001, quick: [1, 3], long: [4, 30] });

/** The plugins, at the versions vuejs/core's and vite's lockfiles hold. */
const PLUGINS = [
  'eslint-plugin-import-x@4.17.1',
  'eslint-import-resolver-typescript@4.4.5',
  'unrs-resolver@1.11.1',
  'eslint-plugin-n@18.3.0',
];
/** The packages the config imports, linked into the project's node_modules. */
const LINKED = ['eslint-plugin-import-x', 'eslint-import-resolver-typescript', 'eslint-plugin-n'];
const PLUGINS_PREFIX = path.join(
  os.tmpdir(),
  `mcp-gates-test-resolver-plugins-${PLUGINS.map((spec) => spec.split('@').at(-1)).join('-')}`,
);

const ARGV = ['eslint', 'src', '--format', 'json'];
/** [name, version] from WARM_ESLINT / WARM_PRETTIER: this project is ESLint's alone. */
const VERSIONS = versionsFromEnv();
const ESLINT_VERSION = VERSIONS.find(([name]) => name === 'eslint');

/**
 * The flat config: import-x resolving through the TypeScript resolver (tsconfig paths,
 * package exports), import-x/named reading the target's exports, import-x and n on
 * package.json's dependencies, n resolving by enhanced-resolve and judging builtins by
 * `engines` (not in src/probe/, whose lint only the native resolver's answers move while
 * its target is missing); and an inline rule that sleeps a second on a file saying SPIN (no
 * clock read, no read, no core spun), so a call lasts long enough to be cancelled mid-run.
 */
const ESLINT_CONFIG = `import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import n from 'eslint-plugin-n';
const spin = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    return {
      Program() {
        if (!context.sourceCode.text.includes('SPIN')) return;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
      },
    };
  },
};
export default [
  { ignores: ['node_modules/', '*.js'] },
  {
    files: ['src/**/*.js'],
    plugins: { 'import-x': importX, inline: { rules: { spin } } },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: {
      'import-x/no-unresolved': 'error',
      'import-x/named': 'error',
      'import-x/no-extraneous-dependencies': 'error',
      'inline/spin': 'error',
    },
  },
  {
    // Not src/probe/: its imports are resolved by the native resolver alone.
    files: ['src/**/*.js'],
    ignores: ['src/probe/**'],
    plugins: { n },
    rules: {
      'n/no-missing-import': 'error',
      'n/no-extraneous-import': 'error',
      'n/no-unsupported-features/node-builtins': 'error',
    },
  },
];
`;

const json = (value) => `${JSON.stringify(value, null, 2)}\n`;

/** package.json: whether it lists `dep`, and its engines (n judges util.styleText by them). */
const manifest = ({ dependency = true, engines = '>=18' } = {}) =>
  json({
    name: 'resolvers-fixture',
    version: '1.0.0',
    private: true,
    type: 'module',
    engines: { node: engines },
    ...(dependency ? { dependencies: { dep: '1.0.0' } } : {}),
  });
/** Ranges util.styleText is unsupported in, experimental in, and supported in. */
const ENGINES = ['>=18', '>=22', '>=23.5.0'];

/** node_modules/dep/package.json: what `dep` resolves to (a.js exports a, b.js b), or nothing. */
const DEP_MANIFESTS = [
  { exports: './a.js' },
  { exports: { '.': { import: './b.js' } } },
  { main: 'a.js' },
  { main: 'b.js' },
  { exports: { './sub': './a.js' } },
  {},
].map((fields) => json({ name: 'dep', version: '1.0.0', type: 'module', ...fields }));

/** tsconfig.json: where `@lib/*` leads (src/one/p.js exports p, src/two/p.js q, three has none). */
const TSCONFIGS = ['src/one/*', 'src/two/*', 'src/three/*'].map((target) =>
  json({ compilerOptions: { baseUrl: '.', allowJs: true, paths: { '@lib/*': [target] } } }),
);

/** What src/lib/one.js exports (src/main.js and src/also.js import `one`). */
const ONE = ['export const one = 1;\n', 'export const uno = 1;\n'];

/** src/plain.js, which nothing imports and which imports nothing. */
const PLAIN = [
  'export const plain = 1;\n',
  'export const plain = 2;\n',
  'export const plain = "BAD";\n',
];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The project: its sources, package.json, tsconfig, the `dep` package and the plugins linked. */
function resolversRepo(eslintDirectory) {
  const root = makeWarmRepo('mcp-gates-warm-resolvers-');
  fs.rmSync(path.join(root, 'src'), { recursive: true });
  for (const name of LINKED)
    fs.symlinkSync(
      path.join(PLUGINS_PREFIX, 'node_modules', name),
      path.join(root, 'node_modules', name),
      'junction',
    );
  if (eslintDirectory) linkTool(root, 'eslint', eslintDirectory);
  write(root, 'package.json', manifest());
  write(root, 'tsconfig.json', TSCONFIGS[0]);
  write(root, 'eslint.config.js', ESLINT_CONFIG);
  write(root, 'node_modules/dep/package.json', DEP_MANIFESTS[0]);
  write(root, 'node_modules/dep/a.js', 'export const a = 1;\n');
  write(root, 'node_modules/dep/b.js', 'export const b = 1;\n');
  write(root, 'src/lib/one.js', ONE[0]);
  write(root, 'src/lib/two.js', 'export const two = 2;\n');
  write(root, 'src/one/p.js', 'export const p = 1;\n');
  write(root, 'src/two/p.js', 'export const q = 1;\n');
  write(
    root,
    'src/main.js',
    "import { one } from './lib/one.js';\nimport { a } from 'dep';\nimport { p } from '@lib/p.js';\nimport { styleText } from 'node:util';\nexport const main = [one, a, p, styleText];\n",
  );
  write(
    root,
    'src/also.js',
    "import { one } from './lib/one.js';\nimport { b } from 'dep';\nexport const also = [one, b];\n",
  );
  write(root, 'src/other.js', "import { two } from './lib/two.js';\nexport const other = two;\n");
  write(root, 'src/plain.js', PLAIN[0]);
  write(
    root,
    'src/probe/probe.js',
    "import { m } from '../../lib/maybe';\nexport const probe = m;\n",
  );
  return root;
}

/**
 * The edit kinds: each moves what a resolution or a plugin memo depends on (or the time
 * they are kept for), given the step's root and random draws; it may return a promise.
 */
const EDITS = {
  'an imported module is created or deleted (src/lib/one.js)': ({ root, random }) => {
    const file = path.join(root, 'src/lib/one.js');
    if (fs.existsSync(file)) fs.rmSync(file);
    else write(root, 'src/lib/one.js', pick(random, ONE));
  },
  'an imported module is renamed (src/lib/two.js and src/lib/second.js)': ({ root }) => {
    const [from, to] = fs.existsSync(path.join(root, 'src/lib/two.js'))
      ? ['two.js', 'second.js']
      : ['second.js', 'two.js'];
    fs.renameSync(path.join(root, 'src/lib', from), path.join(root, 'src/lib', to));
  },
  'an imported module exports other names (src/lib/one.js)': ({ root, random }) => {
    const file = path.join(root, 'src/lib/one.js');
    write(root, 'src/lib/one.js', another(random, ONE, file));
  },
  'an imported module exports other names at the same size, its mtime set back (cp -p; import-x keeps exports by mtime)':
    ({ root, random }) => {
      const file = path.join(root, 'src/lib/one.js');
      if (!fs.existsSync(file)) return write(root, 'src/lib/one.js', pick(random, ONE));
      const before = fs.statSync(file);
      fs.writeFileSync(file, another(random, ONE, file));
      fs.utimesSync(file, before.atime, before.mtime);
    },
  "time passes (6 s: past the lifetime of eslint-plugin-n's memos)": () => sleep(6000),
  "a package's exports or main changes (node_modules/dep/package.json)": ({ root, random }) => {
    const file = 'node_modules/dep/package.json';
    write(root, file, another(random, DEP_MANIFESTS, path.join(root, file)));
  },
  'tsconfig paths: @lib/* leads elsewhere': ({ root, random }) =>
    write(root, 'tsconfig.json', another(random, TSCONFIGS, path.join(root, 'tsconfig.json'))),
  'package.json: dep added to or removed from dependencies': ({ root }) => {
    const now = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    write(
      root,
      'package.json',
      manifest({ dependency: !now.dependencies, engines: now.engines.node }),
    );
  },
  'a module only the resolvers probe appears or goes (lib/maybe.js, not linted, imported without its extension)':
    ({ root }) => {
      const file = path.join(root, 'lib/maybe.js');
      if (fs.existsSync(file)) fs.rmSync(file);
      else write(root, 'lib/maybe.js', 'export const m = 1;\n');
    },
  'a body edit of a file nothing imports (src/plain.js): the other files kept': ({
    root,
    random,
  }) => write(root, 'src/plain.js', another(random, PLAIN, path.join(root, 'src/plain.js'))),
  'nothing changes (a repeat)': () => {},
  'package.json: engines changes': ({ root, random }) => {
    const now = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const engines = pick(
      random,
      ENGINES.filter((range) => range !== now.engines.node),
    );
    write(root, 'package.json', manifest({ dependency: Boolean(now.dependencies), engines }));
  },
};

/**
 * The abandon path: a warm call over a file that makes it last (src/spin.js) is cancelled
 * or times out mid-run, so its worker finishes the call after its caller gave up; another
 * edit lands meanwhile and the file stops spinning. Returns what the stopped call said, and
 * its answer with the cold command's when it ended before its stop (a loaded machine).
 */
async function cancelMidRun({ root, random, pool, env }) {
  write(
    root,
    'src/spin.js',
    "// SPIN\nimport { one } from './lib/one.js';\nexport const s = one;\n",
  );
  const after = 50 + Math.floor(random() * 300);
  const controller = new AbortController();
  const timedOut = random() < 0.3;
  const call = pool.run({
    root,
    argv: ARGV,
    env,
    timeoutMs: timedOut ? after : 90000,
    signal: controller.signal,
  });
  const timer = timedOut ? undefined : setTimeout(() => controller.abort(), after);
  const stopped = await call;
  clearTimeout(timer);
  const ended = stopped.kind === 'ran' ? await runColdAsync(root, ARGV, env) : undefined;
  // Rewritten, not deleted: a file the worker linted once and that then goes restarts it
  // (the tool may keep it), and the next call would never start from the finished one.
  write(root, 'src/spin.js', "import { one } from './lib/one.js';\nexport const s = one;\n");
  const [name, edit] = pick(random, Object.entries(EDITS));
  await edit({ root, random });
  const how =
    stopped.kind === 'failed'
      ? `${stopped.end} after ${after} ms: ${stopped.reason}`
      : `${stopped.kind} in ${stopped.durationMs} ms, before its stop at ${after} ms`;
  return { said: `${how}, then ${name}`, stopped, ended };
}
const CANCEL = 'a warm call cancelled mid-run (its worker finishes it), then an edit';

/**
 * The kinds the quick run draws: they move what the replayed resolutions and the memos
 * answer, and no file the worker loaded as it started (package.json and tsconfig.json
 * are: an edit of either starts a fresh worker, whose memos start empty). Its 3 steps are
 * the first two and the cancelled call, in the seed's order.
 */
const QUICK = [
  'a module only the resolvers probe appears or goes (lib/maybe.js, not linted, imported without its extension)',
  'a body edit of a file nothing imports (src/plain.js): the other files kept',
  'nothing changes (a repeat)',
  'an imported module exports other names (src/lib/one.js)',
  "a package's exports or main changes (node_modules/dep/package.json)",
  'an imported module is created or deleted (src/lib/one.js)',
];

/** Installs the plugins once (npm, into the temp directory); why not, when it failed. */
async function installPlugins() {
  if (isCompleteInstall(PLUGINS_PREFIX)) return undefined;
  const failed = await npmInstallInto(PLUGINS_PREFIX, PLUGINS);
  return isCompleteInstall(PLUGINS_PREFIX)
    ? undefined
    : `npm install ${PLUGINS.join(' ')} failed (${failed ?? 'not installed'})`;
}

/** Runs one seeded sequence; returns its mismatches (empty when warm always equalled cold). */
async function runSequence(seed, steps, log, eslintDirectory) {
  const random = seededRandom(seed);
  const root = resolversRepo(eslintDirectory);
  const env = gateEnv();
  const pool = new WarmPool();
  const mismatches = [];
  try {
    // The worker has served once, so the first edit meets a warm worker and its memos.
    await pool.run({ root, argv: ARGV, timeoutMs: 90000, env });
    // Long: every kind once as far as steps go, the cancelled call thrice, and drawn thrice
    // as often as an edit kind (drawn as one of 14, it came 5 times in 120 steps). Quick:
    // the cancelled call and QUICK's first two. Every sequence has a cancelled call.
    const kinds = LONG ? [...Object.keys(EDITS), CANCEL, CANCEL, CANCEL] : [...QUICK, CANCEL];
    const planned = planSteps(random, kinds, LONG ? kinds : [CANCEL, ...QUICK.slice(0, 2)], steps);
    if (!planned.includes(CANCEL)) planned[Math.floor(random() * planned.length)] = CANCEL;
    for (let step = 0; step < steps; step++) {
      const name = planned[step];
      let said;
      if (name === CANCEL) {
        const { said: how, stopped, ended } = await cancelMidRun({ root, random, pool, env });
        said = how;
        if (ended && !answersAsCold(stopped, ended))
          mismatches.push({ seed, step, edit: name, warm: stopped, cold: ended });
      } else await EDITS[name]({ root, random });
      const hot = await pool.run({ root, argv: ARGV, timeoutMs: 90000, env });
      const cold = await runColdAsync(root, ARGV, env);
      const how = hot.reused
        ? 'reused'
        : hot.startedWorker
          ? `restarted (${hot.restartedBecause})`
          : `ran ${JSON.stringify(hot.incremental ?? {})}`;
      log.push(`seed ${seed} step ${step} ${name}${said ? ` (${said})` : ''}: eslint ${how}`);
      if (!answersAsCold(hot, cold)) mismatches.push({ seed, step, edit: name, warm: hot, cold });
    }
  } finally {
    pool.close();
  }
  return mismatches;
}

describe('warm gates: seeded sequences on the real resolving plugins (warm equals cold)', function () {
  this.timeout(600000);
  let eslintDirectory;
  before(async function () {
    // reason: this project is ESLint's; a run on WARM_PRETTIER alone has nothing to compare.
    if (VERSIONS.length > 0 && !ESLINT_VERSION) this.skip();
    const failed = await installPlugins();
    if (failed) {
      console.log(`      skipped: ${failed}`);
      this.skip(); // reason: npm could not install the plugins (printed above).
    }
    if (ESLINT_VERSION) {
      const found = (await installTools([ESLINT_VERSION])).get(ESLINT_VERSION.join('@'));
      if (found.skipped) throw new Error(found.skipped);
      eslintDirectory = found.directory;
      const { version } = JSON.parse(
        fs.readFileSync(path.join(eslintDirectory, 'package.json'), 'utf8'),
      );
      console.log(`      on eslint ${version}`);
    }
  });
  after(cleanupTemporary);

  it("import-x/named: an edit of an imported module's exports keeps the worker (its stat, read once through import-x's lazy for two lines, is one reader's)", async function () {
    const root = resolversRepo(eslintDirectory);
    const env = gateEnv();
    const pool = new WarmPool();
    try {
      await pool.run({ root, argv: ARGV, timeoutMs: 90000, env });
      for (const exports of [ONE[1], ONE[0]]) {
        write(root, 'src/lib/one.js', exports);
        const hot = await pool.run({ root, argv: ARGV, timeoutMs: 90000, env });
        const cold = await runColdAsync(root, ARGV, env);
        expect(answersAsCold(hot, cold), 'the warm answer is the cold one').to.equal(true);
        expect(hot.restartedBecause, 'why the worker was replaced').to.equal(undefined);
        expect(hot.startedWorker).to.equal(false);
      }
    } finally {
      pool.close();
    }
  });

  itSeeds(
    FIRST_SEED,
    SEEDS,
    `${STEPS} steps, every answer equals the cold command's`,
    (seed, log) => runSequence(seed, STEPS, log, eslintDirectory),
  );
});

// The versions repositories run, kept warm: for each released ESLint and Prettier below
// (installed once into the temp directory, keyed by version; WARM_VERSIONS=oldest the
// oldest of each, WARM_VERSIONS=all every one, none in npm test), a short sequence of edits
// where the warm answer must come from a worker (not a silent cold run) and equal the cold
// command's exit code, stdout and stderr; and `list`/`doctor`'s warm decision must be the
// one serve acts on. Without the npm registry it skips. The full differential suites run on
// one version with WARM_ESLINT=<version> / WARM_PRETTIER=<version> (gates-warm.test.mjs,
// gates-warm-differential.test.mjs; CI runs the latter on each supported line).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { gateWarmCapability, WarmPool } from '../dist/gates/warm/index.js';
import { cleanupTemporary, makeTempDir, runCli } from './fixtures/gates-support.mjs';
import { gateEnv, git, makeWarmRepo, runColdAsync } from './fixtures/warm/warm-fixture.mjs';
import { installTools, reusesRepeats, useToolVersion } from './fixtures/warm/tool-versions.mjs';

/** The oldest supported, the ones the issue found cold, and the newest of each major. */
const ESLINT_VERSIONS = ['8.57.1', '9.3.0', '9.39.5'];
const PRETTIER_VERSIONS = ['2.8.8', '3.0.0', '3.5.3', '3.10.1'];

/** An eslintrc config for ESLint 8 equivalent to the fixture's flat one. */
const ESLINTRC = {
  root: true,
  parser: '@typescript-eslint/parser',
  plugins: ['@typescript-eslint'],
  extends: ['eslint:recommended', 'plugin:@typescript-eslint/recommended'],
  env: { es2022: true, node: true },
  rules: {
    'no-debugger': 'error',
    eqeqeq: 'error',
    'no-console': 'error',
    // As useToolVersion does for the flat config (ESLint before 9.15).
    '@typescript-eslint/no-unused-expressions': 'off',
  },
};

const write = (root, file, text) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};
const edit = (root, file, change) =>
  write(root, file, change(fs.readFileSync(path.join(root, file), 'utf8')));

/** The edits each version goes through: what changes, and whether the worker restarts. */
const STEPS = [
  { name: 'first call (starts the worker)', run: () => {}, started: true, every: true },
  { name: 'repeat, nothing changed', run: () => {}, reused: true },
  {
    name: 'source edit and a new badly formatted file',
    run: (root) => {
      edit(
        root,
        'src/math.ts',
        (text) => `${text}\nexport function stop(): void {\n  debugger;\n}\n`,
      );
      write(
        root,
        'src/extra.ts',
        "export const  extra  = 1 == 2\nvar  old = 'x'\nexport { old };\n",
      );
    },
  },
  { name: 'config edit (the worker restarts)', started: true, run: (root, config) => config(root) },
  {
    name: 'file deleted and a syntax error',
    deletes: true,
    run: (root) => {
      fs.rmSync(path.join(root, 'src/clean.ts'));
      write(root, 'src/broken.ts', 'export const = ;\n');
    },
    every: true,
  },
];

/** The fixture with `name@version` linked in; eslintrc replaces the flat config. */
function versionRepo(name, directory, { eslintrc = false } = {}) {
  const root = makeWarmRepo(`mcp-gates-warm-${name}-`);
  const version = useToolVersion(root, name, directory);
  if (eslintrc) {
    fs.rmSync(path.join(root, 'eslint.config.js'));
    write(root, '.eslintrc.json', `${JSON.stringify(ESLINTRC, null, 2)}\n`);
    write(root, '.eslintignore', 'ignored/\n');
  }
  // Cold prettier (2.8 to 3.x) makes node_modules/.cache/prettier on every run (its cache
  // directory lookup creates it, even without --cache): made here, the cold reference run
  // beside the warm one does not change the node_modules the worker resolved from.
  if (name === 'prettier')
    fs.mkdirSync(path.join(root, 'node_modules', '.cache', 'prettier'), { recursive: true });
  git(root, 'init', '-q');
  fs.appendFileSync(path.join(root, '.git', 'info', 'exclude'), 'node_modules\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'fixture');
  return { root, version };
}

const CASES = [
  ...ESLINT_VERSIONS.map((version) => ({
    name: 'eslint',
    version,
    label: `eslint ${version} (flat config)`,
    commands: [
      ['eslint', '.', '--format', 'json'],
      ['eslint', 'src'],
    ],
    config: (root) =>
      edit(root, 'eslint-base.js', (text) => text.replace("eqeqeq: 'error'", "eqeqeq: 'warn'")),
  })),
  {
    name: 'eslint',
    version: '8.57.1',
    eslintrc: true,
    label: 'eslint 8.57.1 (.eslintrc)',
    commands: [
      ['eslint', '.', '--ext', '.ts', '--format', 'json'],
      ['eslint', 'src', '--ext', '.ts', '--max-warnings', '0'],
    ],
    config: (root) =>
      edit(root, '.eslintrc.json', (text) => text.replace('"eqeqeq": "error"', '"eqeqeq": "warn"')),
  },
  ...PRETTIER_VERSIONS.map((version) => ({
    name: 'prettier',
    version,
    label: `prettier ${version}`,
    commands: [
      ['prettier', '--check', '.'],
      ['prettier', '--list-different', 'src'],
    ],
    config: (root) => write(root, '.prettierrc.json', '{ "singleQuote": false, "semi": false }\n'),
  })),
];

/**
 * The version matrix is .ci/run's (its warm-versions stage, WARM_VERSIONS=all); npm test runs
 * this repository's own versions through the other warm tests, and here only what needs no
 * install. WARM_VERSIONS=oldest runs the oldest of each tool, the furthest from ours.
 */
const RUN =
  process.env.WARM_VERSIONS === 'all'
    ? CASES
    : process.env.WARM_VERSIONS === 'oldest'
      ? CASES.filter((item) => ['eslint 8.57.1 (.eslintrc)', 'prettier 2.8.8'].includes(item.label))
      : [];

describe('warm gates: the eslint and prettier versions repositories run, warm and equal to cold', function () {
  this.timeout(600000);
  const env = gateEnv();
  let installed;
  let pool;
  const timings = [];

  before(async function () {
    // reason: the fixture's node_modules/.bin entries are POSIX symlinks.
    if (process.platform === 'win32') this.skip();
    // reason: the matrix runs in .ci/run's warm-versions stage (WARM_VERSIONS=all).
    if (RUN.length === 0) this.skip();
    const started = Date.now();
    installed = await installTools(RUN.map((item) => [item.name, item.version]));
    timings.push(`install ${Date.now() - started} ms`);
    // reason: the versions come from the npm registry, which this machine cannot reach.
    if ([...installed.values()].every((found) => found.skipped)) this.skip();
    pool = new WarmPool();
  });
  after(() => {
    pool?.close();
    cleanupTemporary();
    if (timings.length > 0) console.log(`      timings: ${timings.join(', ')}`);
  });

  for (const item of RUN) {
    it(`${item.label}: warm is used on every step and equals the cold command`, async function () {
      const found = installed.get(`${item.name}@${item.version}`);
      expect(found.skipped, found.skipped).to.equal(undefined);
      const started = Date.now();
      const { root, version } = versionRepo(item.name, found.directory, item);
      expect(version).to.equal(item.version);
      // list and doctor run the same decision serve runs before each call.
      const gate = { name: 'g', command: item.commands[0], source: 'config', paths: 'none' };
      expect(gateWarmCapability(gate, root, env)).to.deep.equal({ warm: true });
      for (const step of STEPS) {
        step.run(root, item.config);
        // The second command (another output format) only on some steps: cold runs of
        // eslint with typescript-eslint cost 1-2 s each.
        for (const argv of step.every ? item.commands : item.commands.slice(0, 1)) {
          // Side by side: neither writes, and the matrix must stay within CI minutes.
          const [warm, cold] = await Promise.all([
            pool.run({ root, argv, timeoutMs: 120000, env }),
            runColdAsync(root, argv, env),
          ]);
          const what = `${item.label}, ${step.name}, ${argv.join(' ')}`;
          expect(warm.kind, `${what}: ${warm.reason}`).to.equal('ran');
          expect({
            what,
            exitCode: warm.exitCode,
            stdout: warm.stdout,
            stderr: warm.stderr,
          }).to.deep.equal({
            what,
            exitCode: cold.exitCode,
            stdout: cold.stdout,
            stderr: cold.stderr,
          });
          if (argv === item.commands[0]) {
            // A file the fresh worker read once is deleted: the rule that a worker may keep
            // what it asked once restarts it (sound, and a restart's cost, not a miss).
            const keptOnce =
              step.deletes === true && /asked it once/.test(warm.restartedBecause ?? '');
            expect(
              warm.startedWorker,
              `${what}: worker started (${warm.restartedBecause})`,
            ).to.equal(step.started === true || keptOnce);
            if (step.reused && reusesRepeats(item.name, item.version, item))
              expect(warm.reused, `${what}: reused (${warm.notReusedBecause})`).to.equal(true);
          }
        }
      }
      timings.push(`${item.label} ${Date.now() - started} ms`);
    });
  }
});

describe('warm gates: list and doctor say why a version runs cold, as serve decides it', function () {
  this.timeout(60000);
  const GATES = {
    lint: { command: ['eslint', '.'], parser: 'eslint-stylish' },
    format: { command: ['prettier', '--check', '.'], parser: 'prettier' },
  };
  after(() => cleanupTemporary());

  /** A repository whose node_modules holds `name@version` as just the named files. */
  function fakeInstall(packages) {
    const root = makeTempDir('mcp-gates-warm-reasons-');
    fs.writeFileSync(path.join(root, 'package.json'), '{ "name": "r" }\n');
    fs.writeFileSync(path.join(root, 'mcp-gates.json'), JSON.stringify({ gates: GATES }));
    fs.mkdirSync(path.join(root, 'node_modules', '.bin'), { recursive: true });
    for (const [name, version, files] of packages) {
      const directory = path.join(root, 'node_modules', name);
      for (const file of ['package.json', ...files]) {
        fs.mkdirSync(path.dirname(path.join(directory, file)), { recursive: true });
        fs.writeFileSync(
          path.join(directory, file),
          file === 'package.json' ? JSON.stringify({ name, version }) : '',
        );
      }
      const bin = path.join(root, 'node_modules', '.bin', name);
      fs.writeFileSync(bin, '#!/bin/sh\n', { mode: 0o755 });
    }
    return root;
  }
  const ESLINT_FILES = ['lib/cli.js', 'lib/options.js', 'lib/eslint/eslint.js'];
  const capability = (root, gate, env = gateEnv()) =>
    gateWarmCapability(
      { name: gate, ...GATES[gate], source: 'mcp-gates.json', paths: 'none' },
      root,
      env,
    );

  it('names the missing CLI module of a prettier 3 it cannot load, and the versions it covers', () => {
    const root = fakeInstall([
      ['prettier', '3.99.0', ['internal/experimental-cli.mjs']],
      ['eslint', '8.56.0', ESLINT_FILES],
    ]);
    expect(capability(root, 'format')).to.deep.equal({
      warm: false,
      reason:
        'prettier 3.99.0: warm needs its CLI module, internal/legacy-cli.mjs (3.6 and later) or internal/cli.mjs (3.0 to 3.5), and this install has neither',
    });
    expect(capability(root, 'lint')).to.deep.equal({
      warm: false,
      reason:
        'eslint 8.56.0: warm covers eslint 8.57 and later (the versions its output is tested against)',
    });
    // The CLI prints the same decision.
    const listed = JSON.parse(runCli(['list', '--json', '--root', root]).stdout);
    expect(listed.map((gate) => gate.warm)).to.deep.equal([
      capability(root, 'lint'),
      capability(root, 'format'),
    ]);
    const human = runCli(['list', '--root', root]).stdout;
    expect(human).to.include('warm:    no (prettier 3.99.0: warm needs its CLI module');
  });

  it('says warm for the CLI modules of prettier 3.0-3.5 and 2.8, and for eslint 8.57 to 10', () => {
    const root = fakeInstall([
      ['prettier', '3.5.3', ['internal/cli.mjs']],
      ['eslint', '9.3.0', ESLINT_FILES],
    ]);
    expect(capability(root, 'format')).to.deep.equal({ warm: true });
    expect(capability(root, 'lint')).to.deep.equal({ warm: true });
    const older = fakeInstall([
      ['prettier', '2.8.8', ['cli.js']],
      ['eslint', '8.57.1', ESLINT_FILES],
    ]);
    expect(capability(older, 'format')).to.deep.equal({ warm: true });
    expect(capability(older, 'lint')).to.deep.equal({ warm: true });
  });

  it('says cold where the cold command would print what a worker cannot: eslintrc on ESLint 9, the experimental prettier CLI', () => {
    const root = fakeInstall([
      ['prettier', '3.10.1', ['internal/legacy-cli.mjs', 'internal/experimental-cli.mjs']],
      ['eslint', '9.39.5', ESLINT_FILES],
    ]);
    const env = { ...gateEnv(), ESLINT_USE_FLAT_CONFIG: 'false', PRETTIER_EXPERIMENTAL_CLI: '1' };
    expect(capability(root, 'lint', env).reason).to.match(
      /^eslint 9\.39\.5 with ESLINT_USE_FLAT_CONFIG=false: .*ESLintRCWarning/,
    );
    expect(capability(root, 'format', env)).to.deep.equal({
      warm: false,
      reason: 'prettier 3.10.1 with PRETTIER_EXPERIMENTAL_CLI set: its experimental CLI runs cold',
    });
    expect(capability(root, 'lint')).to.deep.equal({ warm: true });
    expect(capability(root, 'format')).to.deep.equal({ warm: true });
  });

  it('names the eslint files it needs when an install lacks them', () => {
    const root = fakeInstall([['eslint', '10.0.0', ['lib/options.js']]]);
    expect(capability(root, 'lint').reason).to.equal(
      "eslint 10.0.0: warm needs lib/cli.js and lib/eslint/eslint.js (ESLint's CLI, option parser and engine modules), which this install lacks",
    );
  });
});

describe('warm gates: a run that prints a Node warning runs cold', function () {
  this.timeout(120000);
  let pool;
  after(() => {
    pool?.close();
    cleanupTemporary();
  });

  it('answers not-warmable, as the cold stderr names its own process', async () => {
    const root = makeWarmRepo('mcp-gates-warm-warning-');
    // A plugin that warns when it loads, as old dependencies do (deprecations).
    const plugin = path.join(root, 'node_modules', 'eslint-plugin-local', 'index.js');
    fs.writeFileSync(
      plugin,
      `process.emitWarning('this plugin is old', 'LocalPluginWarning');\n${fs.readFileSync(plugin, 'utf8')}`,
    );
    const env = gateEnv();
    const argv = ['eslint', 'src', '--format', 'json'];
    pool = new WarmPool();
    const warm = await pool.run({ root, argv, timeoutMs: 60000, env });
    const cold = runColdAsync(root, argv, env);
    expect((await cold).stderr).to.match(/^\(node:\d+\) LocalPluginWarning: this plugin is old/);
    expect(warm.kind).to.equal('not-warmable');
    expect(warm.reason).to.match(
      /^eslint [\d.]+ printed a Node warning \("\(node:<pid>\) LocalPluginWarning: this plugin is old"\), which names the cold process/,
    );
  });
});

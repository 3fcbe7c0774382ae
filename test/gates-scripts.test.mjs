// Script gates read by their tools' own parsers, chains run as steps, detection breadth
// (oxfmt, xo, mypy, pyright, biome ci, <name>:fix) and workspace roots (issue 9, items 3, 7).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { expect } from 'chai';
import { createGateTools, detectGates, loadGates } from '../dist/gates/index.js';
import { planScript, silenceHidesOutput, splitChain } from '../dist/gates/detect/scripts.js';
import { findWorkspace } from '../dist/gates/detect/workspace.js';
import { runSteps } from '../dist/gates/run/run-steps.js';
import { findParser } from '../dist/gates/parsers/index.js';
import { stripAnsi } from '../dist/gates/report/ansi.js';
import {
  cleanupTemporary,
  copyRepo,
  envWithTools,
  hasCommand,
  loadOutput,
  makeRepo,
  eachVersion,
  makeTempDir,
  toolContext,
} from './fixtures/gates-support.mjs';
import { installTools } from './fixtures/warm/tool-versions.mjs';
import { STALL_MS } from './helpers/growth.mjs';

const ROOT = '/work/project';

/** `file:line:col severity rule message` for exact comparison. */
const exact = (findings) =>
  findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.severity} ${f.rule} ${f.message}`);

const major = (version) => Number(version.split('.')[0]);

/** Biome's lint findings per major: Biome 1 recommends noVar too and words noDoubleEquals otherwise. */
const BIOME_LINT = {
  1: [
    'src/app.js:2:9 error lint/suspicious/noDoubleEquals Use === instead of ==',
    'src/app.js:2:17 error lint/suspicious/noDebugger This is an unexpected use of the debugger statement.',
    'src/app.js:3:3 error lint/style/noVar Use let or const instead of var.',
  ],
  2: [
    'src/app.js:2:9 error lint/suspicious/noDoubleEquals Using == may be unsafe if you are relying on type coercion.',
    'src/app.js:2:17 error lint/suspicious/noDebugger This is an unexpected use of the debugger statement.',
  ],
  // 2.0.0-beta.1 (radashi pins it): Biome 1's wording, paths with a leading slash (`/src/app.js`).
  '2.0.0-beta.1': [
    'src/app.js:2:9 error lint/suspicious/noDoubleEquals Use === instead of ==',
    'src/app.js:2:17 error lint/suspicious/noDebugger This is an unexpected use of the debugger statement.',
  ],
};
/** The findings recorded for a version: its own, else its major's. */
const biomeLint = (version) => BIOME_LINT[version] ?? BIOME_LINT[major(version)];

function parseRecorded(parserName, fixture, transform = (text) => text) {
  const output = loadOutput(fixture, ROOT);
  return findParser(parserName).parse({
    ...output,
    stdout: transform(output.stdout),
    stderr: transform(output.stderr),
  });
}

async function runTool(root, name, gates = detectGates(root).gates) {
  const tool = createGateTools(gates, { root, env: envWithTools() }).find((t) => t.name === name);
  expect(tool, `${name} among ${gates.map((g) => g.name)}`).to.not.equal(undefined);
  return tool.run({}, toolContext());
}

/**
 * Runs a gate on the dirty fixture and asserts its exact findings, then rewrites the
 * offending files clean and asserts the gate passes.
 */
async function dirtyThenClean(root, gate, expected, cleanFiles) {
  const dirty = await runTool(root, gate);
  expect(dirty.isError).to.equal(true);
  expect(exact(dirty.structuredContent.findings)).to.have.members(expected);
  for (const [file, text] of Object.entries(cleanFiles))
    fs.writeFileSync(path.join(root, file), text);
  const clean = await runTool(root, gate);
  expect(clean.isError, clean.text).to.equal(false);
  expect(clean.structuredContent.findings).to.deep.equal([]);
  return dirty;
}

describe('script gate parsers on real default outputs', () => {
  eachVersion('biome', 'biome-lint-text', 'biome lint: every error, exact', (fixture, version) => {
    const result = parseRecorded('biome-text', fixture);
    expect(result.passed).to.equal(false);
    expect(exact(result.findings)).to.deep.equal(biomeLint(version));
  });

  eachVersion(
    'biome',
    'biome-ci-text',
    'biome ci (colour and hyperlinks even under NO_COLOR): lint and format diagnostics',
    (fixture, version) => {
      const result = parseRecorded('biome-text', fixture, stripAnsi);
      expect(exact(result.findings)).to.deep.equal([
        ...biomeLint(version),
        'src/app.js:2:null error format File content differs from formatting output',
      ]);
    },
  );

  it("biome format diagnostics take their diff's first changed line (removal or insertion)", () => {
    const block = (diff) =>
      [
        'src/a.js format ━━━━━━━━━━',
        '',
        '  × Formatter would have printed the following content:',
        '  ',
        ...diff,
        '  ',
        '',
      ].join('\n');
    const text = [
      block(['    1 1 │   const a = 1;', '    2   │ - const b =  2;', '      2 │ + const b = 2;']),
      block(['    1 1 │   a();', '    2 2 │   b();', '      3 │ + ', '    3 4 │   c();']),
      // A lint heading after a format block: its code frame is not a format diff.
      'src/c.js:4:1 lint/suspicious/noDebugger ━━━━━━━━',
      '',
      '  × This is an unexpected use of the debugger statement.',
      '  ',
      '    3   │ - debugger;',
    ].join('\n');
    const result = findParser('biome-text').parse({
      stdout: '',
      stderr: text,
      exitCode: 1,
      truncated: false,
      root: ROOT,
    });
    expect(exact(result.findings)).to.deep.equal([
      'src/a.js:2:null error format Formatter would have printed the following content:',
      'src/a.js:3:null error format Formatter would have printed the following content:',
      'src/c.js:4:1 error lint/suspicious/noDebugger This is an unexpected use of the debugger statement.',
    ]);
  });

  eachVersion(
    'oxlint',
    'oxlint-text',
    'oxlint graphical report: severity, rule and location',
    (fixture) => {
      const result = parseRecorded('oxlint-text', fixture);
      // oxlint 0.x printed errors first; the findings keep the tool's order.
      expect(exact(result.findings).sort()).to.deep.equal([
        "src/o.js:1:7 warning eslint(no-unused-vars) Variable 'unused' is declared but never used. Unused variables should start with a '_'.",
        'src/o.js:3:9 error eslint(eqeqeq) Expected === and instead saw ==',
      ]);
    },
  );

  eachVersion('eslint', 'eslint-stylish', 'eslint stylish', (fixture) => {
    expect(exact(parseRecorded('eslint-stylish', fixture).findings)).to.deep.equal([
      "src/unused.js:2:9 error no-unused-vars 'unused' is assigned a value but never used",
      'src/unused.js:3:3 warning no-console Unexpected console statement',
      "src/unused.js:6:20 error eqeqeq Expected '===' and instead saw '=='",
    ]);
  });

  it('eslint stylish: a file-level message at 0:0 has no position; summaries are no file', () => {
    const stdout = [
      '',
      `${ROOT}/a.js`,
      '  0:0  warning  File ignored because of a matching ignore pattern. Use "--no-ignore" to override',
      '',
      '✖ 1 problem (0 errors, 1 warning)',
      '  0 errors and 1 warning potentially fixable with the `--fix` option.',
      '',
    ].join('\n');
    const result = findParser('eslint-stylish').parse({
      stdout,
      stderr: '',
      exitCode: 0,
      truncated: false,
      root: ROOT,
    });
    expect(result.passed).to.equal(true);
    // eslint's "File ignored" notice says a.js was not checked: no finding about its code.
    expect(result.findings).to.deep.equal([]);
    expect(result.notChecked).to.deep.equal([
      { path: 'a.js', reason: 'eslint: File ignored because of a matching ignore pattern' },
    ]);
    expect(result.nothingChecked).to.equal(undefined);
    const given = findParser('eslint-stylish').parse({
      stdout,
      stderr: '',
      exitCode: 0,
      truncated: false,
      root: ROOT,
      paths: ['a.js'],
    });
    expect(given).to.include({ passed: false });
    expect(given.nothingChecked).to.match(/^none of the 1 given path was checked/);
  });

  eachVersion('stylelint', 'stylelint-string', 'stylelint string formatter', (fixture, version) => {
    // stylelint 17 reworded the message ("Unexpected unknown property" before).
    const message =
      major(version) >= 17 ? 'Unknown property "colr"' : 'Unexpected unknown property "colr"';
    expect(exact(parseRecorded('stylelint', fixture).findings)).to.deep.equal([
      `src/a.css:3:3 error property-no-unknown ${message}`,
    ]);
  });

  eachVersion('xo', 'xo-text', 'xo default output', (fixture) => {
    expect(exact(parseRecorded('xo', fixture).findings)).to.deep.equal([
      'src/a.js:1:7 error no-unused-vars unused is assigned a value but never used. Allowed unused vars must match /^_/u.',
      'src/a.js:3:6 error no-eq-null Use === to compare with null.',
      'src/a.js:3:8 error eqeqeq Expected === and instead saw ==.',
    ]);
  });

  eachVersion(
    'vitest',
    'vitest-typecheck',
    'vitest --typecheck: TypeCheckError with its location',
    (fixture) => {
      expect(exact(parseRecorded('vitest-typecheck', fixture).findings)).to.deep.equal([
        "src/math.test-d.ts:4:9 error TypeCheckError Type 'string' is not assignable to type 'number'.",
        "src/math.test-d.ts:5:33 error TypeCheckError Type 'string' does not satisfy the constraint '\"Expected string, Actual number\"'.",
      ]);
    },
  );

  eachVersion('oxfmt', 'oxfmt-check', 'oxfmt --check', (fixture) => {
    expect(exact(parseRecorded('oxfmt', fixture).findings)).to.deep.equal([
      'eslint.config.js:null:null error oxfmt not formatted (oxfmt fixes it)',
      'src/types.ts:null:null error oxfmt not formatted (oxfmt fixes it)',
      'src/ugly.js:null:null error oxfmt not formatted (oxfmt fixes it)',
      'src/unused.js:null:null error oxfmt not formatted (oxfmt fixes it)',
    ]);
  });

  eachVersion('mypy', 'mypy', 'mypy', (fixture, version) => {
    // mypy 1.0 names builtins in full and checks py-dirty's untyped app/ under `strict`.
    const old = major(version) < 2;
    expect(exact(parseRecorded('mypy', fixture).findings)).to.deep.equal([
      'pkg/mod.py:5:17 error arg-type Argument 2 to "add" has incompatible type "str"; expected "int"',
      'pkg/mod.py:6:5 error name-defined Name "undefined_name" is not defined',
      `pkg/mod.py:7:13 info null Revealed type is "${old ? 'builtins.int' : 'int'}"`,
      ...(old
        ? [
            'app/util.py:1:1 error no-untyped-def Function is missing a return type annotation',
            'app/main.py:4:1 error no-untyped-def Function is missing a type annotation',
          ]
        : []),
    ]);
  });

  eachVersion('pyright', 'pyright-json', 'pyright --outputjson', (fixture) => {
    const pyright = parseRecorded('pyright-json', fixture);
    expect(pyright.passed).to.equal(false);
    expect(exact(pyright.findings).map((line) => line.split('\n')[0])).to.deep.equal([
      'pkg/mod.py:5:17 error reportArgumentType Argument of type "Literal[\'2\']" cannot be assigned to parameter "b" of type "int" in function "add"',
      'pkg/mod.py:6:5 error reportUndefinedVariable "undefined_name" is not defined',
      'pkg/mod.py:7:13 info null Type of "x" is "int"',
    ]);
  });
});

describe('new parsers stay linear on hostile output', () => {
  // 256 KiB lines built to make backtracking regexes quadratic: a quadratic scan takes
  // minutes here, a linear one milliseconds; the bound is only a stall guard, so a slow
  // or busy machine never fails linear code.
  const size = 1 << 18;
  const hostile = {
    colons: ':1'.repeat(size / 2),
    spaces: ' '.repeat(size),
    headingRules: ' ━'.repeat(size / 2),
    locationAndRule: `${':1'.repeat(size / 2)} category ━`,
    digits: `a:${'1'.repeat(size)}:`,
    stylishColumns: `  ${'1:1  '.repeat(size / 5)}`,
    oxlintLocation: `  ,-[${':1'.repeat(size / 2)}]`,
    vitestPointer: `  ❯ ${':1'.repeat(size / 2)}`,
    errorNames: `xError: ${'Error: '.repeat(size / 7)}`,
    oxfmtTime: `a (${'1'.repeat(size)}ms`,
  };
  for (const name of [
    'eslint-stylish',
    'biome-text',
    'oxlint-text',
    'vitest-typecheck',
    'stylelint',
    'xo',
    'oxfmt',
    'mypy',
  ]) {
    it(name, () => {
      for (const [shape, text] of Object.entries(hostile)) {
        const started = performance.now();
        findParser(name).parse({
          stdout: text,
          stderr: text,
          exitCode: 1,
          truncated: false,
          root: ROOT,
        });
        expect(performance.now() - started, shape).to.be.below(STALL_MS);
      }
    });
  }
});

describe('script plans', () => {
  it('splits only plain && chains of words and literal quotes', () => {
    expect(splitChain('eslint . && prettier --check .')).to.deep.equal([
      ['eslint', '.'],
      ['prettier', '--check', '.'],
    ]);
    expect(splitChain('stylelint "src/**/*.css"')).to.deep.equal([['stylelint', 'src/**/*.css']]);
    for (const body of [
      'eslint . | tee log',
      'eslint . || true',
      'FOO=1 eslint .',
      'eslint src/*.js',
      'eslint "$DIR"',
      'eslint . > out.txt',
      '(eslint .)',
      'eslint . ; prettier --check .',
      'eslint . &&',
    ])
      expect(splitChain(body), body).to.equal(undefined);
  });

  it('runs known read-only chains as steps, else reads the script with every tool parser', () => {
    expect(planScript('eslint . && prettier --check .', false)).to.deep.equal({
      parser: 'eslint-stylish+prettier',
      steps: [
        { command: ['eslint', '.'], parser: 'eslint-stylish' },
        { command: ['prettier', '--check', '.'], parser: 'prettier' },
      ],
    });
    // A pre/post hook would be skipped by steps: the script runs whole.
    expect(planScript('eslint . && prettier --check .', true)).to.deep.equal({
      parser: 'eslint-stylish+prettier',
    });
    expect(planScript('biome lint .', false)).to.deep.equal({ parser: 'biome-text' });
    expect(planScript('oxlint', false)).to.deep.equal({ parser: 'oxlint-text' });
    expect(planScript('eslint -f json .', false)).to.deep.equal({ parser: 'eslint-json' });
    expect(planScript('vitest --typecheck.only --run', false)).to.deep.equal({
      parser: 'vitest-typecheck',
    });
    expect(planScript('tsc --noEmit | grep -v x && eslint .', false)).to.deep.equal({
      parser: 'eslint-stylish+tsc',
    });
    expect(planScript('node scripts/check.js', false)).to.deep.equal({ parser: 'generic' });
  });
});

describe('detection breadth', () => {
  afterEach(cleanupTemporary);

  it('serves check:fix as the fix of check, and biome ci as the check', () => {
    const gates = detectGates(copyRepo('scripts-biome')).gates;
    expect(
      gates.map((g) => [g.name, g.parser, g.command.at(-1), g.fix?.at(-1) ?? null]),
    ).to.deep.equal([
      ['lint', 'biome-text', 'lint', null],
      ['check', 'biome-text', 'check', 'check:fix'],
    ]);
  });

  it('finds oxfmt, xo, mypy and pyright from their configs', () => {
    const root = makeRepo({
      'package.json': { devDependencies: { xo: '1' }, xo: { space: true } },
      '.oxfmtrc.json': '{}\n',
      'pyproject.toml': '[tool.mypy]\nstrict = true\n\n[tool.pyright]\n',
      'biome.json': '{}\n',
    });
    const byName = Object.fromEntries(detectGates(root).gates.map((g) => [g.name, g]));
    expect(byName.oxfmt).to.include({ parser: 'oxfmt', source: '.oxfmtrc.json' });
    expect(byName.oxfmt.command).to.deep.equal(['oxfmt', '--check']);
    expect(byName.xo).to.include({ parser: 'xo', source: 'package.json' });
    expect(byName.mypy.command).to.deep.equal([
      'mypy',
      '--show-column-numbers',
      '--no-error-summary',
      '--no-pretty',
      '--no-color-output',
      '.',
    ]);
    expect(byName.pyright.command).to.deep.equal(['pyright', '--outputjson']);
    expect(byName.biome.command).to.deep.equal(['biome', 'ci', '--reporter=json']);
    const setupCfg = makeRepo({ 'setup.cfg': '[mypy]\nfiles = src\n' });
    expect(
      detectGates(setupCfg).gates.map((g) => [g.name, g.command.at(-1), g.source]),
    ).to.deep.equal([['mypy', '--no-color-output', 'setup.cfg']]);
  });
});

describe('script gates through the real tools', function () {
  this.timeout(60000);
  afterEach(cleanupTemporary);

  it('"lint": "biome lint ." finds both errors, exact; clean code passes', async () => {
    await dirtyThenClean(
      copyRepo('scripts-biome'),
      'lint',
      [
        'src/app.js:2:9 error lint/suspicious/noDoubleEquals Using == may be unsafe if you are relying on type coercion.',
        'src/app.js:2:17 error lint/suspicious/noDebugger This is an unexpected use of the debugger statement.',
      ],
      {
        'src/app.js': 'export function check(a) {\n  return a === 1;\n}\n',
      },
    );
  });

  it('"lint": "oxlint" finds the error and the warning; clean code passes', async () => {
    await dirtyThenClean(
      copyRepo('scripts-oxlint'),
      'lint',
      [
        "src/o.js:1:7 warning eslint(no-unused-vars) Variable 'unused' is declared but never used. Unused variables should start with a '_'.",
        'src/o.js:3:9 error eslint(eqeqeq) Expected === and instead saw ==',
      ],
      {
        'src/o.js': 'export function f(a) {\n  return a;\n}\n',
      },
    );
  });

  it('"eslint . && prettier --check ." reports both tools when both fail; clean passes', async () => {
    const root = copyRepo('scripts-chain');
    const dirty = await runTool(root, 'lint');
    expect(dirty.isError).to.equal(true);
    expect(dirty.structuredContent.command).to.deep.equal([
      'eslint',
      '.',
      '&&',
      'prettier',
      '--check',
      '.',
    ]);
    expect(exact(dirty.structuredContent.findings)).to.have.members([
      "src/unused.js:2:9 error no-unused-vars 'unused' is assigned a value but never used",
      "src/unused.js:3:23 warning eqeqeq Expected '===' and instead saw '=='",
      'src/ugly.js:1:null error prettier not formatted (prettier --write fixes it)',
    ]);
    fs.writeFileSync(
      path.join(root, 'src/unused.js'),
      'export function total(items) {\n  return items.length;\n}\n',
    );
    fs.writeFileSync(path.join(root, 'src/ugly.js'), "export const greeting = 'hello';\n");
    const clean = await runTool(root, 'lint');
    expect(clean.isError, clean.text).to.equal(false);
    expect(clean.structuredContent.findings).to.deep.equal([]);
  });

  it('"check": "biome ci ." through npm: lint and format findings, exact, despite its colour', async () => {
    const result = await runTool(copyRepo('scripts-biome'), 'check');
    expect(result.isError).to.equal(true);
    expect(exact(result.structuredContent.findings)).to.have.members([
      'src/app.js:2:9 error lint/suspicious/noDoubleEquals Using == may be unsafe if you are relying on type coercion.',
      'src/app.js:2:17 error lint/suspicious/noDebugger This is an unexpected use of the debugger statement.',
      'src/app.js:2:null error format File content differs from formatting output',
    ]);
    expect(result.text).to.not.include('https://biomejs.dev');
  });

  it('no check gate writes to the tree (git status and contents identical)', async function () {
    if (!hasCommand('git')) this.skip(); // reason: the tree comparison uses git
    for (const repo of ['scripts-biome', 'scripts-chain', 'scripts-oxlint']) {
      const root = copyRepo(repo);
      const git = (...args) =>
        spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
          cwd: root,
          encoding: 'utf8',
        });
      git('init', '-q');
      git('add', '-A');
      git('commit', '-qm', 'fixture');
      const before = git('status', '--porcelain').stdout;
      const gates = detectGates(root).gates;
      for (const gate of gates)
        expect((await runTool(root, gate.name)).isError, gate.name).to.equal(true);
      expect(git('status', '--porcelain').stdout, repo).to.equal(before);
      expect(git('diff', '--stat').stdout, repo).to.equal('');
    }
  });

  it('mypy gate on real mypy', async function () {
    if (!hasCommand('mypy')) this.skip(); // reason: mypy is not installed here
    const result = await runTool(copyRepo('py-dirty'), 'mypy');
    expect(result.isError).to.equal(true);
    expect(exact(result.structuredContent.findings)).to.include.members([
      'pkg/mod.py:5:17 error arg-type Argument 2 to "add" has incompatible type "str"; expected "int"',
      'pkg/mod.py:6:5 error name-defined Name "undefined_name" is not defined',
    ]);
  });

  it('a pnpm workspace package serves the root gates and its own, named apart', async function () {
    if (!hasCommand('pnpm')) this.skip(); // reason: the scripts run through pnpm
    const workspace = copyRepo('pnpm-workspace');
    const packageDir = path.join(workspace, 'packages', 'app');
    const served = loadGates(packageDir);
    expect(served.gates.map((g) => [g.name, g.cwd ?? null, g.command.join(' ')])).to.deep.equal([
      ['lint', '../..', 'pnpm run --silent lint'],
      ['app.format', null, 'pnpm run --silent format:check'],
    ]);
    const lint = await runTool(packageDir, 'lint', served.gates);
    expect(exact(lint.structuredContent.findings)).to.have.members([
      "src/main.js:2:9 error no-unused-vars 'unused' is assigned a value but never used",
    ]);
    const format = await runTool(packageDir, 'app.format', served.gates);
    expect(exact(format.structuredContent.findings)).to.have.members([
      'src/main.js:3:null error prettier not formatted (prettier --write fixes it)',
    ]);
    fs.writeFileSync(
      path.join(packageDir, 'src/main.js'),
      'export function main() {\n  return 2;\n}\n',
    );
    expect((await runTool(packageDir, 'lint', served.gates)).isError).to.equal(false);
    expect((await runTool(packageDir, 'app.format', served.gates)).isError).to.equal(false);
  });

  it('biome-text keeps a file name with a space whole', async () => {
    const root = copyRepo('scripts-biome');
    fs.renameSync(path.join(root, 'src/app.js'), path.join(root, 'src/my app.js'));
    const result = await runTool(root, 'lint');
    expect(
      exact(result.structuredContent.findings).map((line) => line.split(' error ')[0]),
    ).to.have.members(['src/my app.js:2:9', 'src/my app.js:2:17']);
  });

  it('biome says when it printed only part of its diagnostics', async () => {
    const root = copyRepo('scripts-biome');
    const many = Array.from({ length: 25 }, (_, i) => `if (globalThis.a == ${i}) {}\n`).join('');
    fs.writeFileSync(path.join(root, 'src/many.js'), many);
    const result = await runTool(root, 'lint');
    expect(result.isError).to.equal(true);
    expect(result.structuredContent.findings.length).to.be.within(2, 25);
    expect(result.text).to.match(
      /note: .*Biome printed only part of its diagnostics \(\d+ not shown/,
    );
  });

  it('a vitest --typecheck script gate (when EXTRA_TOOL_BIN names an install of vitest)', async function () {
    const extra = process.env.EXTRA_TOOL_BIN;
    // reason: vitest is no devDependency of this repo; the recorded output covers the parser
    if (!extra || !fs.existsSync(path.join(extra, 'vitest'))) this.skip();
    const root = copyRepo('vitest-dirty');
    fs.symlinkSync(path.dirname(extra), path.join(root, 'node_modules'));
    await dirtyThenClean(
      root,
      'typecheck',
      [
        "src/math.test-d.ts:4:9 error TypeCheckError Type 'string' is not assignable to type 'number'.",
        "src/math.test-d.ts:5:33 error TypeCheckError Type 'string' does not satisfy the constraint '\"Expected string, Actual number\"'.",
      ],
      {
        'src/math.test-d.ts':
          "import { expectTypeOf, test } from 'vitest';\n\ntest('types', () => {\n  expectTypeOf(1).toEqualTypeOf<number>();\n});\n",
      },
    );
  });
});

describe('steps runner', function () {
  this.timeout(20000);
  afterEach(cleanupTemporary);

  const node = (code) => ({ command: [process.execPath, '-e', code], parser: 'generic' });

  it('runs every step after a failing one and fails the gate', async () => {
    const root = makeRepo({});
    const { outcome, parsed } = await runSteps({
      root,
      runDir: root,
      timeoutMs: 15000,
      signal: new AbortController().signal,
      isMachineFormat: () => false,
      steps: [
        node("console.log('a.js:1:2: error: first'); process.exit(3)"),
        node("console.log('b.js:3:4: warning: second')"),
      ],
    });
    expect(outcome.exitCode).to.equal(3);
    expect(parsed.passed).to.equal(false);
    expect(exact(parsed.findings)).to.deep.equal([
      'a.js:1:2 error null first',
      'b.js:3:4 warning null second',
    ]);
    expect(outcome.output.text).to.include('first').and.to.include('second');
  });

  it('reports progress that keeps increasing across steps', async () => {
    const root = makeRepo({});
    const seen = [];
    await runSteps({
      root,
      runDir: root,
      timeoutMs: 15000,
      signal: new AbortController().signal,
      isMachineFormat: () => false,
      onProgress: (elapsedMs) => seen.push(elapsedMs),
      steps: [node('setTimeout(() => {}, 1300)'), node('setTimeout(() => {}, 1300)')],
    });
    expect(seen.length).to.be.at.least(2);
    for (let index = 1; index < seen.length; index += 1)
      expect(seen[index]).to.be.above(seen[index - 1]);
    expect(seen.at(-1)).to.be.above(1500);
  });

  it('stops at a cancel: the rest is not run and the gate fails, saying so', async () => {
    const root = makeRepo({});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const { outcome, parsed } = await runSteps({
      root,
      runDir: root,
      timeoutMs: 15000,
      signal: controller.signal,
      isMachineFormat: () => false,
      steps: [node('setTimeout(() => {}, 10000)'), node("console.log('never')")],
    });
    expect(outcome.end).to.equal('cancelled');
    expect(parsed.passed).to.equal(false);
    expect(parsed.note).to.include('1 step not run');
    expect(outcome.output.text).to.not.include('never');
  });
});

describe('workspace membership', function () {
  this.timeout(30000);
  afterEach(cleanupTemporary);

  it('a workspace-root marker gate takes package-relative paths and reports package-relative files', async () => {
    const workspace = makeRepo({
      'package.json': { private: true, type: 'module', workspaces: ['packages/*'] },
      'eslint.config.js': "export default [{ rules: { 'no-unused-vars': 'error' } }];\n",
      'packages/app/package.json': { name: 'app', type: 'module' },
      'packages/app/src/main.js': 'export function main() {\n  const unused = 1;\n}\n',
      'packages/app/src/ok.js': 'export const ok = 1;\n',
    });
    const packageDir = path.join(workspace, 'packages', 'app');
    const { gates } = loadGates(packageDir);
    expect(gates.map((g) => [g.name, g.cwd, g.parser])).to.deep.equal([
      ['lint', '../..', 'eslint-json'],
    ]);
    const tool = createGateTools(gates, { root: packageDir, env: envWithTools() })[0];
    const result = await tool.run({ paths: ['src/main.js'] }, toolContext());
    expect(result.structuredContent.command).to.deep.equal([
      'eslint',
      '--format',
      'json',
      path.join('packages', 'app', 'src', 'main.js'),
    ]);
    expect(exact(result.structuredContent.findings)).to.have.members([
      "src/main.js:2:9 error no-unused-vars 'unused' is assigned a value but never used.",
    ]);
    const clean = await tool.run({ paths: ['src/ok.js'] }, toolContext());
    expect(clean.isError, clean.text).to.equal(false);
    const outside = await tool.run({ paths: ['../../eslint.config.js'] }, toolContext());
    expect(outside.isError).to.equal(true);
    expect(outside.structuredContent.exitCode).to.equal(null);
  });

  it('finds npm/yarn workspaces in package.json, honouring exclusions and non-members', () => {
    const root = makeRepo({
      'package.json': { workspaces: ['packages/*', 'tools/**', '!packages/private'] },
      'packages/web/package.json': { name: '@acme/web' },
      'packages/private/package.json': { name: 'private' },
      'tools/deep/cli/package.json': { name: '9cli' },
      'other/package.json': { name: 'other' },
    });
    expect(findWorkspace(path.join(root, 'packages/web'))).to.deep.equal({
      root,
      source: 'package.json',
      packageName: 'web',
    });
    expect(findWorkspace(path.join(root, 'tools/deep/cli'))?.packageName).to.equal('cli');
    expect(findWorkspace(path.join(root, 'packages/private'))).to.equal(undefined);
    expect(findWorkspace(path.join(root, 'other'))).to.equal(undefined);
    expect(findWorkspace(root)).to.equal(undefined);
  });
});

/**
 * A package's program from the npm registry (installed once per machine): a bin directory
 * holding `program` linked to the package's `bin` file, or { skipped }.
 */
async function registryBin(name, version, program, bin) {
  const found = (await installTools([[name, version]])).get(`${name}@${version}`);
  if (found.skipped) return found;
  const directory = makeTempDir(`mcp-gates-${name}-bin-`);
  fs.symlinkSync(path.join(found.directory, bin), path.join(directory, program));
  return { bin: directory };
}

const pnpmBin = () => registryBin('pnpm', '10.34.9', 'pnpm', 'bin/pnpm.cjs');
const oxfmtBin = () => registryBin('oxfmt', '0.79.0', 'oxfmt', 'bin/oxfmt');

describe('script paper cuts (issue 20, item 8)', function () {
  this.timeout(120000);
  afterEach(cleanupTemporary);

  it('runs a script without --silent where a nested pnpm -r would print nothing under it', () => {
    const root = copyRepo('pnpm-recursive');
    const check = detectGates(root).gates.find((gate) => gate.name === 'check');
    expect(check.command).to.deep.equal(['pnpm', 'run', 'check']);
    for (const body of [
      'pnpm -r check',
      'pnpm --recursive run lint',
      'pnpm run -r lint',
      'pnpm recursive run lint',
      'pnpm build && pnpm --filter "./packages/*" check',
      'pnpm -F app lint',
      'pnpm --parallel -r lint',
      'npx pnpm -r lint',
    ])
      expect(silenceHidesOutput(body), body).to.equal(true);
    for (const body of [
      'pnpm run lint',
      'pnpm exec eslint .',
      'eslint . && pnpm run format',
      'tsc -r',
    ])
      expect(silenceHidesOutput(body), body).to.equal(false);
    // A script with no nested recursive run keeps --silent (no banner in its output).
    const plain = makeRepo({
      'package.json': { name: 'p', scripts: { check: 'pnpm -r check', lint: 'eslint .' } },
      'pnpm-lock.yaml': 'lockfileVersion: 9.0\n',
    });
    const gates = detectGates(plain).gates;
    expect(gates.find((gate) => gate.name === 'lint').command).to.deep.equal([
      'pnpm',
      'run',
      '--silent',
      'lint',
    ]);
  });

  it("a split chain's $ line pastes into sh and prints what its steps print", async function () {
    if (!hasCommand('sh', ['-c', 'true'])) this.skip(); // reason: the line is run with sh, absent here
    const root = copyRepo('scripts-chain');
    const result = await runTool(root, 'lint');
    expect(result.isError).to.equal(true);
    const line = result.text.split('\n').find((text) => text.startsWith('$ '));
    expect(line).to.equal('$ eslint .; prettier --check .');
    const env = envWithTools();
    const run = (file, args) => spawnSync(file, args, { cwd: root, env, encoding: 'utf8' });
    const pasted = run('sh', ['-c', line.slice(2)]);
    const steps = detectGates(root)
      .gates.find((gate) => gate.name === 'lint')
      .steps.map((step) => run(step.command[0], step.command.slice(1)));
    // Both steps fail and both print: `&&` would have stopped after eslint.
    expect(steps.map((step) => step.status)).to.deep.equal([1, 1]);
    expect(pasted.stdout).to.equal(steps.map((step) => step.stdout).join(''));
    expect(pasted.stderr).to.equal(steps.map((step) => step.stderr).join(''));
    expect(pasted.stdout).to.include('no-unused-vars');
    expect(pasted.stderr).to.include('src/ugly.js');
  });

  it('a failing package of a `pnpm -r check` shows its output and fails the gate (real pnpm)', async function () {
    if (process.platform === 'win32') this.skip(); // reason: the pnpm bin is a POSIX symlink
    const pnpm = await pnpmBin();
    // reason: pnpm comes from the npm registry, which this machine cannot reach.
    if (pnpm.skipped) this.skip();
    const root = copyRepo('pnpm-recursive');
    const env = envWithTools({ PATH: `${pnpm.bin}${path.delimiter}${envWithTools().PATH}` });
    const tool = createGateTools(detectGates(root).gates, { root, env }).find(
      (candidate) => candidate.name === 'check',
    );
    const result = await tool.run({}, toolContext());
    expect(result.isError, result.text).to.equal(true);
    expect(result.text).to.include('bad is not checked in');
    expect(result.text).to.not.include('(no output)');
  });
});

describe('every finding has a line where the tool prints one (issue 20, item 8)', function () {
  this.timeout(120000);
  afterEach(cleanupTemporary);

  eachVersion(
    'mypy',
    'mypy-error-end',
    'mypy with show_error_end in its config: line, column and end',
    (fixture, version) => {
      const old = major(version) < 2;
      const findings = parseRecorded('mypy', fixture).findings;
      expect(exact(findings)).to.deep.equal([
        'pkg/mod.py:5:16 error arg-type Argument 2 to "add" has incompatible type "str"; expected "int"',
        'pkg/mod.py:6:11 error name-defined Name "undefined_name" is not defined',
        `pkg/mod.py:7:13 info null Revealed type is "${old ? 'builtins.int' : 'int'}"`,
      ]);
      // mypy's end column is inclusive (`5:16:5:18` is `"2"`); a finding's end is exclusive.
      // mypy 1.0 ends an undefined name at its first character (`6:11:6:11`).
      expect(findings.map((f) => [f.endLine, f.endColumn])).to.deep.equal([
        [5, 19],
        [6, old ? 12 : 25],
        [7, 18],
      ]);
    },
  );

  eachVersion(
    'mypy',
    'mypy-duplicate-module',
    'mypy: a whole-file error (no line printed) is a finding of that file, its notes kept',
    (fixture) => {
      const parsed = parseRecorded('mypy', fixture);
      expect(parsed.passed).to.equal(false);
      expect(exact(parsed.findings).map((line) => line.split('\n')[0])).to.deep.equal([
        'b/util.py:null:null error null Duplicate module named "util" (also at "./a/util.py")',
      ]);
      expect(parsed.findings[0].message).to.include('--explicit-package-bases');
      const own = findParser('mypy').parse({
        stdout: '',
        stderr: 'mypy: error: Missing target module, package, files, or command.\n',
        exitCode: 2,
        truncated: false,
        root: ROOT,
      });
      expect(exact(own.findings)).to.deep.equal([
        'null:null:null error null Missing target module, package, files, or command.',
      ]);
    },
  );

  it('mypy gate on real mypy with show_error_end: every finding located', async function () {
    if (!hasCommand('mypy')) this.skip(); // reason: mypy is not installed here
    const result = await runTool(copyRepo('py-error-end'), 'mypy');
    expect(result.isError).to.equal(true);
    expect(exact(result.structuredContent.findings)).to.include.members([
      'pkg/mod.py:5:16 error arg-type Argument 2 to "add" has incompatible type "str"; expected "int"',
      'pkg/mod.py:6:11 error name-defined Name "undefined_name" is not defined',
    ]);
  });

  eachVersion(
    'oxfmt',
    'oxfmt-syntax-error',
    'oxfmt: a file it cannot parse is a finding at its line',
    (fixture) => {
      const parsed = parseRecorded('oxfmt', fixture);
      expect(parsed.passed).to.equal(false);
      expect(exact(parsed.findings)).to.deep.equal([
        'src/broken.js:3:10 error null Expected `:` but found `Identifier`',
      ]);
    },
  );

  it('oxfmt gate: an unformatted file is pointed at its first changed line (real oxfmt)', async function () {
    const oxfmt = await oxfmtBin();
    // reason: oxfmt comes from the npm registry, which this machine cannot reach.
    if (oxfmt.skipped) this.skip();
    const root = makeRepo({
      '.oxfmtrc.json': '{}\n',
      'src/ugly.js': 'export const a = 1;\n\nexport  const b   =2\n',
      'src/fine.js': 'export const fine = 2;\n',
      'src/broken.js': 'export function broken( {\n  return 1;\n}\n',
    });
    const before = fs.readFileSync(path.join(root, 'src/ugly.js'), 'utf8');
    const env = envWithTools({ PATH: `${oxfmt.bin}${path.delimiter}${envWithTools().PATH}` });
    const tool = createGateTools(detectGates(root).gates, { root, env }).find(
      (candidate) => candidate.name === 'oxfmt',
    );
    const result = await tool.run({}, toolContext());
    expect(result.isError).to.equal(true);
    expect(exact(result.structuredContent.findings)).to.have.members([
      'src/ugly.js:3:null error oxfmt not formatted (oxfmt fixes it)',
      'src/broken.js:2:10 error null Expected `:` but found `decimal`',
    ]);
    expect(fs.readFileSync(path.join(root, 'src/ugly.js'), 'utf8')).to.equal(before);
  });
});

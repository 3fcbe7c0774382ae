// mcp-gates.json loading, detection with no config, and path confinement.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import {
  confinePaths,
  detectGates,
  loadConfig,
  loadGates,
  resolveCommand,
} from '../dist/gates/index.js';
import { windowsShimScript } from '../dist/gates/run/resolve-command.js';
import { commandWithPaths } from '../dist/gates/gate-spec.js';
import { classifyScript } from '../dist/gates/detect/scripts.js';
import { REPO_ROOT, cleanupTemporary, makeRepo, makeTempDir } from './fixtures/gates-support.mjs';
import { cpuMs, expectLinear, growth } from './helpers/growth.mjs';

function configError(config) {
  const root = makeRepo({
    'mcp-gates.json': typeof config === 'string' ? config : JSON.stringify(config),
  });
  try {
    loadConfig(root);
  } catch (error) {
    return error;
  }
  throw new Error('expected loadConfig to throw');
}

const gate = (extra = {}) => ({ gates: { lint: { command: ['eslint', '.'], ...extra } } });

describe('gates config (mcp-gates.json)', () => {
  afterEach(cleanupTemporary);

  it('loads a full gate with every key', () => {
    const root = makeRepo({
      'mcp-gates.json': {
        $schema: 'https://example.invalid/schema.json',
        gates: {
          lint: {
            command: ['eslint', '--format', 'json', '.'],
            fix: ['eslint', '--fix', '.'],
            description: 'ESLint over the repo',
            parser: 'eslint-json',
            timeoutMs: 300000,
            paths: 'append',
          },
          types: { command: ['tsc', '--noEmit'] },
        },
      },
    });
    const gates = loadConfig(root);
    expect(gates).to.deep.equal([
      {
        name: 'lint',
        description: 'ESLint over the repo',
        command: ['eslint', '--format', 'json', '.'],
        fix: ['eslint', '--fix', '.'],
        parser: 'eslint-json',
        timeoutMs: 300000,
        paths: 'append',
        source: 'config',
      },
      {
        name: 'types',
        description: 'The "types" gate',
        command: ['tsc', '--noEmit'],
        fix: null,
        parser: 'generic',
        timeoutMs: 600000,
        paths: 'none',
        source: 'config',
        prepare: 'tsc-noemit',
      },
    ]);
  });

  it('gives configured typecheck and cargo commands the run-time care detection gives them', () => {
    const root = makeRepo({
      'mcp-gates.json': {
        gates: {
          refs: { command: ['tsc', '-b', 'tsconfig.json', '--force', '--pretty', 'false'] },
          plain: { command: ['vue-tsc', '--noEmit'] },
          own: { command: ['tsc', '--noEmit', '--tsBuildInfoFile', '/tmp/x'] },
          build: { command: ['tsc', '-p', '.'] },
          clippy: { command: ['cargo', 'clippy', '--', '-D', 'warnings'] },
        },
      },
    });
    const byName = Object.fromEntries(loadConfig(root).map((gate) => [gate.name, gate]));
    expect(byName.refs.prepare).to.equal('tsc-build');
    expect(byName.plain.prepare).to.equal('tsc-noemit');
    expect(byName.own.prepare).to.equal(undefined);
    expect(byName.build.prepare).to.equal(undefined);
    expect(byName.clippy.derivedFiles).to.deep.equal(['Cargo.lock']);
    expect(byName.refs.derivedFiles).to.equal(undefined);
  });

  it('returns undefined without a config, and the config replaces detection when present', () => {
    const root = makeRepo({ 'package.json': { scripts: { lint: 'eslint .' } } });
    expect(loadConfig(root)).to.equal(undefined);
    expect(loadGates(root).origin).to.equal('detection');
    fs.writeFileSync(path.join(root, 'mcp-gates.json'), JSON.stringify(gate()));
    const served = loadGates(root);
    expect(served.origin).to.equal('config');
    expect(served.gates.map((g) => g.command)).to.deep.equal([['eslint', '.']]);
  });

  const errorCases = [
    [
      'bad JSON, with line and column',
      '{\n  "gates": {,\n}',
      'ECONFIG_JSON',
      undefined,
      /line 2, column/,
    ],
    [
      'a top level that is not an object',
      '[1, 2]',
      'ECONFIG_TYPE',
      '(top level)',
      /expected an object/,
    ],
    [
      'an unknown top-level key, with a suggestion',
      { gate: {} },
      'ECONFIG_UNKNOWN_KEY',
      'gate',
      /did you mean "gates"/,
    ],
    ['a missing gates key', {}, 'ECONFIG_VALUE', 'gates', /missing/],
    ['no gates at all', { gates: {} }, 'ECONFIG_VALUE', 'gates', /serve nothing/],
    [
      'an unknown gate key',
      gate({ comand: ['x'] }),
      'ECONFIG_UNKNOWN_KEY',
      'gates.lint.comand',
      /did you mean "command"/,
    ],
    [
      'a shell string as command',
      { gates: { lint: { command: 'eslint . && prettier .' } } },
      'ECONFIG_TYPE',
      'gates.lint.command',
      /argv array/,
    ],
    [
      'an empty command',
      { gates: { lint: { command: [] } } },
      'ECONFIG_VALUE',
      'gates.lint.command',
      /empty/,
    ],
    [
      'a non-string argv item',
      { gates: { lint: { command: ['eslint', 3] } } },
      'ECONFIG_TYPE',
      'gates.lint.command[1]',
      /expected a string/,
    ],
    [
      'a missing command',
      { gates: { lint: { fix: ['eslint', '--fix'] } } },
      'ECONFIG_VALUE',
      'gates.lint.command',
      /missing/,
    ],
    [
      'a bad fix',
      gate({ fix: 'eslint --fix' }),
      'ECONFIG_TYPE',
      'gates.lint.fix',
      /array of strings/,
    ],
    [
      'an unknown parser',
      gate({ parser: 'eslint-xml' }),
      'ECONFIG_VALUE',
      'gates.lint.parser',
      /eslint-json/,
    ],
    [
      'a timeout of the wrong type',
      gate({ timeoutMs: '5m' }),
      'ECONFIG_TYPE',
      'gates.lint.timeoutMs',
      /milliseconds/,
    ],
    [
      'a timeout out of range',
      gate({ timeoutMs: 5 }),
      'ECONFIG_VALUE',
      'gates.lint.timeoutMs',
      /1000/,
    ],
    [
      'an unknown paths mode',
      gate({ paths: 'prepend' }),
      'ECONFIG_VALUE',
      'gates.lint.paths',
      /"append"/,
    ],
    [
      'a description that is not a string',
      gate({ description: 42 }),
      'ECONFIG_TYPE',
      'gates.lint.description',
      /string/,
    ],
    [
      'an invalid gate name',
      { gates: { 'lint me': { command: ['x'] } } },
      'ECONFIG_VALUE',
      'gates.lint me',
      /letter/,
    ],
    [
      'a gate that is not an object',
      { gates: { lint: ['eslint'] } },
      'ECONFIG_TYPE',
      'gates.lint',
      /object/,
    ],
    [
      'a fix tool name clashing with a gate',
      { gates: { lint: { command: ['a'], fix: ['b'] }, lint_fix: { command: ['c'] } } },
      'ECONFIG_VALUE',
      'gates.lint.fix',
      /clashes/,
    ],
    [
      'a NUL byte in a command argument',
      gate({ command: ['eslint', 'src\u0000evil'] }),
      'ECONFIG_VALUE',
      'gates.lint.command[1]',
      /NUL byte/,
    ],
    [
      'a NUL byte in a fix argument',
      gate({ fix: ['eslint\u0000', '--fix'] }),
      'ECONFIG_VALUE',
      'gates.lint.fix[0]',
      /NUL byte/,
    ],
    [
      'a shell command line as the program',
      gate({ command: ['eslint . && prettier --check .'] }),
      'ECONFIG_VALUE',
      'gates.lint.command[0]',
      /shell command line[\s\S]*argv array[\s\S]*\["eslint", "\."\][\s\S]*package\.json script/,
    ],
    [
      'a program name with an argument in it',
      gate({ command: ['eslint .'] }),
      'ECONFIG_VALUE',
      'gates.lint.command[0]',
      /split it/,
    ],
    [
      'a program path with an option in it',
      gate({ command: ['./bin/lint --fix'] }),
      'ECONFIG_VALUE',
      'gates.lint.command[0]',
      /\["\.\/bin\/lint", "--fix"\]/,
    ],
    [
      'a pipe in the program',
      gate({ fix: ['cat|sh'] }),
      'ECONFIG_VALUE',
      'gates.lint.fix[0]',
      /shell command line/,
    ],
    [
      'a duplicate gate name',
      '{"gates": {\n  "lint": {"command": ["eslint", "."]},\n  "lint": {"command": ["true"]}\n}}',
      'ECONFIG_JSON',
      'gates.lint',
      /duplicate key at line 3[\s\S]*keep one/,
    ],
    [
      'a duplicate key inside a gate',
      '{"gates": {"lint": {"command": ["eslint"],\n\n "parser": "generic", "command": ["true"]}}}',
      'ECONFIG_JSON',
      'gates.lint.command',
      /duplicate key at line 3/,
    ],
  ];
  for (const [what, config, code, keyPath, fixOrProblem] of errorCases) {
    it(`rejects ${what} (${code})`, () => {
      const error = configError(config);
      expect(error).to.have.property('code', code);
      expect(error.file).to.match(/mcp-gates\.json$/);
      if (keyPath) expect(error).to.have.property('keyPath', keyPath);
      expect(error.fix).to.be.a('string').and.not.equal('');
      expect(error.message).to.match(fixOrProblem);
      expect(error.message).to.include('mcp-gates.json');
    });
  }

  it('accepts a program path with a space in a directory name, and equal keys in different objects', () => {
    const root = makeRepo({
      'mcp-gates.json':
        '{"gates": {"lint": {"command": ["C:\\\\Program Files\\\\nodejs\\\\node.exe", "lint.js"]},' +
        ' "format": {"command": ["/opt/my tools/fmt", "--check"], "description": "command"}}}',
    });
    const gates = loadConfig(root);
    expect(gates.map((gate) => gate.command[0])).to.deep.equal([
      'C:\\Program Files\\nodejs\\node.exe',
      '/opt/my tools/fmt',
    ]);
  });

  it('finds a duplicate key in a large config in linear time', () => {
    const config = (gates) => {
      const many = Array.from({ length: gates }, (_, index) => `"g${index}": {"command": ["x"]}`);
      return `{"gates": {${many.join(',\n')},\n"g0": {"command": ["y"]}}}`;
    };
    const texts = { 5000: config(5000), 40000: config(40000) };
    // Growth, not a time limit: a pairwise key comparison is 64x from 5,000 gates to 40,000.
    const measured = growth((gates) => cpuMs(() => configError(texts[gates])), 5000, 40000);
    expectLinear(measured, 'duplicate key search');
    const error = measured.first.value;
    expect(error).to.include({ code: 'ECONFIG_JSON', keyPath: 'gates.g0' });
    expect(error.message).to.include('line 40001');
  });

  it('rejects an unreadable config with ECONFIG_READ (skipped as root, who can read any file)', function () {
    if (process.getuid?.() === 0) this.skip(); // root reads files whatever their mode
    if (process.platform === 'win32') this.skip(); // reason: chmod 0o000 only sets read-only there
    const root = makeRepo({ 'mcp-gates.json': JSON.stringify(gate()) });
    fs.chmodSync(path.join(root, 'mcp-gates.json'), 0o000);
    expect(() => loadConfig(root))
      .to.throw()
      .with.property('code', 'ECONFIG_READ');
  });

  it('rejects a config that is a directory with ECONFIG_READ', () => {
    const root = makeTempDir();
    fs.mkdirSync(path.join(root, 'mcp-gates.json'));
    expect(() => loadConfig(root))
      .to.throw()
      .with.property('code', 'ECONFIG_READ');
  });
});

describe('gates detection (no config)', () => {
  afterEach(cleanupTemporary);

  it('classifies scripts by name and by body', () => {
    expect(classifyScript('lint', 'eslint .')).to.equal('lint');
    expect(classifyScript('lint', 'eslint --fix .')).to.equal('lint-fix');
    expect(classifyScript('lint:fix', 'eslint --fix .')).to.equal('lint-fix');
    expect(classifyScript('format', 'prettier --write .')).to.equal('format-write');
    expect(classifyScript('format', 'prettier --check .')).to.equal('format-check');
    expect(classifyScript('format:check', 'prettier --check .')).to.equal('format-check');
    expect(classifyScript('fmt', 'prettier -w .')).to.equal('format-write');
    expect(classifyScript('type-check', 'tsc --noEmit')).to.equal('typecheck');
    expect(classifyScript('check', 'biome check .')).to.equal('check');
    expect(classifyScript('check', 'biome check --write .')).to.equal(undefined);
    expect(classifyScript('style', 'prettier --list-different .')).to.equal('format-check');
    expect(classifyScript('lint:css', 'stylelint "**/*.css"')).to.equal('lint');
    expect(classifyScript('build', 'tsc')).to.equal(undefined);
    expect(classifyScript('test', 'mocha')).to.equal(undefined);
    expect(classifyScript('types', 'tsc')).to.equal('typecheck');
    // A second typecheck under a name of the family (a stricter config) is read by its body.
    expect(classifyScript('typecheck:strict', 'tsc -p tsconfig.strict.json --noEmit')).to.equal(
      'typecheck',
    );
    expect(classifyScript('type-check:node', 'tsc --noEmit -p tsconfig.node.json')).to.equal(
      'typecheck',
    );
    expect(classifyScript('typecheck:watch', 'tsc --watch')).to.equal(undefined);
  });

  it('serves package.json scripts with fix pairs through the lockfile package manager', () => {
    const root = makeRepo({
      'package.json': {
        scripts: {
          lint: 'eslint .',
          'lint:fix': 'eslint --fix .',
          'format:check': 'prettier --check .',
          format: 'prettier --write .',
          typecheck: 'tsc --noEmit',
          'lint:css': 'stylelint "**/*.css"',
          build: 'tsc',
          test: 'mocha',
        },
      },
      'pnpm-lock.yaml': 'lockfileVersion: 9\n',
      'eslint.config.js': 'export default [];\n',
      '.prettierrc': '{}\n',
      'tsconfig.json': '{}\n',
    });
    const { gates, packageManager } = detectGates(root);
    expect(packageManager).to.equal('pnpm');
    expect(
      gates.map((g) => [g.name, g.command.join(' '), g.fix?.join(' ') ?? null, g.parser, g.source]),
    ).to.deep.equal([
      [
        'lint',
        'pnpm run --silent lint',
        'pnpm run --silent lint:fix',
        'eslint-stylish',
        'package.json',
      ],
      [
        'format',
        'pnpm run --silent format:check',
        'pnpm run --silent format',
        'prettier',
        'package.json',
      ],
      ['typecheck', 'pnpm run --silent typecheck', null, 'tsc', 'package.json'],
      ['lint_css', 'pnpm run --silent lint:css', null, 'stylelint', 'package.json'],
    ]);
  });

  it('serves a second typecheck script (another config) beside the first, not one that only runs it', () => {
    const root = makeRepo({
      'package.json': {
        scripts: {
          typecheck: 'tsc --noEmit',
          'typecheck:strict': 'tsc --noEmit -p tsconfig.strict.json',
          types: 'npm run typecheck',
        },
      },
      'tsconfig.json': '{}\n',
    });
    const { gates } = detectGates(root);
    expect(gates.map((g) => [g.name, g.command.join(' ')])).to.deep.equal([
      ['typecheck', 'npm run --silent typecheck'],
      ['typecheck_strict', 'npm run --silent typecheck:strict'],
    ]);
  });

  it('picks the package manager from packageManager, then lockfiles, then npm', () => {
    const pick = (files) => detectGates(makeRepo({ 'package.json': {}, ...files })).packageManager;
    expect(
      pick({ 'package.json': { packageManager: 'yarn@4.1.0' }, 'pnpm-lock.yaml': '' }),
    ).to.equal('yarn');
    expect(pick({ 'yarn.lock': '' })).to.equal('yarn');
    expect(pick({ 'bun.lock': '' })).to.equal('bun');
    expect(pick({ 'bun.lockb': '' })).to.equal('bun');
    expect(pick({ 'package-lock.json': '{}' })).to.equal('npm');
    expect(pick({})).to.equal('npm');
  });

  it('turns config files into default commands when no script covers them', () => {
    const root = makeRepo({
      'eslint.config.mjs': 'export default [];\n',
      '.prettierrc.yaml': 'singleQuote: true\n',
      'tsconfig.json': '{}\n',
      'biome.jsonc': '{}\n',
      '.oxlintrc.json': '{}\n',
      'Cargo.toml': '[workspace]\nmembers = ["a"]\n',
      'pyproject.toml': '[project]\nname = "x"\n\n[tool.ruff.lint]\nselect = ["E"]\n',
      'go.mod': 'module example.com/x\n',
    });
    const gates = detectGates(root).gates;
    const byName = Object.fromEntries(gates.map((g) => [g.name, g]));
    expect(Object.keys(byName)).to.deep.equal([
      'lint',
      'format',
      'typecheck',
      'biome',
      'oxlint',
      'clippy',
      'rustfmt',
      'ruff',
      'ruff_format',
      'vet',
      'gofmt',
    ]);
    expect(byName.lint).to.include({
      parser: 'eslint-json',
      paths: 'append',
      source: 'eslint.config.mjs',
    });
    // The scope (ignore files, never-touched directories) is asserted in gates-truth.test.mjs.
    expect(byName.format.command.slice(0, 2)).to.deep.equal(['prettier', '--check']);
    expect(byName.format.command.at(-1)).to.equal('.');
    expect(byName.format.source).to.equal('.prettierrc.yaml');
    expect(byName.clippy.command).to.include('--workspace');
    expect(byName.clippy.command.slice(-3)).to.deep.equal(['--', '-D', 'warnings']);
    expect(byName.rustfmt.fix).to.deep.equal(['cargo', 'fmt', '--all']);
    expect(byName.ruff.source).to.equal('pyproject.toml');
    expect(byName.vet.parser).to.equal('go-vet');
    expect(byName.gofmt.parser).to.equal('gofmt');
  });

  it('does not add a marker gate for a tool a script already runs', () => {
    const root = makeRepo({
      'package.json': { scripts: { lint: 'eslint . && prettier --check .' }, prettier: {} },
      'eslint.config.js': 'export default [];\n',
    });
    const gates = detectGates(root).gates;
    expect(gates.map((g) => g.name)).to.deep.equal(['lint']);
  });

  it('reads eslintConfig and prettier keys in package.json', () => {
    const root = makeRepo({
      'package.json': { eslintConfig: { rules: {} }, prettier: { semi: false } },
    });
    expect(detectGates(root).gates.map((g) => [g.name, g.source])).to.deep.equal([
      ['lint', 'package.json'],
      ['format', 'package.json'],
    ]);
  });

  it('finds nothing in an empty directory', () => {
    expect(detectGates(makeTempDir())).to.deep.equal({
      gates: [],
      packageManager: null,
      notServed: [],
    });
  });
});

describe('gates paths', () => {
  afterEach(cleanupTemporary);

  it('puts paths at the end of argv, replacing a final "."', () => {
    expect(commandWithPaths(['eslint', '--format', 'json', '.'], ['src/a.js'])).to.deep.equal([
      'eslint',
      '--format',
      'json',
      'src/a.js',
    ]);
    expect(commandWithPaths(['biome', 'check'], ['a', 'b'])).to.deep.equal([
      'biome',
      'check',
      'a',
      'b',
    ]);
    expect(commandWithPaths(['eslint', '.'], [])).to.deep.equal(['eslint', '.']);
  });

  it('accepts paths inside the root and returns them relative to it', () => {
    const root = makeRepo({ 'src/a.js': '', 'src/-dash.js': '' });
    expect(
      confinePaths(root, ['src/a.js', path.join(root, 'src'), './src/../src/a.js', '.']),
    ).to.deep.equal([path.join('src', 'a.js'), 'src', path.join('src', 'a.js'), '.']);
    expect(confinePaths(root, ['./src/-dash.js'])).to.deep.equal([path.join('src', '-dash.js')]);
  });

  it('accepts names that only start with dots (..foo, ...): only a ".." segment leaves the root', () => {
    const root = makeRepo({ '..foo': '', '...': '', 'src/..bar/a.js': '' });
    expect(confinePaths(root, ['..foo', '...', 'src/..bar/a.js', './..foo'])).to.deep.equal([
      '..foo',
      '...',
      path.join('src', '..bar', 'a.js'),
      '..foo',
    ]);
    expect(() => confinePaths(root, ['..foo/../../x'])).to.throw(/outside the project root/);
  });

  it('bounds the paths of one call in number and total length, saying how to call instead', () => {
    const root = makeRepo({ 'src/a.js': '' });
    const tooMany = Array.from({ length: 300000 }, () => 'src/a.js');
    const started = Date.now();
    expect(() => confinePaths(root, tooMany))
      .to.throw(
        /300000 paths in one call is over the limit of 1000[\s\S]*without paths[\s\S]*batches/,
      )
      .with.property('code', 'EGATES_PATH');
    expect(Date.now() - started).to.be.below(1000);
    expect(
      confinePaths(
        root,
        Array.from({ length: 1000 }, () => 'src/a.js'),
      ),
    ).to.have.length(1000);
    const long = `src/${'x'.repeat(200000)}`;
    expect(() => confinePaths(root, [long]))
      .to.throw(/add up to \d+ characters, over the limit/)
      .with.property('code', 'EGATES_PATH');
  });

  const rejected = [
    ['a .. escape', '../outside.js'],
    ['a bare .. escape', '..'],
    ['a deeper .. escape', 'src/../../outside.js'],
    ['an absolute path outside the root', '/etc/passwd'],
    ['an option-looking path', '--config=/etc/evil.js'],
    ['a single-dash option', '-c'],
    ['a missing file', 'src/missing.js'],
    ['an empty string', ''],
    ['a NUL byte', 'src/a.js\0'],
  ];
  for (const [what, given] of rejected) {
    it(`rejects ${what} with EGATES_PATH`, () => {
      const root = makeRepo({ 'src/a.js': '' });
      expect(() => confinePaths(root, [given]))
        .to.throw()
        .with.property('code', 'EGATES_PATH');
    });
  }

  it('rejects a non-string path with EGATES_PATH', () => {
    const root = makeRepo({ 'src/a.js': '' });
    expect(() => confinePaths(root, [42]))
      .to.throw()
      .with.property('code', 'EGATES_PATH');
  });

  it('rejects a symlink that leads out of the root, and a path under one', function () {
    const outside = makeRepo({ 'secret.txt': 'x', 'dir/inner.txt': 'y' });
    const root = makeRepo({ 'src/a.js': '' });
    try {
      fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
      fs.symlinkSync(path.join(outside, 'dir'), path.join(root, 'linkdir'));
    } catch (error) {
      this.skip(`cannot create symlinks here: ${error.code}`);
    }
    expect(() => confinePaths(root, ['link.txt']))
      .to.throw()
      .with.property('code', 'EGATES_PATH');
    expect(() => confinePaths(root, ['linkdir/inner.txt']))
      .to.throw()
      .with.property('code', 'EGATES_PATH');
  });

  it('accepts a symlink that stays inside the root', function () {
    const root = makeRepo({ 'src/a.js': '' });
    try {
      fs.symlinkSync(path.join(root, 'src'), path.join(root, 'alias'));
    } catch (error) {
      this.skip(`cannot create symlinks here: ${error.code}`);
    }
    expect(confinePaths(root, ['alias/a.js'])).to.deep.equal([path.join('alias', 'a.js')]);
  });
});

describe('gates program resolution', () => {
  afterEach(cleanupTemporary);

  it('reads the script a real npm .cmd shim runs (Windows, where no shell is used)', () => {
    const shim = (name) =>
      fs.readFileSync(path.join(REPO_ROOT, 'test', 'fixtures', 'windows-shims', name), 'utf8');
    expect(windowsShimScript(shim('eslint.cmd'))).to.equal('..\\eslint\\bin\\eslint.js');
    expect(windowsShimScript(shim('npm.cmd'))).to.equal('node_modules\\npm\\bin\\npm-cli.js');
    expect(windowsShimScript('@echo off\r\ncall some-tool.exe %*\r\n')).to.equal(undefined);
  });

  it('finds programs in node_modules/.bin of a workspace package and the workspace root before PATH', function () {
    if (process.platform === 'win32') this.skip(); // reason: POSIX executables below
    const outer = makeTempDir();
    fs.writeFileSync(path.join(outer, 'package.json'), '{"workspaces": ["packages/*"]}');
    const root = path.join(outer, 'packages', 'app');
    fs.mkdirSync(root, { recursive: true });
    fs.writeFileSync(path.join(root, 'package.json'), '{"name": "app"}');
    for (const directory of [
      path.join(outer, 'node_modules', '.bin'),
      path.join(root, 'node_modules', '.bin'),
    ]) {
      fs.mkdirSync(directory, { recursive: true });
    }
    const write = (file) => fs.writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 });
    write(path.join(outer, 'node_modules', '.bin', 'outer-tool'));
    write(path.join(root, 'node_modules', '.bin', 'both-tool'));
    write(path.join(outer, 'node_modules', '.bin', 'both-tool'));
    const env = { PATH: '/usr/bin:/bin' };
    expect(resolveCommand(['outer-tool', '.'], root, env)).to.deep.include({
      ok: true,
      file: path.join(outer, 'node_modules', '.bin', 'outer-tool'),
      args: ['.'],
    });
    expect(resolveCommand(['both-tool'], root, env).file).to.equal(
      path.join(root, 'node_modules', '.bin', 'both-tool'),
    );
    expect(resolveCommand(['sh'], root, env).file).to.match(/\/sh$/);
    const missing = resolveCommand(['prettier'], root, env);
    expect(missing).to.include({ ok: false, problem: 'missing', program: 'prettier' });
    expect(missing.fix)
      .to.match(/npm install --save-dev prettier/)
      .and.match(/no npx auto-install/);
  });
});

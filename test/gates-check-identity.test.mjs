// One gate per check means one per check (issue 29, item 4): two commands are one check
// only when tool, options that change findings and paths agree; otherwise both are served
// under distinct names, or the project's narrower run replaces detection's whole-tree
// guess, and `list` says why.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createGateTools, detectGates } from '../dist/gates/index.js';
import { checkIdentity } from '../dist/gates/detect/tool-command.js';
import { pythonPattern } from '../dist/gates/detect/pre-commit.js';
import {
  cleanupTemporary,
  gitRepo,
  hasCommand,
  makeRepo,
  runCli,
  toolContext,
  envWithTools,
} from './fixtures/gates-support.mjs';

const MYPY_CONFIG = '[project]\nname = "demo"\nversion = "0.1.0"\n\n[tool.mypy]\n';

/** A gate's tool run once, its findings as `file:line rule`. */
async function findings(gates, root, name) {
  const tool = createGateTools(gates, { root, env: envWithTools() }).find(
    (candidate) => candidate.name === name,
  );
  const result = await tool.run({}, toolContext());
  return {
    isError: result.isError,
    status: result.structuredContent.status,
    findings: result.structuredContent.findings.map((f) => `${f.file}:${f.line} ${f.rule}`),
  };
}

describe('one gate per check (issue 29, item 4)', function () {
  this.timeout(120000);
  afterEach(cleanupTemporary);

  it('a check is its tool, the options that change findings and its paths', () => {
    const marker = checkIdentity([
      'mypy',
      '--show-column-numbers',
      '--no-error-summary',
      '--no-pretty',
      '--no-color-output',
      '.',
    ]);
    expect(marker).to.deep.equal({ key: 'mypy:', options: [], paths: ['.'] });
    expect(
      checkIdentity(['uv', 'run', 'mypy', '--python-version', '3.10', 'src', 'tests/']),
    ).to.deep.equal({
      key: 'mypy:',
      options: ['--python-version=3.10'],
      paths: ['src', 'tests'],
    });
    // Output and cache options change nothing found; an option it does not know might.
    expect(
      checkIdentity(['ruff', 'check', '--output-format', 'json', '--force-exclude']),
    ).to.deep.equal({
      key: 'ruff:check',
      options: [],
      paths: ['.'],
    });
    expect(checkIdentity(['ruff', 'check', '--unknown-option', 'x', './src/'])).to.deep.equal({
      key: 'ruff:check',
      options: ['--unknown-option=x'],
      paths: ['src'],
    });
    // What the tool keeps is never neutral: eslint's --quiet drops warnings.
    expect(checkIdentity(['eslint', '--quiet', '--format', 'json', '.']).options).to.deep.equal([
      '--quiet',
    ]);
  });

  it('a tox env running mypy for another Python version is its own gate, and fails where CI fails (real mypy)', async function () {
    const root = makeRepo({
      'pyproject.toml': MYPY_CONFIG,
      'tox.ini': '[testenv:typing]\ncommands = mypy --python-version=3.10 src tests\n',
      // typing.Self is Python 3.11's: a 3.10 run finds it missing.
      'src/a.py':
        'from typing import Self\n\n\nclass A:\n    def me(self) -> Self:\n        return self\n',
      'tests/test_a.py': 'def test_a() -> None:\n    assert True\n',
    });
    const { gates, notServed } = detectGates(root);
    expect(gates.map((gate) => [gate.name, gate.source])).to.deep.equal([
      ['mypy', 'pyproject.toml'],
      ['typing', 'tox.ini'],
    ]);
    expect(notServed).to.deep.equal([]);
    expect(gates[1].command.slice(-3)).to.deep.equal(['--python-version=3.10', 'src', 'tests']);
    // list shows the description: why there are two.
    expect(gates[1].description).to.include(
      'its mypy (--python-version=3.10; paths src, tests) is not the check gate `mypy` runs (no options; paths .): both are served',
    );
    if (!hasCommand('mypy')) this.skip(); // reason: mypy is not installed here
    // The project's whole-tree run (this Python, 3.11) passes: the two are not one check.
    expect((await findings(gates, root, 'mypy')).isError).to.equal(false);
    const typing = await findings(gates, root, 'typing');
    expect(typing.isError).to.equal(true);
    expect(typing.findings).to.include('src/a.py:1 attr-defined');
  });

  it("a Makefile target's narrower mypy run replaces the whole-tree marker, and list says why (real mypy)", async function () {
    const root = makeRepo({
      'pyproject.toml': MYPY_CONFIG,
      Makefile: 'mypy:\n\tmypy pkg tests/mypy_checks.py\n',
      'pkg/__init__.py': '',
      'pkg/mod.py': 'def add(a: int, b: int) -> int:\n    return a + b\n',
      'tests/mypy_checks.py': 'from pkg.mod import add\n\nx: int = add(1, 2)\n',
      // Not what the project checks: `mypy .` reports it.
      'scripts/old.py': 'x: int = "not checked by the project"\n',
    });
    const { gates, notServed } = detectGates(root);
    expect(gates.map((gate) => [gate.name, gate.command.join(' ')])).to.deep.equal([
      ['make.mypy', 'make mypy'],
    ]);
    const why =
      'the Makefile target "mypy" (gate `make.mypy`) runs this check on pkg, tests/mypy_checks.py, as the project runs it: the whole tree would be checked for what the project does not check';
    expect(notServed).to.deep.equal([{ source: 'pyproject.toml', name: 'gate mypy', why }]);
    const listed = runCli(['list', '--root', root], { cwd: root });
    expect(listed.stdout).to.include(`pyproject.toml: gate mypy — ${why}`);
    if (!hasCommand('mypy')) this.skip(); // reason: mypy is not installed here
    if (!hasCommand('make')) this.skip(); // reason: make is not installed here
    const served = await findings(gates, root, 'make.mypy');
    expect(served, JSON.stringify(served)).to.deep.include({ isError: false, findings: [] });
  });

  it("a package.json script's check run by a tox env with other options: both served, tsc's -p and a flag's value kept (real tsc)", async () => {
    const root = makeRepo({
      'package.json': {
        name: 'two-checks',
        private: true,
        scripts: { lint: 'eslint src', typecheck: 'tsc --noEmit' },
      },
      'tox.ini':
        '[testenv:lint]\ncommands = eslint --quiet src\n' +
        '[testenv:types]\ncommands = tsc -p tsconfig.strict.json\n' +
        '[testenv:typing]\ncommands = tsc --noEmit --allowUnreachableCode false\n' +
        '[testenv:check]\ncommands = eslint src --format json\n',
      'tsconfig.json': {
        compilerOptions: { strict: true, skipLibCheck: true, types: [] },
        include: ['src'],
      },
      'tsconfig.strict.json': {
        extends: './tsconfig.json',
        compilerOptions: { allowUnusedLabels: false },
      },
      // An unused label (TS7028) and unreachable code (TS7027): errors only where an
      // option says so, neither under tsconfig.json alone.
      'src/a.ts':
        'export function f(): number {\n  outer: for (;;) {\n    return 1;\n  }\n  return 2;\n}\n',
    });
    const { gates, notServed } = detectGates(root);
    // Before: the script's whole tool counted as run, and tsc's -p was left out, so the
    // tox envs were "already run" by the scripts' gates.
    expect(gates.map((gate) => [gate.name, gate.command.join(' ')])).to.deep.equal([
      ['lint', 'npm run --silent lint'],
      ['typecheck', 'npm run --silent typecheck'],
      ['tox.lint', 'eslint --format json --quiet src'],
      ['types', 'tsc --noEmit --pretty false -p tsconfig.strict.json'],
      ['typing', 'tsc --noEmit --pretty false --allowUnreachableCode false'],
    ]);
    // The same check as the script's (an output option apart) is served once.
    expect(notServed).to.deep.equal([
      {
        source: 'tox.ini',
        name: 'tox env check',
        why: 'it runs only checks already run by gate `lint`',
      },
    ]);
    expect(gates[3].description).to.include(
      'its tsc (-p=tsconfig.strict.json; paths .) is not the check gate `typecheck` runs (no options; paths .): both are served',
    );
    const rules = async (name) => (await findings(gates, root, name)).findings;
    expect(await rules('typecheck')).to.deep.equal([]);
    expect(await rules('types')).to.deep.equal(['src/a.ts:2 TS7028']);
  });

  it("tsgo's command from a source keeps tsc's options", () => {
    const root = makeRepo({
      'package.json': {
        name: 'native',
        private: true,
        devDependencies: { '@typescript/native-preview': '7.0.0-dev' },
      },
      'tox.ini': '[testenv:types]\ncommands = tsgo -p tsconfig.strict.json --strict false\n',
      'tsconfig.json': { include: ['src'] },
      'tsconfig.strict.json': { extends: './tsconfig.json' },
    });
    const { gates } = detectGates(root);
    expect(gates.map((gate) => [gate.name, gate.command.join(' ')])).to.deep.equal([
      ['typecheck', 'tsgo --noEmit --pretty false'],
      ['types', 'tsgo --noEmit --pretty false -p tsconfig.strict.json --strict false'],
    ]);
  });

  it('a target that may write never replaces the read-only marker gate', () => {
    const root = makeRepo({
      'pyproject.toml': MYPY_CONFIG,
      Makefile: 'typecheck:\n\tpip install -e .\n\tmypy src\n',
      'src/a.py': '',
    });
    const { gates, notServed } = detectGates(root);
    expect(gates.map((gate) => gate.name)).to.deep.equal(['mypy', 'typecheck']);
    expect(gates[1].description).to.include('may write');
    expect(notServed).to.deep.equal([]);
  });

  it('the same check written twice is served once; a marker the project also runs whole stays', () => {
    const root = makeRepo({
      'pyproject.toml': `${MYPY_CONFIG}\n[tool.ruff]\n`,
      // `ruff check .` is the marker's check: not served again. `mypy src` narrows the marker,
      // but the tox env runs `mypy .` too, which the marker then serves.
      Makefile: 'lint:\n\truff check .\n',
      'tox.ini': '[testenv:type]\ncommands = mypy .\n[testenv:lint-src]\ncommands = mypy src\n',
      'src/a.py': '',
    });
    const { gates, notServed } = detectGates(root);
    expect(gates.map((gate) => gate.name)).to.deep.equal([
      'ruff',
      'ruff_format',
      'mypy',
      'lint-src',
    ]);
    expect(notServed.map((item) => `${item.source}: ${item.name}: ${item.why}`)).to.deep.equal([
      'Makefile: target lint: it runs only checks already run by gate `ruff`',
      'tox.ini: tox env type: it runs only checks already run by gate `mypy`',
    ]);
  });

  it("a tox env's basepython or setenv makes its run its own check, and its description says it is not applied", () => {
    const root = makeRepo({
      'pyproject.toml': MYPY_CONFIG,
      'tox.ini':
        '[testenv:type]\nbasepython = python3.10\ncommands = mypy .\n' +
        '[testenv:typing]\nsetenv =\n    MYPYPATH = stubs\ncommands = mypy .\n[testenv:types]\ncommands = mypy .\n',
      'src/a.py': '',
    });
    const { gates, notServed } = detectGates(root);
    expect(gates.map((gate) => gate.name)).to.deep.equal(['mypy', 'type', 'typing']);
    expect(gates[1].description).to.include(
      "tox's `basepython = python3.10` is not applied: the gate runs in the project's environment, and its checks are its own",
    );
    expect(gates[2].description).to.include('`setenv = MYPYPATH = stubs` is not applied');
    // The same command with no environment of its own is the marker's check.
    expect(notServed.map((item) => `${item.name}: ${item.why}`)).to.deep.equal([
      'tox env types: it runs only checks already run by gate `mypy`',
    ]);
  });

  describe("a pre-commit hook's files and exclude", () => {
    const PRETTIER_HOOK = `repos:
  - repo: https://github.com/pre-commit/mirrors-prettier
    rev: v3.1.0
    hooks:
      - id: prettier
        exclude: |
          (?x)^(
            legacy/.*|   # not ours
            src/gen\\.js
          )$
`;

    it('reads pre-commit patterns (Python regexes) as JavaScript ones, or says it cannot', () => {
      const read = (pattern) => {
        const js = pythonPattern(pattern);
        return js && new RegExp(js.source, js.flags);
      };
      const verbose = read('(?x)^(\n  legacy/.*|  # comment\n  src/gen\\.js\n)$');
      expect(['legacy/a.js', 'src/gen.js'].map((file) => verbose.test(file))).to.deep.equal([
        true,
        true,
      ]);
      expect(['src/gen.jsx', 'src/a.js'].map((file) => verbose.test(file))).to.deep.equal([
        false,
        false,
      ]);
      expect(read('(?i)^DOCS/').test('docs/x.md')).to.equal(true);
      expect(read('^(?P<dir>a|b)/(?P=dir)\\Z').test('a/a')).to.equal(true);
      expect(read('^(?P<dir>a|b)/(?P=dir)\\Z').test('a/a\n')).to.equal(false);
      // A locale flag, a scoped flag group: JavaScript would read them otherwise.
      expect(pythonPattern('(?L)^x')).to.equal(undefined);
      expect(pythonPattern('^(?i:x)')).to.equal(undefined);
    });

    it("a prettier hook's exclude is applied: the clean tree passes, a finding outside it fails (real prettier)", async () => {
      const root = gitRepo({
        '.pre-commit-config.yaml': PRETTIER_HOOK,
        '.prettierrc': '{}\n',
        'src/a.js': 'export const a = 1;\n',
        // Left out by the hook's exclude: unformatted, as the project keeps them.
        'legacy/b.js': 'export const   b=2\n',
        'src/gen.js': 'export const   c=2\n',
      });
      const { gates, notServed } = detectGates(root);
      expect(notServed).to.deep.equal([]);
      expect(gates.map((gate) => gate.name)).to.deep.equal(['format']);
      // Before: the exclude was not applied and the clean tree failed on legacy/b.js and src/gen.js.
      const clean = await findings(gates, root, 'format');
      expect(clean, JSON.stringify(clean)).to.deep.include({ isError: false, findings: [] });
      expect(gates[0].description).to.include(
        "checks the files the pre-commit hook's exclude: (?x)^( legacy/.*| # not ours src/gen\\.js )$ selects with prettier's extensions",
      );
      fs.writeFileSync(path.join(root, 'src/a.js'), 'export const   a=1\n');
      const dirty = await findings(gates, root, 'format');
      expect(dirty.isError).to.equal(true);
      expect(dirty.findings.map((line) => line.split(':')[0])).to.deep.equal(['src/a.js']);
      // A call's paths are filtered alike: only excluded files is nothing checked, no pass.
      const tool = createGateTools(gates, { root, env: envWithTools() })[0];
      const excluded = await tool.run({ paths: ['legacy'] }, toolContext());
      expect(excluded.structuredContent).to.deep.include({
        status: 'nothing-checked',
        passed: false,
      });
    });

    it('init does not write a gate whose files a config cannot say, and says why', () => {
      const root = makeRepo({
        '.pre-commit-config.yaml': PRETTIER_HOOK,
        '.prettierrc': '{}\n',
        Makefile: 'lint:\n\truff check .\n',
      });
      const result = runCli(['init', '--root', root]);
      expect(result.code, result.stderr).to.equal(0);
      const config = JSON.parse(fs.readFileSync(path.join(root, 'mcp-gates.json'), 'utf8'));
      expect(Object.keys(config.gates)).to.deep.equal(['lint']);
      expect(result.stdout).to.include(
        ".pre-commit-config.yaml: gate format — not written to mcp-gates.json: it checks the files the pre-commit hook's exclude:",
      );
    });

    it('two hooks of one tool with other options or files are two gates; the same hook twice is one', () => {
      const root = makeRepo({
        '.pre-commit-config.yaml': `repos:
  - repo: https://github.com/pre-commit/mirrors-mypy
    rev: v1.13.0
    hooks:
      - id: mypy
      - id: mypy
        alias: mypy-strict
        args: [--strict]
        files: ^(src|tests)/.*\\.pyi?$|^tools/
      - id: mypy
`,
        'src/a.py': '',
        'tests/b.py': '',
        'tools/c.py': '',
      });
      const { gates, notServed } = detectGates(root);
      expect(gates.map((gate) => gate.name)).to.deep.equal(['mypy', 'mypy.mypy-strict']);
      expect(gates[1].command).to.include('--strict');
      expect(gates[1].fileFilter.include).to.deep.equal({
        source: '^(src|tests)/.*\\.pyi?$|^tools/',
        flags: '',
      });
      expect(notServed.map((item) => item.why)).to.deep.equal([
        'it runs the check of gate `mypy`, which an earlier hook gives',
      ]);
    });

    it('a pattern that cannot be applied: the hook is not served, with why, and no marker checks what it leaves out', () => {
      const root = makeRepo({
        '.pre-commit-config.yaml': PRETTIER_HOOK.replace(
          /exclude: \|[\s\S]*$/,
          "exclude: '(?L)^legacy/'\n",
        ),
        '.prettierrc': '{}\n',
        'src/a.js': 'export const a = 1;\n',
      });
      const { gates, notServed } = detectGates(root);
      expect(gates).to.deep.equal([]);
      expect(notServed).to.deep.equal([
        {
          source: '.pre-commit-config.yaml',
          name: 'hook prettier',
          why: "the hook's `exclude: (?L)^legacy/` cannot be applied (a pattern JavaScript reads otherwise): its check would fail on files the hook leaves out",
        },
      ]);
    });
  });
});

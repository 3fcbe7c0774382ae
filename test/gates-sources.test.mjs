// Gate sources beyond package.json (issue 20, item 3): Makefile and justfile targets and
// deno.json tasks named like checks, read conservatively, each judged read-only or possibly writing.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createGateTools, detectGates } from '../dist/gates/index.js';
import {
  judgeTarget,
  parseDenoTasks,
  parseJustfile,
  parseMakefile,
} from '../dist/gates/detect/makefile.js';
import {
  cleanupTemporary,
  envWithTools,
  hasCommand,
  makeRepo,
  runCli,
  toolContext,
} from './fixtures/gates-support.mjs';

const MAKEFILE = [
  '.PHONY: lint typecheck check format build vet',
  'PYTHON ?= python3',
  'SRC := pkg',
  'export FOO = 1',
  'define BANNER',
  'lint:',
  '\techo not a rule',
  'endef',
  '',
  '# Lint: ruff and black in check mode.',
  'lint:',
  '\t@ruff check --no-fix .',
  '\tblack --check \\',
  '\t\t.',
  'format:',
  '\tblack .',
  'typecheck: ; uv run mypy pkg',
  'check: lint typecheck',
  'build:',
  '\t$(PYTHON) -m build',
  'vet: build',
  '\tgo vet ./...',
  '%.o: %.c',
  '\tcc -c $<',
  '',
].join('\n');

const summary = (gate) => [gate.name, gate.command.join(' '), gate.fix?.join(' ') ?? null];

describe('Makefile and justfile targets as gates (issue 20, item 3)', function () {
  this.timeout(60000);
  afterEach(cleanupTemporary);

  it('reads explicit rules only: not assignments, define blocks, pattern or special targets', () => {
    const targets = parseMakefile(MAKEFILE);
    expect([...targets.keys()]).to.deep.equal([
      'lint',
      'format',
      'typecheck',
      'check',
      'build',
      'vet',
    ]);
    expect(targets.get('lint').lines).to.deep.equal(['@ruff check --no-fix .', 'black --check .']);
    expect(targets.get('typecheck').lines).to.deep.equal(['uv run mypy pkg']);
    expect(targets.get('check').prerequisites).to.deep.equal(['lint', 'typecheck']);
  });

  it('judges a target read-only only when it and what it depends on run known checks', () => {
    const targets = parseMakefile(MAKEFILE);
    const judge = (name, ruffFixes = false) => judgeTarget(targets, name, 'make', ruffFixes);
    expect(judge('lint').readOnly).to.equal(true);
    expect(judge('typecheck').readOnly).to.equal(true);
    expect(judge('check')).to.deep.include({ readOnly: true });
    expect(judge('check').body).to.deep.equal([
      '@ruff check --no-fix .',
      'black --check .',
      'uv run mypy pkg',
    ]);
    expect(judge('format')).to.deep.include({
      readOnly: false,
      writer: '`black .`, which is not a known read-only check',
    });
    // vet depends on build, whose recipe is a variable: a shell's to expand, not judged.
    expect(judge('vet').readOnly).to.equal(false);
    expect(judge('vet').writer).to.include('$(PYTHON) -m build');
    const more = parseMakefile(
      [
        'lint:\n\truff check .',
        'all-checks:\n\t$(MAKE) lint\n\tmake -s typecheck',
        'typecheck:\n\tmypy .',
        'deps: node_modules',
        'out:\n\teslint . > report.txt',
        'sub:\n\tmake -C docs lint',
      ].join('\n'),
    );
    const judgeMore = (name, ruffFixes = false) => judgeTarget(more, name, 'make', ruffFixes);
    // `ruff check` applies fixes when the project's ruff config says `fix = true`.
    expect(judgeMore('lint').readOnly).to.equal(true);
    expect(judgeMore('lint', true).readOnly).to.equal(false);
    expect(judgeMore('all-checks').readOnly).to.equal(true);
    expect(judgeMore('deps').writer).to.equal('`node_modules`, which no rule here makes');
    expect(judgeMore('out').writer).to.include('shell syntax not judged');
    expect(judgeMore('sub').writer).to.include('another directory or file');
    // `$(info ...)` / `$(warning ...)` print when make expands the line and run nothing.
    const messages = parseMakefile(
      'lint:\n\t$(info ****** running lint tools ******)\n\t@$(warning careful)\n\truff check .\n' +
        'info:\n\t$(info $(SRC))\n',
    );
    expect(messages.get('lint').lines).to.deep.equal(['ruff check .']);
    expect(judgeTarget(messages, 'lint', 'make', false).readOnly).to.equal(true);
    // One holding a reference is a shell's to judge: kept, not judged.
    expect(messages.get('info').lines).to.deep.equal(['$(info $(SRC))']);
  });

  it('serves check-named targets as `make <target>`, says which may write, pairs fixes', () => {
    const root = makeRepo({ Makefile: MAKEFILE });
    const { gates, notServed } = detectGates(root);
    expect(gates.map(summary)).to.deep.equal([
      ['lint', 'make lint', null],
      ['typecheck', 'make typecheck', null],
      ['vet', 'make vet', null],
    ]);
    // `check: lint typecheck` only runs checks the lint and typecheck gates run: one gate per check.
    expect(notServed).to.deep.equal([
      {
        source: 'Makefile',
        name: 'target check',
        why: 'it runs only checks already run by gates `lint`, `typecheck`',
      },
    ]);
    const byName = Object.fromEntries(gates.map((gate) => [gate.name, gate]));
    expect(byName.lint.description).to.equal(
      'Lint: the Makefile target "lint" (make lint); runs only known read-only checks',
    );
    expect(byName.vet.description).to.include('may write: it runs `$(PYTHON) -m build`');
    expect(byName.typecheck.parser).to.equal('mypy');
    expect(byName.lint.source).to.equal('Makefile');
    const withFix = makeRepo({
      Makefile:
        'format-check:\n\tblack --check .\nformat:\n\tblack .\nlint:\n\truff check .\nfix:\n\truff check --fix .\n',
    });
    expect(detectGates(withFix).gates.map(summary)).to.deep.equal([
      ['lint', 'make lint', 'make fix'],
      ['format-check', 'make format-check', 'make format'],
    ]);
  });

  it('names a target `make.<name>` when package.json or a marker already has the name', () => {
    const root = makeRepo({
      'package.json': { name: 'm', scripts: { lint: 'eslint .' } },
      Makefile: 'lint:\n\truff check .\ntypecheck:\n\tmypy .\n',
      justfile: 'typecheck:\n    mypy .\n',
    });
    expect(detectGates(root).gates.map(summary)).to.deep.equal([
      ['lint', 'npm run --silent lint', null],
      ['make.lint', 'make lint', null],
      ['typecheck', 'make typecheck', null],
    ]);
    // The justfile's typecheck runs the mypy the Makefile's already runs.
    expect(detectGates(root).notServed.map((item) => item.why)).to.deep.equal([
      'it runs only checks already run by gate `typecheck`',
    ]);
  });

  it('reads justfile recipes: dependencies, attributes, settings; parameters make it unrunnable', () => {
    const targets = parseJustfile(
      [
        'set shell := ["bash", "-c"]',
        'version := "1"',
        'alias l := lint',
        '',
        '# Lint everything.',
        '[group("checks")]',
        'lint: typecheck',
        '    ruff check --no-fix .',
        '',
        '@typecheck:',
        '    mypy .',
        '',
        'check target:',
        '    mypy {{target}}',
        '',
        'format-check:',
        '    #!/usr/bin/env bash',
        '    black --check .',
      ].join('\n'),
    );
    expect([...targets.keys()]).to.deep.equal(['lint', 'typecheck', 'check', 'format-check']);
    expect(targets.get('lint').prerequisites).to.deep.equal(['typecheck']);
    expect(targets.get('check').unrunnable).to.include('parameters (target)');
    expect(judgeTarget(targets, 'lint', 'just', false).readOnly).to.equal(true);
    expect(judgeTarget(targets, 'format-check', 'just', false).writer).to.include(
      '#!/usr/bin/env bash',
    );
    const root = makeRepo({
      justfile: 'lint:\n    ruff check .\ncheck target:\n    mypy {{target}}\n',
    });
    expect(detectGates(root).gates.map(summary)).to.deep.equal([['lint', 'just lint', null]]);
  });

  it('serves deno.json tasks named like checks as `deno task <name>`', () => {
    const tasks = parseDenoTasks(
      JSON.stringify({
        tasks: {
          lint: 'deno lint',
          'format-check': { command: 'deno fmt --check', dependencies: ['lint'] },
          format: 'deno fmt',
          check: 'deno task lint && deno run -A build.ts',
          dev: 'deno run --watch main.ts',
        },
      }),
    );
    expect(judgeTarget(tasks, 'format-check', 'deno', false)).to.deep.include({ readOnly: true });
    expect(judgeTarget(tasks, 'check', 'deno', false).writer).to.include('deno run -A build.ts');
    const root = makeRepo({ 'deno.json': { tasks: { lint: 'deno lint', format: 'deno fmt' } } });
    const gates = detectGates(root).gates;
    expect(gates.map(summary)).to.deep.equal([['lint', 'deno task lint', null]]);
    expect(gates[0].description).to.equal(
      'Lint: the deno.json task "lint" (deno task lint); runs only known read-only checks',
    );
    // deno.jsonc with comments is not read (no JSONC parser here): no gate, rather than a guess.
    expect(
      detectGates(makeRepo({ 'deno.jsonc': '{ // c\n "tasks": { "lint": "deno lint" } }' })).gates,
    ).to.deep.equal([]);
  });

  it('a make target gate runs make: findings at their lines, never clean when the check fails (real make and mypy)', async function () {
    if (!hasCommand('make')) this.skip(); // reason: make is not installed here
    if (!hasCommand('mypy')) this.skip(); // reason: mypy is not installed here
    const root = makeRepo({
      // No mypy config: a [mypy] section would make the mypy marker gate, which runs this check first.
      Makefile:
        'typecheck:\n\tmypy --no-error-summary --cache-dir=/dev/null pkg\nlint:\n\t@echo "linting" && false\n',
      'pkg/__init__.py': '',
      'pkg/mod.py': 'def add(a: int, b: int) -> int:\n    return a + b\n\n\nx: int = add(1, "2")\n',
    });
    const gates = detectGates(root).gates;
    const tools = createGateTools(gates, { root, env: envWithTools() });
    const run = (name) => tools.find((tool) => tool.name === name).run({}, toolContext());
    const typecheck = await run('typecheck');
    expect(typecheck.isError).to.equal(true);
    expect(
      typecheck.structuredContent.findings.map((f) => `${f.file}:${f.line} ${f.rule} ${f.message}`),
    ).to.deep.equal([
      'pkg/mod.py:5 arg-type Argument 2 to "add" has incompatible type "str"; expected "int"',
    ]);
    // A failing target with no finding a parser knows is still no pass.
    const lint = await run('lint');
    expect(lint.isError).to.equal(true);
    expect(lint.structuredContent.status).to.equal('failed');
    fs.writeFileSync(
      path.join(root, 'pkg/mod.py'),
      'def add(a: int, b: int) -> int:\n    return a + b\n\n\nx: int = add(1, 2)\n',
    );
    const clean = await run('typecheck');
    expect(clean.isError, clean.text).to.equal(false);
  });

  it('init writes the targets it found', () => {
    const root = makeRepo({ Makefile: 'lint:\n\truff check .\nformat:\n\truff format .\n' });
    const result = runCli(['init', '--root', root]);
    expect(result.code, result.stderr).to.equal(0);
    const config = JSON.parse(fs.readFileSync(path.join(root, 'mcp-gates.json'), 'utf8'));
    expect(config.gates.lint).to.include({ parser: 'generic', paths: 'none' });
    expect(config.gates.lint.command).to.deep.equal(['make', 'lint']);
  });
});

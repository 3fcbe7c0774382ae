// CI workflows as a gate source (issue 31, item 1): the checks .github/workflows/*.yml and
// .gitlab-ci.yml run, from `run:` steps (read as scripts are) and known check actions with
// their inputs; a check another source serves is one gate; installs, tests, builds and
// publishing are never served. test/fixtures/workflows/ holds real repositories' workflow
// files (each names its repository and commit), copied unchanged.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { detectGates } from '../dist/gates/index.js';
import {
  cleanupTemporary,
  gitRepo,
  hasCommand,
  makeRepo,
  runCli,
  treeSnapshot,
} from './fixtures/gates-support.mjs';

const FIXTURES = path.resolve('test/fixtures/workflows');

/** A repository holding `name`'s recorded workflow files and `files`. */
function repoWith(name, files = {}, make = makeRepo) {
  const workflows = {};
  for (const file of fs.readdirSync(path.join(FIXTURES, name)))
    workflows[`.github/workflows/${file}`] = fs.readFileSync(
      path.join(FIXTURES, name, file),
      'utf8',
    );
  return make({ ...workflows, ...files });
}

const notServedOf = (detection) =>
  detection.notServed.map((item) => `${item.source}: ${item.name}: ${item.why}`);

describe('CI workflows as a gate source', function () {
  this.timeout(30000);
  afterEach(cleanupTemporary);

  it('serves shellcheck from ludeeus/action-shellcheck in a shell project with no config (AMTM-OSR/FlexQoS)', function () {
    const root = repoWith('flexqos', {
      'FlexQoS.sh': '#!/bin/sh\necho "$1"\n',
    });
    const { gates, notServed } = detectGates(root);
    expect(gates.map((gate) => [gate.name, gate.command.join(' '), gate.source])).to.deep.equal([
      ['shellcheck', 'shellcheck --format json1', '.github/workflows/shellcheck.yml'],
    ]);
    expect(gates[0].description).to.include('the workflow step "Run ShellCheck" (job shellcheck');
    expect(notServed).to.deep.equal([]);
  });

  it('finds a violation of the workflow shellcheck gate at its file:line, and changes nothing', function () {
    if (!hasCommand('shellcheck')) this.skip();
    const root = repoWith('flexqos', { 'FlexQoS.sh': '#!/bin/sh\necho "$1"\nls `pwd`\n' }, gitRepo);
    const before = treeSnapshot(root);
    const result = runCli(['run', 'shellcheck', '--json'], { cwd: root });
    const report = JSON.parse(result.stdout);
    expect(report.status, result.stdout).to.equal('failed');
    // SC2046 (quote the substitution) and SC2006 (legacy backticks), both on line 3.
    const lines = report.findings.map(
      (finding) => `${finding.file}:${finding.line}:${finding.rule}`,
    );
    expect(lines).to.include.members(['FlexQoS.sh:3:SC2046', 'FlexQoS.sh:3:SC2006']);
    expect(treeSnapshot(root)).to.deep.equal(before);
  });

  it('folds the codespell action into the .codespellrc gate: one check, one gate (Antynea/grub-btrfs)', function () {
    const root = repoWith('grub-btrfs', {
      '.codespellrc':
        '[codespell]\nskip = .git,*.pdf,*.svg,go.sum,.codespellrc\ncheck-hidden = true\nignore-words-list = ist\n',
      'grub-btrfsd': '#!/bin/bash\necho hi\n',
    });
    const detection = detectGates(root);
    expect(detection.gates.map((gate) => [gate.name, gate.source])).to.deep.equal([
      ['codespell', '.codespellrc'],
    ]);
    expect(notServedOf(detection)).to.deep.equal([
      '.github/workflows/codespell.yml: job codespell, step "Codespell": it runs `codespell`, a check already run by gate `codespell`',
    ]);
  });

  it('serves a codespell action with other options beside the config gate, under its own name', function () {
    const root = makeRepo({
      '.codespellrc': '[codespell]\nskip = .git\n',
      'docs/index.md': 'text\n',
      '.github/workflows/spell.yml': `on: push
jobs:
  spelling:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: codespell-project/actions-codespell@v2
        with:
          path: docs
          check_filenames: true
          ignore_words_list: ist,fo
`,
    });
    const { gates } = detectGates(root);
    expect(gates.map((gate) => [gate.name, gate.command.join(' ')])).to.deep.equal([
      ['codespell', 'codespell'],
      ['ci.codespell', 'codespell --ignore-words-list=ist,fo --check-filenames docs'],
    ]);
    expect(gates[1].description).to.include('both are served');
  });

  it('reads pre-commit/action as the hooks of .pre-commit-config.yaml and serves no build, docs or publish step (AppDaemon/appdaemon)', function () {
    const root = repoWith('appdaemon', {
      'pyproject.toml':
        '[project]\nname = "appdaemon"\n\n[tool.codespell]\nskip = "*.css"\n\n[tool.ruff]\nline-length = 120\n',
      '.pre-commit-config.yaml': `repos:
  - repo: https://github.com/charliermarsh/ruff-pre-commit
    rev: 'v0.6.4'
    hooks:
      - id: ruff
        args: [--fix, --exit-non-zero-on-fix]
  - repo: https://github.com/codespell-project/codespell
    rev: v2.4.1
    hooks:
    - id: codespell
`,
      'appdaemon/__init__.py': 'x = 1\n',
    });
    const detection = detectGates(root);
    expect(detection.gates.map((gate) => [gate.name, gate.source])).to.deep.equal([
      ['ruff', '.pre-commit-config.yaml'],
      ['codespell', '.pre-commit-config.yaml'],
      ['ruff_format', 'pyproject.toml'],
    ]);
    expect(notServedOf(detection)).to.deep.equal([
      '.github/workflows/codespell.yml: job codespell, step "Codespell": it runs `codespell`, a check already run by gate `codespell`',
      '.github/workflows/python-tests.yml: job lint, step "Run pre-commit": it runs pre-commit: each hook of .pre-commit-config.yaml whose tool is known is served from there (list names the others and why)',
    ]);
  });

  it('serves the check steps of a matrix job once, replaces a marker the step narrows, and lists what it cannot read (simonw/llm)', function () {
    const root = repoWith('llm', {
      'ruff.toml': 'line-length = 88\n',
      'mypy.ini': '[mypy]\n',
      'pyproject.toml': '[project]\nname = "llm"\n',
      'llm/__init__.py': 'x = 1\n',
      'docs/index.md': 'x\n',
    });
    const detection = detectGates(root);
    expect(
      detection.gates.map((gate) => [gate.name, gate.command.join(' '), gate.source]),
    ).to.deep.equal([
      ['ruff', 'ruff check --no-fix --output-format json', 'ruff.toml'],
      ['ruff_format', 'ruff format --check', 'ruff.toml'],
      ['black', 'black --check --diff .', '.github/workflows/test.yml'],
      [
        'ci.mypy',
        'mypy --show-column-numbers --no-error-summary --no-pretty --no-color-output llm',
        '.github/workflows/test.yml',
      ],
    ]);
    expect(notServedOf(detection)).to.deep.equal([
      '.github/workflows/test.yml: job test, step "Check if cog needs to be run": `cog --check -p "import sys, os; sys._called_from_test=True; os.environ[\'LLM_USER_PATH\'] = \'/tmp\'" docs/**/*.md docs/*.md` has shell syntax a gate does not read',
      '.github/workflows/test.yml: job test, step "Run ruff": it runs `ruff check .`, a check already run by gate `ruff`',
      'mypy.ini: gate mypy: the workflow step "Run mypy" (job test, .github/workflows/test.yml) (gate `ci.mypy`) runs this check on llm, as the project runs it: the whole tree would be checked for what the project does not check',
    ]);
    // pytest, `python -m build`, pip install and the publish workflow are never gates.
    const commands = detection.gates.map((gate) => gate.command.join(' ')).join('\n');
    expect(commands).not.to.match(/pytest|build|pip|install|publish/);
  });

  it('names the environment a folded step sets, which the gate runs without (prettier/eslint-config-prettier bd6e617: ESLint under ESLINT_USE_FLAT_CONFIG=false reads .eslintrc.js)', function () {
    const root = repoWith('eslint-config-prettier', {
      'package.json': JSON.stringify({
        scripts: { 'test:eslint': 'eslint .', 'test:prettier': 'prettier --check .' },
      }),
      'eslint.config.mjs': 'export default [];\n',
      '.eslintrc.js': 'module.exports = {};\n',
      'index.js': 'module.exports = {};\n',
    });
    const why = notServedOf(detectGates(root)).filter((line) => line.includes('ESLint - '));
    expect(why).to.deep.equal([
      '.github/workflows/check.yml: job check, step "ESLint - flat": it runs `eslint .`, a check already run by gate `lint`',
      '.github/workflows/check.yml: job check, step "ESLint - eslintrc": it runs `eslint .`, a check already run by gate `lint` (which runs it without the step\'s environment: ESLINT_USE_FLAT_CONFIG=false)',
    ]);
  });

  it('list names a step whose paths this tree lacks instead of checking the whole tree (simonw/llm without llm/)', function () {
    const root = repoWith('llm', { 'ruff.toml': 'line-length = 88\n' }, gitRepo);
    const result = runCli(['list'], { cwd: root });
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.include(
      '.github/workflows/test.yml: job test, step "Run mypy" — it checks `llm`, which this tree does not have',
    );
    expect(result.stdout).to.include(
      '.github/workflows/test.yml: job test, step "Run ruff" — it runs `ruff check .`, a check already run by gate `ruff`',
    );
    expect(result.stdout).not.to.match(/^ {2}c?i?\.?mypy$/m);
  });

  it('never serves install, test, build, deploy or publish steps; a script a step runs is the script gate', function () {
    const root = makeRepo({
      'package.json': {
        name: 'app',
        scripts: { lint: 'eslint .', test: 'mocha', build: 'tsc -p .' },
        devDependencies: { eslint: '^9.0.0' },
      },
      'package-lock.json': '{}',
      'eslint.config.js': 'export default [];\n',
      '.github/workflows/release.yml': `on: push
jobs:
  release:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
      - run: npm ci
      - run: npm test
      - name: Lint
        run: npm run lint
      - run: npm run build && npx tsc -p .
      - name: Deploy
        run: npx wrangler deploy
      - name: Publish
        run: npm publish --provenance
        env:
          NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}
      - uses: JS-DevTools/npm-publish@v3
`,
    });
    const detection = detectGates(root);
    expect(detection.gates.map((gate) => [gate.name, gate.source])).to.deep.equal([
      ['lint', 'package.json'],
    ]);
    expect(notServedOf(detection)).to.deep.equal([
      '.github/workflows/release.yml: job release, step "Lint": it runs `npm run lint`, which gate `lint` (package.json) serves',
    ]);
  });

  it("a step running the repository's own lint script names the script's gate, not an unknown check", function () {
    const root = makeRepo({
      'scripts/lint.sh': '#!/bin/sh\necho ok\n',
      '.github/workflows/ci.yml': `on: push
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Lint
        run: ./scripts/lint.sh
      - name: Lint in a directory
        working-directory: scripts
        run: bash lint.sh
`,
    });
    const detection = detectGates(root);
    expect(detection.gates.map((gate) => [gate.name, gate.source])).to.deep.equal([
      ['lint', 'scripts/lint.sh'],
    ]);
    expect(notServedOf(detection)).to.deep.equal([
      '.github/workflows/ci.yml: job lint, step "Lint": it runs `./scripts/lint.sh`, which gate `lint` (scripts/lint.sh) serves',
      '.github/workflows/ci.yml: job lint, step "Lint in a directory": it runs `bash lint.sh`, which gate `lint` (scripts/lint.sh) serves',
    ]);
  });

  it('reads find -exec, xargs, env prefixes, working-directory and a literal matrix in run steps', function () {
    const root = makeRepo({
      'scripts/a.sh': '#!/bin/sh\necho "$1"\n',
      'tools/b.sh': '#!/bin/sh\necho "$1"\n',
      'api/app.py': 'x = 1\n',
      'web/app.py': 'x = 1\n',
      'svc/main.py': 'x = 1\n',
      '.github/workflows/lint.yml': `on: push
jobs:
  shell:
    runs-on: ubuntu-latest
    steps:
      - name: shellcheck scripts
        run: find scripts -name '*.sh' -exec shellcheck -S warning {} +
      - name: shellcheck everything
        run: |
          # every tracked script
          git ls-files '*.sh' | xargs -r shellcheck
  python:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        package: [api, web]
    steps:
      - run: pip install ruff
      - run: RUFF_OUTPUT_FORMAT=github ruff check \${{ matrix.package }}
      - run: ruff check --fix .
  service:
    runs-on: ubuntu-latest
    defaults:
      run:
        working-directory: svc
    steps:
      - run: ruff check .
      - run: mypy .
  docker:
    runs-on: ubuntu-latest
    steps:
      - uses: hadolint/hadolint-action@v3.1.0
        with:
          dockerfile: Dockerfile
      - name: Lint with secret
        run: ruff check \${{ inputs.path }}
`,
    });
    const detection = detectGates(root);
    const served = detection.gates.map((gate) => [
      gate.name,
      gate.command.join(' '),
      gate.fileFilter?.include?.source ?? null,
    ]);
    expect(served).to.deep.equal([
      ['shellcheck', 'shellcheck --format json1 -S warning', '^(scripts)/'],
      ['ci.shellcheck', 'shellcheck --format json1', null],
      ['ruff', 'ruff check --no-fix --output-format json api', null],
      ['ci.ruff', 'ruff check --no-fix --output-format json web', null],
      ['ci.service.ruff', 'ruff check --no-fix --output-format json svc', null],
    ]);
    expect(notServedOf(detection)).to.deep.equal([
      '.github/workflows/lint.yml: job python, step "ruff check --fix .": it runs `ruff check --fix .`, which changes files or is not ruff\'s check: a gate serves only read-only checks (ruff check --no-fix …)',
      '.github/workflows/lint.yml: job service, step "mypy .": it runs in `working-directory: svc`, where mypy reads its config from there; a gate runs from the root',
      '.github/workflows/lint.yml: job docker, step "hadolint/hadolint-action@v3.1.0": mcp-gates knows no tool that the action hadolint/hadolint-action runs',
      '.github/workflows/lint.yml: job docker, step "Lint with secret": `${{ inputs.path }}` is an expression a gate cannot evaluate (only a literal matrix value is read)',
    ]);
  });

  it('reads the ruff and golangci-lint actions with their inputs, and lists check actions it cannot serve', function () {
    const root = makeRepo({
      'go.mod': 'module example.com/x\n',
      'src/app.py': 'x = 1\n',
      '.github/workflows/ci.yml': `on: push
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: astral-sh/ruff-action@v3
      - uses: astral-sh/ruff-action@v3
        with:
          args: format --check
          src: src
      - uses: golangci/golangci-lint-action@v8
        with:
          args: --timeout=5m
      - uses: super-linter/super-linter@v7
      - uses: codespell-project/codespell-problem-matcher@v1
      - uses: ludeeus/action-shellcheck@2.0.0
        with:
          ignore_paths: vendor
`,
    });
    const detection = detectGates(root);
    const fromWorkflow = detection.gates.filter(
      (gate) => gate.source === '.github/workflows/ci.yml',
    );
    expect(fromWorkflow.map((gate) => [gate.name, gate.command.join(' ')])).to.deep.equal([
      ['ruff', 'ruff check --no-fix --output-format json'],
      ['ruff_format', 'ruff format --check src'],
      // v8 of the action installs golangci-lint v2, which refuses v1's --out-format.
      [
        'golangci-lint',
        'golangci-lint run --output.json.path stdout --show-stats=false --timeout=5m',
      ],
    ]);
    expect(notServedOf(detection)).to.deep.equal([
      '.github/workflows/ci.yml: job lint, step "super-linter/super-linter@v7": mcp-gates knows no tool that the action super-linter/super-linter runs',
      '.github/workflows/ci.yml: job lint, step "ludeeus/action-shellcheck@2.0.0": its `ignore_paths: vendor` cannot be applied: the check would fail on files the action leaves out',
    ]);
  });

  it('reads the script of each .gitlab-ci.yml job', function () {
    const root = makeRepo({
      'run.sh': '#!/bin/sh\necho "$1"\n',
      '.gitlab-ci.yml': `stages: [lint, test]
shellcheck:
  stage: lint
  image: koalaman/shellcheck-alpine:stable
  script:
    - find . -type f -name '*.sh' -print0 | xargs -0 -r shellcheck
test:
  stage: test
  script:
    - npm ci
    - npm test
`,
    });
    const detection = detectGates(root);
    expect(
      detection.gates.map((gate) => [gate.name, gate.command.join(' '), gate.source]),
    ).to.deep.equal([['shellcheck', 'shellcheck --format json1', '.gitlab-ci.yml']]);
    expect(detection.notServed).to.deep.equal([]);
  });

  it("a go vet step in a module's working-directory is that module's vet gate, not a step left out", function () {
    const root = makeRepo({
      'go.mod': 'module example.com/x\n',
      'remote/go.mod': 'module example.com/x/remote\n',
      'vendor/y/go.mod': 'module example.com/y\n',
      '.github/workflows/ci.yml': `on: push
jobs:
  vet:
    runs-on: ubuntu-latest
    steps:
      - run: go vet ./...
      - run: go vet ./...
        working-directory: remote
`,
    });
    const detection = detectGates(root);
    expect(
      detection.gates
        .filter((gate) => gate.name.startsWith('vet'))
        .map((gate) => [gate.name, gate.cwd ?? '.', gate.source]),
    ).to.deep.equal([
      ['vet', '.', 'go.mod'],
      ['vet.remote', 'remote', 'remote/go.mod'],
    ]);
    expect(notServedOf(detection)).to.deep.equal([
      '.github/workflows/ci.yml: job vet, step "go vet ./...": it runs `go vet ./...`, a check already run by gate `vet`',
      '.github/workflows/ci.yml: job vet, step "go vet ./...": it runs `go vet ./...` in remote, a check already run by gate `vet.remote`',
    ]);
  });

  it('reads a script a step runs by name, a package program run by yarn, differential-shellcheck, and golangci-lint v2 from the config (issue 31 acceptance)', function () {
    const root = makeRepo({
      'package.json': {
        name: 'x',
        scripts: { 'test:eslint': 'eslint .', format: 'prettier --write .' },
      },
      'eslint.config.js': 'export default [];\n',
      '.prettierrc': '{}\n',
      'go.mod': 'module example.com/x\n',
      '.golangci.yaml': 'version: "2"\n',
      'bin/tool': '#!/usr/bin/env bash\necho "$1"\n',
      '.github/workflows/check.yml': `on: push
jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - name: ESLint
        run: yarn test:eslint
      - name: Prettier
        run: yarn prettier --check .
      - name: Format
        run: yarn format
      - name: Differential ShellCheck
        uses: redhat-plumbers-in-action/differential-shellcheck@v5
      - name: Lint
        uses: golangci/golangci-lint-action@v8
        with:
          version: v2.4.0
  typing:
    name: Check types using supported type checkers
    runs-on: ubuntu-latest
    steps:
      - run: >
          uvx --with tox-uv
          tox run -f typing
`,
    });
    const detection = detectGates(root);
    expect(
      detection.gates
        .filter((gate) => ['shellcheck', 'golangci-lint'].includes(gate.name))
        .map((gate) => [gate.name, gate.command.join(' '), gate.source]),
    ).to.deep.equal([
      [
        'golangci-lint',
        'golangci-lint run --output.json.path stdout --show-stats=false',
        '.golangci.yaml',
      ],
      ['shellcheck', 'shellcheck --format json1', '.github/workflows/check.yml'],
    ]);
    expect(notServedOf(detection)).to.deep.equal([
      '.github/workflows/check.yml: job check, step "ESLint": it runs `eslint .`, a check already run by gate `lint`',
      '.github/workflows/check.yml: job check, step "Prettier": it runs `prettier --check .`, a check already run by gate `format`',
      '.github/workflows/check.yml: job check, step "Format": it runs `prettier --write .`, which changes files or is not prettier\'s check: a gate serves only read-only checks (prettier --check --ignore-path …)',
      '.github/workflows/check.yml: job check, step "Lint": it runs `golangci-lint run`, a check already run by gate `golangci-lint`',
      '.github/workflows/check.yml: job typing, step "uvx --with tox-uv tox run -f typing": it runs `tox run -f typing`, which no gate serves (see what list says of the tox task "typing")',
    ]);
  });

  it("serves a workflow's shellcheck over every script beside a pre-commit hook given only .bash files, and lists no tool install (Bash-it/bash-it)", function () {
    const root = makeRepo({
      'lib/a.bash': '#!/usr/bin/env bash\necho "$1"\n',
      'install.sh': '#!/bin/sh\necho "$1"\n',
      '.pre-commit-config.yaml': `repos:
  - repo: https://github.com/jumanjihouse/pre-commit-hooks
    rev: 2.1.5
    hooks:
      - id: shellcheck
        files: "\\\\.(bash)$"
`,
      '.github/workflows/ci.yml': `on: push
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - name: Install shfmt
        run: go install mvdan.cc/sh/v3/cmd/shfmt@latest
      - name: Differential ShellCheck
        uses: redhat-plumbers-in-action/differential-shellcheck@v5
`,
    });
    const detection = detectGates(root);
    expect(
      detection.gates.map((gate) => [gate.name, gate.source, gate.fileFilter?.what ?? null]),
    ).to.deep.equal([
      ['shellcheck', '.pre-commit-config.yaml', "the pre-commit hook's files: \\.(bash)$"],
      ['ci.shellcheck', '.github/workflows/ci.yml', null],
    ]);
    expect(notServedOf(detection)).to.deep.equal([]);
  });

  it('a step running `tox run -f typing` is served by the tox envs of that factor (hynek/structlog)', function () {
    const root = makeRepo({
      'src/app.py': 'x = 1\n',
      'tox.ini': `[tox]
env_list = typing-{mypy,pyright}

[testenv:typing-{mypy,pyright}]
commands =
    mypy: mypy src
    pyright: pyright src
`,
      '.github/workflows/ci.yml': `on: push
jobs:
  typing:
    name: Check types using supported type checkers
    runs-on: ubuntu-latest
    steps:
      - run: uvx --with tox-uv tox run -f typing
`,
    });
    const detection = detectGates(root);
    const typing = detection.gates.filter((gate) => gate.name.startsWith('typing-'));
    expect(typing.map((gate) => gate.name).sort()).to.deep.equal(['typing-mypy', 'typing-pyright']);
    expect(notServedOf(detection).filter((entry) => entry.includes('workflows'))).to.deep.equal([
      `.github/workflows/ci.yml: job typing, step "uvx --with tox-uv tox run -f typing": it runs \`tox run -f typing\`, the tox envs with factor "typing": ${typing.map((gate) => `\`${gate.name}\``).join(', ')} (tox.ini) serve those whose commands mcp-gates reads (list names the others)`,
    ]);
  });

  it('lists a workflow past the source limits as not served and still serves the rest', function () {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let level = 1; level < 10; level += 1)
      bomb.push(
        `${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + level)}`)
          .join(',')}]`,
      );
    const root = makeRepo({
      'ruff.toml': '',
      '.github/workflows/bomb.yml': `${bomb.join('\n')}\n`,
    });
    const detection = detectGates(root);
    expect(detection.gates.map((gate) => gate.name)).to.include('ruff');
    expect(detection.notServed.map((item) => [item.source, item.name])).to.deep.equal([
      ['.github/workflows/bomb.yml', '(all jobs)'],
    ]);
  });
});

// flake8, pylint, yamllint and shfmt (issue 31 item 2): their parsers on every recorded
// version (test/fixtures/outputs/<tool>/<version>/, real runs: see record-other-tools.mjs),
// detection from their configs, pre-commit hooks and recipes, and real runs through the
// CLI where the tool is installed (Debian: apt-get install flake8 pylint yamllint shfmt;
// each skip says which is missing).
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { detectGates } from '../dist/gates/index.js';
import {
  cleanupTemporary,
  committedCopy,
  envWithTools,
  gitRepo,
  git,
  hasCommand,
  loadOutput,
  makeRepo,
  makeTempDir,
  recordedCaseNames,
  recordedVersions,
  REPOS,
  runJson,
  treeSnapshot,
  briefFindings as brief,
  parseRecorded as parse,
} from './fixtures/gates-support.mjs';

const ROOT = '/work/example';

const FLAKE8_DIRTY = [
  'src/pkg/app.py:2:1 error F401',
  'src/pkg/app.py:7:23 error F821',
  'src/pkg/app.py:12:11 error E225',
];
const PYLINT_DIRTY = [
  'src/pkg/app.py:7:23 error undefined-variable (E0602)',
  'src/pkg/app.py:5:11 warning unused-argument (W0613)',
  'src/pkg/app.py:2:1 warning unused-import (W0611)',
];
const YAMLLINT_DIRTY = [
  'config/app.yaml:2:1 error key-duplicates',
  'config/app.yaml:3:10 warning truthy',
  'config/app.yaml:6:6 error hyphens',
];

/** What each recorded case must give, whatever the version. */
const EXPECTED = {
  flake8: {
    dirty: { parser: 'flake8', findings: FLAKE8_DIRTY, passed: false },
    clean: { parser: 'flake8', findings: [], passed: true },
    excluded: { parser: 'flake8', findings: [], passed: false, nothing: /processed no file/ },
  },
  pylint: {
    dirty: { parser: 'pylint-json', findings: PYLINT_DIRTY, passed: false },
    'dirty-json2': { parser: 'pylint-json', findings: PYLINT_DIRTY, passed: false },
    'dirty-text': { parser: 'pylint', findings: PYLINT_DIRTY, passed: false },
    clean: { parser: 'pylint-json', findings: [], passed: true },
    missing: {
      parser: 'pylint-json',
      findings: ['missing.py:1:1 error fatal (F0001)'],
      passed: false,
    },
    // pylint 3.3's json2 counts 3 modules for a directory its config ignores, so this
    // cannot be told from a clean run: the gate gives it the top-level entries git lists.
    'ignored-json2': { parser: 'pylint-json', findings: [], passed: true },
  },
  yamllint: {
    dirty: { parser: 'yamllint', findings: YAMLLINT_DIRTY, passed: false },
    'dirty-standard': { parser: 'yamllint', findings: YAMLLINT_DIRTY, passed: false },
    'dirty-github': { parser: 'yamllint', findings: YAMLLINT_DIRTY, passed: false },
    clean: { parser: 'yamllint', findings: [], passed: true },
  },
  shfmt: {
    dirty: { parser: 'shfmt', findings: ['scripts/build.sh:3:null error shfmt'], passed: false },
    // shfmt -l exits 0 having listed a file: the listed file fails the gate.
    list: { parser: 'shfmt', findings: ['scripts/build.sh:null:null error shfmt'], passed: false },
    'syntax-error': {
      parser: 'shfmt',
      findings: ['scripts/broken.sh:2:1 error shfmt'],
      passed: false,
    },
    clean: { parser: 'shfmt', findings: [], passed: true },
  },
  // Not installable here: their own goldens (see each .json).
  actionlint: {
    'json-golden': {
      parser: 'actionlint-json',
      findings: [
        'testdata/format/test.yaml:3:5 error syntax-check',
        'testdata/format/test.yaml:9:23 error expression',
        'testdata/format/test.yaml:10:9 error syntax-check',
      ],
      passed: false,
    },
    'text-readme': {
      parser: 'actionlint',
      findings: [
        'test.yaml:3:5 error syntax-check',
        'test.yaml:5:11 error glob',
        'test.yaml:10:28 error runner-label',
        'test.yaml:13:41 error expression',
        'test.yaml:17:11 error action',
        'test.yaml:21:20 error expression',
        'test.yaml:22:17 error expression',
      ],
      passed: false,
    },
  },
  'editorconfig-checker': {
    // Line 0 is a file-level error: no line.
    'gcc-golden': {
      parser: 'editorconfig-checker',
      findings: [
        'proc/cpuinfo:1:null error editorconfig',
        'proc/cpuinfoNOT:1:null error editorconfig',
        'some/other/path:1:null error editorconfig',
        'some/other/path:null:null error editorconfig',
        ...[1, 2, 4, 5, 6].map(
          (line) => `some/file/with/consecutive/errors:${line}:null error editorconfig`,
        ),
        'some/file/with/consecutive/errors:null:null error editorconfig',
      ],
      passed: false,
    },
    'default-golden': {
      parser: 'editorconfig-checker',
      findings: [
        'proc/cpuinfo:1:null error editorconfig',
        'proc/cpuinfoNOT:1:null error editorconfig',
        'some/other/path:null:null error editorconfig',
        'some/other/path:1:null error editorconfig',
        'some/file/with/consecutive/errors:null:null error editorconfig',
        ...[1, 4, 5, 6].map(
          (line) => `some/file/with/consecutive/errors:${line}:null error editorconfig`,
        ),
      ],
      passed: false,
    },
  },
  hadolint: {
    'tty-golden': {
      parser: 'hadolint',
      findings: ['<string>:1:null info DL2001', '<string>:3:null warning DL2002'],
      passed: false,
    },
    'parse-error-golden': {
      parser: 'hadolint',
      findings: ['<string>:1:1 error hadolint'],
      passed: false,
    },
  },
};

describe('flake8, pylint, yamllint, shfmt, actionlint, hadolint: recorded outputs', () => {
  for (const tool of Object.keys(EXPECTED)) {
    describe(tool, () => {
      it('has at least two recorded versions', () => {
        expect(recordedVersions(tool).length).to.be.above(1);
      });
      for (const version of recordedVersions(tool))
        for (const name of recordedCaseNames(tool, version))
          it(`${version}/${name}: exact findings and verdict`, () => {
            const expected = EXPECTED[tool][name];
            expect(expected, `an expectation for ${tool}/${version}/${name}`).to.not.equal(
              undefined,
            );
            const parsed = parse(expected.parser, loadOutput(`${tool}/${version}/${name}`, ROOT));
            expect(brief(parsed.findings)).to.deep.equal(expected.findings);
            expect(parsed.passed).to.equal(expected.passed);
            if (expected.nothing) expect(parsed.nothingChecked).to.match(expected.nothing);
            else expect(parsed.nothingChecked).to.equal(undefined);
            expect(parsed.unparsed ?? false).to.equal(false);
          });
    });
  }

  it('the messages say what is wrong, in every recorded version', () => {
    for (const [tool, kase, parser, message] of [
      ['flake8', 'dirty', 'flake8', /^'os' imported but unused$/],
      ['pylint', 'dirty', 'pylint-json', /^Undefined variable 'nam'$/],
      ['yamllint', 'dirty', 'yamllint', /^duplication of key "name" in mapping$/],
      ['shfmt', 'dirty', 'shfmt', /^not formatted \(shfmt fixes it\)$/],
    ])
      for (const version of recordedVersions(tool)) {
        const parsed = parse(parser, loadOutput(`${tool}/${version}/${kase}`, ROOT));
        expect(parsed.findings[0].message, `${tool} ${version}`).to.match(message);
      }
  });

  it('actionlint JSON with no error (`null`, or nothing) passes only at exit 0', () => {
    const output = (stdout, exitCode) => ({
      stdout,
      stderr: '',
      exitCode,
      truncated: false,
      root: ROOT,
    });
    expect(parse('actionlint-json', output('null\n', 0)).passed).to.equal(true);
    expect(parse('actionlint-json', output('', 0)).passed).to.equal(true);
    expect(parse('actionlint-json', output('', 3)).passed).to.equal(false);
  });

  it('pylint json2 that linted no module is nothing checked', () => {
    const json2 = JSON.stringify({ messages: [], statistics: { modulesLinted: 0, score: 0 } });
    const parsed = parse('pylint-json', {
      stdout: json2,
      stderr: '',
      exitCode: 0,
      truncated: false,
      root: ROOT,
    });
    expect(parsed.passed).to.equal(false);
    expect(parsed.nothingChecked).to.match(/linted no module/);
  });
});

describe('flake8, pylint, yamllint, shfmt: detection', () => {
  afterEach(cleanupTemporary);
  const gatesOf = (files) =>
    Object.fromEntries(detectGates(makeRepo(files)).gates.map((gate) => [gate.name, gate]));

  it('flake8 from .flake8, setup.cfg, tox.ini or a dependency; files listed when it runs', () => {
    for (const [file, text] of [
      ['.flake8', '[flake8]\nmax-line-length = 100\n'],
      ['setup.cfg', '[metadata]\nname = x\n\n[flake8]\nignore = E203\n'],
      ['tox.ini', '[tox]\nenvlist = py\n\n[flake8]\nexclude = build\n'],
      ['pyproject.toml', '[dependency-groups]\nlint = ["flake8>=7"]\n'],
    ]) {
      const gate = gatesOf({ [file]: text }).flake8;
      expect(gate, file).to.include({ source: file, parser: 'flake8', paths: 'append', fix: null });
      expect(gate.command).to.deep.equal(['flake8', '--benchmark']);
    }
    expect(gatesOf({ 'setup.cfg': '[isort]\n' }).flake8).to.equal(undefined);
  });

  it('pylint from .pylintrc, [tool.pylint.*] or a dependency: JSON, no score history', () => {
    for (const [file, text] of [
      ['.pylintrc', '[MAIN]\nignore=build\n'],
      ['pyproject.toml', '[tool.pylint.messages_control]\ndisable = ["C0114"]\n'],
      ['setup.cfg', '[pylint.MAIN]\njobs = 2\n'],
    ]) {
      const gate = gatesOf({ [file]: text }).pylint;
      expect(gate, file).to.include({ source: file, parser: 'pylint-json' });
      expect(gate.command).to.deep.equal([
        'pylint',
        '--recursive=y',
        '--persistent=n',
        '--output-format=json',
      ]);
    }
  });

  it('yamllint from its config files; shfmt from shfmt keys in .editorconfig', () => {
    for (const file of ['.yamllint', '.yamllint.yaml', '.yamllint.yml']) {
      const gate = gatesOf({ [file]: 'extends: default\n' }).yamllint;
      expect(gate, file).to.include({ source: file, parser: 'yamllint' });
      expect(gate.command).to.deep.equal(['yamllint', '-f', 'parsable']);
    }
    const shfmt = gatesOf({
      '.editorconfig': '[*.sh]\nindent_size = 2\nswitch_case_indent = true\n',
    }).shfmt;
    expect(shfmt).to.include({ source: '.editorconfig', parser: 'shfmt', paths: 'append' });
    expect(shfmt.command).to.deep.equal(['shfmt', '-d']);
    expect(gatesOf({ '.editorconfig': '[*]\nindent_style = space\n' }).shfmt).to.equal(undefined);
  });

  it('actionlint (whole, no paths), hadolint and editorconfig-checker from their configs', () => {
    const actionlint = gatesOf({
      '.github/actionlint.yaml': 'self-hosted-runner:\n  labels: []\n',
    }).actionlint;
    expect(actionlint).to.include({
      source: '.github/actionlint.yaml',
      parser: 'actionlint-json',
      paths: 'none',
    });
    expect(actionlint.command).to.deep.equal(['actionlint', '-format', '{{json .}}']);
    const hadolint = gatesOf({ '.hadolint.yaml': 'ignored:\n  - DL3008\n' }).hadolint;
    expect(hadolint).to.include({ source: '.hadolint.yaml', parser: 'hadolint', paths: 'append' });
    expect(hadolint.command).to.deep.equal(['hadolint', '--no-color']);
    const ec = gatesOf({ '.editorconfig-checker.json': '{}\n' })['editorconfig-checker'];
    expect(ec).to.include({ parser: 'editorconfig-checker', paths: 'append' });
    expect(ec.command).to.deep.equal(['editorconfig-checker', '-format', 'gcc', '-no-color']);
    const parserOf = (recipe) => gatesOf({ Makefile: `lint:\n\t${recipe}\n` }).lint.parser;
    expect(parserOf('editorconfig-checker')).to.equal('editorconfig-checker');
    expect(parserOf('actionlint')).to.equal('actionlint');
    expect(parserOf('hadolint Dockerfile')).to.equal('hadolint');
  });

  it('their pre-commit hooks are served as checks, a writing hook as its check', () => {
    const config = [
      'repos:',
      '  - repo: https://github.com/pycqa/flake8',
      '    rev: 7.1.1',
      '    hooks:',
      '      - id: flake8',
      '        args: [--max-line-length=100]',
      '  - repo: https://github.com/adrienverge/yamllint',
      '    rev: v1.37.1',
      '    hooks:',
      '      - id: yamllint',
      '  - repo: https://github.com/scop/pre-commit-shfmt',
      '    rev: v3.8.0-1',
      '    hooks:',
      '      - id: shfmt',
      '        args: [-i, "2", -w]',
      '  - repo: local',
      '    hooks:',
      '      - id: pylint',
      '        name: pylint',
      '        entry: pylint',
      '        language: system',
      '        types: [python]',
      '',
    ].join('\n');
    const result = detectGates(makeRepo({ '.pre-commit-config.yaml': config }));
    const gates = Object.fromEntries(result.gates.map((gate) => [gate.name, gate]));
    expect(gates.flake8.parser).to.equal('flake8');
    expect(gates.flake8.command).to.include('--max-line-length=100');
    expect(gates.yamllint.parser).to.equal('yamllint');
    expect(gates.shfmt.parser).to.equal('shfmt');
    expect(gates.shfmt.command).to.include('-d');
    expect(gates.shfmt.command).to.not.include('-w');
    expect(gates.pylint.parser).to.match(/^pylint/);
    expect(result.notServed.map((entry) => entry.name ?? entry)).to.not.include('pylint');
  });

  it('a Makefile target running them is read by their parsers (pylint with rule ids)', () => {
    const parserOf = (recipe) => gatesOf({ Makefile: `lint:\n\t${recipe}\n` }).lint;
    expect(parserOf('flake8 src').parser).to.equal('flake8');
    expect(parserOf('pylint src').parser).to.equal('pylint');
    expect(parserOf('pylint --output-format=json src').parser).to.equal('pylint-json');
    expect(parserOf('yamllint .').parser).to.equal('yamllint');
    const shfmt = parserOf('shfmt -d scripts');
    expect(shfmt.parser).to.equal('shfmt');
    expect(shfmt.description).to.include('runs only known read-only checks');
    expect(parserOf('shfmt -w scripts').description).to.include('may write');
  });
});

describe('flake8, pylint, yamllint, shfmt: real runs through the CLI', function () {
  this.timeout(120000);
  afterEach(cleanupTemporary);

  const located = (result) => result.findings.map((f) => `${f.file}:${f.line} ${f.rule}`);

  for (const { tool, dirty, clean, findings } of [
    {
      tool: 'flake8',
      dirty: 'py-lint-dirty',
      clean: 'py-lint-clean',
      findings: ['src/pkg/app.py:2 F401', 'src/pkg/app.py:7 F821', 'src/pkg/app.py:12 E225'],
    },
    {
      tool: 'pylint',
      dirty: 'py-lint-dirty',
      clean: 'py-lint-clean',
      findings: [
        'src/pkg/app.py:7 undefined-variable (E0602)',
        'src/pkg/app.py:2 unused-import (W0611)',
        'src/pkg/app.py:5 unused-argument (W0613)',
      ],
    },
    {
      tool: 'yamllint',
      dirty: 'yaml-dirty',
      clean: 'yaml-clean',
      findings: [
        'config/app.yaml:2 key-duplicates',
        'config/app.yaml:6 hyphens',
        'config/app.yaml:3 truthy',
      ],
    },
    {
      tool: 'shfmt',
      dirty: 'shfmt-dirty',
      clean: 'shfmt-clean',
      findings: ['scripts/broken.sh:2 shfmt', 'scripts/build.sh:3 shfmt'],
    },
  ])
    it(`${tool}: served, finds the violations at their lines, passes clean, writes nothing`, function () {
      if (!hasCommand(tool)) this.skip(); // reason: not installed (Debian: apt-get install flake8 pylint yamllint shfmt)
      const root = committedCopy(dirty);
      const before = treeSnapshot(root);
      const failed = runJson(root, tool);
      expect(failed.status, JSON.stringify(failed)).to.equal('failed');
      expect(located(failed)).to.have.members(findings);
      expect(treeSnapshot(root)).to.deep.equal(before);
      const cleanRoot = committedCopy(clean);
      const cleanBefore = treeSnapshot(cleanRoot);
      const passed = runJson(cleanRoot, tool);
      expect(passed.status, JSON.stringify(passed)).to.equal('passed');
      expect(treeSnapshot(cleanRoot)).to.deep.equal(cleanBefore);
    });

  it('shfmt_fix formats the scripts git lists (never bare shfmt -w, which reads stdin)', function () {
    if (!hasCommand('shfmt')) this.skip(); // reason: shfmt is not installed (apt-get install shfmt)
    const root = committedCopy('shfmt-dirty');
    fs.rmSync(path.join(root, 'scripts/broken.sh'));
    const fixed = runJson(root, 'shfmt_fix');
    expect(fixed.command).to.deep.equal(['shfmt', '-w', 'scripts/build.sh']);
    expect(fixed.status, JSON.stringify(fixed)).to.equal('passed');
    expect(fs.readFileSync(path.join(root, 'scripts/build.sh'), 'utf8')).to.equal(
      fs.readFileSync(path.join(REPOS, 'shfmt-clean', 'scripts/build.sh'), 'utf8'),
    );
    expect(runJson(root, 'shfmt').status).to.equal('passed');
  });

  it('flake8 and pylint never read a git-ignored directory (a local .venv)', function () {
    if (!hasCommand('flake8') || !hasCommand('pylint')) this.skip(); // reason: flake8 or pylint is not installed
    const root = committedCopy('py-lint-clean');
    makeIgnoredVenv(root);
    expect(runJson(root, 'flake8').status).to.equal('passed');
    expect(runJson(root, 'pylint').status).to.equal('passed');
  });
});

/** A git-ignored .venv holding a file every Python linter flags. */
function makeIgnoredVenv(root) {
  fs.writeFileSync(path.join(root, '.gitignore'), '.venv/\n');
  git(root, 'add', '.gitignore');
  git(root, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'ignore');
  fs.mkdirSync(path.join(root, '.venv', 'lib'), { recursive: true });
  fs.writeFileSync(path.join(root, '.venv', 'lib', 'x.py'), 'import os\nundefined_name\n');
}

describe('hadolint: the Dockerfiles git lists are its files (a stand-in hadolint)', function () {
  this.timeout(60000);
  afterEach(cleanupTemporary);

  it('gets Dockerfile, Dockerfile.*, Containerfile and *.dockerfile, nothing else; none is nothing-checked', function () {
    // reason: the stand-in is a POSIX shell script.
    if (process.platform === 'win32') this.skip();
    // hadolint cannot be installed here: a stand-in prints its tty line for each file it
    // is given, so the gate's findings are the files it was given.
    const bin = makeTempDir('mcp-gates-fake-hadolint-');
    fs.writeFileSync(
      path.join(bin, 'hadolint'),
      '#!/bin/sh\nfor f in "$@"; do case "$f" in -*) ;; *) echo "$f:1 DL3006 warning: Always tag the version of an image explicitly";; esac; done\nexit 1\n',
      { mode: 0o755 },
    );
    const env = envWithTools({ PATH: `${bin}${path.delimiter}${process.env.PATH}` });
    const root = gitRepo({
      '.hadolint.yaml': 'ignored: []\n',
      Dockerfile: 'FROM debian\n',
      'docker/Dockerfile.dev': 'FROM debian\n',
      'docker/app.dockerfile': 'FROM debian\n',
      'svc/Containerfile': 'FROM debian\n',
      'README.md': 'Dockerfile notes\n',
      'docker/build.sh': 'echo\n',
    });
    const result = runJson(root, 'hadolint', [], env);
    expect(result.status).to.equal('failed');
    expect(result.findings.map((f) => `${f.file}:${f.line} ${f.rule}`).sort()).to.deep.equal([
      'Dockerfile:1 DL3006',
      'docker/Dockerfile.dev:1 DL3006',
      'docker/app.dockerfile:1 DL3006',
      'svc/Containerfile:1 DL3006',
    ]);
    const none = gitRepo({ '.hadolint.yaml': 'ignored: []\n', 'README.md': 'x\n' });
    expect(runJson(none, 'hadolint', [], env).status).to.equal('nothing-checked');
  });
});

describe("a repository's own lint script as a gate", function () {
  this.timeout(60000);
  afterEach(cleanupTemporary);

  const LINT_SH =
    '#!/bin/sh\n# Checks what the linters do not.\ngrep -n "TODO" src/*.py | sed "s/^\\([^:]*\\):\\([0-9]*\\):.*/\\1:\\2: no TODO in committed code/"\n! grep -q "TODO" src/*.py\n';

  it('is served, read by the generic parser: its file:line lines are findings, the tree stays', function () {
    // reason: the script is a POSIX shell script.
    if (process.platform === 'win32') this.skip();
    const root = gitRepo({
      'scripts/lint.sh': LINT_SH,
      'src/a.py': 'x = 1\n# TODO: remove\ny = 2\n',
      'src/b.py': 'z = 3\n',
    });
    fs.chmodSync(path.join(root, 'scripts/lint.sh'), 0o755);
    const { gates } = detectGates(root);
    const lint = gates.find((gate) => gate.name === 'lint');
    expect(lint).to.include({ parser: 'generic', paths: 'none', source: 'scripts/lint.sh' });
    expect(lint.command).to.deep.equal(['./scripts/lint.sh']);
    expect(lint.description).to.include('own lint script');
    const before = treeSnapshot(root);
    const failed = runJson(root, 'lint');
    expect(failed.status).to.equal('failed');
    expect(failed.findings.map((f) => `${f.file}:${f.line} ${f.message}`)).to.deep.equal([
      'src/a.py:2 no TODO in committed code',
    ]);
    expect(treeSnapshot(root)).to.deep.equal(before);
    fs.writeFileSync(path.join(root, 'src/a.py'), 'x = 1\n');
    expect(runJson(root, 'lint').status).to.equal('passed');
  });

  it('a local pre-commit hook running a script of the repository is a gate given what pre-commit gives it', function () {
    // reason: the scripts are POSIX shell scripts.
    if (process.platform === 'win32') this.skip();
    const todo =
      '#!/bin/sh\nfound=0\nfor f in "$@"; do grep -n TODO "$f" | sed "s|^\\([0-9]*\\):.*|$f:\\1: no TODO|" && found=1; done\nexit $found\n';
    const root = gitRepo({
      '.pre-commit-config.yaml': [
        'repos:',
        '  - repo: local',
        '    hooks:',
        '      - id: no-todo',
        '        name: no TODO',
        '        entry: ./hooks/no-todo.sh',
        '        language: script',
        '        files: ^src/',
        '      - id: headers',
        '        name: headers',
        '        entry: bash hooks/headers.sh',
        '        language: system',
        '        pass_filenames: false',
        '      - id: typed',
        '        name: typed',
        '        entry: hooks/no-todo.sh',
        '        language: script',
        '        types: [python]',
        '',
      ].join('\n'),
      'hooks/no-todo.sh': todo,
      'hooks/headers.sh': 'echo "src/a.py:1: missing header"\nexit 1\n',
      'src/a.py': 'x = 1\n# TODO\n',
      'docs/b.md': 'TODO\n',
    });
    fs.chmodSync(path.join(root, 'hooks/no-todo.sh'), 0o755);
    const { gates, notServed } = detectGates(root);
    const byName = Object.fromEntries(gates.map((gate) => [gate.name, gate]));
    expect(byName['no-todo']).to.include({ parser: 'generic', paths: 'append' });
    expect(byName['no-todo'].fileFilter.include).to.deep.equal({ source: '^src/', flags: '' });
    expect(byName.headers).to.include({ parser: 'generic', paths: 'none' });
    expect(byName.headers.command).to.deep.equal(['bash', 'hooks/headers.sh']);
    expect(notServed.find((entry) => entry.name === 'hook typed').why).to.match(
      /given the files of its types: \[python\]/,
    );
    const todoRun = runJson(root, 'no-todo');
    expect(todoRun.status).to.equal('failed');
    expect(todoRun.findings.map((f) => `${f.file}:${f.line}`)).to.deep.equal(['src/a.py:2']);
    expect(runJson(root, 'headers').findings.map((f) => `${f.file}:${f.line}`)).to.deep.equal([
      'src/a.py:1',
    ]);
  });

  it('a script another source runs is served from there; one that is no lint script is not served', () => {
    const viaMake = detectGates(
      makeRepo({ Makefile: 'lint:\n\tbash scripts/lint.sh\n', 'scripts/lint.sh': LINT_SH }),
    );
    expect(viaMake.gates.map((gate) => [gate.name, gate.command.join(' ')])).to.deep.equal([
      ['lint', 'make lint'],
    ]);
    expect(viaMake.notServed.find((entry) => entry.source === 'scripts/lint.sh').why).to.equal(
      "Makefile runs it: it is served as that source's gate, if that one is",
    );
    const named = detectGates(
      makeRepo({
        'tools/check_style.py': 'print("ok")\n',
        'scripts/test.sh': 'pytest\n',
        'scripts/deploy.sh': 'rsync\n',
        'package.json': '{ "scripts": { "lint": "eslint ." } }\n',
      }),
    );
    const own = named.gates.filter(
      (gate) => gate.source.startsWith('tools/') || gate.source.startsWith('scripts/'),
    );
    expect(own.map((gate) => [gate.name, gate.command.join(' ')])).to.deep.equal([
      ['check_style', 'python3 tools/check_style.py'],
    ]);
  });
});

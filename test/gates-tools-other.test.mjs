// black, isort, codespell, shellcheck, golangci-lint and the SARIF reader: their parsers on
// every recorded version (test/fixtures/outputs/<tool>/<version>/), detection, and real
// runs through the CLI where the tool is installed (Debian: apt-get install black isort
// codespell shellcheck; each skip says which is missing). golangci-lint cannot be installed
// here: its recordings are golangci-lint's own printer goldens (see their .json).
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { detectGates } from '../dist/gates/index.js';
import { resolveCommand } from '../dist/gates/run/resolve-command.js';
import { TOOLS } from '../dist/gates/tools/index.js';
import {
  cleanupTemporary,
  committedCopy,
  copyRepo,
  envWithTools,
  git,
  hasCommand,
  loadOutput,
  makeRepo,
  makeTempDir,
  recordedCaseNames,
  recordedVersions,
  runCli,
  runJson,
  treeSnapshot,
  briefFindings as brief,
  parseRecorded as parse,
} from './fixtures/gates-support.mjs';

const ROOT = '/work/example';

/** A tool's output as a parser gets it. */
const outputOf = (stdout, exitCode, stderr = '') => ({
  stdout,
  stderr,
  exitCode,
  truncated: false,
  root: ROOT,
});

// In shellcheck's order: the files as it sorts them, not as given.
const SHELLCHECK_DIRTY = [
  'scripts/deploy.sh:4:13 info SC2086',
  'bin/run:3:10 error SC2045',
  'bin/run:3:10 info SC2006',
];
const GOLANGCI_GOLDEN = [
  'pkg/experimental/myplugin/myplugin.go:13:1 error gochecknoinits',
  'pkg/lint/lintersdb/builder_plugin.go:59:69 error gocritic',
  'pkg/printers/printer_test.go:6:null error goimports',
  'pkg/config/issues.go:107:13 error maligned',
  ...[
    '200:22',
    '383:25',
    '470:22',
    '482:23',
    '584:27',
    '591:20',
    '710:25',
    '762:21',
    '787:23',
    '817:23',
    '902:25',
    '928:18',
  ].map((at) => `pkg/config/linters_settings.go:${at} error maligned`),
  'pkg/config/run.go:6:10 error maligned',
  'pkg/lint/linter/config.go:36:13 error maligned',
  'pkg/golinters/govet_test.go:70:23 error maligned',
  'pkg/result/processors/diff.go:17:11 error maligned',
  'pkg/experimental/myplugin/myplugin.go:49:14 warning revive',
  'pkg/commands/run.go:47:7 error unused',
];

/**
 * What each recorded case must give, whatever the version: its parser, the exact findings,
 * whether it passes, and (for a case that checked nothing) that it says so.
 */
const EXPECTED = {
  black: {
    dirty: { parser: 'black', findings: ['src/app.py:10:null error black'], passed: false },
    clean: { parser: 'black', findings: [], passed: true },
    'syntax-error': { parser: 'black', findings: ['bad.py:1:12 error black'], passed: false },
    nothing: { parser: 'black', findings: [], passed: false, nothing: /no Python file/ },
  },
  isort: {
    dirty: { parser: 'isort', findings: ['src/app.py:1:null error isort'], passed: false },
    clean: { parser: 'isort', findings: [], passed: true },
    skipped: {
      parser: 'isort',
      paths: ['gen.py'],
      findings: [],
      passed: false,
      nothing: /isort skipped all 1 given file/,
    },
  },
  codespell: {
    dirty: { parser: 'codespell', findings: ['src/app.py:6:null error codespell'], passed: false },
    clean: { parser: 'codespell', findings: [], passed: true },
  },
  shellcheck: {
    dirty: { parser: 'shellcheck-json', findings: SHELLCHECK_DIRTY, passed: false },
    json: { parser: 'shellcheck-json', findings: SHELLCHECK_DIRTY, passed: false },
    clean: { parser: 'shellcheck-json', findings: [], passed: true },
    unreadable: {
      parser: 'shellcheck-json',
      findings: ['missing.sh:null:null error shellcheck'],
      passed: false,
    },
  },
  'golangci-lint': {
    'printer-golden': { parser: 'golangci-json', findings: GOLANGCI_GOLDEN, passed: false },
  },
  // SARIF from four real printers.
  ruff: {
    'check-sarif': {
      parser: 'sarif',
      findings: [
        'app/main.py:1:8 error F401',
        'app/main.py:5:5 error F841',
        'pkg/mod.py:6:5 error F821',
        'pkg/mod.py:7:1 error F821',
      ],
      passed: false,
    },
  },
  oxlint: {
    sarif: {
      parser: 'sarif',
      findings: [
        'src/unused.js:2:9 warning eslint(no-unused-vars)',
        'src/unused.js:6:20 error eslint(eqeqeq)',
      ],
      passed: false,
    },
  },
  biome: {
    'lint-sarif': {
      parser: 'sarif',
      findings: [
        'src/app.js:2:9 error lint/suspicious/noDoubleEquals',
        'src/app.js:2:17 error lint/suspicious/noDebugger',
      ],
      passed: false,
    },
  },
  eslint: {
    sarif: {
      parser: 'sarif',
      findings: [
        'src/unused.js:2:9 error no-unused-vars',
        'src/unused.js:3:3 warning no-console',
        'src/unused.js:6:20 error eqeqeq',
      ],
      passed: false,
    },
  },
};

/** Tools whose every recorded case is this branch's; other tools' directories hold SARIF cases among others. */
const OWN_TOOLS = new Set(['black', 'isort', 'codespell', 'shellcheck', 'golangci-lint']);

/** The recorded cases to check: every case of our tools (each must have an expectation), the SARIF cases of others. */
function recordedCases(tool) {
  return recordedVersions(tool).flatMap((version) =>
    recordedCaseNames(tool, version)
      .filter((name) => OWN_TOOLS.has(tool) || /sarif/.test(name))
      .map((name) => ({ version, name })),
  );
}

describe('black, isort, codespell, shellcheck, golangci-lint and SARIF: recorded outputs', () => {
  for (const tool of Object.keys(EXPECTED)) {
    describe(tool, () => {
      it('has at least one recorded version', () => {
        expect(
          recordedCases(tool).length,
          `recordings under test/fixtures/outputs/${tool}`,
        ).to.be.above(0);
      });
      for (const { version, name } of recordedCases(tool)) {
        it(`${version}/${name}: exact findings`, () => {
          const expected = EXPECTED[tool][name];
          expect(expected, `an expectation for ${tool}/${version}/${name}`).to.not.equal(undefined);
          const output = loadOutput(`${tool}/${version}/${name}`, ROOT);
          const parsed = parse(expected.parser, { ...output, paths: expected.paths ?? [] });
          expect(brief(parsed.findings)).to.deep.equal(expected.findings);
          expect(parsed.passed).to.equal(expected.passed);
          if (expected.nothing) expect(parsed.nothingChecked).to.match(expected.nothing);
          else expect(parsed.nothingChecked).to.equal(undefined);
          expect(parsed.unparsed ?? false).to.equal(false);
        });
      }
    });
  }

  for (const [tool, kase, parser, message] of [
    ['black', 'dirty', 'black', /^not formatted \(black fixes it\)$/],
    ['black', 'syntax-error', 'black', /^Cannot parse.*: 1:11: def broken\(:/],
    ['isort', 'dirty', 'isort', /^imports not sorted \(isort fixes it\)$/],
    ['codespell', 'dirty', 'codespell', /^teh ==> the$/],
  ])
    it(`${tool} ${kase}: the message says what is wrong, in every recorded version`, () => {
      for (const version of recordedVersions(tool)) {
        const parsed = parse(parser, loadOutput(`${tool}/${version}/${kase}`, ROOT));
        expect(parsed.findings[0].message, version).to.match(message);
      }
    });

  it('black and isort without --diff: the file from `would reformat` / ERROR lines, no line', () => {
    const [black] = recordedVersions('black');
    const [isort] = recordedVersions('isort');
    const blackRun = loadOutput(`black/${black}/dirty`, ROOT);
    const isortRun = loadOutput(`isort/${isort}/dirty`, ROOT);
    expect(brief(parse('black', { ...blackRun, stdout: '' }).findings)).to.deep.equal([
      'src/app.py:null:null error black',
    ]);
    expect(brief(parse('isort', { ...isortRun, stdout: '' }).findings)).to.deep.equal([
      'src/app.py:null:null error isort',
    ]);
  });

  it('a removed line that reads like a diff header stays in its hunk', () => {
    const stdout = [
      '--- a.py\t2024-01-01',
      '+++ a.py\t2024-01-01',
      '@@ -1,3 +1,2 @@',
      ' x = 1',
      '--- y',
      '+++ z',
      '@@ -9,2 +8,2 @@',
      '-old',
      '+new',
      '',
    ].join('\n');
    const parsed = parse('black', {
      stdout,
      stderr: '',
      exitCode: 1,
      truncated: false,
      root: ROOT,
    });
    expect(brief(parsed.findings)).to.deep.equal([
      'a.py:2:null error black',
      'a.py:9:null error black',
    ]);
  });

  describe('golangci-lint JSON around the recorded document', () => {
    const [v2] = recordedVersions('golangci-lint').filter((version) => version.startsWith('2.'));
    it('v2 statistics after the JSON (without --show-stats=false) change nothing', () => {
      const run = loadOutput(`golangci-lint/${v2}/printer-golden`, ROOT);
      // The lines v2's printStats (pkg/commands/run.go) writes after the printers.
      const stats = '22 issues:\n* gochecknoinits: 1\n* gocritic: 1\n* maligned: 17\n';
      const parsed = parse('golangci-json', { ...run, stdout: `${run.stdout}${stats}` });
      expect(brief(parsed.findings)).to.deep.equal(GOLANGCI_GOLDEN);
    });
    it('exit 5 (no Go files) is nothing checked; Report.Error is a finding', () => {
      const empty = '{"Issues":[],"Report":{"Linters":[]}}\n';
      const noFiles = 'level=error msg="no go files to analyze"\n';
      const none = parse('golangci-json', outputOf(empty, 5, noFiles));
      expect(none.nothingChecked).to.match(/no Go file/);
      expect(none.passed).to.equal(false);
      const broken = '{"Issues":[],"Report":{"Error":"can\'t load config: unknown linter"}}\n';
      const failed = parse('golangci-json', outputOf(broken, 3));
      expect(failed.findings.map((f) => f.message)).to.deep.equal([
        "can't load config: unknown linter",
      ]);
      expect(failed.passed).to.equal(false);
    });
  });
});

describe('the SARIF reader on the parts of SARIF 2.1.0 the recorded printers do not use', () => {
  const output = (log, exitCode = 1) => outputOf(JSON.stringify(log), exitCode);

  /** A result at one physical location. */
  const result = (fields, artifactLocation, region) => ({
    message: { text: 'm' },
    ...fields,
    locations: [{ physicalLocation: { artifactLocation, region } }],
  });

  it('resolves uriBaseId through originalUriBaseIds, artifact indexes and %-escapes', () => {
    const log = {
      version: '2.1.0',
      runs: [
        {
          tool: {
            driver: { name: 't', rules: [{ id: 'R1', defaultConfiguration: { level: 'note' } }] },
          },
          originalUriBaseIds: {
            SRCROOT: { uri: `file://${ROOT}/` },
            LIB: { uri: 'lib/', uriBaseId: 'SRCROOT' },
          },
          artifacts: [{ location: { uri: 'src/with%20space.c', uriBaseId: 'SRCROOT' } }],
          results: [
            result(
              { ruleId: 'R1' },
              { uri: 'a.c', uriBaseId: 'SRCROOT' },
              {
                startLine: 3,
                startColumn: 2,
                endLine: 3,
                endColumn: 5,
              },
            ),
            result(
              { ruleIndex: 0, level: 'error' },
              { uri: 'b.c', uriBaseId: 'LIB' },
              { startLine: 1 },
            ),
            result({ ruleId: 'R2' }, { index: 0 }, { startLine: 7 }),
            result({ ruleId: 'R3' }, { uri: 'rel/d.c', uriBaseId: '%SRCROOT%' }, { startLine: 2 }),
          ],
        },
      ],
    };
    const parsed = parse('sarif', output(log));
    expect(brief(parsed.findings)).to.deep.equal([
      'a.c:3:2 info R1',
      'lib/b.c:1:null error R1',
      'src/with space.c:7:null warning R2',
      'rel/d.c:2:null warning R3',
    ]);
    expect(parsed.findings[0]).to.include({ endLine: 3, endColumn: 5 });
  });

  it('drops pass and notApplicable results, fills message strings, fails on error notifications', () => {
    const log = {
      version: '2.1.0',
      runs: [
        {
          tool: {
            driver: {
              name: 'scan',
              rules: [{ id: 'M', messageStrings: { default: { text: 'found {0} in {1}' } } }],
            },
          },
          results: [
            { ruleId: 'M', kind: 'pass', message: { text: 'fine' } },
            { ruleId: 'M', kind: 'notApplicable', message: { text: 'n/a' } },
            { ruleId: 'M', kind: 'review', message: { id: 'default', arguments: ['x', 'y'] } },
          ],
          invocations: [
            {
              executionSuccessful: false,
              toolExecutionNotifications: [
                { level: 'error', message: { text: 'config is invalid' } },
              ],
            },
          ],
        },
      ],
    };
    const parsed = parse('sarif', output(log, 0));
    expect(parsed.findings.map((f) => `${f.severity} ${f.rule}: ${f.message}`)).to.deep.equal([
      'info M: found x in y',
      'error scan: config is invalid',
    ]);
    expect(parsed.passed, 'exit 0 with an error notification').to.equal(false);
  });

  it('no SARIF on stdout is unparsed, never a pass', () => {
    const parsed = parse('sarif', outputOf('boom\n', 2));
    expect(parsed.unparsed).to.equal(true);
    expect(parsed.passed).to.equal(false);
  });
});

describe('a configured gate with "parser": "sarif" (real oxlint from devDependencies)', function () {
  this.timeout(60000);
  afterEach(cleanupTemporary);

  it('reads the findings of the SARIF the tool prints', () => {
    const root = copyRepo('js-dirty');
    const config = {
      gates: {
        lint_sarif: { command: ['oxlint', '--format', 'sarif'], parser: 'sarif', paths: 'append' },
      },
    };
    fs.writeFileSync(path.join(root, 'mcp-gates.json'), `${JSON.stringify(config, null, 2)}\n`);
    const result = runJson(root, 'lint_sarif');
    expect(result.status).to.equal('failed');
    expect(
      result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.severity} ${f.rule}`),
    ).to.deep.equal([
      'src/unused.js:6:20 error eslint(eqeqeq)',
      'src/unused.js:2:9 warning eslint(no-unused-vars)',
    ]);
  });
});

describe('black, isort, codespell, shellcheck, golangci-lint: detection', () => {
  afterEach(cleanupTemporary);
  const gatesOf = (files) =>
    Object.fromEntries(detectGates(makeRepo(files)).gates.map((gate) => [gate.name, gate]));

  it('black from [tool.black] or a black dependency, not from isort\'s profile = "black"', () => {
    const cases = [
      ['[tool.black]\nline-length = 100\n', true],
      ['[project.optional-dependencies]\ndev = ["pytest", "black>=23.1"]\n', true],
      ['[dependency-groups]\nlint = [\n  "black[jupyter]==24.1.0",\n]\n', true],
      ['[tool.poetry.group.dev.dependencies]\nblack = "^23.1"\n', true],
      ['[tool.isort]\nprofile = "black"\n', false],
      ['[project]\ndependencies = ["blackjack"]\n', false],
    ];
    for (const [pyproject, recognised] of cases) {
      const black = gatesOf({ 'pyproject.toml': pyproject }).black;
      expect(black !== undefined, pyproject).to.equal(recognised);
      if (recognised)
        expect(black).to.include({ parser: 'black', paths: 'append', source: 'pyproject.toml' });
    }
    expect(gatesOf({ 'pyproject.toml': '[tool.black]\n' }).black.command).to.deep.equal([
      'black',
      '--check',
      '--diff',
      '.',
    ]);
  });

  it('isort from .isort.cfg, [tool.isort], setup.cfg and tox.ini sections', () => {
    for (const [file, text] of [
      ['.isort.cfg', '[settings]\nprofile = black\n'],
      ['pyproject.toml', '[tool.isort]\nprofile = "black"\n'],
      ['setup.cfg', '[isort]\nline_length = 100\n'],
      ['setup.cfg', '[tool:isort]\nline_length = 100\n'],
      ['tox.ini', '[isort]\nprofile = black\n'],
    ]) {
      const gate = gatesOf({ [file]: text }).isort;
      expect(gate, file).to.include({ source: file, parser: 'isort' });
      expect(gate.command).to.deep.equal(['isort', '--check-only', '--diff', '.']);
      expect(gate.fix).to.deep.equal(['isort', '.']);
    }
    expect(gatesOf({ 'setup.cfg': '[flake8]\n' }).isort).to.equal(undefined);
  });

  it('codespell from .codespellrc, setup.cfg and [tool.codespell] (then read with --toml); no paths', () => {
    const rc = gatesOf({ '.codespellrc': '[codespell]\n' }).codespell;
    expect(rc.command).to.deep.equal(['codespell']);
    expect(rc.paths).to.equal('none');
    expect(gatesOf({ 'setup.cfg': '[codespell]\nskip = *.lock\n' }).codespell.source).to.equal(
      'setup.cfg',
    );
    const toml = gatesOf({ 'pyproject.toml': '[tool.codespell]\nskip = "*.lock"\n' }).codespell;
    expect(toml.command).to.deep.equal(['codespell', '--toml', 'pyproject.toml']);
    expect(toml.fix).to.deep.equal(['codespell', '--toml', 'pyproject.toml', '--write-changes']);
  });

  it('shellcheck from .shellcheckrc: JSON output, files listed when it runs', () => {
    const gate = gatesOf({ '.shellcheckrc': 'disable=SC1091\n' }).shellcheck;
    expect(gate).to.include({ parser: 'shellcheck-json', paths: 'append', fix: null });
    expect(gate.command).to.deep.equal(['shellcheck', '--format', 'json1']);
  });

  it("golangci-lint: the v1 or v2 command from the config's version", () => {
    const v1 = gatesOf({ '.golangci.yml': 'linters:\n  enable:\n    - errcheck\n' })[
      'golangci-lint'
    ];
    expect(v1.command).to.deep.equal(['golangci-lint', 'run', '--out-format', 'json']);
    expect(v1).to.include({ paths: 'none', parser: 'golangci-json' });
    for (const [file, text] of [
      ['.golangci.yml', 'version: "2"\nlinters:\n  default: standard\n'],
      ['.golangci.yaml', "version: '2'\n"],
      ['.golangci.toml', 'version = "2"\n'],
      ['.golangci.json', '{\n  "version": "2",\n  "linters": {}\n}\n'],
    ]) {
      const v2 = gatesOf({ [file]: text })['golangci-lint'];
      expect(v2.command, file).to.deep.equal([
        'golangci-lint',
        'run',
        '--output.json.path',
        'stdout',
        '--show-stats=false',
      ]);
      expect(v2.fix).to.deep.equal(['golangci-lint', 'run', '--fix']);
      expect(v2.source).to.equal(file);
    }
  });

  it('each tool names its pre-commit hooks', () => {
    const hooks = Object.fromEntries(
      TOOLS.map((tool) => [tool.name, tool.recognise.preCommitHooks]),
    );
    expect(hooks.black).to.include('black');
    expect(hooks.isort).to.deep.equal(['isort']);
    expect(hooks.codespell).to.deep.equal(['codespell']);
    expect(hooks.shellcheck).to.deep.equal(['shellcheck']);
    expect(hooks['golangci-lint']).to.include('golangci-lint');
  });

  it('a Makefile target running them is read by their parsers', () => {
    const gates = gatesOf({
      Makefile:
        'format-check:\n\tblack --check .\nlint:\n\tisort --check-only . && codespell\ncheck:\n\tshellcheck -f json1 a.sh\n',
    });
    expect(gates['format-check'].parser).to.equal('black');
    expect(gates['format-check'].description).to.include('runs only known read-only checks');
    expect(gates.lint.parser).to.equal('isort+codespell');
    expect(gates.check.parser).to.equal('shellcheck-json');
    const writes = gatesOf({ Makefile: 'lint:\n\tcodespell -w .\n' });
    expect(writes.lint.description).to.include('may write');
  });
});

describe('real runs through the CLI', function () {
  this.timeout(120000);
  afterEach(cleanupTemporary);

  const located = (result) => result.findings.map((f) => `${f.file}:${f.line} ${f.rule}`);

  for (const { tool, gate, finding } of [
    { tool: 'black', gate: 'black', finding: 'src/app.py:10 black' },
    { tool: 'isort', gate: 'isort', finding: 'src/app.py:1 isort' },
    { tool: 'codespell', gate: 'codespell', finding: 'src/app.py:6 codespell' },
  ]) {
    it(`${tool}: listed, finds the violation at its line, passes clean, leaves the tree as it was`, function () {
      if (!hasCommand(tool)) this.skip(); // reason: not installed (Debian: apt-get install black isort codespell)
      const dirty = committedCopy('py-style-dirty');
      const list = runCli(['list', '--root', dirty], { cwd: dirty });
      expect(list.stdout).to.match(new RegExp(`^  ${gate}(, ${gate}_fix)?$`, 'm'));
      const before = treeSnapshot(dirty);
      const failed = runJson(dirty, gate);
      expect(failed.status).to.equal('failed');
      expect(located(failed)).to.deep.equal([finding]);
      expect(failed.changedFiles).to.deep.equal([]);
      expect(treeSnapshot(dirty)).to.deep.equal(before);
      const clean = committedCopy('py-style-clean');
      const cleanBefore = treeSnapshot(clean);
      const passed = runJson(clean, gate);
      expect(passed.status, JSON.stringify(passed)).to.equal('passed');
      expect(treeSnapshot(clean)).to.deep.equal(cleanBefore);
    });
  }

  it('codespell reads no git-ignored directory (a local .venv, node_modules)', function () {
    if (!hasCommand('codespell')) this.skip(); // reason: codespell is not installed (apt-get install codespell)
    // Found on a real repository: run bare, codespell walked .venv and node_modules, and the
    // injected finding was one of 66.
    const root = committedCopy('py-style-dirty');
    fs.writeFileSync(path.join(root, '.gitignore'), '.venv/\nnode_modules/\n');
    git(root, 'add', '.gitignore');
    git(root, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'ignore');
    fs.mkdirSync(path.join(root, '.venv', 'lib'), { recursive: true });
    fs.writeFileSync(path.join(root, '.venv', 'lib', 'x.py'), '# recieve\n');
    fs.mkdirSync(path.join(root, 'node_modules', 'dep'), { recursive: true });
    fs.writeFileSync(path.join(root, 'node_modules', 'dep', 'index.js'), '// teh\n');
    const result = runJson(root, 'codespell');
    expect(located(result)).to.deep.equal(['src/app.py:6 codespell']);
  });

  it('isort given only a file its config skips (a changed scope): nothing-checked, not passed', function () {
    if (!hasCommand('isort')) this.skip(); // reason: isort is not installed (apt-get install isort)
    const root = committedCopy('py-isort-skip');
    fs.appendFileSync(path.join(root, 'gen.py'), 'x = 1\n');
    const result = runJson(root, 'isort', ['--changed']);
    expect(result.command).to.deep.equal([
      'isort',
      '--check-only',
      '--diff',
      '--filter-files',
      'gen.py',
    ]);
    expect(result.status).to.equal('nothing-checked');
    expect(result.passed).to.equal(false);
  });

  it('black --check --diff reads and writes no cache: the user cache directory stays empty', function () {
    if (!hasCommand('black')) this.skip(); // reason: black is not installed (apt-get install black)
    const root = committedCopy('py-style-dirty');
    const cache = makeTempDir('mcp-gates-black-cache-');
    const env = envWithTools({ XDG_CACHE_HOME: cache, HOME: cache });
    expect(runJson(root, 'black', [], env).status).to.equal('failed');
    expect(fs.readdirSync(cache)).to.deep.equal([]);
  });

  it('black_fix, isort_fix and codespell_fix fix what their checks found', function () {
    for (const tool of ['black', 'isort', 'codespell']) if (!hasCommand(tool)) this.skip(); // reason: one of black, isort, codespell is not installed
    const root = committedCopy('py-style-dirty');
    for (const gate of ['isort', 'black', 'codespell']) {
      const fixed = runJson(root, gate, ['--fix']);
      expect(fixed.status, `${gate}_fix: ${JSON.stringify(fixed)}`).to.equal('passed');
      expect(fixed.changedFiles).to.deep.equal(['src/app.py']);
    }
    const clean = fs.readFileSync(path.join(root, 'src', 'app.py'), 'utf8');
    expect(clean).to.equal(fs.readFileSync(copyRepo('py-style-clean') + '/src/app.py', 'utf8'));
  });

  describe('shellcheck', () => {
    beforeEach(function () {
      if (!hasCommand('shellcheck')) this.skip(); // reason: shellcheck is not installed (apt-get install shellcheck)
      if (!hasCommand('git')) this.skip(); // reason: the shellcheck gate lists its files with git
    });

    it('checks the tracked *.sh and #! shell files (not a python #! file), tree unchanged', () => {
      const root = committedCopy('shell-dirty');
      // An untracked new script counts; an ignored one does not.
      fs.writeFileSync(path.join(root, 'new.sh'), '#!/bin/sh\necho $1\n');
      fs.writeFileSync(path.join(root, '.gitignore'), 'ignored.sh\n');
      fs.writeFileSync(path.join(root, 'ignored.sh'), 'echo $1\n');
      const list = runCli(['list', '--root', root], { cwd: root });
      expect(list.stdout).to.match(/^ {2}shellcheck$/m);
      const before = treeSnapshot(root);
      const result = runJson(root, 'shellcheck');
      expect(result.status).to.equal('failed');
      expect(result.command.slice(-3)).to.deep.equal(['bin/run', 'new.sh', 'scripts/deploy.sh']);
      expect(result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule}`)).to.deep.equal(
        [
          'bin/run:3:10 SC2045',
          'bin/run:3:10 SC2006',
          'new.sh:2:6 SC2086',
          'scripts/deploy.sh:4:13 SC2086',
        ],
      );
      expect(treeSnapshot(root)).to.deep.equal(before);
    });

    it('a clean project passes; given paths are checked alone', () => {
      expect(runJson(committedCopy('shell-clean'), 'shellcheck').status).to.equal('passed');
      const root = committedCopy('shell-dirty');
      const one = runJson(root, 'shellcheck', ['scripts/deploy.sh']);
      expect(one.findings.map((f) => `${f.file}:${f.line} ${f.rule}`)).to.deep.equal([
        'scripts/deploy.sh:4 SC2086',
      ]);
    });

    it('no shell script: nothing-checked, never passed; outside git: an error that says why', () => {
      const none = runJson(committedCopy('shell-none'), 'shellcheck');
      expect(none.status).to.equal('nothing-checked');
      expect(none.passed).to.equal(false);
      const outside = copyRepo('shell-dirty');
      const run = runCli(['run', 'shellcheck', '--root', outside], { cwd: outside });
      expect(run.code).to.not.equal(0);
      expect(run.stdout).to.match(/shellcheck: error/);
      expect(run.stdout).to.include('is not inside a git work tree; call the gate with paths');
    });
  });

  it("the project's .venv/bin/black and isort run before PATH's", function () {
    if (process.platform === 'win32') this.skip(); // reason: the fake programs are sh scripts
    const root = makeRepo({
      'pyproject.toml': '[tool.black]\n\n[tool.isort]\nprofile = "black"\n',
      '.venv/pyvenv.cfg': 'home = /usr/bin\n',
      'app.py': 'x = 1\n',
    });
    const script = (name, body) => {
      const file = path.join(root, '.venv', 'bin', name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    };
    script('black', 'echo "would reformat venv_black.py" >&2; exit 1');
    script(
      'isort',
      'echo "ERROR: venv_isort.py Imports are incorrectly sorted and/or formatted." >&2; exit 1',
    );
    for (const [tool, file] of [
      ['black', 'venv_black.py'],
      ['isort', 'venv_isort.py'],
    ]) {
      expect(resolveCommand([tool], root, envWithTools())).to.include({
        ok: true,
        file: path.join(root, '.venv', 'bin', tool),
      });
      expect(runJson(root, tool).findings.map((f) => f.file)).to.deep.equal([file]);
    }
  });
});

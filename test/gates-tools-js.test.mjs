// The JavaScript-ecosystem tools (stylelint, markdownlint-cli, markdownlint-cli2, cspell,
// knip, tsd, tsgo): their recorded outputs of every version read to the exact findings;
// detection recognises each from its config files, package.json and scripts; and each
// runs for real through the CLI (installed once from npm into the temp directory, the
// newest recorded version this Node runs; skipped with the reason when npm cannot).
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { detectGates, findParser } from '../dist/gates/index.js';
import { commandForPaths, TOOLS, toolOfProgram } from '../dist/gates/tools/index.js';
import {
  cleanupTemporary,
  copyRepo,
  envWithTools,
  makeRepo,
  OUTPUTS,
  runCli,
  treeSnapshot,
} from './fixtures/gates-support.mjs';
import { JS_TOOLS, linkJsTool, newestRunnable } from './fixtures/js-tools.mjs';

/** `file:line:col severity rule`, sorted: a finding as the tests compare it. */
const located = (findings) =>
  findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.severity} ${f.rule}`).sort();

const STYLELINT_DIRTY = [
  'src/styles.css:10:3 warning declaration-block-no-duplicate-properties',
  'src/styles.css:6:10 error color-no-invalid-hex',
];
const MARKDOWNLINT_DIRTY = [
  'README.md:5:null error MD022/blanks-around-headings',
  'README.md:8:null error MD032/blanks-around-lists',
  'README.md:9:1 error MD004/ul-style',
  'README.md:9:null error MD032/blanks-around-lists',
  'docs/guide.md:3:26 error MD009/no-trailing-spaces',
];
const KNIP_DIRTY = [
  'package.json:7:6 error unused-dependencies',
  'src/orphan.ts:null:null error unused-files',
  'src/util.ts:5:17 error unused-exports',
];

/**
 * tool → case → what its recorded output must read to, whatever the version: the parser,
 * the exact findings, and the verdict (`nothing`: a run that checked nothing, never a pass).
 */
const EXPECTED = {
  stylelint: {
    dirty: { parser: 'stylelint-json', findings: STYLELINT_DIRTY, passed: false },
    clean: { parser: 'stylelint-json', findings: [], passed: true },
    'dirty-string': { parser: 'stylelint', findings: STYLELINT_DIRTY, passed: false },
    'no-files': { parser: 'stylelint-json', findings: [], nothing: /no file matching/ },
    'all-ignored': { parser: 'stylelint-json', findings: [], nothing: /ignored every file/ },
  },
  markdownlint: {
    dirty: { parser: 'markdownlint-json', findings: MARKDOWNLINT_DIRTY, passed: false },
    clean: { parser: 'markdownlint-json', findings: [], passed: true },
    'dirty-text': { parser: 'markdownlint-text', findings: MARKDOWNLINT_DIRTY, passed: false },
    'no-files': { parser: 'markdownlint-json', findings: [], nothing: /no Markdown file|usage/ },
  },
  'markdownlint-cli2': {
    dirty: { parser: 'markdownlint-text', findings: MARKDOWNLINT_DIRTY, passed: false },
    clean: { parser: 'markdownlint-text', findings: [], passed: true },
    'no-files': { parser: 'markdownlint-text', findings: [], nothing: /linted 0 files/ },
  },
  cspell: {
    dirty: {
      parser: 'cspell',
      findings: ['src/greeting.ts:2:32 error unknown-word'],
      passed: false,
    },
    clean: { parser: 'cspell', findings: [], passed: true },
    'no-files': { parser: 'cspell', findings: [], nothing: /checked 0 files/ },
  },
  knip: {
    dirty: { parser: 'knip', findings: KNIP_DIRTY, passed: false },
    'dirty-json': { parser: 'knip', findings: KNIP_DIRTY, passed: false },
    // A script running bare `knip` prints the default report: the same findings.
    'dirty-text': { parser: 'knip', findings: KNIP_DIRTY, passed: false },
    clean: { parser: 'knip', findings: [], passed: true },
  },
  tsd: {
    dirty: {
      parser: 'tsd',
      findings: ['index.test-d.ts:5:19 error null', 'index.test-d.ts:6:null error null'],
      passed: false,
    },
    clean: { parser: 'tsd', findings: [], passed: true },
  },
  tsgo: {
    dirty: {
      parser: 'tsc',
      findings: ['src/index.ts:1:14 error TS2322', 'src/index.ts:7:7 error TS2345'],
      passed: false,
    },
    clean: { parser: 'tsc', findings: [], passed: true },
  },
};

/** A recorded case of outputs/<tool>/<version>/, with <ROOT> made `root`. */
function loadCase(tool, version, caseName, root) {
  const base = path.join(OUTPUTS, tool, version, caseName);
  const read = (suffix) => fs.readFileSync(`${base}.${suffix}`, 'utf8').split('<ROOT>').join(root);
  const meta = JSON.parse(fs.readFileSync(`${base}.json`, 'utf8'));
  return { stdout: read('stdout'), stderr: read('stderr'), exitCode: meta.exitCode, meta };
}

describe('JavaScript tools: recorded outputs of every version', () => {
  const root = path.resolve('/work/project');
  for (const [tool, cases] of Object.entries(EXPECTED)) {
    it(`${tool}: every version directory reads to the exact findings`, () => {
      const versions = fs.readdirSync(path.join(OUTPUTS, tool));
      expect(versions, `${tool}: the versions recorded`).to.have.members(JS_TOOLS[tool].versions);
      for (const version of versions) {
        const recorded = fs
          .readdirSync(path.join(OUTPUTS, tool, version))
          .filter((file) => file.endsWith('.json'))
          .map((file) => file.slice(0, -'.json'.length));
        // generate.mjs's cases may sit beside these (stylelint-string: gates-parsers reads it).
        expect(recorded, `${tool} ${version}: cases`).to.include.members(Object.keys(cases));
        for (const [caseName, want] of Object.entries(cases)) {
          const label = `${tool} ${version} ${caseName}`;
          const output = loadCase(tool, version, caseName, root);
          expect(output.meta.version, label).to.equal(version);
          const parsed = findParser(want.parser).parse({ ...output, truncated: false, root });
          expect(located(parsed.findings), label).to.deep.equal(want.findings);
          for (const finding of parsed.findings) {
            expect(finding.message, label).to.match(/\S/);
            expect(finding.message, `${label}: the rule is not repeated`).to.not.include(
              `(${finding.rule})`,
            );
          }
          if (want.nothing) {
            expect(parsed.passed, label).to.equal(false);
            expect(parsed.nothingChecked, label).to.match(want.nothing);
          } else {
            expect(parsed.passed, label).to.equal(want.passed);
            expect(parsed.nothingChecked, label).to.equal(undefined);
            expect(parsed.unparsed, label).to.equal(undefined);
          }
        }
      }
    });
  }

  it('markdownlint JSON and text read to the same messages', () => {
    const [version] = JS_TOOLS.markdownlint.versions;
    const json = loadCase('markdownlint', version, 'dirty', root);
    const text = loadCase('markdownlint', version, 'dirty-text', root);
    const messages = (parser, output) =>
      findParser(parser)
        .parse({ ...output, truncated: false, root })
        .findings.map((finding) => `${finding.rule} ${finding.message}`)
        .sort();
    expect(messages('markdownlint-json', json)).to.deep.equal(messages('markdownlint-text', text));
  });

  it('knip JSON without severities: a run that exited 0 has warnings only', () => {
    const output = loadCase('knip', JS_TOOLS.knip.versions[0], 'dirty-json', root);
    const parsed = findParser('knip').parse({ ...output, exitCode: 0, truncated: false, root });
    expect(parsed.passed).to.equal(true);
    expect(new Set(parsed.findings.map((finding) => finding.severity))).to.deep.equal(
      new Set(['warning']),
    );
  });

  it('cspell: a config it cannot load is an error of the run, not "checked 0 files"', () => {
    // cspell 10.0.1 offline, as in open-telemetry/opentelemetry-specification (its config
    // imports a URL): the summary ends `with 1 error`.
    const parsed = findParser('cspell').parse({
      stdout: '',
      stderr: [
        'Configuration Error: Failed to read config file: "https://cdn.example/cspell-ext.json"',
        '  getaddrinfo ENOTFOUND cdn.example',
        '-------------------------------------------',
        'CSpell: Files checked: 0, Issues found: 0 in 0 files with 1 error.',
      ].join('\n'),
      exitCode: 1,
      truncated: false,
      root,
    });
    expect(parsed).to.include({ passed: false, unparsed: true });
    expect(parsed.nothingChecked).to.equal(undefined);
    expect(parsed.note).to.match(/1 error of its own/);
  });
});

describe('JavaScript tools: detection', () => {
  afterEach(cleanupTemporary);

  const gatesOf = (files) => detectGates(makeRepo(files)).gates;
  const only = (gates) => gates.map((gate) => `${gate.name} ${gate.command[0]} ${gate.source}`);

  it('recognises each tool alone, from each of its config files and package.json', () => {
    const cases = [
      [{ '.stylelintrc': '{}' }, 'stylelint stylelint .stylelintrc'],
      [
        { 'stylelint.config.mjs': 'export default {};\n' },
        'stylelint stylelint stylelint.config.mjs',
      ],
      [{ 'package.json': { stylelint: { rules: {} } } }, 'stylelint stylelint package.json'],
      [{ '.markdownlint.yaml': 'default: true\n' }, 'markdownlint markdownlint .markdownlint.yaml'],
      [{ '.markdownlintrc': '{}' }, 'markdownlint markdownlint .markdownlintrc'],
      [
        { '.markdownlint-cli2.yaml': 'config: {}\n' },
        'markdownlint markdownlint-cli2 .markdownlint-cli2.yaml',
      ],
      [{ 'cspell.config.yaml': 'words: []\n' }, 'cspell cspell cspell.config.yaml'],
      [{ '.cspell.yaml': 'words: []\n' }, 'cspell cspell .cspell.yaml'],
      [{ '.cspell.config.json': '{}' }, 'cspell cspell .cspell.config.json'],
      [{ 'package.json': { devDependencies: { cspell: '9' } } }, 'cspell cspell package.json'],
      [{ '.knip.jsonc': '{}' }, 'knip knip .knip.jsonc'],
      [{ 'package.json': { knip: { entry: [] } } }, 'knip knip package.json'],
      [{ 'index.test-d.ts': '' }, 'tsd tsd index.test-d.ts'],
      [{ 'package.json': { tsd: {} } }, 'tsd tsd package.json'],
    ];
    for (const [files, want] of cases) expect(only(gatesOf(files)), want).to.deep.equal([want]);
  });

  it('tsgo: a project depending on @typescript/native-preview typechecks with it, not tsc', () => {
    const tsconfig = { compilerOptions: { strict: true } };
    const native = gatesOf({
      'tsconfig.json': tsconfig,
      'package.json': { devDependencies: { '@typescript/native-preview': '7.0.0-dev' } },
    });
    expect(only(native)).to.deep.equal(['typecheck tsgo package.json']);
    expect(native[0]).to.include({ prepare: 'tsc-noemit', parser: 'tsc' });
    expect(native[0].command).to.deep.equal(['tsgo', '--noEmit', '--pretty', 'false']);
    expect(only(gatesOf({ 'tsconfig.json': tsconfig }))).to.deep.equal([
      'typecheck tsc tsconfig.json',
    ]);
    // Its script: `test:types` is a typecheck, read by tsc's parser; no marker gate beside it.
    const scripted = gatesOf({
      'tsconfig.json': tsconfig,
      'package.json': {
        scripts: { 'test:types': 'tsgo --noEmit' },
        devDependencies: { '@typescript/native-preview': '7.0.0-dev' },
      },
    });
    expect(scripted.map((gate) => [gate.name, gate.parser])).to.deep.equal([['typecheck', 'tsc']]);
  });

  it('markdownlint-cli2 takes the .markdownlint.* config of a project that has only it', () => {
    const gates = gatesOf({
      '.markdownlint.json': '{}',
      'package.json': { devDependencies: { 'markdownlint-cli2': '0.24' } },
    });
    expect(only(gates)).to.deep.equal(['markdownlint markdownlint-cli2 package.json']);
  });

  it('a script that runs the tool covers it: no marker gate runs it twice', () => {
    const gates = gatesOf({
      '.stylelintrc.json': '{}',
      '.markdownlint.json': '{}',
      'package.json': {
        scripts: { 'lint:css': 'stylelint "src/**/*.css"', 'lint:md': 'markdownlint --json .' },
      },
    });
    expect(gates.map((gate) => [gate.name, gate.parser])).to.deep.equal([
      ['lint', 'stylelint'],
      ['lint_md', 'markdownlint-json'],
    ]);
  });

  it('a stylelint script runs as its own step, so --cache goes to a private directory', () => {
    const [gate] = gatesOf({
      'package.json': { scripts: { lint: 'stylelint "**/*.css" --cache' } },
    });
    expect(gate.steps).to.deep.equal([
      { command: ['stylelint', '**/*.css', '--cache'], parser: 'stylelint' },
    ]);
  });

  it("a call's paths replace the whole-tree glob, wherever it stands", () => {
    const [markdown] = gatesOf({ '.markdownlint-cli2.jsonc': '{}' });
    const withPaths = commandForPaths(markdown.command, ['README.md']);
    expect(withPaths.slice(0, 2)).to.deep.equal(['markdownlint-cli2', 'README.md']);
    expect(withPaths).to.include('#node_modules');
    expect(withPaths.some((word) => word.startsWith('**/'))).to.equal(false);
    const [style] = gatesOf({ '.stylelintrc.json': '{}' });
    expect(commandForPaths(style.command, ['a.css']).slice(-1)).to.deep.equal(['a.css']);
    expect(commandForPaths(style.command, ['a.css'])).to.not.include('**/*.css');
  });

  it('stylelint lints the syntaxes the project installs a parser for', () => {
    const [gate] = gatesOf({
      '.stylelintrc.json': '{}',
      'package.json': { devDependencies: { 'stylelint-config-standard-scss': '1' } },
    });
    expect(gate.command[gate.command.length - 1]).to.equal('**/*.{css,scss}');
  });

  it('each tool module says its pre-commit hooks, warm or cold, and install', () => {
    const hooks = {
      stylelint: ['stylelint'],
      markdownlint: ['markdownlint'],
      'markdownlint-cli2': ['markdownlint-cli2'],
      cspell: ['cspell'],
    };
    for (const [name, ids] of Object.entries(hooks))
      expect(TOOLS.find((tool) => tool.name === name).recognise.preCommitHooks).to.deep.equal(ids);
    for (const tool of Object.keys(JS_TOOLS)) {
      const descriptor = toolOfProgram(JS_TOOLS[tool].program);
      expect(descriptor, tool).to.not.equal(undefined);
      expect(descriptor.warm, tool).to.have.property('cold').that.is.a('string');
      expect(descriptor.install, tool).to.deep.equal({ npmPackage: JS_TOOLS[tool].npmPackage });
    }
  });
});

/**
 * tool → the marker gate's name, the dirty repository's injected violation (`file:line`
 * and rule), and what the tool needs beside its program on PATH (tsd: its package in the
 * project, which the type tests import).
 */
const REAL_RUNS = {
  stylelint: { gate: 'stylelint', violation: 'src/styles.css:6 color-no-invalid-hex' },
  markdownlint: { gate: 'markdownlint', violation: 'docs/guide.md:3 MD009/no-trailing-spaces' },
  'markdownlint-cli2': {
    gate: 'markdownlint',
    violation: 'docs/guide.md:3 MD009/no-trailing-spaces',
  },
  cspell: { gate: 'cspell', violation: 'src/greeting.ts:2 unknown-word' },
  knip: { gate: 'knip', violation: 'src/util.ts:5 unused-exports' },
  // Its fixtures ask for lib es2020 alone: tsd checks every lib file it loads (it turns
  // skipLibCheck off), and the DOM libs were half of each run.
  tsd: { gate: 'tsd', violation: 'index.test-d.ts:5 null' },
  tsgo: { gate: 'typecheck', violation: 'src/index.ts:1 TS2322' },
};

describe('JavaScript tools: real runs through the CLI', function () {
  // The first run installs each tool from npm (cached in the temp directory afterwards).
  this.timeout(600000);
  after(cleanupTemporary);

  for (const [tool, { gate, violation }] of Object.entries(REAL_RUNS)) {
    describe(tool, () => {
      let installed;
      before(async function () {
        installed = await newestRunnable(tool);
        // reason: npm could not install it here, or no recorded version runs on this Node.
        if (installed.skipped) {
          console.log(`      skipped: ${installed.skipped}`);
          this.skip();
        }
      });

      /** A copy of the fixture with the tool linked in, as the project's install would. */
      const project = (name) => {
        const root = copyRepo(name);
        linkJsTool(root, tool, installed);
        return root;
      };
      const run = (root, ...args) =>
        runCli(['run', gate, '--json', '--root', root, ...args], {
          cwd: root,
          env: envWithTools({ PATH: `${installed.bin}${path.delimiter}${process.env.PATH}` }),
          timeout: 120000,
        });

      it(`list shows the gate; run finds ${violation}, exit 1; the tree is byte-identical`, () => {
        const root = project(`${tool}-dirty`);
        const listed = runCli(['list', '--root', root], { cwd: root });
        expect(listed.code, listed.stderr).to.equal(0);
        expect(listed.stdout).to.include(`  ${gate}`).and.include(JS_TOOLS[tool].program);
        // Cold, and why, in the tool module's words.
        expect(listed.stdout).to.match(new RegExp(`warm: +no \\(${JS_TOOLS[tool].program}: `));
        const before = treeSnapshot(root);
        const result = run(root);
        expect(result.code, result.stderr).to.equal(1);
        const report = JSON.parse(result.stdout);
        expect(report.passed).to.equal(false);
        expect(report.findings.map((f) => `${f.file}:${f.line} ${f.rule}`)).to.include(violation);
        expect(report.changedFiles).to.deep.equal([]);
        expect(treeSnapshot(root)).to.deep.equal(before);
      });

      if (tool === 'knip')
        it('a knip.ts config, which jiti compiles, leaves node_modules/.cache untouched', () => {
          // Found on a real repository: jiti caches what it compiled in node_modules/.cache/jiti.
          const root = project('knip-dirty');
          fs.rmSync(path.join(root, 'knip.json'));
          fs.writeFileSync(
            path.join(root, 'knip.ts'),
            "export default { entry: ['src/index.ts'], project: ['src/**/*.ts'] };\n",
          );
          const before = treeSnapshot(root);
          const report = JSON.parse(run(root).stdout);
          expect(report.findings.map((f) => `${f.file}:${f.line} ${f.rule}`)).to.include(violation);
          expect(treeSnapshot(root)).to.deep.equal(before);
          expect(fs.existsSync(path.join(root, 'node_modules', '.cache', 'jiti'))).to.equal(false);
        });

      it('the clean repository passes, the tree byte-identical', () => {
        const root = project(`${tool}-clean`);
        const before = treeSnapshot(root);
        const result = run(root);
        expect(result.code, `${result.stdout}\n${result.stderr}`).to.equal(0);
        expect(JSON.parse(result.stdout)).to.include({ passed: true, findingCount: 0 });
        expect(treeSnapshot(root)).to.deep.equal(before);
      });
    });
  }

  describe('stylelint keeps its cache out of the tree', () => {
    let installed;
    before(async function () {
      installed = await newestRunnable('stylelint');
      // reason: npm could not install stylelint here.
      if (installed.skipped) this.skip();
    });

    it('a check leaves .stylelintcache as it was, marker gate and `--cache` script alike', () => {
      const root = copyRepo('stylelint-dirty');
      linkJsTool(root, 'stylelint', installed);
      // Without --cache-location stylelint deletes this file; with --cache it rewrites it.
      fs.writeFileSync(path.join(root, '.stylelintcache'), 'kept\n');
      fs.writeFileSync(
        path.join(root, 'package.json'),
        `${JSON.stringify({ name: 'x', scripts: { 'lint:css': 'stylelint "src/**/*.css" --cache' } })}\n`,
      );
      const env = envWithTools({ PATH: `${installed.bin}${path.delimiter}${process.env.PATH}` });
      const before = treeSnapshot(root);
      const script = runCli(['run', 'lint', '--json', '--root', root], { cwd: root, env });
      expect(script.code, script.stderr).to.equal(1);
      const report = JSON.parse(script.stdout);
      expect(report.findings.map((f) => `${f.file}:${f.line} ${f.rule}`)).to.include(
        'src/styles.css:6 color-no-invalid-hex',
      );
      expect(treeSnapshot(root)).to.deep.equal(before);
      fs.rmSync(path.join(root, 'package.json'));
      const marker = treeSnapshot(root);
      const check = runCli(['run', 'stylelint', '--json', '--root', root], { cwd: root, env });
      expect(check.code, check.stderr).to.equal(1);
      expect(treeSnapshot(root)).to.deep.equal(marker);
    });
  });
});

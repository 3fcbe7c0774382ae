// What a hook session sees (issue 28, items 1-3): after_edit runs every gate shape the edit
// concerns (package.json scripts of one command, a Makefile target, a configured script),
// and before_stop checks everything the session changed (deletions, commits on the default
// branch, settings files, past the paths limit, names read as options), with "new" split
// against the session's start whatever git's diff settings and the file names.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Ajv } from 'ajv';
import { createGateTools } from '../dist/gates/index.js';
import { loadGates } from '../dist/gates/load-gates.js';
import { HookSession } from '../dist/gates/hooks/hook-session.js';
import { createHookTools } from '../dist/gates/hooks/hook-tools.js';
import { WarmPool } from '../dist/gates/warm/index.js';
import { planRuns } from '../dist/gates/hooks/hook-plan.js';
import {
  hookContext,
  runAfterEdit,
  runBeforeStop,
  startSession,
} from '../dist/gates/hooks/run-hooks.js';
import { changedLinesAgainst, unquoteGitName } from '../dist/gates/run/changed-files.js';
import {
  cleanupTemporary,
  makeTempDir,
  toolContext,
  treeSnapshot,
} from './fixtures/gates-support.mjs';
import { gateEnv, git, makeWarmRepo } from './fixtures/warm/warm-fixture.mjs';
import { inJavaScript } from './fixtures/js-sources.mjs';

const SCRIPTS = {
  lint: 'eslint .',
  format: 'prettier --check .',
  typecheck: 'tsc --noEmit',
};

/**
 * The warm fixture with the commonest shape: one-command package.json scripts, committed on
 * main. `javascript`: its sources in JavaScript (src/main.js, src/math.js), for a test whose
 * findings are all the lint's (no TypeScript for ESLint to load).
 */
function scriptRepo(scripts = SCRIPTS, { javascript = false } = {}) {
  const root = makeWarmRepo('mcp-gates-session-');
  if (javascript) inJavaScript(root);
  const manifestPath = path.join(root, 'package.json');
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  fs.writeFileSync(manifestPath, `${JSON.stringify({ ...manifest, scripts }, null, 2)}\n`);
  fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules\n');
  fs.writeFileSync(path.join(root, '.prettierignore'), 'node_modules\nignored\n');
  git(root, 'init', '-q');
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'start');
  return root;
}

/**
 * The gates of `root` named in `names` alone: the warm fixture's eslint, prettier and tsc
 * configs are gates of their own beside a script's, and a test of one gate's finding need
 * not pay for the others' runs at the start and now.
 */
const gatesNamed = (root, ...names) =>
  loadGates(root).gates.filter((gate) => names.includes(gate.name));

function hook(root, session = new HookSession(), gates = loadGates(root).gates) {
  const request = {
    gates,
    context: hookContext(new AbortController().signal, 'test'),
    options: { root, env: gateEnv() },
    session,
  };
  return {
    session,
    gates,
    start: async () => {
      await startSession(request);
      await session.priming;
    },
    edit: (...files) =>
      runAfterEdit(
        request,
        files.map((file) => path.join(root, file)),
      ),
    stop: (stop = {}) => runBeforeStop(request, { loopFlag: false, ...stop }),
  };
}

const write = (root, file, text) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};
/** mcp-gates.json with one lint gate that takes paths. */
const configuredLint = (root) =>
  write(
    root,
    'mcp-gates.json',
    JSON.stringify({
      gates: {
        lint: {
          command: ['eslint', '--format', 'json', '.'],
          parser: 'eslint-json',
          paths: 'append',
        },
      },
    }),
  );
/** A git repository whose mcp-gates.json holds `gates`, with a.txt committed beside it. */
function configuredRepo(prefix, gates) {
  const root = makeTempDir(prefix);
  git(root, 'init', '-q');
  write(root, 'mcp-gates.json', JSON.stringify({ gates }));
  write(root, 'a.txt', 'one\n');
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'start');
  return root;
}
const append = (root, file, text) => fs.appendFileSync(path.join(root, file), text);
const ran = (outcome) => outcome.rows.map((row) => row.gate).sort();
const rules = (outcome) => outcome.newFindings.map((finding) => finding.rule);

describe('hook sessions: every gate shape after an edit', function () {
  this.timeout(240_000);
  after(cleanupTemporary);

  it('runs one-command package.json scripts (lint, format, typecheck) and blocks on what the edit broke', async () => {
    const root = scriptRepo();
    const { gates, edit } = hook(root);
    expect(gates.map((gate) => gate.name).sort()).to.deep.equal(['format', 'lint', 'typecheck']);
    expect(gates.every((gate) => gate.paths === 'none')).to.equal(true);
    append(root, 'src/math.ts', '\nexport const broken: number = "text";\nconsole.log(broken)\n');
    const outcome = await edit('src/math.ts');
    expect(ran(outcome)).to.deep.equal(['format', 'lint', 'typecheck']);
    expect(outcome.verdict.block, outcome.verdict.note).to.equal(true);
    expect(rules(outcome)).to.include('lint:no-console');
    expect(rules(outcome)).to.include('typecheck:TS2322');
    expect(rules(outcome).some((rule) => rule.startsWith('format:'))).to.equal(true);
    expect(outcome.verdict.reason).to.match(/src\/math\.ts:\d+/);
    // The old errors of src/main.ts (no-console, ==) are not the edit's.
    expect(outcome.newFindings.every((finding) => finding.file === 'src/math.ts')).to.equal(true);
  });

  it('runs a Makefile target, and a configured `npm run` gate through its script', async () => {
    const root = scriptRepo({ 'check:types': 'tsc --noEmit' });
    write(root, 'Makefile', 'lint:\n\tnpx eslint .\n');
    write(
      root,
      'mcp-gates.json',
      JSON.stringify({
        gates: {
          make_lint: { command: ['make', 'lint'], parser: 'eslint-stylish' },
          types: { command: ['npm', 'run', '--silent', 'check:types'], parser: 'tsc' },
          custom: { command: ['node', 'scripts/check.js'], parser: 'generic' },
        },
      }),
    );
    write(root, 'scripts/check.js', 'process.exit(0);\n');
    const gates = loadGates(root).gates;
    expect(gates.every((gate) => gate.paths === 'none')).to.equal(true);
    const plan = planRuns(gates, root, { files: ['src/math.ts'], deleted: [] }, true);
    expect(plan.runs.map((run) => run.gate.name).sort()).to.deep.equal([
      'custom',
      'make_lint',
      'types',
    ]);
    // Neither eslint nor tsc reads Markdown; a custom script may read anything.
    const markdown = planRuns(gates, root, { files: ['README.md'], deleted: [] }, true);
    expect(markdown.runs.map((run) => run.gate.name)).to.deep.equal(['custom']);
    // A settings file of the tool the recipe runs concerns the recipe's gate.
    const settings = planRuns(gates, root, { files: ['.eslintignore'], deleted: [] }, true);
    expect(settings.runs.map((run) => run.gate.name).sort()).to.deep.equal(['custom', 'make_lint']);
    append(root, 'src/math.ts', '\nexport const broken: number = "text";\nconsole.log(broken);\n');
    const outcome = await hook(root, new HookSession(), gates).edit('src/math.ts');
    expect(ran(outcome)).to.deep.equal(['custom', 'make_lint', 'types']);
    expect(rules(outcome)).to.include('types:TS2322');
    expect(rules(outcome)).to.include('make_lint:no-console');
    expect(outcome.verdict.block).to.equal(true);
  });

  it('says which files no gate reads, naming the tools asked, and runs nothing for them', async () => {
    const root = scriptRepo({ typecheck: 'tsc --noEmit' });
    write(root, 'notes.txt', 'words\n');
    const outcome = await hook(root).edit('notes.txt');
    expect(outcome.rows).to.deep.equal([]);
    expect(outcome.verdict.block).to.equal(false);
    expect(outcome.verdict.note).to.match(
      /no gate reads notes\.txt \(the gates' tools: eslint, prettier, tsc\)/,
    );
  });

  it('runs the typecheck for a deleted module and reports what its importers lost', async () => {
    const root = scriptRepo({ typecheck: 'tsc --noEmit' });
    fs.rmSync(path.join(root, 'src/math.ts'));
    const outcome = await hook(root, undefined, gatesNamed(root, 'typecheck')).edit('src/math.ts');
    expect(ran(outcome)).to.include('typecheck');
    expect(rules(outcome)).to.include('typecheck:TS2307');
    expect(outcome.verdict.block).to.equal(true);
  });

  it("takes an edited file named through a symlink to the root as the root's", async () => {
    const root = scriptRepo({ lint: 'eslint .' }, { javascript: true });
    const link = path.join(makeTempDir('mcp-gates-link-'), 'workspace');
    fs.symlinkSync(root, link);
    append(root, 'src/math.js', '\nconsole.log(1);\n');
    const { session } = hook(root);
    const request = {
      gates: gatesNamed(root, 'lint'),
      context: hookContext(new AbortController().signal, 'test'),
      options: { root, env: gateEnv() },
      session,
    };
    const outcome = await runAfterEdit(request, [path.join(link, 'src', 'math.js')]);
    expect(outcome.verdict.note).to.not.match(/outside the project root/);
    expect(rules(outcome)).to.include('lint:no-console');
  });
});

describe('hook sessions: the stop sees everything the session changed', function () {
  this.timeout(240_000);
  after(cleanupTemporary);

  it('blocks on a deleted module that another file imports', async () => {
    const root = scriptRepo({ typecheck: 'tsc --noEmit' });
    const { stop } = hook(root, undefined, gatesNamed(root, 'typecheck'));
    fs.rmSync(path.join(root, 'src/math.ts'));
    const outcome = await stop();
    expect(outcome.verdict.block, outcome.verdict.note).to.equal(true);
    expect(rules(outcome)).to.include('typecheck:TS2307');
  });

  it('blocks on work committed on the default branch after the session began', async () => {
    const root = scriptRepo({ lint: 'eslint .' }, { javascript: true });
    const { start, stop } = hook(root, undefined, gatesNamed(root, 'lint'));
    await start();
    append(root, 'src/math.js', '\nconsole.log(1);\n');
    git(root, 'commit', '-qam', 'the agent commits on main');
    const outcome = await stop();
    expect(outcome.verdict.block, outcome.verdict.note).to.equal(true);
    expect(rules(outcome)).to.include('lint:no-console');
  });

  it("without session_start, counts errors committed on a feature branch as the session's", async () => {
    const root = scriptRepo({ lint: 'eslint .' }, { javascript: true });
    git(root, 'checkout', '-q', '-b', 'work');
    append(root, 'src/math.js', '\nconsole.log(1);\n');
    git(root, 'commit', '-qam', 'work on a branch');
    const outcome = await hook(root, undefined, gatesNamed(root, 'lint')).stop();
    expect(outcome.verdict.block, outcome.verdict.note).to.equal(true);
    expect(outcome.newFindings.map((finding) => finding.file)).to.deep.equal(['src/math.js']);
  });

  for (const withStart of [true, false]) {
    it(`lints the whole project when the session turned a rule on in eslint.config.js (${withStart ? 'with' : 'without'} session_start)`, async () => {
      const root = scriptRepo({}, { javascript: true });
      configuredLint(root);
      write(root, 'src/extra.js', 'let count = 0;\ncount++;\nexport { count };\n');
      git(root, 'add', '.');
      git(root, 'commit', '-qm', 'configured, and a file no-plusplus would flag');
      const { start, stop } = hook(root);
      if (withStart) await start();
      const config = path.join(root, 'eslint.config.js');
      fs.writeFileSync(
        config,
        fs
          .readFileSync(config, 'utf8')
          .replace("'no-console': 'error'", "'no-console': 'error', 'no-plusplus': 'error'"),
      );
      const outcome = await stop();
      expect(
        outcome.rows.map((row) => row.gate),
        outcome.verdict.note,
      ).to.deep.equal(['lint']);
      expect(outcome.newFindings.map((finding) => `${finding.file} ${finding.rule}`)).to.deep.equal(
        ['src/extra.js lint:no-plusplus'],
      );
      expect(outcome.verdict.block).to.equal(true);
    });
  }

  it('runs a paths-taking gate whole past 1,000 changed files, and passes a name starting with "-"', async () => {
    const root = scriptRepo({}, { javascript: true });
    configuredLint(root);
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'configured');
    const gates = loadGates(root).gates;
    const many = Array.from({ length: 1001 }, (_, index) => `src/gen/f${index}.ts`);
    const plan = planRuns(gates, root, { files: many, deleted: [] }, false);
    expect(plan.runs).to.have.length(1);
    expect(plan.runs[0].scope).to.equal('all');
    write(root, '-x.js', 'console.log(1);\nexport {};\n');
    const outcome = await hook(root).stop();
    expect(outcome.rows.map((row) => row.status)).to.deep.equal(['failed']);
    expect(outcome.newFindings.map((finding) => `${finding.file} ${finding.rule}`)).to.include(
      '-x.js lint:no-console',
    );
    expect(outcome.verdict.block).to.equal(true);
  });
});

describe('hook sessions: what is new, whatever git prints', function () {
  this.timeout(120_000);
  after(cleanupTemporary);

  it('reads changed lines of names with spaces, non-ASCII and quotes under diff.mnemonicPrefix', async () => {
    const root = makeTempDir('mcp-gates-names-');
    git(root, 'init', '-q');
    const names = ['a b.ts', 'naïve.ts', 'q"uote.ts', 'plain.ts', '-dash.ts'];
    for (const name of names) fs.writeFileSync(path.join(root, name), 'one\ntwo\nthree\n');
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'start');
    git(root, 'config', 'diff.mnemonicPrefix', 'true');
    git(root, 'config', 'diff.noprefix', 'true');
    for (const name of names) fs.writeFileSync(path.join(root, name), 'one\nTWO\nthree\n');
    const lines = await changedLinesAgainst(root, names);
    for (const name of names) expect([...lines.get(name)], name).to.deep.equal([2]);
  });

  it('unquotes C-quoted names as git writes them', () => {
    expect(unquoteGitName('"b/na\\303\\257ve.ts"')).to.equal('b/naïve.ts');
    expect(unquoteGitName('"b/q\\"uote\\\\x\\t.ts"')).to.equal('b/q"uote\\x\t.ts');
    expect(unquoteGitName('b/plain.ts')).to.equal('b/plain.ts');
  });

  it('an edit in a file with a space in its name is new for the session', async () => {
    const root = scriptRepo({ lint: 'eslint .' }, { javascript: true });
    write(root, 'src/with space.js', 'export const one = 1;\n');
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'spaced');
    git(root, 'config', 'diff.mnemonicPrefix', 'true');
    append(root, 'src/with space.js', 'console.log(one);\n');
    const outcome = await hook(root, undefined, gatesNamed(root, 'lint')).edit('src/with space.js');
    expect(outcome.newFindings.map((finding) => `${finding.file} ${finding.rule}`)).to.deep.equal([
      'src/with space.js lint:no-console',
    ]);
    expect(outcome.verdict.block).to.equal(true);
  });
});

describe('hook sessions: what went unchecked is told once per stop loop', function () {
  this.timeout(120_000);
  after(cleanupTemporary);

  it('a stop that follows a held-back stop does not repeat the unchecked notice (Cursor would prompt again)', async () => {
    const root = scriptRepo({ typecheck: 'tsc --noEmit' });
    append(root, 'src/math.ts', '\nexport const more = 1;\n');
    const request = (session) => ({
      gates: loadGates(root).gates,
      context: hookContext(new AbortController().signal, 'test'),
      options: { root, env: gateEnv() },
      session,
      budgetMs: 100,
    });
    const first = await runBeforeStop(request(new HookSession()), { loopFlag: false });
    expect(first.verdict.block).to.equal(false);
    expect(first.verdict.unchecked, first.verdict.note).to.equal(true);
    const again = await runBeforeStop(request(new HookSession()), { loopFlag: true });
    expect(again.verdict.unchecked).to.equal(undefined);
    expect(again.verdict.note).to.match(/did not finish within the hook's 0\.1 s budget/);
  });
});

describe('hook sessions: one budget for the whole call', function () {
  this.timeout(120_000);
  after(cleanupTemporary);

  it('waiting for the session baseline spends the after-edit budget too', async () => {
    const root = configuredRepo('mcp-gates-budget-', {
      slow: { command: ['node', '-e', 'setTimeout(() => {}, 60000)'], parser: 'generic' },
    });
    const session = new HookSession();
    // A baseline that never ends (a huge project's first runs).
    session.priming = new Promise(() => {});
    const started = Date.now();
    const outcome = await runAfterEdit(
      {
        gates: loadGates(root).gates,
        context: hookContext(new AbortController().signal, 'test'),
        options: { root, env: gateEnv() },
        session,
        budgetMs: 4000,
      },
      [path.join(root, 'a.txt')],
    );
    const elapsed = Date.now() - started;
    expect(outcome.verdict.note).to.match(/slow did not finish within the hook's 4\.0 s budget/);
    // 4 s waiting, then 4 s more for the gate, was the old answer: 8 s and more.
    expect(elapsed).to.be.below(7000);
  });
});

describe('hook sessions: the gates of one edit run at once', function () {
  this.timeout(120_000);
  after(cleanupTemporary);

  it('starts every gate an edit concerns together, more gates than cores included', async () => {
    // Outside the root: what the gates write there is no change of the tree.
    const marks = makeTempDir('mcp-gates-overlap-marks-');
    // Each gate marks its start, then passes only once every gate has started (fails after 20 s).
    const script = [
      "const fs = require('fs');",
      'const [dir, name, count] = process.argv.slice(1);',
      "fs.writeFileSync(dir + '/' + name, '');",
      'const until = Date.now() + 20000;',
      'setInterval(() => {',
      '  if (fs.readdirSync(dir).length >= Number(count)) process.exit(0);',
      '  if (Date.now() > until) process.exit(1);',
      '}, 50);',
    ].join('\n');
    const count = os.availableParallelism() + 1;
    const gates = Object.fromEntries(
      Array.from({ length: count }, (_, index) => [
        `gate${index}`,
        {
          command: ['node', '-e', script, marks, `gate${index}`, String(count)],
          parser: 'generic',
        },
      ]),
    );
    const root = configuredRepo('mcp-gates-overlap-', gates);
    write(root, 'a.txt', 'two\n');
    const outcome = await hook(root).edit('a.txt');
    expect(outcome.rows.map((row) => `${row.gate}:${row.status}`)).to.deep.equal(
      Object.keys(gates).map((name) => `${name}:passed`),
    );
  });
});

describe('hook sessions: where a call spends its time, on request', function () {
  this.timeout(60_000);
  after(cleanupTemporary);
  afterEach(() => delete process.env.MCP_GATES_TIMING);

  it('answers with milliseconds per phase under MCP_GATES_TIMING=1, and nothing of it otherwise', async () => {
    const root = configuredRepo('mcp-gates-timing-', {
      quick: { command: ['node', '-e', '0'], parser: 'generic' },
    });
    const [, afterEdit] = createHookTools(loadGates(root).gates, { root, env: gateEnv() });
    const context = hookContext(new AbortController().signal, 'test');
    const untimed = await afterEdit.run({ path: path.join(root, 'a.txt') }, context);
    expect(untimed.structuredContent).to.not.have.property('timing');
    process.env.MCP_GATES_TIMING = '1';
    const timed = await afterEdit.run({ path: path.join(root, 'a.txt') }, context);
    const { timing } = timed.structuredContent;
    for (const phase of ['hook.plan', 'hook.gates', 'quick.call', 'quick.fingerprint'])
      expect(timing[phase], phase).to.be.a('number').and.at.least(0);
    // The gate's call is part of the hook's gates phase.
    expect(timing['quick.call']).to.be.at.most(timing['hook.gates']);
    // A gate tool's own call says the same of itself, valid against its output schema.
    const [quick] = createGateTools(loadGates(root).gates, { root, env: gateEnv() });
    const gateTimed = await quick.run({}, context);
    expect(gateTimed.structuredContent.timing['quick.fingerprint']).to.be.a('number');
    const valid = new Ajv({ strict: false }).compile(quick.outputSchema);
    expect(valid(gateTimed.structuredContent), JSON.stringify(valid.errors)).to.equal(true);
    delete process.env.MCP_GATES_TIMING;
    expect((await quick.run({}, context)).structuredContent).to.not.have.property('timing');
  });

  it("has a warm worker time its own steps, and its clock is no read of the tool's: a repeat is still reused", async () => {
    const root = makeWarmRepo('mcp-gates-timing-warm-');
    const pool = new WarmPool();
    try {
      const run = (env) =>
        pool.run({ root, argv: ['prettier', '--check', 'src'], timeoutMs: 60_000, env });
      const untimed = await run(gateEnv());
      expect(untimed.kind, untimed.reason).to.equal('ran');
      expect(untimed).to.not.have.property('phases');
      const env = { ...gateEnv(), MCP_GATES_TIMING: '1' };
      const first = await run(env);
      expect(first.kind, first.reason).to.equal('ran');
      for (const phase of ['staleBefore', 'run', 'staleAfter', 'callQuestions.count'])
        expect(first.phases[phase], phase).to.be.a('number');
      const repeat = await run(env);
      expect(repeat.reused, repeat.notReusedBecause).to.equal(true);
      expect(repeat.phases.reuseCheck).to.be.a('number');
      expect(repeat.phases).to.not.have.property('run');
    } finally {
      await pool.close();
    }
  });
});

describe('hook sessions: a format script checks the edited file alone', function () {
  this.timeout(120_000);
  after(cleanupTemporary);

  it('runs `prettier --check --cache .` of a script on the edited file after an edit, and writes nothing', async () => {
    const root = scriptRepo({ 'format-check': 'prettier --check --cache .' });
    const snapshot = () => {
      const files = treeSnapshot(root);
      // node_modules holds links to this repository's packages: what they hold is not the fixture's.
      return Object.fromEntries(Object.entries(files).filter(([file]) => !file.includes('/.bin/')));
    };
    const before = snapshot();
    // The fixture's eslint and tsc configs are gates of their own: the script's is the one here.
    const gates = loadGates(root).gates.filter((gate) => gate.name === 'format');
    const plan = planRuns(gates, root, { files: ['src/math.ts'], deleted: [] }, true);
    // The whole-tree script stays the gate; after an edit prettier checks the edited file.
    expect(plan.runs.map((run) => [run.gate.name, run.args])).to.deep.equal([
      ['format', { paths: ['src/math.ts'] }],
    ]);
    const [format] = createGateTools(gates, { root, env: gateEnv() });
    const result = await format.run({ paths: ['src/math.ts'] }, toolContext());
    expect(result.structuredContent.command).to.deep.equal([
      'prettier',
      '--check',
      '--cache',
      'src/math.ts',
    ]);
    expect(result.structuredContent.status).to.equal('passed');
    const session = hook(root, undefined, gates);
    append(root, 'src/math.ts', 'export const   spaced = 1;\n');
    const outcome = await session.edit('src/math.ts');
    expect(rules(outcome)).to.deep.equal(['format:prettier']);
    write(
      root,
      'src/math.ts',
      fs.readFileSync(path.join(root, 'src/math.ts'), 'utf8').replace('   ', ' '),
    );
    expect(rules(await session.edit('src/math.ts'))).to.deep.equal([]);
    const { 'src/math.ts': _edited, ...rest } = snapshot();
    const { 'src/math.ts': _original, ...restBefore } = before;
    expect(rest).to.deep.equal(restBefore);
  });
});

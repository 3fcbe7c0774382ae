// A gate the session broke blocks: eslint's config imports a module the agent deleted
// (prettier/eslint-config-prettier's eslint.config.mjs imports ./prettier.js), so lint now
// crashes where it gave a verdict at the session's start. The stop used to let the session
// end on "lint gave no verdict". A gate that could not run at the start either is no new
// failure and does not block. Also: the count names only the gates the new warnings fail.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { HookSession } from '../dist/gates/hooks/hook-session.js';
import {
  hookContext,
  runAfterEdit,
  runBeforeStop,
  startSession,
} from '../dist/gates/hooks/run-hooks.js';
import { loadGates } from '../dist/gates/load-gates.js';
import { cleanupTemporary, makeTempDir } from './fixtures/gates-support.mjs';
import { inJavaScript } from './fixtures/js-sources.mjs';
import { git, makeWarmRepo } from './fixtures/warm/warm-fixture.mjs';

/**
 * The warm fixture in JavaScript (eslint.config.js imports ./eslint-base.js; every finding
 * here is the lint's, and typescript-eslint would be two thirds of each run) without its
 * old findings, committed, with `gates`.
 */
function committedRepo(gates) {
  const root = inJavaScript(makeWarmRepo('mcp-gates-hooks-broken-'));
  fs.writeFileSync(path.join(root, 'src', 'main.js'), "export const label = 'main';\n");
  fs.writeFileSync(path.join(root, 'src', 'clean.js'), 'export const clean = 1;\n');
  const math = path.join(root, 'src', 'math.js');
  fs.writeFileSync(math, fs.readFileSync(math, 'utf8').replace('a == b', 'a === b'));
  fs.writeFileSync(path.join(root, 'mcp-gates.json'), JSON.stringify({ gates }, null, 2));
  fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules\n');
  git(root, 'init', '-q');
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'start');
  return root;
}

function hookRequest(root) {
  return {
    gates: loadGates(root).gates,
    context: hookContext(new AbortController().signal, 'test'),
    options: { root },
    session: new HookSession(),
    budgetMs: 60_000,
  };
}

const LINT = {
  lint: { command: ['eslint', '--format', 'json', '.'], parser: 'eslint-json', paths: 'append' },
};

describe('hooks: a gate the session broke blocks', function () {
  this.timeout(120000);
  after(cleanupTemporary);

  it('deleting a module the eslint config imports blocks the stop, naming the cause, once', async () => {
    const root = committedRepo(LINT);
    const request = hookRequest(root);
    // The session's first hook is the stop: no baseline, the start tree decides.
    fs.rmSync(path.join(root, 'eslint-base.js'));
    const stop = await runBeforeStop(request, { loopFlag: false });
    expect(stop.rows.find((row) => row.gate === 'lint')?.status).to.equal('error');
    expect(stop.verdict.block, stop.verdict.note).to.equal(true);
    expect(stop.verdict.reason).to.match(/1 new error since the session began remains/);
    expect(stop.verdict.reason).to.match(
      /\(project\) error lint: no verdict now, where it gave one earlier in the session: .*eslint-base\.js/,
    );
    // Not twice in a row on the same breakage.
    const again = await runBeforeStop(request, { loopFlag: true });
    expect(again.verdict.block, again.verdict.reason).to.equal(false);
    expect(again.verdict.note).to.match(/not blocking again/);
  });

  it('where the config imports itself through node_modules (a self-linked package), a verdict earlier in the session decides', async () => {
    // eslint-config-prettier's shape: node_modules/<its name> links back to the root, so the
    // start tree's config imports the live tree's modules and cannot show the start.
    const root = committedRepo(LINT);
    fs.symlinkSync(root, path.join(root, 'node_modules', 'warm-fixture'));
    const config = path.join(root, 'eslint.config.js');
    fs.writeFileSync(
      config,
      fs
        .readFileSync(config, 'utf8')
        .replace("from './eslint-base.js'", "from 'warm-fixture/eslint-base.js'"),
    );
    git(root, 'commit', '-qam', 'config through the self link');
    const request = hookRequest(root);
    const file = path.join(root, 'src', 'math.js');
    fs.appendFileSync(file, '\nexport const more = 1;\n');
    const edit = await runAfterEdit(request, [file]);
    expect(edit.rows.find((row) => row.gate === 'lint')?.status).to.equal('passed');
    fs.rmSync(path.join(root, 'eslint-base.js'));
    const stop = await runBeforeStop(request, { loopFlag: false });
    expect(stop.verdict.block, stop.verdict.note).to.equal(true);
    expect(stop.verdict.reason).to.match(/error lint: no verdict now, .*eslint-base\.js/);
  });

  it('a gate that could not run at the session start either does not block: it is named', async () => {
    const root = committedRepo({
      strict: {
        command: ['eslint', '--config', 'missing.config.js', '--format', 'json', '.'],
        parser: 'eslint-json',
        paths: 'append',
      },
    });
    const file = path.join(root, 'src', 'math.js');
    fs.appendFileSync(file, '\nexport const more = 1;\n');
    const request = hookRequest(root);
    const edit = await runAfterEdit(request, [file]);
    expect(edit.verdict.block, edit.verdict.reason).to.equal(false);
    expect(edit.verdict.note).to.match(/strict gave no verdict/);
    // Recorded once: the next calls do not run the start tree again for it.
    expect(request.session.state.erredAtStart).to.deep.equal(['strict']);
    fs.appendFileSync(file, 'export const again = 2;\n');
    const next = await runAfterEdit(request, [file]);
    expect(next.verdict.block, next.verdict.reason).to.equal(false);
    expect(request.session.state.erredAtStart).to.deep.equal(['strict']);
  });

  it('new warnings are counted against the gates they fail, not every gate failing anew', async () => {
    // lint fails anew (a new error) and its new warning with it; strict fails on an error only.
    const root = committedRepo({
      ...LINT,
      strict: {
        command: ['eslint', '--rule', '{"local/no-todo": "off"}', '--format', 'json', '.'],
        parser: 'eslint-json',
        paths: 'append',
      },
    });
    const file = path.join(root, 'src', 'clean.js');
    fs.appendFileSync(file, '\n// TODO: new\nconsole.log(1);\n');
    const edit = await runAfterEdit(hookRequest(root), [file]);
    expect(edit.verdict.block, edit.verdict.note).to.equal(true);
    expect(edit.rows.filter((row) => row.newFailure).map((row) => row.gate)).to.have.members([
      'lint',
      'strict',
    ]);
    expect(edit.verdict.reason).to.match(/new warnings? that fails? lint since/);
    expect(edit.verdict.reason).to.not.match(/fails? lint, strict/);
  });
});

describe('hooks: a note that blocks nothing names the new warnings', function () {
  this.timeout(120000);
  after(cleanupTemporary);

  it('names where each new warning is and its rule (unjs/defu: oxlint warns on `debugger`)', async () => {
    const root = committedRepo(LINT);
    const file = path.join(root, 'src', 'math.js');
    fs.appendFileSync(file, '\n// TODO: one\n// TODO: two\n// TODO: three\n// TODO: four\n');
    const edit = await runAfterEdit(hookRequest(root), [file]);
    expect(edit.verdict.block).to.equal(false);
    expect(edit.verdict.note).to.match(
      /4 new warnings, no new error: src\/math\.js:\d+:\d+ lint:local\/no-todo, src\/math\.js:\d+:\d+ lint:local\/no-todo, src\/math\.js:\d+:\d+ lint:local\/no-todo and 1 more$/,
    );
  });
});

describe('hooks: an edit made while the baseline runs', function () {
  this.timeout(120000);
  after(cleanupTemporary);

  it('does not record the gate as failing at the start: a new failure is still new', async () => {
    // eslint reads the tree, says so (a marker outside it), then the command waits: the
    // agent's edit lands while it runs, so the run fails as "changed the tree". That became
    // the gate's start status ("failed"), and a new failure was taken for an old one (unjs/defu
    // warm: its new warning stopped counting as what fails lint).
    const marker = path.join(makeTempDir('mcp-gates-hooks-marker-'), 'read');
    const root = committedRepo({
      lint: {
        command: [
          'sh',
          '-c',
          `eslint --max-warnings 1 --format json .; status=$?; : > ${marker}; sleep 2; exit $status`,
        ],
        parser: 'eslint-json',
      },
    });
    const main = path.join(root, 'src', 'main.js');
    fs.writeFileSync(main, `// TODO: an old one\n${fs.readFileSync(main, 'utf8')}`);
    git(root, 'commit', '-qam', 'one old warning: within --max-warnings 1');
    const request = hookRequest(root);
    await startSession(request);
    while (!fs.existsSync(marker)) await new Promise((resolve) => setTimeout(resolve, 50));
    const file = path.join(root, 'src', 'math.js');
    fs.appendFileSync(file, '\n// TODO: a new one\n');
    const edit = await runAfterEdit(request, [file]);
    expect(request.session.state.gates.lint.startStatus).to.not.equal('failed');
    expect(edit.rows[0]).to.include({ status: 'failed', newFindings: 1, newFailure: true });
    expect(edit.verdict.block, edit.verdict.note).to.equal(true);
  });
});

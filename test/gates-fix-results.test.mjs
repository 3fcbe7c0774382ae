// A fix tool's result lists exactly what its gate's own check finds after the fix, and
// its verdict says whether anything remains (issue 9, item 6): real oxlint, biome,
// eslint and prettier (devDependencies), and ruff when installed, in temp repositories,
// with the gates and fix argv that detection gives them.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createGateTools, detectGates } from '../dist/gates/index.js';
import {
  cleanupTemporary,
  copyRepo,
  envWithTools,
  hasCommand,
  makeRepo,
  toolContext,
} from './fixtures/gates-support.mjs';

/** Calls `<gate>_fix` as detection serves it in `root`, then the check, for comparison. */
async function fixThenCheck(root, gate) {
  const tools = createGateTools(detectGates(root).gates, { root, env: envWithTools() });
  const byName = (name) => {
    const tool = tools.find((candidate) => candidate.name === name);
    expect(tool, `${name} among ${tools.map((t) => t.name)}`).to.not.equal(undefined);
    return tool;
  };
  const fix = await byName(`${gate}_fix`).run({}, toolContext());
  const check = await byName(gate).run({}, toolContext());
  return { fix, check };
}

const rules = (result) =>
  result.structuredContent.findings.map((f) => `${f.file} ${f.severity} ${f.rule}`);

/** The fix result tells the same story as a check run right after it. */
function expectSameAsCheck(fix, check) {
  expect(fix.structuredContent.findings).to.deep.equal(check.structuredContent.findings);
  expect(fix.structuredContent.passed).to.equal(check.structuredContent.passed);
  expect(fix.isError).to.equal(check.isError);
}

describe('fix tools report what remains, read by the gate own parser', function () {
  this.timeout(120_000);
  afterEach(cleanupTemporary);

  it('oxlint_fix lists the warning oxlint --fix leaves (it said "passed, no findings")', async () => {
    const root = makeRepo({
      '.oxlintrc.json': {},
      'src/a.js': 'export function f() {\n  const unused = 1;\n  return 2;\n}\n',
    });
    const { fix, check } = await fixThenCheck(root, 'oxlint');
    expect(fix.structuredContent.command).to.deep.equal(['oxlint', '--fix']);
    expect(rules(fix)).to.deep.equal(['src/a.js warning eslint(no-unused-vars)']);
    expect(fix.structuredContent.findings[0].line).to.equal(2);
    // Warnings do not fail oxlint's gate; the header and the note still say one remains.
    expect(fix.isError).to.equal(false);
    expect(fix.text).to.match(/^oxlint_fix: passed \(exit 0, [\d.]+ s, 1 finding \(1 warning\)\)/);
    expect(fix.text).to.include('then checked with `oxlint --format json`: 1 finding remains');
    expect(fix.text).to.include('src/a.js:2:9: warning:');
    expectSameAsCheck(fix, check);
  });

  it('biome_fix lists the remaining diagnostics with files and lines, not garbled text', async () => {
    const root = copyRepo('biome-dirty');
    const { fix, check } = await fixThenCheck(root, 'biome');
    expect(rules(fix)).to.have.members([
      'src/app.js error lint/suspicious/noDoubleEquals',
      'src/app.js error lint/suspicious/noDebugger',
    ]);
    expect(fix.structuredContent.findings.map((f) => f.line)).to.have.members([2, 3]);
    expect(fix.isError).to.equal(true);
    expect(fix.text).to.include('2 findings remain');
    expectSameAsCheck(fix, check);
  });

  it('lint_fix (eslint) lists what eslint --fix could not fix, and fails', async () => {
    const root = copyRepo('js-dirty');
    fs.rmSync(path.join(root, 'package.json'));
    const { fix, check } = await fixThenCheck(root, 'lint');
    expect(rules(fix)).to.have.members([
      'src/unused.js error no-unused-vars',
      'src/unused.js warning no-console',
      'src/unused.js error eqeqeq',
    ]);
    expect(fix.isError).to.equal(true);
    expectSameAsCheck(fix, check);
  });

  it('format_fix (prettier) says nothing is left when the check passes afterwards', async () => {
    const root = copyRepo('js-dirty');
    fs.rmSync(path.join(root, 'package.json'));
    const { fix, check } = await fixThenCheck(root, 'format');
    expect(fix.isError, fix.text).to.equal(false);
    expect(fix.structuredContent.findings).to.deep.equal([]);
    expect(fix.text).to.include('the check afterwards finds nothing left');
    expectSameAsCheck(fix, check);
  });

  it('ruff_fix lists F841, which ruff check --fix leaves (it showed 0 findings)', async function () {
    // reason: ruff is a Python tool, not a devDependency; `pip install ruff` provides it.
    if (!hasCommand('ruff')) this.skip();
    const root = copyRepo('py-dirty');
    const { fix, check } = await fixThenCheck(root, 'ruff');
    // py-dirty also holds pkg/mod.py (the mypy fixture), whose undefined names ruff cannot fix.
    expect(rules(fix)).to.have.members([
      'app/main.py error F841',
      'pkg/mod.py error F821',
      'pkg/mod.py error F821',
    ]);
    expect(fix.isError).to.equal(true);
    expect(fix.text).to.include('3 findings remain');
    expectSameAsCheck(fix, check);
  });

  it('a fix that could not run reports that, not a check of the untouched tree', async () => {
    const root = makeRepo({ 'README.md': 'nothing to fix\n' });
    const tools = createGateTools(
      [
        {
          name: 'lint',
          description: 'lint',
          command: ['node', '--version'],
          fix: ['no-such-fixer-xyz', '.'],
          parser: 'generic',
          timeoutMs: 30_000,
          paths: 'append',
        },
      ],
      { root, env: envWithTools() },
    );
    const fix = await tools.find((tool) => tool.name === 'lint_fix').run({}, toolContext());
    expect(fix.isError).to.equal(true);
    expect(fix.structuredContent.command).to.deep.equal(['no-such-fixer-xyz', '.']);
    expect(fix.text).to.match(/^lint_fix: not-installed \(not run/);
  });
});

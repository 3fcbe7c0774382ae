// Sound by construction (issue 18): a page answers only from the run the call would make
// (its identity: gate, arguments, environment, config; the tree with HEAD), and a tool
// that checked nothing never reports clean. Real git repositories, real eslint, prettier
// and tsc from node_modules, through the real tool path, the CLI and the server.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Ajv } from 'ajv';
import { withCapture } from '../dist/capture/index.js';
import { createGateTools, GATE_OUTPUT_SCHEMA } from '../dist/gates/index.js';
import { parseConfig } from '../dist/gates/config.js';
import { ServerProcess, killAllServers } from './helpers/spawn-server.mjs';
import {
  CLI,
  cleanupTemporary,
  envWithTools,
  makeRepo,
  makeTempDir,
  runCli,
  toolContext,
} from './fixtures/gates-support.mjs';

const GREP_LINT = fileURLToPath(new URL('./fixtures/results/grep-lint.mjs', import.meta.url));
const validateOutput = new Ajv({ strict: false }).compile(GATE_OUTPUT_SCHEMA);

const ESLINT_JSON = {
  command: ['eslint', '--format', 'json', '.'],
  parser: 'eslint-json',
  paths: 'append',
};
const ESLINT_STYLISH = { command: ['eslint', '.'], parser: 'eslint-stylish', paths: 'append' };

/** A flat config for `**\/*.js` only; LINT_STRICT in the environment makes console an error. */
const FLAT_CONFIG = `export default [
  { ignores: ['src/generated.js'] },
  {
    files: ['**/*.js'],
    rules: {
      'no-unused-vars': 'error',
      'no-console': process.env.LINT_STRICT ? 'error' : 'warn',
    },
  },
];
`;

function git(root, ...args) {
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
    cwd: root,
    stdio: 'ignore',
  });
}

/** A committed repository: a clean file, a file with an unused variable, eslint's config. */
function lintRepo(extra = {}) {
  const root = makeRepo({
    'eslint.config.mjs': FLAT_CONFIG,
    'src/clean.js': 'export const clean = 1;\n',
    'src/dirty.js': 'const unused = 1;\nexport const dirty = 2;\n',
    ...extra,
  });
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'base');
  return root;
}

/** Calls one tool as the server does (capture wrapper around it); checks the schema. */
async function call(root, gates, name, args = {}, env = envWithTools()) {
  const tool = createGateTools(parseConfig({ gates }, 'mcp-gates.json'), { root, env }).find(
    (candidate) => candidate.name === name,
  );
  const context = toolContext();
  const result = await withCapture(() => Promise.resolve(tool.run(args, context)), {
    toolName: name,
    signal: context.signal,
  });
  expect(validateOutput(result.structuredContent), JSON.stringify(validateOutput.errors)).to.equal(
    true,
  );
  return result;
}

/** What a call answered: its status and where the answer came from. */
function answer(result) {
  const { status, source } = result.structuredContent;
  return `${status}/${source}`;
}

/** `mcp-gates run <gate> --json` in `root`: always a cold run, the reference. */
function coldRun(root, gate, paths = [], env = envWithTools()) {
  // The CLI reads paths relative to its working directory.
  const run = runCli(['run', gate, ...paths, '--json', '--root', root], { cwd: root, env });
  return { code: run.code, data: JSON.parse(run.stdout) };
}

describe("a run's identity: a page answers only from the run the call would make", function () {
  this.timeout(60000);
  after(() => {
    killAllServers();
    cleanupTemporary();
  });

  it('attack 7: pages after a run narrowed by paths run the whole repository (paths define the run)', async () => {
    const root = lintRepo();
    const gates = { lint: ESLINT_JSON };
    const narrowed = await call(root, gates, 'lint', { paths: ['src/clean.js'] });
    expect(answer(narrowed)).to.equal('passed/ran');
    // The whole repository fails: a page without paths is not a page of the narrowed run.
    const page = await call(root, gates, 'lint', { offset: 0 });
    expect(answer(page)).to.equal('failed/ran');
    expect(page.structuredContent.findings.map((f) => f.file)).to.deep.equal(['src/dirty.js']);
    // Paging that whole run is reuse; a page with other paths is another run.
    const file = await call(root, gates, 'lint', { file: 'src/dirty.js' });
    expect(answer(file)).to.equal('failed/reused');
    const other = await call(root, gates, 'lint', { paths: ['src/dirty.js'], offset: 0 });
    expect(answer(other)).to.equal('failed/ran');
    const same = await call(root, gates, 'lint', { paths: ['src/dirty.js'], file: 'src/*.js' });
    expect(answer(same)).to.equal('failed/reused');
    const cold = coldRun(root, 'lint');
    expect(cold.data.status).to.equal('failed');
    expect(cold.data.findingCount).to.equal(page.structuredContent.findingCount);
  });

  it('attack 8: a page after a changed-scope run is not served as the whole-repository page', async () => {
    const root = lintRepo();
    fs.appendFileSync(path.join(root, 'src/clean.js'), 'export const more = 2;\n');
    const gates = { lint: ESLINT_JSON };
    const changed = await call(root, gates, 'lint', { scope: 'changed' });
    expect(answer(changed)).to.equal('passed/ran');
    expect(changed.structuredContent.scope).to.include({ changedFiles: 1, checkedFiles: 1 });
    const page = await call(root, gates, 'lint', { offset: 0 });
    expect(answer(page)).to.equal('failed/ran');
    expect(page.structuredContent.scope).to.equal(null);
    // The changed scope paged with its own arguments is its run again.
    const scoped = await call(root, gates, 'lint', { scope: 'changed' });
    const scopedPage = await call(root, gates, 'lint', { scope: 'changed', offset: 0 });
    expect([answer(scoped), answer(scopedPage)]).to.deep.equal(['passed/ran', 'passed/reused']);
  });

  it('attack 9: after a switch between clean checkouts of different commits a page runs again (HEAD is in the fingerprint)', async () => {
    const root = lintRepo();
    git(root, 'checkout', '-q', '-b', 'fixed');
    fs.writeFileSync(path.join(root, 'src/dirty.js'), 'export const dirty = 2;\n');
    git(root, 'commit', '-qam', 'fix');
    git(root, 'checkout', '-q', 'main');
    const gates = { lint: ESLINT_JSON };
    expect(answer(await call(root, gates, 'lint'))).to.equal('failed/ran');
    git(root, 'checkout', '-q', 'fixed');
    const page = await call(root, gates, 'lint', { offset: 0 });
    expect(answer(page)).to.equal('passed/ran');
    expect(coldRun(root, 'lint').data.status).to.equal('passed');
    // A staged edit is a change of the index, with the work tree as it was.
    expect(answer(await call(root, gates, 'lint', { offset: 0 }))).to.equal('passed/reused');
    fs.writeFileSync(path.join(root, 'src/dirty.js'), 'const unused = 1;\n');
    git(root, 'add', 'src/dirty.js');
    expect(answer(await call(root, gates, 'lint', { offset: 0 }))).to.equal('failed/ran');
  });

  it("attack 9: a committed edit of mcp-gates.json that changes the gate's command runs again (server)", async () => {
    const root = lintRepo({
      'src/dirty.js': 'console.log("only a warning");\n',
      'mcp-gates.json': { gates: { lint: ESLINT_JSON } },
    });
    const server = new ServerProcess([CLI, 'serve', '--no-warm', '--root', root], {
      env: envWithTools(),
    });
    await server.initialize('2025-11-25');
    const first = await server.request(2, 'tools/call', { name: 'lint', arguments: {} }, 30000);
    expect(first.result.structuredContent).to.include({ status: 'passed', source: 'ran' });
    const strict = {
      ...ESLINT_JSON,
      command: ['eslint', '--format', 'json', '--max-warnings', '0', '.'],
    };
    fs.writeFileSync(
      path.join(root, 'mcp-gates.json'),
      JSON.stringify({ gates: { lint: strict } }),
    );
    git(root, 'commit', '-qam', 'strict lint');
    await server.waitFor((frame) => frame.method === 'notifications/tools/list_changed', 10000);
    const page = await server.request(
      3,
      'tools/call',
      { name: 'lint', arguments: { offset: 0 } },
      30000,
    );
    expect(page.result.structuredContent).to.include({ status: 'failed', source: 'ran' });
    expect(page.result.structuredContent.command).to.include('--max-warnings');
    expect(coldRun(root, 'lint').data.status).to.equal('failed');
    server.child.stdin.end();
    await server.exitWithin(5000);
  });

  it('the gate as configured and the environment it gets define the run, on an unchanged tree', async () => {
    const root = lintRepo({ 'src/dirty.js': 'console.log("only a warning");\n' });
    const loose = { lint: ESLINT_JSON };
    expect(answer(await call(root, loose, 'lint'))).to.equal('passed/ran');
    const strict = {
      lint: { ...ESLINT_JSON, command: ['eslint', '--format', 'json', '--max-warnings', '0', '.'] },
    };
    expect(answer(await call(root, strict, 'lint', { offset: 0 }))).to.equal('failed/ran');
    expect(answer(await call(root, loose, 'lint'))).to.equal('passed/ran');
    // eslint.config.mjs reads LINT_STRICT: a page in another environment is another run.
    const env = envWithTools({ LINT_STRICT: '1' });
    expect(answer(await call(root, loose, 'lint', { offset: 0 }, env))).to.equal('failed/ran');
    expect(coldRun(root, 'lint', [], env).data.status).to.equal('failed');
    // The budget is presentation only: a page with another maxChars reuses the run.
    const budget = await call(root, loose, 'lint', { offset: 0, maxChars: 4000 }, env);
    expect(answer(budget)).to.equal('failed/reused');
  });

  it("check combines each gate's findings from its own run, never an older run of that gate", async () => {
    const root = makeRepo({ 'src/a.js': 'BAD one\nBAD two\n' });
    const bin = makeTempDir();
    const wrapper = path.join(bin, 'grep-lint');
    fs.writeFileSync(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${GREP_LINT}" "$@"\n`, {
      mode: 0o755,
    });
    const gates = {
      lint: { command: [wrapper, path.join(bin, 'runs'), '.'], parser: 'eslint-json' },
      quiet: { command: [process.execPath, '-e', ''] },
    };
    expect((await call(root, gates, 'lint')).structuredContent.findingCount).to.equal(2);
    fs.rmSync(wrapper);
    const check = await call(root, gates, 'check');
    const lint = check.structuredContent.gates.find((row) => row.gate === 'lint');
    expect(lint).to.include({ status: 'not-installed', findingCount: 0, errors: 0 });
    expect(check.structuredContent.findings).to.deep.equal([]);
  });
});

describe('nothing checked is not clean', function () {
  this.timeout(60000);
  after(() => cleanupTemporary());

  function tsRepo() {
    return makeRepo({
      'eslint.config.mjs': FLAT_CONFIG,
      'mcp-gates.json': { gates: { lint: ESLINT_JSON, stylish: ESLINT_STYLISH } },
      'src/math.ts': 'export const half = (x: number): number => x / 2;\n',
      'src/generated.js': 'const unused = 1;\n',
      'src/clean.js': 'export const clean = 1;\n',
      'src/dirty.js': 'const unused = 1;\nexport const dirty = 2;\n',
    });
  }

  it('run lint on a .ts file that a flat config for **/*.js does not cover: nothing-checked, never passed (json and stylish)', () => {
    const root = tsRepo();
    for (const gate of ['lint', 'stylish']) {
      const { code, data } = coldRun(root, gate, ['src/math.ts']);
      expect(data, gate).to.include({ status: 'nothing-checked', passed: false, exitCode: 0 });
      expect(data.notChecked, gate).to.deep.equal(['src/math.ts']);
      expect(data.findings, gate).to.deep.equal([]);
      // Not a failure, and no pass for a script reading the exit code either: 3.
      expect(code, gate).to.equal(3);
      const text = runCli(['run', gate, 'src/math.ts', '--root', root], {
        cwd: root,
        env: envWithTools(),
      });
      expect(text.stdout, gate).to.match(new RegExp(`^${gate}: nothing-checked \\(exit 0`));
      expect(text.stdout, gate).to.include(
        'src/math.ts: eslint: File ignored because no matching configuration was supplied',
      );
      // A file behind an ignore pattern is not checked either.
      const ignored = coldRun(root, gate, ['src/generated.js', 'src/math.ts']).data;
      expect(ignored, gate).to.include({ status: 'nothing-checked', passed: false });
      expect(ignored.notChecked, gate).to.deep.equal(['src/generated.js', 'src/math.ts']);
    }
  });

  it('some paths not checked: the gate keeps its verdict and names them', () => {
    const root = tsRepo();
    for (const gate of ['lint', 'stylish']) {
      const clean = coldRun(root, gate, ['src/math.ts', 'src/clean.js']).data;
      expect(clean, gate).to.include({ status: 'passed', passed: true });
      expect(clean.notChecked, gate).to.deep.equal(['src/math.ts']);
      const dirty = coldRun(root, gate, ['src/math.ts', 'src/dirty.js']).data;
      expect(dirty, gate).to.include({ status: 'failed', findingCount: 1 });
      expect(dirty.notChecked, gate).to.deep.equal(['src/math.ts']);
    }
  });

  it('prettier given a directory with no file in it: nothing-checked', async () => {
    const root = makeRepo({ 'src/a.js': 'export const a = 1;\n' });
    // Prettier 3 says so only for a directory with no file at all (one holding only files
    // it does not format passes silently: nothing in its output tells the two apart).
    fs.mkdirSync(path.join(root, 'docs'));
    const gates = {
      format: { command: ['prettier', '--check', '.'], parser: 'prettier', paths: 'append' },
    };
    const result = await call(root, gates, 'format', { paths: ['docs'] });
    expect(result.structuredContent).to.include({ status: 'nothing-checked', passed: false });
    expect(result.structuredContent.notChecked).to.deep.equal(['docs']);
    expect(result.isError).to.equal(false);
    expect(result.text).to.include('prettier: No supported files were found in the directory');
    const both = await call(root, gates, 'format', { paths: ['docs', 'src/a.js'] });
    // Prettier exits 2 for the directory; the file it did check keeps that a failure.
    expect(both.structuredContent.status).to.equal('failed');
    expect(both.structuredContent.notChecked).to.deep.equal(['docs']);
  });

  it('tsc with no input (TS18003): nothing-checked; in build mode a referenced project may have been checked, so it fails', async () => {
    const root = makeRepo({ 'tsconfig.json': { include: ['src'] }, 'a.ts': 'export {};\n' });
    const gates = {
      single: { command: ['tsc', '--noEmit', '--pretty', 'false'], parser: 'tsc' },
      build: { command: ['tsc', '-b', '--pretty', 'false'], parser: 'tsc' },
    };
    const single = await call(root, gates, 'single');
    expect(single.structuredContent).to.include({ status: 'nothing-checked', passed: false });
    expect(single.isError).to.equal(false);
    expect(single.text).to.include('TS18003');
    const build = await call(root, gates, 'build');
    expect(build.structuredContent.status).to.equal('failed');
    expect(build.isError).to.equal(true);
  });

  it('check is no pass when one gate checked nothing', async () => {
    const root = makeRepo({ 'tsconfig.json': { include: ['src'] }, 'a.ts': 'export {};\n' });
    const gates = {
      typecheck: { command: ['tsc', '--noEmit', '--pretty', 'false'], parser: 'tsc' },
      quiet: { command: [process.execPath, '-e', ''] },
    };
    const check = await call(root, gates, 'check');
    expect(check.structuredContent).to.include({ status: 'nothing-checked', passed: false });
    expect(check.isError).to.equal(false);
    expect(check.structuredContent.gates.map((row) => row.status)).to.deep.equal([
      'nothing-checked',
      'passed',
    ]);
  });
});

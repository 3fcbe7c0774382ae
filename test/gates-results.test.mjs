// Results shaped for agents, through the real tool path (the capture wrapper around a
// tool, real gate processes): the budget, paging without a re-run, changed scope,
// new-only against a baseline, the `check` tool, and the result schema.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Ajv } from 'ajv';
import { withCapture } from '../dist/capture/index.js';
import { createGateTools, GATE_OUTPUT_SCHEMA } from '../dist/gates/index.js';
import { parseConfig } from '../dist/gates/config.js';
import { wireLength } from '../dist/gates/report/budget.js';
import { ServerProcess, killAllServers } from './helpers/spawn-server.mjs';
import { frameViolations } from './helpers/schema.mjs';
import {
  CLI,
  HOSTILE,
  cleanupTemporary,
  envWithTools,
  makeRepo,
  makeTempDir,
  runCli,
  survivors,
  toolContext,
  waitForFile,
} from './fixtures/gates-support.mjs';

const GREP_LINT = fileURLToPath(new URL('./fixtures/results/grep-lint.mjs', import.meta.url));
const validateOutput = new Ajv({ strict: false }).compile(GATE_OUTPUT_SCHEMA);

/** A gate config running grep-lint with `counter` (outside the root) counting its runs. */
function lintGate(counter, extra = {}) {
  return {
    command: [process.execPath, GREP_LINT, counter, '.'],
    parser: 'eslint-json',
    paths: 'append',
    ...extra,
  };
}

function runCount(counter) {
  return fs.existsSync(counter) ? fs.readFileSync(counter, 'utf8').trim().split('\n').length : 0;
}

/** Calls one tool as the server does (capture wrapper around it); checks budget and schema. */
async function call(root, gates, name, args = {}, { maxChars = 12_000, env, signal } = {}) {
  const specs = parseConfig({ gates }, 'mcp-gates.json');
  const tool = createGateTools(specs, { root, ...(env ? { env } : {}) }).find(
    (t) => t.name === name,
  );
  const context = toolContext(signal ? { signal } : {});
  const result = await withCapture(() => Promise.resolve(tool.run(args, context)), {
    toolName: name,
    signal: context.signal,
  });
  expect(validateOutput(result.structuredContent), JSON.stringify(validateOutput.errors)).to.equal(
    true,
  );
  expect(wireLength(result.text, result.structuredContent)).to.be.at.most(maxChars);
  // No instructions to the model in a result: facts only.
  expect(result.text).to.not.match(/\bCall |\byou should\b|\bmust\b/);
  return result;
}

function noisyRepo(count = 3000) {
  const noisy = Array.from({ length: count }, (_, index) =>
    index % 3 === 0 ? `BAD ${index}` : `MEH ${index}`,
  ).join('\n');
  return makeRepo({ 'src/noisy.js': noisy, 'src/real.js': 'ok\nok\nBAD the real one\n' });
}

function git(root, ...args) {
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
    cwd: root,
    stdio: 'ignore',
  });
}

describe('gate results shaped for agents', function () {
  this.timeout(30000);
  after(() => {
    killAllServers();
    cleanupTemporary();
  });

  it("fits 3,001 findings into the budget: the other file's error, per-file counts, exact omissions, a complete log", async () => {
    const root = noisyRepo();
    const counter = path.join(makeTempDir(), 'runs');
    const gates = { lint: lintGate(counter) };
    const result = await call(root, gates, 'lint');
    const data = result.structuredContent;
    expect(data).to.include({ status: 'failed', passed: false, findingCount: 3001, source: 'ran' });
    expect(data.counts).to.deep.equal({ error: 1001, warning: 2000, info: 0 });
    expect(data.files).to.deep.include({ file: 'src/real.js', error: 1, warning: 0, info: 0 });
    expect(data.findings.map((f) => `${f.file}:${f.line}`)).to.include('src/real.js:3');
    expect(result.text).to.include('src/real.js:3:1: error: bad thing: BAD the real one [bad]');
    expect(data.omitted.findings).to.equal(3001 - data.findings.length);
    expect(data.omitted.files).to.equal(0);
    const log = fs.readFileSync(data.logPath, 'utf8');
    expect(log.match(/: (error|warning): /g)).to.have.length(3001);
    // A smaller budget per call, and per gate in the config.
    const small = await call(root, gates, 'lint', { maxChars: 3000 }, { maxChars: 3000 });
    expect(small.structuredContent.findings.length).to.be.below(data.findings.length);
    await call(
      root,
      { lint: lintGate(counter, { maxChars: 2500 }) },
      'lint',
      {},
      { maxChars: 2500 },
    );
  });

  it('answers within the advertised minimum maxChars (2000), a long command and log path included, and lists findings', async () => {
    const root = noisyRepo();
    const counter = path.join(makeTempDir(), `${'deep/'.repeat(20)}runs`);
    fs.mkdirSync(path.dirname(counter), { recursive: true });
    const minimum = createGateTools(parseConfig({ gates: { lint: lintGate(counter) } }, 'f.json'), {
      root,
    })[0].inputSchema.properties.maxChars.minimum;
    const result = await call(
      root,
      { lint: lintGate(counter) },
      'lint',
      { maxChars: minimum },
      { maxChars: minimum },
    );
    expect(minimum).to.equal(2000);
    expect(result.structuredContent).to.include({ status: 'failed', findingCount: 3001 });
    expect(result.text).to.match(/^lint: failed/);
    expect(result.structuredContent.findings).to.have.length.of.at.least(3);
    // Whatever was left out is counted and its log named.
    expect(fs.existsSync(result.structuredContent.logPath)).to.equal(true);
  });

  it("keeps another file's error past the parse cap of 10,000 findings", async () => {
    const result = await call(
      noisyRepo(30_000),
      { lint: lintGate(path.join(makeTempDir(), 'r')) },
      'lint',
    );
    expect(result.structuredContent.findingCount).to.equal(10_000);
    expect(result.structuredContent.files.map((row) => row.file)).to.include('src/real.js');
    expect(result.text)
      .to.include('src/real.js:3:1: error')
      .and.match(/30001 findings; 10000 are kept/);
  });

  it('takes maxChars per gate in mcp-gates.json, and refuses a budget below 2000', async () => {
    expect(() => parseConfig({ gates: { lint: { command: ['x'], maxChars: 1999 } } }, 'f.json'))
      .to.throw(/gates\.lint\.maxChars/)
      .with.property('fix')
      .that.match(/from 2000 to 10000000/);
    const root = makeRepo({ 'src/a.js': 'ok\n' });
    const result = await call(root, { lint: lintGate(path.join(makeTempDir(), 'runs')) }, 'lint', {
      maxChars: 10,
    });
    expect(result.structuredContent.status).to.equal('error');
    expect(result.text).to.match(/"maxChars" is a whole number of characters, at least 2000/);
  });

  it('a crashed tool is an error, not a failed check: the note names the crash and the first lines of stderr', async () => {
    const root = makeRepo({
      'src/a.js': 'ok\n',
      Makefile: 'lint:\n\tuv-not-here run ruff check\n',
    });
    const crashing = {
      // A real Node crash, after a finding line it printed first.
      node: {
        command: [process.execPath, '-e', "console.log('src/a.js:1:1: error: first'); null.boom()"],
      },
      // A Python-like traceback: the note keeps its last line.
      python: {
        command: [
          process.execPath,
          '-e',
          "process.stderr.write('Traceback (most recent call last):\\n' + '  File \"x.py\", line 1, in <module>\\n'.repeat(9) + 'ValueError: boom\\n'); process.exit(1)",
        ],
      },
      // A recipe whose program is missing: make says so and exits 2.
      make: { command: ['make', 'lint'] },
      shell: { command: ['sh', '-c', 'uv-not-here run ruff check'] },
      // Prettier with a plugin its config names and the project did not install (exit 1).
      plugin: {
        command: [
          process.execPath,
          '-e',
          "console.log('Checking formatting...'); console.error(\"[error] Cannot find package 'prettier-plugin-pkg' imported from /x/noop.js\"); process.exit(1)",
        ],
      },
      goroot: {
        command: [
          process.execPath,
          '-e',
          "console.error('context.go:6:2: package slices is not in GOROOT (/usr/lib/go-1.19/src/slices)'); process.exit(1)",
        ],
      },
      gomod: {
        command: [
          process.execPath,
          '-e',
          'console.error("go: errors parsing go.mod:\\n/x/go.mod:3: invalid go version \'1.23.0\'"); process.exit(1)',
        ],
      },
      pnpmStdout: {
        command: [
          process.execPath,
          '-e',
          "console.log(' ERR_PNPM_BAD_PM_VERSION x'); process.exit(1)",
        ],
      },
      pnpm: {
        command: [
          process.execPath,
          '-e',
          "console.error('\\u2009ERROR\\u2009 Refusing to run pnpm@9.4.0: its npm registry signature could not be verified'); process.exit(1)",
        ],
      },
    };
    const expected = {
      node: /JavaScript exception/,
      python: /Python exception; stderr begins:\nTraceback[^]*\nValueError: boom$/,
      make: /program it runs was not found[^]*uv-not-here/,
      shell: /program it runs was not found[^]*uv-not-here: not found/,
      plugin: /a package it loads was not found[^]*prettier-plugin-pkg/,
      goroot: /Go toolchain is older than the module needs[^]*package slices is not in GOROOT/,
      gomod: /Go toolchain is older than the module needs[^]*invalid go version/,
      pnpmStdout:
        /package manager could not run the script; stdout begins:\n ERR_PNPM_BAD_PM_VERSION/,
      pnpm: /package manager could not run the script; stderr begins:\n\u2009ERROR\u2009 Refusing to run pnpm/,
    };
    for (const [name, gate] of Object.entries(crashing)) {
      const result = await call(root, { [name]: { parser: 'generic', ...gate } }, name);
      const data = result.structuredContent;
      expect(data.status, name).to.equal('error');
      expect(data.note, name)
        .to.match(/^the tool crashed: /)
        .and.match(expected[name]);
      expect(result.text, name).to.match(new RegExp(`^${name}: error`));
      expect(result.text, name).to.include(data.note.split('\n')[0]);
    }
    // A check that fails on its findings is no crash, and needs no note.
    const failing = await call(
      root,
      {
        lint: {
          command: [
            process.execPath,
            '-e',
            "console.error('src/a.js:1:1: error: x'); process.exit(1)",
          ],
          parser: 'generic',
        },
      },
      'lint',
    );
    expect(failing.structuredContent).to.include({ status: 'failed', note: null });
  });

  it('pages through the last run without running again while the tree is unchanged', async () => {
    const root = noisyRepo();
    const counter = path.join(makeTempDir(), 'runs');
    const gates = { lint: lintGate(counter) };
    const first = await call(root, gates, 'lint');
    expect(runCount(counter)).to.equal(1);
    const listed = first.structuredContent.findings.length;
    const next = await call(root, gates, 'lint', { offset: listed });
    expect(runCount(counter)).to.equal(1);
    expect(next.structuredContent).to.include({ source: 'reused', findingCount: 3001 });
    expect(next.text).to.include('not run again');
    expect(next.structuredContent.findings[0]).to.not.deep.equal(
      first.structuredContent.findings[0],
    );
    const real = await call(root, gates, 'lint', { file: 'src/real.*' });
    expect(runCount(counter)).to.equal(1);
    expect(real.structuredContent.findingCount).to.equal(1);
    expect(real.structuredContent.findings[0]).to.include({ file: 'src/real.js', line: 3 });
    // An edit since the last run: the gate runs again.
    fs.appendFileSync(path.join(root, 'src/real.js'), 'BAD again\n');
    const rerun = await call(root, gates, 'lint', { file: 'src/real.js' });
    expect(runCount(counter)).to.equal(2);
    expect(rerun.structuredContent).to.include({ source: 'ran', findingCount: 2 });
  });

  it('checks only the changed files in changed scope (staged, unstaged, untracked), and passes saying so when none changed', async () => {
    const root = makeRepo({
      'src/a.js': 'ok\n',
      'src/b.js': 'ok\n',
      'src/c.js': 'BAD committed\n',
      'notes.md': 'BAD but not a script\n',
    });
    git(root, 'init', '-q');
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'base');
    const counter = path.join(makeTempDir(), 'runs');
    const gates = { lint: lintGate(counter) };
    const none = await call(root, gates, 'lint', { scope: 'changed' });
    // The tool did not run: no pass claimed, and no failure either.
    expect(none.structuredContent).to.include({
      status: 'nothing-to-check',
      passed: false,
      exitCode: null,
    });
    expect(none.isError).to.equal(false);
    expect(none.text).to.match(/nothing-to-check \(no files changed against HEAD/);
    expect(runCount(counter)).to.equal(0);
    fs.writeFileSync(path.join(root, 'src/a.js'), 'BAD staged\n');
    git(root, 'add', 'src/a.js');
    fs.writeFileSync(path.join(root, 'src/b.js'), 'BAD unstaged\n');
    fs.writeFileSync(path.join(root, 'src/new.js'), 'BAD untracked\n');
    const changed = await call(root, gates, 'lint', { scope: 'changed' });
    expect(runCount(counter)).to.equal(1);
    expect(changed.structuredContent.findings.map((f) => f.file).sort()).to.deep.equal([
      'src/a.js',
      'src/b.js',
      'src/new.js',
    ]);
    expect(changed.structuredContent.scope).to.deep.include({
      base: null,
      changedFiles: 3,
      checkedFiles: 3,
    });
  });

  it("runs a gate that takes no paths whole in changed scope, listing the changed files' findings", async () => {
    const root = makeRepo({ 'src/a.js': 'ok\n', 'src/c.js': 'BAD committed\n' });
    git(root, 'init', '-q');
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'base');
    const counter = path.join(makeTempDir(), 'runs');
    const gates = {
      whole: { command: [process.execPath, GREP_LINT, counter], parser: 'eslint-json' },
    };
    const none = await call(root, gates, 'whole', { scope: 'changed' });
    expect(none.text).to.match(/^whole: nothing-to-check \(no files changed against HEAD/);
    expect(runCount(counter)).to.equal(0);
    fs.writeFileSync(path.join(root, 'src/a.js'), 'BAD edited\n');
    const result = await call(root, gates, 'whole', { scope: 'changed' });
    expect(runCount(counter)).to.equal(1);
    expect(result.structuredContent.findings.map((f) => f.file)).to.deep.equal(['src/a.js']);
    expect(result.structuredContent.scope).to.deep.equal({
      base: null,
      changedFiles: 1,
      checkedFiles: null,
      otherFindings: 1,
    });
    expect(result.text).to.match(/1 finding in other files not counted below/);
  });

  it('filters changed files to what a known tool checks', async () => {
    const root = makeRepo({ 'src/a.js': 'ok\n' });
    git(root, 'init', '-q');
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'base');
    fs.writeFileSync(path.join(root, 'README.md'), 'BAD\n');
    // A gate whose command names eslint: .md files are not passed to it.
    const eslintNamed = path.join(makeTempDir(), 'eslint');
    fs.copyFileSync(GREP_LINT, eslintNamed);
    const counter = path.join(makeTempDir(), 'runs');
    const gates = {
      lint: {
        command: [process.execPath, eslintNamed, counter, '.'],
        parser: 'eslint-json',
        paths: 'append',
      },
    };
    const result = await call(root, gates, 'lint', { scope: 'changed' });
    expect(result.text).to.match(
      /nothing-to-check \(none of the 1 changed files is one the tool checks/,
    );
    expect(runCount(counter)).to.equal(0);
  });

  it('lists only new findings against a baseline, despite a line shift above the old ones', async () => {
    const root = makeRepo({ 'src/a.js': 'ok\nBAD one\nok\nBAD two\nok\n' });
    const counter = path.join(makeTempDir(), 'runs');
    const env = { ...process.env, XDG_CACHE_HOME: makeTempDir() };
    const gates = { lint: lintGate(counter) };
    const missing = await call(root, gates, 'lint', { new: true }, { env });
    expect(missing.structuredContent.status).to.equal('error');
    expect(missing.text).to.match(/no baseline is recorded/);
    const partial = await call(root, gates, 'lint', { baseline: true, scope: 'changed' }, { env });
    expect(partial.text).to.match(/"baseline" records the findings of a whole run/);
    const recorded = await call(root, gates, 'lint', { baseline: true }, { env });
    expect(recorded.text).to.match(/baseline recorded: 2 findings in /);
    const baselineFile = /baseline recorded: 2 findings in (\S+)/.exec(recorded.text)[1];
    expect(baselineFile.startsWith(root)).to.equal(false);
    // Lines added above the old findings, and one new violation among them.
    fs.writeFileSync(
      path.join(root, 'src/a.js'),
      'added\nadded\nok\nBAD one\nok\nBAD new\nBAD two\nok\n',
    );
    const result = await call(root, gates, 'lint', { new: true }, { env });
    const data = result.structuredContent;
    expect(data.findings.map((f) => f.message)).to.deep.equal(['bad thing: BAD new']);
    expect(data).to.include({ status: 'failed' });
    expect(data.baseline).to.include({ newFindings: 1, oldFindings: 2, oldErrors: 2 });
    expect(result.text).to.match(/2 old findings remain \(2 errors\)/);
    // Without the new one, only old errors remain: the new-only verdict passes.
    fs.writeFileSync(path.join(root, 'src/a.js'), 'added\nok\nBAD one\nok\nBAD two\nok\n');
    const clean = await call(root, gates, 'lint', { new: true }, { env });
    expect(clean.structuredContent).to.include({ status: 'passed' });
    expect(clean.structuredContent.baseline).to.include({ newFindings: 0, oldErrors: 2 });
  });

  it('check runs every gate in parallel: one combined result in budget, each gate in its own log', async () => {
    const root = makeRepo({ 'src/a.js': 'BAD a\n' });
    const dir = makeTempDir();
    const stamp = (name) => path.join(dir, name);
    const quiet = (name, code) => ({
      command: [
        process.execPath,
        '-e',
        `const fs=require('fs');const s=Date.now();setTimeout(()=>{console.log('${name} OUTPUT');fs.writeFileSync(${JSON.stringify(stamp(name))},s+' '+Date.now());process.exit(${code})},1500)`,
      ],
    });
    const gates = {
      one: quiet('one', 0),
      two: quiet('two', 0),
      lint: lintGate(stamp('lint')),
    };
    const env = { ...process.env, GREP_LINT_DELAY_MS: '1500' };
    const result = await call(root, gates, 'check', {}, { env });
    const data = result.structuredContent;
    expect(data.status).to.equal('failed');
    expect(data.gates.map((row) => [row.gate, row.status])).to.deep.equal([
      ['one', 'passed'],
      ['two', 'passed'],
      ['lint', 'failed'],
    ]);
    expect(data.findings).to.have.length(1);
    expect(data.findings[0]).to.include({ file: 'src/a.js', rule: 'lint:bad' });
    // Each gate's output only in its own log.
    const logOf = (name) =>
      fs.readFileSync(data.gates.find((row) => row.gate === name).logPath, 'utf8');
    expect(logOf('one')).to.include('one OUTPUT').and.not.include('two OUTPUT');
    expect(logOf('two')).to.include('two OUTPUT').and.not.include('one OUTPUT');
    // Gates run side by side, as many as there are cores (no timing bound: the run
    // intervals of the first two intersect).
    if (os.availableParallelism() < 2) return; // reason: one core runs them one at a time
    const [one, two] = ['one', 'two'].map((name) =>
      fs.readFileSync(stamp(name), 'utf8').trim().split(' ').map(Number),
    );
    expect(Math.max(one[0], two[0])).to.be.below(Math.min(one[1], two[1]));
  });

  it("cancelling check kills every gate's tree", async () => {
    const root = makeRepo({ 'src/a.js': 'ok\n' });
    const dir = makeTempDir();
    const hang = (name) => ({
      command: [process.execPath, path.join(HOSTILE, 'hangs-with-tree.mjs'), path.join(dir, name)],
    });
    const controller = new AbortController();
    const running = call(
      root,
      { one: hang('one'), two: hang('two') },
      'check',
      {},
      {
        signal: controller.signal,
      },
    );
    await waitForFile(path.join(dir, 'one'));
    // Both run at once with two cores or more; with one, the second never starts.
    if (os.availableParallelism() >= 2) await waitForFile(path.join(dir, 'two'));
    controller.abort();
    const result = await running;
    expect(result.structuredContent.status).to.equal('cancelled');
    const pids = fs
      .readdirSync(dir)
      .flatMap((name) => Object.values(JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'))));
    expect(pids.length).to.be.at.least(2);
    expect(await survivors(pids)).to.deep.equal([]);
  });

  it('serves results within budget that the MCP schema accepts', async () => {
    const root = noisyRepo();
    fs.writeFileSync(
      path.join(root, 'mcp-gates.json'),
      JSON.stringify({ gates: { lint: lintGate(path.join(makeTempDir(), 'runs')) } }),
    );
    const server = new ServerProcess([CLI, 'serve', '--root', root], { env: envWithTools() });
    const revision = '2025-11-25';
    await server.initialize(revision);
    const reply = await server.request(2, 'tools/call', { name: 'lint', arguments: {} }, 20000);
    expect(frameViolations(reply, revision, 'tools/call')).to.deep.equal([]);
    expect(wireLength(reply.result.content[0].text, reply.result.structuredContent)).to.be.at.most(
      12_000,
    );
    expect(reply.result.structuredContent.status).to.equal('failed');
    server.child.stdin.end();
    await server.exitWithin(5000);
  });

  it('serves check: the server context reaches every gate (its signal is a getter, not a field)', async () => {
    const root = noisyRepo();
    fs.writeFileSync(
      path.join(root, 'mcp-gates.json'),
      JSON.stringify({
        gates: {
          lint: lintGate(path.join(makeTempDir(), 'runs')),
          quiet: { command: [process.execPath, '-e', ''] },
        },
      }),
    );
    const server = new ServerProcess([CLI, 'serve', '--root', root], { env: envWithTools() });
    const revision = '2025-11-25';
    await server.initialize(revision);
    const reply = await server.request(2, 'tools/call', { name: 'check', arguments: {} }, 30000);
    expect(frameViolations(reply, revision, 'tools/call')).to.deep.equal([]);
    const gates = reply.result.structuredContent.gates;
    expect(gates.map((gate) => [gate.gate, gate.status])).to.deep.equal([
      ['lint', 'failed'],
      ['quiet', 'passed'],
    ]);
    server.child.stdin.end();
    await server.exitWithin(5000);
  });

  it('--max-chars out of range is a usage error (exit 2); at the minimum a report of 61 findings lists some', () => {
    const root = makeRepo({
      'src/a.js': Array.from({ length: 61 }, (_, i) => `BAD ${i}`).join('\n'),
    });
    const counter = path.join(makeTempDir(), 'runs');
    fs.writeFileSync(
      path.join(root, 'mcp-gates.json'),
      JSON.stringify({ gates: { lint: lintGate(counter) } }),
    );
    for (const chars of ['999', '1999', '10000001']) {
      const refused = runCli(['run', 'lint', '--max-chars', chars, '--root', root]);
      expect(refused.code, refused.stderr).to.equal(2);
      expect(refused.stderr).to.include(
        `--max-chars ${chars} is out of range: from 2000 to 10000000`,
      );
    }
    expect(runCount(counter)).to.equal(0);
    const result = runCli(['run', 'lint', '--max-chars', '2000', '--json', '--root', root]);
    expect(result.code, result.stderr).to.equal(1);
    expect(result.stdout.length).to.be.at.most(2000 * 2); // pretty-printed JSON of a 2000 budget
    const report = JSON.parse(result.stdout);
    expect(report.findingCount).to.equal(61);
    expect(report.findings).to.have.length.of.at.least(3);
  });

  it('runs the CLI with --changed, --new, --max-chars, check and baseline', () => {
    const root = makeRepo({ 'src/a.js': 'BAD one\n' });
    const counter = path.join(makeTempDir(), 'runs');
    fs.writeFileSync(
      path.join(root, 'mcp-gates.json'),
      JSON.stringify({ gates: { lint: lintGate(counter) } }),
    );
    git(root, 'init', '-q');
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'base');
    const env = envWithTools({ XDG_CACHE_HOME: makeTempDir() });
    const changed = runCli(['run', 'lint', '--changed', '--root', root], { env });
    expect(changed.code, changed.stderr).to.equal(0);
    expect(changed.stdout).to.match(/^lint: nothing-to-check \(no files changed/);
    const baseline = runCli(['baseline', 'lint', '--root', root], { env });
    expect(baseline.code, baseline.stderr).to.equal(0);
    expect(baseline.stdout).to.match(/^lint: baseline recorded: 1 findings/);
    const fresh = runCli(
      ['run', 'lint', '--new', '--max-chars', '4000', '--json', '--root', root],
      { env },
    );
    expect(fresh.code, fresh.stderr).to.equal(0);
    expect(JSON.parse(fresh.stdout).baseline).to.include({ newFindings: 0, oldErrors: 1 });
    const committed = runCli(['baseline', '--write-file', '--root', root], { env });
    expect(committed.code, committed.stderr).to.equal(0);
    expect(fs.existsSync(path.join(root, '.mcp-gates', 'baseline-lint.json'))).to.equal(true);
    const check = runCli(['check', '--root', root], { env });
    // One gate only: check runs it all the same.
    expect(check.code).to.equal(1);
    expect(check.stdout).to.match(/^check: failed \(1 gates, 0 passed/);
  });
});

// Warm gates through a real `mcp-gates serve`: a warm server's answers equal a --no-warm
// server's on the same repository (before and after edits, after an eslint config edit),
// the repeat call starts no worker, `"warm": false` is honoured, a warm call cancelled
// mid-run leaves the server usable, and a text gate's output still reaches the report.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parseConfig } from '../dist/gates/config.js';
import { runGate } from '../dist/gates/gate-tools.js';
import { gateWarmCapability, WarmPool } from '../dist/gates/warm/index.js';
import {
  CLI,
  cleanupTemporary,
  envWithTools,
  makeTempDir,
  runCli,
  survivors,
  toolContext,
} from './fixtures/gates-support.mjs';
import { makeWarmRepo, SOMETIMES_TYPED } from './fixtures/warm/warm-fixture.mjs';

/** The text report of a result: a tool's `text`, or the content blocks of a call's answer. */
const reportOf = (result) =>
  result.text ?? result.content.map((block) => block.text ?? '').join('\n');

const LINT = {
  command: ['eslint', '--format', 'json', '.'],
  parser: 'eslint-json',
  paths: 'append',
};
const GATES = {
  lint: LINT,
  format: { command: ['prettier', '--check', '.'], parser: 'prettier' },
  typecheck: { command: ['tsc', '--noEmit', '--pretty', 'false'], parser: 'tsc' },
  coldlint: { ...LINT, warm: false },
  quicklint: { ...LINT, timeoutMs: 3000 },
  fixlint: { ...LINT, fix: ['eslint', '--fix', '.'] },
};

/** Made by the slow rule as it starts to block: the worker is then busy, whatever the load. */
const SLOW_MARK = path.join(os.tmpdir(), `mcp-gates-slow-lint-${process.pid}`);

/** A rule that blocks for 30 s on a file holding SLOW_LINT: a warm call to cancel mid-run. */
const SLOW_RULE = `
    'slow': {
      meta: { type: 'problem', schema: [] },
      create(context) {
        if (context.sourceCode.text.includes('SLOW_LINT')) {
          markSlow(${JSON.stringify(SLOW_MARK)}, '');
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30000);
        }
        return {};
      },
    },`;

function servedRepo() {
  const root = makeWarmRepo('mcp-gates-warm-serve-');
  const plugin = path.join(root, 'node_modules', 'eslint-plugin-local', 'index.js');
  fs.writeFileSync(
    plugin,
    `import { writeFileSync as markSlow } from 'node:fs';\n${fs
      .readFileSync(plugin, 'utf8')
      .replace('rules: {', `rules: {${SLOW_RULE}`)}`,
  );
  const config = path.join(root, 'eslint.config.js');
  fs.writeFileSync(
    config,
    fs
      .readFileSync(config, 'utf8')
      .replace("'local/no-todo': 'warn'", "'local/no-todo': 'warn', 'local/slow': 'error'"),
  );
  fs.writeFileSync(path.join(root, 'mcp-gates.json'), JSON.stringify({ gates: GATES }, null, 2));
  return root;
}

async function connect(root, extra = []) {
  const client = new Client({ name: 'warm-serve-test', version: '0.0.1' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--root', root, ...extra],
    cwd: root,
    env: envWithTools(),
    stderr: 'pipe',
  });
  await client.connect(transport);
  return {
    call: (name, options, args = {}) =>
      client.callTool({ name, arguments: args }, undefined, { timeout: 60000, ...options }),
    close: () => client.close(),
    pid: () => transport.pid,
  };
}

/** Linux: the warm workers among a process's children (their command line names worker-main). */
function warmWorkersOf(pid) {
  const children = fs
    .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .split(' ')
    .filter(Boolean)
    .map(Number);
  return children.filter((child) => {
    try {
      return fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('worker-main.js');
    } catch {
      return false;
    }
  });
}

/** What must not differ between warm and cold: the verdict and the findings. */
const verdict = (result) => ({
  isError: result.isError,
  passed: result.structuredContent.passed,
  exitCode: result.structuredContent.exitCode,
  findings: result.structuredContent.findings,
  findingCount: result.structuredContent.findingCount,
});

/**
 * Mocha hooks: a warm and a --no-warm server on the repository `makeRoot` builds; the
 * returned object holds root, warm and cold once `before` has run.
 */
function servePair(makeRoot) {
  const pair = {};
  before(async () => {
    pair.root = makeRoot();
    [pair.warm, pair.cold] = await Promise.all([
      connect(pair.root),
      connect(pair.root, ['--no-warm']),
    ]);
  });
  after(async () => {
    await Promise.all([pair.warm?.close(), pair.cold?.close()]);
    fs.rmSync(SLOW_MARK, { force: true });
    cleanupTemporary();
  });
  return pair;
}

const edit = (root, file, change) =>
  fs.writeFileSync(path.join(root, file), change(fs.readFileSync(path.join(root, file), 'utf8')));

describe('warm gates through mcp-gates serve', function () {
  this.timeout(120000);
  const pair = servePair(servedRepo);
  let root;
  let warm;
  let cold;
  before(() => ({ root, warm, cold } = pair));

  /** The cold server's last answer: the reference of a repeat on the same tree. */
  let reference;
  /**
   * Calls `gate` on both servers; asserts the same verdict and returns the warm result.
   * `repeat`: nothing changed since the last call, whose cold answer is this one's (the
   * cold server is not asked again).
   */
  async function same(gate, args, { repeat = false } = {}) {
    let hot;
    [hot, reference] = await Promise.all([
      warm.call(gate, {}, args),
      repeat ? reference : cold.call(gate, {}, args),
    ]);
    expect(verdict(hot)).to.deep.equal(verdict(reference));
    expect(reference.structuredContent).to.not.have.property('warm');
    return hot;
  }

  it('answers a repeat call from the same worker, with the cold result, through edits', async () => {
    const first = await same('lint');
    expect(first.structuredContent.findingCount).to.be.above(0);
    const linted = first.structuredContent.warm.incremental?.checked;
    expect(linted).to.be.above(1);
    expect(first.structuredContent.warm).to.deep.equal({
      used: true,
      started: true,
      incremental: { kept: 0, checked: linted },
    });
    // Nothing the first run read has changed: the worker returns that result.
    const second = await same('lint', undefined, { repeat: true });
    expect(second.structuredContent.warm).to.deep.equal({
      used: true,
      started: false,
      reused: true,
    });

    edit(
      root,
      'src/math.ts',
      (text) => `${text}\nexport function stop(): void {\n  console.log('x');\n}\n`,
    );
    const edited = await same('lint');
    // Only the edited file is linted again; the others' kept results answer.
    expect(edited.structuredContent.warm).to.deep.equal({
      used: true,
      started: false,
      incremental: { kept: linted - 1, checked: 1 },
    });
    expect(edited.structuredContent.findings.map((finding) => finding.rule)).to.include(
      'no-console',
    );

    // A call's paths reach the warm worker as they reach the cold command.
    const onePath = await same('lint', { paths: ['src/math.ts'] });
    expect(onePath.structuredContent.warm).to.deep.equal({
      used: true,
      started: false,
      incremental: { kept: 1, checked: 0 },
    });
    expect(onePath.structuredContent.findingCount).to.be.above(0);
    expect(
      new Set(onePath.structuredContent.findings.map((finding) => finding.file)),
    ).to.deep.equal(new Set(['src/math.ts']));

    // A config edit: the worker sees it is stale and a fresh one answers.
    edit(root, 'eslint.config.js', (text) =>
      text.replace("'no-console': 'error'", "'no-console': 'off'"),
    );
    const reconfigured = await same('lint');
    expect(reconfigured.structuredContent.warm.used).to.equal(true);
    expect(reconfigured.structuredContent.warm.started).to.equal(true);
    expect(reconfigured.structuredContent.warm.reason).to.match(/restarted/);
    expect(reconfigured.structuredContent.findings.map((finding) => finding.rule)).to.not.include(
      'no-console',
    );
  });

  it("keeps a text gate's output in the report (prettier --check) and answers tsc warm", async () => {
    edit(root, 'src/clean.ts', (text) => `${text}\nexport const ugly   =  1\n`);
    const [format, coldFormat] = await Promise.all([warm.call('format'), cold.call('format')]);
    expect(verdict(format)).to.deep.equal(verdict(coldFormat));
    // The captured output, as the report shows it, is the cold run's, in the same order.
    const outputOf = (result) => reportOf(result).split('--- output')[1];
    expect(outputOf(format)).to.be.a('string').and.equal(outputOf(coldFormat));
    expect(format.structuredContent.warm.used).to.equal(true);
    expect(format.structuredContent.passed).to.equal(false);
    expect(reportOf(format))
      .to.include('src/clean.ts')
      .and.match(/Code style issues/);
    // The first 3 files are pointed at the line prettier would change, asked of the warm
    // worker (the lines equal the cold server's: the verdicts above are equal); later
    // files stay whole-file.
    const lines = format.structuredContent.findings.map((finding) => finding.line);
    expect(lines.length).to.be.above(3);
    expect(lines.slice(0, 3).every((line) => Number.isInteger(line) && line > 0)).to.equal(true);
    expect(lines.slice(3).every((line) => line === null)).to.equal(true);
    const typecheck = await same('typecheck');
    expect(typecheck.structuredContent.warm.used).to.equal(true);
    expect(typecheck.structuredContent.findingCount).to.be.above(0);
    // The prepared check's private --tsBuildInfoFile (new on every call) keeps the worker.
    edit(root, 'src/math.ts', (text) => `${text}\nexport const wrong: number = 'x';\n`);
    const again = await same('typecheck');
    expect(again.structuredContent.warm).to.deep.equal({ used: true, started: false });
    expect(again.structuredContent.findingCount).to.equal(
      typecheck.structuredContent.findingCount + 1,
    );
  });

  it('honours "warm": false', async () => {
    // Its gate runs cold here as on the --no-warm server (not asked: the same cold command).
    const result = await warm.call('coldlint');
    expect(result.structuredContent.exitCode).to.be.a('number');
    expect(result.structuredContent.warm).to.deep.include({ used: false, started: false });
    expect(result.structuredContent.warm.reason).to.include('"warm": false');
  });

  it('kills a blocked warm call that is cancelled or out of time; the next call starts a fresh worker', async () => {
    await warm.call('quicklint');
    fs.rmSync(SLOW_MARK, { force: true });
    fs.writeFileSync(path.join(root, 'src', 'slow.ts'), '// SLOW_LINT\nexport const slow = 1;\n');
    try {
      const controller = new AbortController();
      const updates = [];
      const call = warm.call('lint', {
        signal: controller.signal,
        onprogress: (update) => updates.push(update),
      });
      call.catch(() => {});
      // Cancelled once the worker blocks in the rule (a worker still loading would take the
      // cancelled call over and finish it, which is another test's case) and has shown progress.
      for (let waited = 0; !fs.existsSync(SLOW_MARK) || updates.length === 0; waited += 50) {
        if (waited > 60000) expect.fail('the slow rule never ran');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const aborted = Date.now();
      controller.abort();
      await call.then(
        () => expect.fail('a cancelled call must not resolve'),
        (error) => expect(String(error)).to.match(/abort|cancel/i),
      );
      expect(Date.now() - aborted).to.be.below(10000);
      // Progress while the worker works, as for a cold run.
      expect(updates.length).to.be.at.least(1);
      expect(updates[0].message).to.match(/^lint: \d+ s, \d+ bytes of output$/);
      // The blocked worker does not say it refuses effects within 2 s: it is killed then.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const timedOut = await warm.call('quicklint');
      expect(timedOut.isError).to.equal(true);
      expect(timedOut.structuredContent.exitCode).to.equal(null);
      expect(reportOf(timedOut)).to.match(/timed out after 3 s/);
      expect(timedOut.structuredContent.warm.reason).to.match(
        /its worker (was stopped|finishes the check)/,
      );
    } finally {
      fs.rmSync(path.join(root, 'src', 'slow.ts'));
    }
    // The blocked worker is gone; quicklint's worker was either killed, or (not yet in the
    // slow rule at its 3 s) finished that call refusing effects: either way the next answer
    // is warm, the cold one (same), and reuses no part of the abandoned calls.
    const after = await same('lint');
    expect(after.structuredContent.warm).to.deep.include({ used: true });
    expect(after.structuredContent.warm.incremental?.kept ?? 0).to.equal(0);
  });

  it('reports a cancelled warm call as cancelled, as the cold runner does', async () => {
    const pool = new WarmPool();
    fs.writeFileSync(path.join(root, 'src', 'slow.ts'), '// SLOW_LINT\nexport const slow = 1;\n');
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 2500);
      const gate = {
        name: 'lint',
        description: 'lint',
        fix: null,
        timeoutMs: 60000,
        paths: 'none',
        source: 'config',
        ...LINT,
      };
      const result = await runGate(gate, false, {}, toolContext({ signal: controller.signal }), {
        root,
        warm: pool,
      });
      expect(result.isError).to.equal(true);
      expect(reportOf(result)).to.match(/cancelled/);
      expect(result.structuredContent.warm.used).to.equal(true);
    } finally {
      pool.close();
      fs.rmSync(path.join(root, 'src', 'slow.ts'));
    }
  });

  it("runs a fix cold and the check after it warm, with the cold check's findings", async () => {
    edit(
      root,
      'src/clean.ts',
      (text) => `${text}\nexport const isText = typeof globalThis == 'object';\n`,
    );
    const fixed = await warm.call('fixlint_fix');
    expect(fixed.structuredContent.changedFiles).to.include('src/clean.ts');
    expect(fixed.structuredContent.warm.used).to.equal(true);
    const check = await cold.call('fixlint');
    expect(fixed.structuredContent.findings).to.deep.equal(check.structuredContent.findings);
    expect(fixed.structuredContent.passed).to.equal(check.structuredContent.passed);
  });

  it('list says which gates run warm and why the others do not', () => {
    const listed = runCli(['list', '--root', root, '--json']);
    expect(listed.code).to.equal(0);
    const byName = Object.fromEntries(
      JSON.parse(listed.stdout).map((gate) => [gate.name, gate.warm]),
    );
    expect(byName.lint).to.deep.equal({ warm: true });
    const doctor = runCli(['doctor', '--root', root]);
    expect(doctor.stdout).to.match(/lint +ok[^\n]*\n +warm: yes/);
    expect(doctor.stdout).to.match(/coldlint +ok[^\n]*\n +warm: no \("warm": false/);
    expect(byName.coldlint).to.deep.equal({
      warm: false,
      reason: '"warm": false in mcp-gates.json',
    });
  });
});

describe('warm script gates through mcp-gates serve', function () {
  this.timeout(120000);
  const pair = servePair(() => {
    const root = makeWarmRepo('mcp-gates-warm-scripts-');
    edit(root, 'package.json', (text) => {
      const manifest = JSON.parse(text);
      manifest.scripts = {
        lint: 'eslint .',
        'format:check': 'prettier --check . && eslint .',
        typecheck: 'tsc --noEmit | cat',
      };
      return JSON.stringify(manifest, null, 2);
    });
    return root;
  });

  it('runs a one-command script and each step of a chain warm; a shell script stays cold', async () => {
    // Nothing changes between the calls: the cold server answers each gate once, and not
    // the shell script, which both servers run as the same cold command.
    const references = new Map();
    for (const gate of ['lint', 'format', 'typecheck', 'lint']) {
      if (gate !== 'typecheck' && !references.has(gate)) references.set(gate, pair.cold.call(gate));
      const hot = await pair.warm.call(gate);
      if (references.has(gate))
        expect(verdict(hot), gate).to.deep.equal(verdict(await references.get(gate)));
      if (gate === 'typecheck') {
        expect(hot.structuredContent.warm).to.deep.equal({
          used: false,
          started: false,
          reason: 'script has shell features',
        });
      } else {
        expect(hot.structuredContent.warm.used, gate).to.equal(true);
        expect(hot.structuredContent.findingCount, gate).to.be.above(0);
      }
    }
    const listed = runCli(['list', '--root', pair.root]);
    expect(listed.stdout).to.match(/typecheck[\s\S]*?warm: +no \(script has shell features\)/);
    expect(listed.stdout).to.match(/lint[\s\S]*?warm: +yes/);
  });

  // The last test of this server: it closes it.
  it('stops its workers when the client closes the server', async function () {
    // reason: reads a process's children from /proc (Linux); the pool's close is the same code elsewhere.
    if (process.platform !== 'linux') this.skip();
    const server = pair.warm;
    let workers;
    try {
      const result = await server.call('lint');
      expect(result.structuredContent.warm.used).to.equal(true);
      workers = warmWorkersOf(server.pid());
      expect(workers).to.have.length.at.least(1);
    } finally {
      await server.close();
    }
    expect(await survivors(workers, 5000)).to.deep.equal([]);
  });
});

describe('warm capability, decided before any worker starts', () => {
  after(cleanupTemporary);
  const gate = (command, extra = {}) => ({
    name: 'gate',
    description: 'gate',
    command,
    fix: null,
    parser: 'generic',
    timeoutMs: 60000,
    paths: 'none',
    source: 'config',
    ...extra,
  });
  const capability = (root, command, extra) =>
    gateWarmCapability(gate(command, extra), root, envWithTools());

  it('reads "warm" from mcp-gates.json as a boolean, naming the key when it is not one', () => {
    const read = (warm) =>
      parseConfig({ gates: { lint: { command: ['eslint', '.'], warm } } }, 'f');
    expect(read(false)[0].warm).to.equal(false);
    expect(read(true)[0]).to.not.have.property('warm');
    expect(() => read('no'))
      .to.throw(/gates\.lint\.warm: expected true or false, got/)
      .with.property('code', 'ECONFIG_TYPE');
  });

  it('names why a gate stays cold: Rust tools, type-aware eslint, TypeScript 7, foreign eslint', () => {
    const root = makeWarmRepo('mcp-gates-warm-capability-');
    expect(capability(root, ['eslint', '.'])).to.deep.equal({ warm: true });
    expect(capability(root, ['biome', 'check', '.'])).to.deep.equal({
      warm: false,
      reason: 'biome: Rust-based, starts fast',
    });
    expect(capability(root, ['tsc', '-b', 'tsconfig.json'])).to.deep.equal({
      warm: false,
      reason: 'tsc --build runs cold',
    });
    const steps = [
      { command: ['eslint', '.'], parser: 'eslint-stylish' },
      { command: ['oxlint'], parser: 'oxlint-text' },
    ];
    expect(capability(root, ['npm', 'run', 'lint'], { steps })).to.deep.equal({
      warm: true,
      reason: 'oxlint: Rust-based, starts fast',
    });

    fs.writeFileSync(
      path.join(root, 'eslint.config.js'),
      'export default [{ languageOptions: { parserOptions: { projectService: true } } }];\n',
    );
    expect(capability(root, ['eslint', '.'])).to.deep.equal({
      warm: false,
      reason: 'type-aware ESLint config',
    });

    // Type information left to the environment (vite: only inside VS Code) is the worker's
    // to see after a call (gates-warm-typeaware.test.mjs); a literal asking for it is cold.
    fs.writeFileSync(path.join(root, 'eslint.config.js'), SOMETIMES_TYPED);
    expect(capability(root, ['eslint', '.'])).to.deep.equal({ warm: true });
    for (const typed of [
      "export default [{ languageOptions: { parserOptions: { project: './tsconfig.json' } } }];\n",
      'export default [{ languageOptions: { parserOptions: { projectService: { allowDefaultProject: [] } } } }];\n',
      "import tseslint from 'typescript-eslint';\nexport default [...tseslint.configs.strictTypeChecked];\n",
      "module.exports = { extends: ['plugin:@typescript-eslint/recommended-type-checked'] };\n",
    ]) {
      fs.writeFileSync(path.join(root, 'eslint.config.js'), typed);
      expect(capability(root, ['eslint', '.']), typed).to.deep.equal({
        warm: false,
        reason: 'type-aware ESLint config',
      });
    }

    // reason: the stand-in tsc is a POSIX executable (Windows looks for a .cmd shim).
    if (process.platform !== 'win32') {
      const native = makeTempDir('mcp-gates-warm-ts7-');
      fs.writeFileSync(path.join(native, 'package.json'), '{ "name": "ts7" }\n');
      fs.mkdirSync(path.join(native, 'node_modules', '.bin'), { recursive: true });
      fs.mkdirSync(path.join(native, 'node_modules', 'typescript'));
      fs.writeFileSync(
        path.join(native, 'node_modules', 'typescript', 'package.json'),
        '{ "name": "typescript", "version": "7.0.2" }\n',
      );
      fs.writeFileSync(path.join(native, 'node_modules', '.bin', 'tsc'), '#!/bin/sh\n', {
        mode: 0o755,
      });
      expect(capability(native, ['tsc', '--noEmit'])).to.deep.equal({
        warm: false,
        reason: 'typescript 7.0.2 ships the native tsc, which starts fast: it runs cold',
      });
    }
    // No node_modules of its own: eslint from PATH may be another version than it loads.
    expect(capability(makeTempDir(), ['eslint', '.'])).to.deep.equal({
      warm: false,
      reason: "eslint is not the project's own (node_modules/.bin)",
    });
  });
});

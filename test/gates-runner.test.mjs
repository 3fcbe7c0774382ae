// The gate runner and gate tools against hostile gates (small node scripts). These run
// in the mocha process with no capture active, so the report comes from the runner's
// own bounded transcript; test/cli-run.test.mjs covers the same gates under capture.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createGateTools, GATE_OUTPUT_SCHEMA, runGateCommand } from '../dist/gates/index.js';
import { wireLength } from '../dist/gates/report/budget.js';
import { gateLifelineMode, watchdogPidForTest } from '../dist/gates/run/gate-lifeline.js';
import {
  HOSTILE,
  cleanupTemporary,
  isAlive,
  makeTempDir,
  survivors,
  toolContext,
  waitForFile,
} from './fixtures/gates-support.mjs';

const hostile = (name) => path.join(HOSTILE, name);

function gate(name, command, extra = {}) {
  return {
    name,
    description: `hostile ${name}`,
    command,
    fix: null,
    parser: 'generic',
    timeoutMs: 20000,
    paths: 'none',
    source: 'config',
    ...extra,
  };
}

async function callGate(spec, { root = makeTempDir(), args = {}, context = toolContext() } = {}) {
  const [tool] = createGateTools([spec], { root });
  return tool.run(args, context);
}

describe('gates runner and tools (hostile gates)', function () {
  this.timeout(30000);
  afterEach(cleanupTemporary);

  it('reports stdout and stderr of the gate, with a one-line header', async () => {
    const result = await callGate(gate('noisy', ['node', hostile('stdout-and-stderr.mjs')]));
    expect(result.isError).to.equal(false);
    const [header] = result.text.split('\n');
    expect(header).to.match(/^noisy: passed \(exit 0, \d+\.\d s, no findings\)$/);
    expect(result.text)
      .to.include('OUT-MARKER from the gate')
      .and.include('ERR-MARKER from the gate');
    expect(result.structuredContent).to.include({
      gate: 'noisy',
      passed: true,
      exitCode: 0,
      signal: null,
    });
    expect(result.structuredContent).to.include({ status: 'passed', source: 'ran' });
    expect(result.structuredContent).to.not.have.property('report');
  });

  it('reports what a grandchild writes', async () => {
    const result = await callGate(gate('family', ['node', hostile('grandchild-writes.mjs')]));
    expect(result.text)
      .to.include('GRANDCHILD-OUT')
      .and.include('GRANDCHILD-ERR')
      .and.include('CHILD-DONE grandchild exit 0');
  });

  it('gives a gate that reads stdin end-of-file at once', async () => {
    const result = await callGate(gate('reader', ['node', hostile('reads-stdin.mjs')]));
    expect(result.text).to.match(/STDIN-EOF bytes=0 after \d+ ms/);
    expect(result.text).to.not.include('STDIN-BLOCKED');
    expect(result.isError).to.equal(false);
  });

  it('kills the whole tree on timeout: no pid survives', async () => {
    const pidFile = path.join(makeTempDir(), 'pids.json');
    const started = Date.now();
    const result = await callGate(
      gate('hang', ['node', hostile('hangs-with-tree.mjs'), pidFile], { timeoutMs: 1500 }),
    );
    const pids = JSON.parse(fs.readFileSync(pidFile, 'utf8'));
    expect(await survivors([pids.child, pids.grandchild])).to.deep.equal([]);
    expect(Date.now() - started).to.be.below(10000);
    expect(result.isError).to.equal(true);
    expect(result.text.split('\n')[0]).to.match(/^hang: timed-out \(timed out, /);
    expect(result.text)
      .to.include('timed out after 1.5 s; the process tree was killed')
      .and.include('HANGING');
    expect(result.structuredContent).to.include({ passed: false, exitCode: null });
  });

  it('ends a run whose gate exited but left a descendant holding its pipes, killing it', async function () {
    // reason: on Windows without the addon, taskkill /T cannot reach the descendants of a gate
    // that has already exited (no process group, no job), so the orphan survives
    if (process.platform === 'win32' && gateLifelineMode().mode === 'degraded') this.skip();
    const pidFile = path.join(makeTempDir(), 'pids.json');
    const started = Date.now();
    const result = await callGate(gate('orphan', ['node', hostile('leaves-orphan.mjs'), pidFile]));
    const pids = JSON.parse(fs.readFileSync(pidFile, 'utf8'));
    expect(Date.now() - started).to.be.below(10000);
    expect(await survivors([pids.grandchild])).to.deep.equal([]);
    expect(result.text).to.include('LEFT AN ORPHAN');
    expect(result.structuredContent).to.include({ exitCode: 0, passed: true });
  });

  it('starts a watchdog in a session of its own that holds only /dev/null and its pipe (Linux)', async function () {
    // reason: the watchdog's session and fds are read from /proc
    if (process.platform !== 'linux' || gateLifelineMode().mode !== 'native') this.skip();
    const result = await callGate(gate('noisy', ['node', hostile('stdout-and-stderr.mjs')]));
    expect(result.isError).to.equal(false);
    const watchdog = watchdogPidForTest();
    expect(watchdog).to.be.above(0);
    const stat = fs.readFileSync(`/proc/${watchdog}/stat`, 'utf8');
    const [, parent, group, session] = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    expect({ parent, group, session }).to.deep.equal({
      parent: process.pid,
      group: watchdog,
      session: watchdog,
    });
    const fds = fs.readdirSync(`/proc/${watchdog}/fd`).map(Number);
    expect(fds.sort()).to.deep.equal([0, 1, 2, 3]);
    for (const fd of [0, 1, 2]) {
      expect(fs.readlinkSync(`/proc/${watchdog}/fd/${fd}`)).to.equal('/dev/null');
    }
    expect(fs.readlinkSync(`/proc/${watchdog}/fd/3`)).to.match(/^pipe:/);
  });

  it('kills the whole tree when the call is aborted, and reports the cancellation', async () => {
    const pidFile = path.join(makeTempDir(), 'pids.json');
    const controller = new AbortController();
    const running = callGate(gate('hang', ['node', hostile('hangs-with-tree.mjs'), pidFile]), {
      context: toolContext({ signal: controller.signal }),
    });
    const pids = JSON.parse(await waitForFile(pidFile));
    controller.abort();
    const result = await running;
    // The result comes only after the tree is dead: no waiting here where /proc tells a
    // zombie from a live process (Linux). Elsewhere an unreaped zombie still answers
    // kill(pid, 0), so it gets the time its new parent takes to reap it.
    const tree = [pids.child, pids.grandchild];
    const alive = process.platform === 'linux' ? tree.filter(isAlive) : await survivors(tree);
    expect(alive).to.deep.equal([]);
    expect(result.isError).to.equal(true);
    expect(result.text).to.match(/^hang: cancelled \(cancelled, /);
  });

  it('keeps the report bounded when a gate writes 100 MB', async () => {
    const result = await callGate(gate('flood', ['node', hostile('floods-stdout.mjs'), '100']));
    expect(result.isError).to.equal(false);
    expect(wireLength(result.text, result.structuredContent)).to.be.at.most(12_000);
    expect(result.text).to.include('HEAD-MARKER').and.include('TAIL-MARKER');
    expect(result.text).to.match(/--- output \(104857624 bytes; head and tail, \d+ bytes shown/);
    expect(result.structuredContent.omitted.outputBytes).to.be.above(104_000_000);
    expect(result.structuredContent.logPath).to.be.a('string');
  });

  it('fails a gate that exits 0 while printing an error finding', async () => {
    const result = await callGate(
      gate('sneaky', ['node', hostile('exits-zero-with-findings.mjs')]),
    );
    expect(result.isError).to.equal(true);
    expect(result.text.split('\n')[0]).to.match(
      /^sneaky: failed \(exit 0, .*2 findings \(1 error, 1 warning\)\)$/,
    );
    expect(result.text).to.include('note: exit code 0, but the output reports 1 error');
    expect(result.structuredContent.findings).to.deep.equal([
      {
        file: 'src/app.js',
        line: 3,
        column: 7,
        endLine: null,
        endColumn: null,
        severity: 'error',
        rule: 'no-bad-things',
        message: 'something bad happened here',
      },
      {
        file: 'src/lib.js',
        line: 10,
        column: 1,
        endLine: null,
        endColumn: null,
        severity: 'warning',
        rule: null,
        message: 'this is only a warning',
      },
    ]);
  });

  it('fails a gate that exits non-zero with no output, and says so', async () => {
    const result = await callGate(gate('mute', ['node', hostile('fails-silently.mjs')]));
    expect(result.isError).to.equal(true);
    expect(result.text.split('\n')[0]).to.match(/^mute: failed \(exit 3, .*no findings\)$/);
    expect(result.text)
      .to.include('exit code 3 with no finding the parser recognised')
      .and.include('(no output)');
    expect(result.structuredContent).to.include({ exitCode: 3, passed: false });
  });

  it('reports a missing binary with the fix, as an isError result', async () => {
    const result = await callGate(gate('lint', ['definitely-not-a-real-linter-xyz', '.']));
    expect(result.isError).to.equal(true);
    expect(result.text.split('\n')[0]).to.match(/^lint: not-installed \(not run, /);
    expect(result.text).to.include('`definitely-not-a-real-linter-xyz` was not found in');
    expect(result.text)
      .to.match(/Fix: install definitely-not-a-real-linter-xyz/)
      .and.match(/never downloads tools/);
  });

  it('names the npm package for a missing well-known tool', async () => {
    const root = makeTempDir();
    const result = await callGate(gate('lint', ['eslint', '.']), { root }).then(
      (r) => r,
      (e) => e,
    );
    // eslint may be on PATH on some machines; the fix text only appears when it is not.
    if (result.text.includes('not found'))
      expect(result.text).to.include('npm install --save-dev eslint');
    else expect(result.text).to.match(/^lint: /);
  });

  it('strips ANSI codes, sets NO_COLOR/FORCE_COLOR, runs in the root, passes argv without a shell', async () => {
    const root = makeTempDir();
    fs.writeFileSync(path.join(root, 'a b;$(touch pwned).js'), '');
    const spec = gate('color', ['node', hostile('prints-color.mjs')], { paths: 'append' });
    const result = await callGate(spec, { root, args: { paths: ['a b;$(touch pwned).js'] } });
    expect(result.text).to.include('RED-TEXT NO_COLOR=1 FORCE_COLOR=0');
    expect(result.text).to.not.include('\u001b[');
    expect(result.text).to.include(`CWD=${root}`);
    expect(result.text).to.include('ARGS=["a b;$(touch pwned).js"]');
    expect(fs.existsSync(path.join(root, 'pwned'))).to.equal(false);
  });

  it('rejects paths that escape the root before running anything', async () => {
    const spec = gate('color', ['node', hostile('prints-color.mjs')], { paths: 'append' });
    for (const bad of ['../x', '/etc/passwd', '--help']) {
      const result = await callGate(spec, { args: { paths: [bad] } });
      expect(result.isError, bad).to.equal(true);
      expect(result.text, bad).to.match(/^color: error \(not run\)/);
      expect(result.text, bad).to.not.include('ARGS=');
    }
  });

  it('rejects paths for a gate that takes none, and unknown arguments', async () => {
    const spec = gate('whole', ['node', hostile('prints-color.mjs')]);
    const withPaths = await callGate(spec, { args: { paths: ['.'] } });
    expect(withPaths.isError).to.equal(true);
    expect(withPaths.text).to.match(/takes no paths/);
    const unknown = await callGate(spec, { args: { verbose: true } });
    expect(unknown.text).to.match(/unknown argument "verbose"/);
  });

  it('sends progress about once a second while running, none after the result', async () => {
    const updates = [];
    const pidFile = path.join(makeTempDir(), 'pids.json');
    const result = await callGate(
      gate('slow', ['node', hostile('hangs-with-tree.mjs'), pidFile], { timeoutMs: 2600 }),
      {
        context: toolContext({ onProgress: (update) => updates.push(update) }),
      },
    );
    const atResult = updates.length;
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(updates.length).to.equal(atResult);
    expect(atResult).to.be.within(2, 4);
    expect(updates[0].progress).to.equal(1);
    expect(updates[1].progress).to.be.above(updates[0].progress);
    expect(updates[0].message).to.match(/^slow: 1 s, \d+ bytes of output$/);
    expect(result.isError).to.equal(true);
  });

  it('runs the runner directly with a timeout and reports the end state', async () => {
    const outcome = await runGateCommand({
      root: makeTempDir(),
      argv: ['node', hostile('fails-silently.mjs')],
      timeoutMs: 10000,
      signal: new AbortController().signal,
    });
    expect(outcome).to.include({ end: 'exited', exitCode: 3, signal: null, outputBytes: 0 });
  });
});

describe('gate tools (descriptors)', () => {
  afterEach(cleanupTemporary);

  it('makes <gate> and <gate>_fix with truthful annotations and object schemas', () => {
    const tools = createGateTools(
      [
        gate('lint', ['eslint', '.'], { fix: ['eslint', '--fix', '.'], paths: 'append' }),
        gate('typecheck', ['tsc', '--noEmit']),
      ],
      { root: makeTempDir() },
    );
    expect(tools.map((tool) => tool.name)).to.deep.equal([
      'lint',
      'lint_fix',
      'typecheck',
      'check',
    ]);
    const [lint, lintFix, typecheck] = tools;
    expect(lint.annotations).to.include({
      readOnlyHint: true,
      idempotentHint: true,
      destructiveHint: false,
      openWorldHint: false,
    });
    expect(lintFix.annotations).to.include({ readOnlyHint: false, destructiveHint: true });
    expect(Object.keys(lint.inputSchema.properties).sort()).to.deep.equal([
      'base',
      'baseline',
      'file',
      'maxChars',
      'new',
      'offset',
      'paths',
      'scope',
    ]);
    expect(lint.inputSchema).to.include({ type: 'object', additionalProperties: false });
    expect(lint.inputSchema.properties.paths).to.include({ type: 'array' });
    // A gate that takes no paths has every other argument, and no "paths".
    expect(Object.keys(typecheck.inputSchema.properties).sort()).to.deep.equal([
      'base',
      'baseline',
      'file',
      'maxChars',
      'new',
      'offset',
      'scope',
    ]);
    expect(Object.keys(lintFix.inputSchema.properties).sort()).to.deep.equal([
      'base',
      'maxChars',
      'paths',
      'scope',
    ]);
    for (const tool of tools) {
      expect(tool.outputSchema).to.equal(GATE_OUTPUT_SCHEMA);
      expect(tool.description).to.be.a('string').and.not.equal('');
    }
    expect(lintFix.description).to.match(/rewrites files/);
    expect(GATE_OUTPUT_SCHEMA.type).to.equal('object');
    expect(GATE_OUTPUT_SCHEMA.required).to.include.members([
      'gate',
      'passed',
      'exitCode',
      'signal',
      'durationMs',
      'findings',
      'status',
      'omitted',
      'logPath',
    ]);
    expect(GATE_OUTPUT_SCHEMA.properties).to.not.have.property('report');
  });
});

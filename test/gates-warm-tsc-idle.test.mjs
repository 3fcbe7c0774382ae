// Issue 30, items 3, 5 and 7: a warm tsc worker frees the last check's types while it idles.
// Once a call's answer is sent, the kept builder's program is replaced by a copy without a
// checker (TypeScript's own structure reuse from a host that answers only what the kept
// program was made from) and the worker collects: the next call starts with nothing to
// collect, and its answer is still a cold tsc's.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { WarmPool } from '../dist/gates/warm/index.js';
import { loadTscAdapter } from '../dist/gates/warm/tsc-adapter.js';
import { cleanupTemporary, makeTempDir } from './fixtures/gates-support.mjs';
import { editBody, editExportedType, writeBigProject } from './fixtures/warm/big-project.mjs';
import { gateEnv, linkTypescript, runCold } from './fixtures/warm/warm-fixture.mjs';

const TSC = ['tsc', '--noEmit', '--pretty', 'false'];
const STEPS = fileURLToPath(new URL('./fixtures/warm/tsc-idle-steps.mjs', import.meta.url));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The generated project, its libs unchecked: checking them costs every cold run and first
 * call the same, and what is freed, reparsed and checked again here is the project's.
 */
function bigProject(n) {
  const root = makeTempDir('mcp-gates-tsc-idle-');
  writeBigProject(root, n, { skipLibCheck: true });
  return linkTypescript(root);
}

describe('warm tsc: the last check freed while the worker idles (issue 30 items 3, 5, 7)', function () {
  this.timeout(120000);
  after(cleanupTemporary);

  it('copies the kept program without its checker, reading and parsing nothing; the next call reparses and checks the edited file alone, collects nothing, and answers as cold tsc', async function () {
    const root = bigProject(12);
    // The adapter in a process of its own, started in the project (tsc-idle-steps.mjs).
    const steps = spawn(process.execPath, [STEPS, ...TSC.slice(1)], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const replies = readline.createInterface({ input: steps.stdout })[Symbol.asyncIterator]();
    const ask = async (command) => {
      steps.stdin.write(`${command}\n`);
      const { value, done } = await replies.next();
      if (done) throw new Error('the steps process ended');
      return JSON.parse(value);
    };
    try {
      const call = async () => {
        const warm = await ask('run');
        const cold = runCold(root, TSC);
        expect({ exitCode: warm.exitCode, stdout: warm.stdout }).to.deep.equal({
          exitCode: cold.exitCode,
          stdout: cold.stdout,
        });
        return warm;
      };
      await call();
      // What worker-main does once the answer is sent: the adapter's release, then a full
      // collection, in one task. The copy reads and parses nothing, and the types the
      // first check made are gone.
      const release = await ask('release');
      expect(release).to.deep.include({ asked: [], programs: 1, parsed: 0, typesMade: 200 });
      expect(release.typesAlive, 'types alive').to.equal(0);
      // A second release before a call has nothing left to copy.
      expect(await ask('release')).to.deep.include({ asked: [], programs: 0 });

      // The next call starts from the copy: the edited file is parsed and checked alone,
      // and nothing is collected within the call.
      editBody(root, 7);
      expect(await call()).to.deep.include({ parsed: 1, checked: 1, collectedInCall: 0 });
      // An exported type edited: the file's old signature is computed on the copy.
      expect((await ask('release')).programs).to.equal(1);
      editExportedType(root, 3);
      const typeEdit = await call();
      expect(typeEdit).to.deep.include({ parsed: 1, collectedInCall: 0 });
      expect(typeEdit.checked).to.be.above(1);
      // A call that comes before the worker idled collects the last check itself.
      editBody(root, 5);
      expect(await call()).to.deep.include({ parsed: 1, checked: 1, collectedInCall: 1 });
    } finally {
      steps.stdin.end();
      steps.kill();
    }
  });

  it('has the worker release after each call, and grow its heap less than V8 does by default', function () {
    const adapter = loadTscAdapter(bigProject(1), () => undefined);
    expect(adapter).to.not.be.a('string');
    expect(adapter.releaseAfterCall).to.equal(true);
    expect(adapter.beforeRelease).to.be.a('function');
    // A check keeps most of what it allocates: V8 would let the heap grow up to 4x past it.
    expect(adapter.heapGrowingPercent).to.be.within(1, 100);
  });

  it('through the pool: a call after the worker idled collects nothing within it, a call at once does; both answer as cold tsc', async function () {
    const root = bigProject(12);
    const env = { ...gateEnv(), MCP_GATES_TIMING: '1' };
    const pool = new WarmPool();
    try {
      const warmCall = async () => {
        const warm = await pool.run({ root, argv: TSC, timeoutMs: 60000, env });
        expect(warm.kind, warm.reason).to.equal('ran');
        return warm;
      };
      const asCold = (warm) => {
        const cold = runCold(root, TSC);
        expect({ exitCode: warm.exitCode, stdout: warm.stdout }).to.deep.equal({
          exitCode: cold.exitCode,
          stdout: cold.stdout,
        });
        return warm.phases;
      };
      const call = async () => asCold(await warmCall());
      expect(await call()).to.not.have.property('collect');
      // Past the worker's release delay (200 ms): the copy is made and collected first.
      editBody(root, 4);
      await sleep(1000);
      expect(await call()).to.not.have.property('collect');
      editExportedType(root, 2);
      // Cold first (it takes longer than the release delay): the warm call is the next one.
      const coldTypeEdit = runCold(root, TSC);
      await sleep(300);
      const typeEdit = await warmCall();
      expect({ exitCode: typeEdit.exitCode, stdout: typeEdit.stdout }).to.deep.equal({
        exitCode: coldTypeEdit.exitCode,
        stdout: coldTypeEdit.stdout,
      });
      // At once (the cold run compared after it): the release is cancelled and the call
      // collects the last check itself before it checks.
      editBody(root, 9);
      const atOnce = await warmCall();
      expect(typeEdit.phases).to.not.have.property('collect');
      expect(atOnce.phases.collect).to.be.a('number');
      asCold(atOnce);
      // A repeat answered from the kept result at once, as a hook's does, cancels the
      // release as it starts and sets it again as it ends.
      editBody(root, 10);
      await warmCall();
      expect((await warmCall()).reused).to.equal(true);
      await sleep(1000);
      editBody(root, 11);
      expect(asCold(await warmCall())).to.not.have.property('collect');
    } finally {
      await pool.close();
    }
  });
});

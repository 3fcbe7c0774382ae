// Issue 30, items 3, 5 and 7: a warm tsc worker frees the last check's types while it idles.
// Once a call's answer is sent, the kept builder's program is replaced by a copy without a
// checker (TypeScript's own structure reuse from a host that answers only what the kept
// program was made from) and the worker collects: the next call starts with nothing to
// collect, and its answer is still a cold tsc's.
import { expect } from 'chai';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { WarmPool } from '../dist/gates/warm/index.js';
import { loadTscAdapter } from '../dist/gates/warm/tsc-adapter.js';
import { cleanupTemporary, makeTempDir } from './fixtures/gates-support.mjs';
import { editBody, editExportedType, writeBigProject } from './fixtures/warm/big-project.mjs';
import { privateCollector, trackTypes } from './fixtures/warm/ts-types.mjs';
import { gateEnv, linkTypescript, runCold } from './fixtures/warm/warm-fixture.mjs';

const TSC = ['tsc', '--noEmit', '--pretty', 'false'];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function bigProject(n) {
  const root = makeTempDir('mcp-gates-tsc-idle-');
  writeBigProject(root, n);
  return linkTypescript(root);
}

/** Every call that reads the tree through node's fs, counted while `counting` holds. */
function countTreeReads() {
  const names = [
    'readFileSync',
    'statSync',
    'lstatSync',
    'existsSync',
    'readdirSync',
    'realpathSync',
    'openSync',
    'accessSync',
  ];
  const originals = names.map((name) => [name, fs[name]]);
  const asked = [];
  for (const [name, original] of originals) {
    fs[name] = function (...args) {
      asked.push(`${name} ${String(args[0])}`);
      return original.apply(this, args);
    };
  }
  return {
    asked,
    restore: () => {
      for (const [name, original] of originals) fs[name] = original;
    },
  };
}

describe('warm tsc: the last check freed while the worker idles (issue 30 items 3, 5, 7)', function () {
  this.timeout(120000);
  after(cleanupTemporary);

  it('copies the kept program without its checker, reading and parsing nothing; the next call reparses and checks the edited file alone, collects nothing, and answers as cold tsc', async function () {
    const root = bigProject(12);
    const ts = createRequire(path.join(root, 'package.json'))('typescript');
    const gc = privateCollector();
    // The first types the first call's checker makes, held weakly.
    const types = trackTypes(ts, 200);
    let collectedInCall = 0;
    const adapter = loadTscAdapter(root, () => {
      collectedInCall++;
      gc();
    });
    expect(adapter).to.not.be.a('string');
    expect(adapter.releaseAfterCall).to.equal(true);
    // It keeps most of what a check allocates: the heap grows less than V8's default (up
    // to 4x) past what it keeps before a full collection.
    expect(adapter.heapGrowingPercent).to.be.within(1, 100);
    const cwd = process.cwd();
    process.chdir(root);
    ts.performance.enable();
    const count = (event) => ts.performance.getCount(event);
    try {
      const call = async () => {
        const before = { parsed: count('beforeParse'), checked: count('beforeCheck') };
        const warm = await adapter.run(TSC.slice(1));
        const cold = runCold(root, TSC);
        expect({ exitCode: warm.exitCode, stdout: warm.stdout }).to.deep.equal({
          exitCode: cold.exitCode,
          stdout: cold.stdout,
        });
        return {
          parsed: count('beforeParse') - before.parsed,
          checked: count('beforeCheck') - before.checked,
        };
      };
      await call();
      expect(types.made()).to.equal(200);
      // What worker-main does once the answer is sent: the adapter's release, then a full
      // collection, in one task.
      const reads = countTreeReads();
      const programs = count('beforeProgram');
      const parsed = count('beforeParse');
      try {
        adapter.beforeRelease();
      } finally {
        reads.restore();
      }
      expect(reads.asked, 'what the copy read').to.deep.equal([]);
      expect(count('beforeProgram') - programs, 'programs made').to.equal(1);
      expect(count('beforeParse') - parsed, 'files parsed').to.equal(0);
      // A new task: a WeakRef keeps its target alive until the end of the job that made it.
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      expect(types.alive(), 'types alive').to.equal(0);
      // A second release before a call has nothing left to copy.
      const again = count('beforeProgram');
      adapter.beforeRelease();
      expect(count('beforeProgram')).to.equal(again);

      // The next call starts from the copy: the edited file is parsed and checked alone,
      // and nothing is collected within the call.
      editBody(root, 7);
      expect(await call()).to.deep.equal({ parsed: 1, checked: 1 });
      expect(collectedInCall).to.equal(0);
      // An exported type edited: the copy's own signature of the file is computed on it.
      adapter.beforeRelease();
      editExportedType(root, 3);
      const typeEdit = await call();
      expect(typeEdit.parsed).to.equal(1);
      expect(typeEdit.checked).to.be.above(1);
      expect(collectedInCall).to.equal(0);
      // A call that comes before the worker idled collects the last check itself.
      editBody(root, 5);
      expect(await call()).to.deep.equal({ parsed: 1, checked: 1 });
      expect(collectedInCall).to.equal(1);
    } finally {
      ts.performance.disable();
      types.restore();
      process.chdir(cwd);
    }
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
    } finally {
      await pool.close();
    }
  });
});

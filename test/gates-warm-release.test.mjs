// Issue 30, item 7: no warm worker above the memory of the cold command it replaces. V8
// keeps the pages a call grew its heap to; a prettier worker gives its call's garbage back
// once the answer is sent, so between calls it holds what it loaded, not its last call's
// high-water mark.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { WarmPool } from '../dist/gates/warm/index.js';
import { cleanupTemporary } from './fixtures/gates-support.mjs';
import { gateEnv, makeWarmRepo, runCold } from './fixtures/warm/warm-fixture.mjs';

const MB = 2 ** 20;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const rssOf = (pid) =>
  Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

describe('warm gates: a worker gives back what a call allocated (issue 30 item 7)', function () {
  this.timeout(120000);
  let root;
  let pool;
  before(function () {
    // reason: the worker's resident memory is read from /proc.
    if (process.platform !== 'linux') this.skip();
    root = makeWarmRepo('mcp-gates-warm-release-');
    // A file whose check allocates far more than prettier keeps loaded (its AST and doc).
    const lines = [];
    for (let i = 0; i < 5000; i++)
      lines.push(`export const value${i} = { index: ${i}, label: 'value ${i}', twice: ${i * 2} };`);
    fs.writeFileSync(path.join(root, 'src', 'big.ts'), `${lines.join('\n')}\n`);
  });
  afterEach(() => pool?.close());
  after(cleanupTemporary);

  it("prettier's worker, after a call, falls well below the memory that call grew it to; the answer is the cold one", async () => {
    const env = gateEnv();
    const argv = ['prettier', '--check', '.'];
    pool = new WarmPool();
    const warm = await pool.run({ root, argv, timeoutMs: 90000, env });
    const [pid] = pool.workerPids();
    // The RSS a call leaves, read at its answer and again until it settles (the collection
    // runs after a short idle, the pages go back in the background).
    const afterCall = rssOf(pid);
    expect(warm.kind).to.equal('ran');
    let settled = afterCall;
    for (let waited = 0; waited < 5000 && afterCall - settled < 30 * MB; waited += 250) {
      await sleep(250);
      settled = rssOf(pid);
    }
    const cold = runCold(root, argv, env);
    expect([warm.exitCode, warm.stdout]).to.deep.equal([cold.exitCode, cold.stdout]);
    expect(
      Math.round((afterCall - settled) / MB),
      `MB given back (RSS ${Math.round(afterCall / MB)} MB after the call, ${Math.round(settled / MB)} MB after)`,
    ).to.be.at.least(30);
  });
});

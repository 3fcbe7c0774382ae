// Issue 30, item 7: no warm worker above the memory of the cold command it replaces. V8
// keeps the pages a call grew its heap to; a prettier worker gives its call's garbage back
// once the answer is sent, so between calls it holds what it loaded, not its last call's
// high-water mark. During a call its heap grows at most 2x what it keeps, so its peak stays
// below the cold command's, which lets V8 grow it up to 4x.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { WarmPool } from '../dist/gates/warm/index.js';
import { cleanupTemporary } from './fixtures/gates-support.mjs';
import { gateEnv, makeWarmRepo, runCold } from './fixtures/warm/warm-fixture.mjs';

const MB = 2 ** 20;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const statusBytes = (status, name) =>
  Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)[1]) * 1024;
const rssOf = (pid) => statusBytes(fs.readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmRSS');
const peakOf = (pid) => statusBytes(fs.readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmHWM');

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
    for (let waited = 0; waited < 5000 && afterCall - settled < 10 * MB; waited += 250) {
      await sleep(250);
      settled = rssOf(pid);
    }
    const cold = runCold(root, argv, env);
    expect([warm.exitCode, warm.stdout]).to.deep.equal([cold.exitCode, cold.stdout]);
    expect(
      Math.round((afterCall - settled) / MB),
      `MB given back (RSS ${Math.round(afterCall / MB)} MB after the call, ${Math.round(settled / MB)} MB after)`,
    ).to.be.at.least(10);
  });
});

describe("warm gates: prettier's worker peaks below the cold command it replaces (issue 30 item 7)", function () {
  this.timeout(120000);
  let root;
  let pool;
  before(function () {
    // reason: peak resident memory (VmHWM) is read from /proc.
    if (process.platform !== 'linux') this.skip();
    root = makeWarmRepo('mcp-gates-warm-peak-');
    // What prettier keeps loaded (a plugin's data, as a big plugin's tables are) and what
    // each file's check throws away: V8 grows the heap with the first, the garbage fills it.
    fs.writeFileSync(
      path.join(root, 'keep.mjs'),
      `export const kept = Array.from({ length: 500000 }, (_, i) => ({ i, text: 'kept ' + i }));
export const languages = [];\n`,
    );
    fs.appendFileSync(path.join(root, '.prettierignore'), 'keep.mjs\n');
    const config = path.join(root, '.prettierrc.json');
    const options = JSON.parse(fs.readFileSync(config, 'utf8'));
    fs.writeFileSync(config, JSON.stringify({ ...options, plugins: ['./keep.mjs'] }));
    for (let file = 0; file < 40; file++) {
      const lines = [];
      for (let i = 0; i < 100; i++)
        lines.push(
          `export const value${i} = { index: ${i}, label: 'value ${i}', twice: ${i * 2}, list: [${i}, ${i + 1}] };`,
        );
      fs.writeFileSync(path.join(root, 'src', `many${file}.ts`), `${lines.join('\n')}\n`);
    }
  });
  afterEach(() => pool?.close());
  after(cleanupTemporary);

  it('a check of one file, then of the whole tree, peaks below cold `prettier --check .`; the answer is the cold one', async function () {
    // reason: a peak measured beside a cold run is a benchmark's work, run by .ci/run's
    // memory stage (MEMORY_PROOFS=1) and bench/repo.mjs --peaks on vuejs/core.
    if (process.env.MEMORY_PROOFS !== '1') this.skip();
    const env = gateEnv();
    const argv = ['prettier', '--check', '.'];
    pool = new WarmPool();
    const first = await pool.run({
      root,
      argv: ['prettier', '--check', 'src/many0.ts'],
      timeoutMs: 90000,
      env,
    });
    expect(first).to.include({ kind: 'ran', startedWorker: true });
    await sleep(1000); // calls come seconds apart: the first call's garbage is collected
    const warm = await pool.run({ root, argv, timeoutMs: 90000, env });
    expect(warm).to.include({ kind: 'ran', startedWorker: false });
    const warmPeak = peakOf(pool.workerPids()[0]);
    // The cold command's own peak, read as it exits (prettier ends by returning).
    const hook = path.join(root, '..', 'peak-at-exit.mjs');
    fs.writeFileSync(
      hook,
      `import fs from 'node:fs';
process.on('exit', () => fs.writeFileSync(${JSON.stringify(`${hook}.out`)}, fs.readFileSync('/proc/self/status', 'utf8')));\n`,
    );
    const cold = runCold(root, argv, { ...env, NODE_OPTIONS: `--import=${hook}` });
    const coldPeak = statusBytes(fs.readFileSync(`${hook}.out`, 'utf8'), 'VmHWM');
    expect([warm.exitCode, warm.stdout]).to.deep.equal([cold.exitCode, cold.stdout]);
    expect(
      Math.round(warmPeak / MB),
      `the worker's peak (MB) against the cold command's, ${Math.round(coldPeak / MB)} MB`,
    ).to.be.at.most(Math.round(coldPeak / MB));
  });
});

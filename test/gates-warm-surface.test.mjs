// Issue 18, item 1: the read surface of the running Node, enumerated. In a child process
// that installs the read ledger as a warm worker does (surface-probe.mjs), every function
// of the fs binding, fs, fs.promises, os, performance and perf_hooks, process, crypto
// (and web crypto), child_process and vm must be one of the ledger's wrappers or named
// harmless in read-surface.ts. The lists come from the Node running the test, so a
// function a newer Node adds that is neither fails here. Then each clock, random and
// varying reading is used inside a recorded call (not reusable) beside fixed ones (reusable).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { cleanupTemporary, makeTempDir, REPO_ROOT } from './fixtures/gates-support.mjs';

const PROBE = fileURLToPath(new URL('./fixtures/warm/surface-probe.mjs', import.meta.url));

describe('warm gates: the read surface of this Node is recorded or classified', function () {
  this.timeout(60000);
  let report;

  before(() => {
    const scratch = makeTempDir('mcp-gates-surface-');
    const result = spawnSync(
      process.execPath,
      ['--expose-internals', PROBE, path.join(REPO_ROOT, 'dist'), scratch],
      { encoding: 'utf8', timeout: 50000 },
    );
    expect(result.status, result.stderr).to.equal(0);
    report = JSON.parse(result.stdout);
  });
  after(cleanupTemporary);

  it('enumerated every surface (the probe saw functions on each)', () => {
    for (const label of [
      'fs binding',
      'fs',
      'fs.promises',
      'os',
      'performance',
      'perf_hooks',
      'process',
      'crypto',
      'crypto.subtle',
      'child_process',
      'vm',
    ])
      expect(report.counts[label], label).to.be.above(0);
  });

  it('finds no function that is neither wrapped by the ledger nor classified in read-surface.ts', () => {
    expect(report.unclassified, `on Node ${report.node}`).to.deep.equal([]);
  });

  it("wraps the fs binding Node's own fs module calls (process.binding is internalBinding)", function () {
    // reason: internal/test/binding needs --expose-internals, which a future Node may drop.
    if (report.sameBinding === null) this.skip();
    expect(report.sameBinding).to.equal(true);
  });

  it('makes a call that reads a clock, randomness or varying state by any path not reusable', () => {
    const reusable = Object.entries(report.denied).filter(([, reason]) => reason === null);
    expect(reusable.map(([name]) => name)).to.deep.equal([]);
    for (const [name, reason] of Object.entries(report.denied))
      expect(reason, name).to.include('surface-probe.mjs');
  });

  it('keeps a call that reads only fixed or recorded answers reusable', () => {
    expect(report.allowed).to.deep.equal(
      Object.fromEntries(Object.keys(report.allowed).map((name) => [name, null])),
    );
  });
});

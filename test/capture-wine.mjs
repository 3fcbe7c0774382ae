// The Windows backend under wine, opt-in: `bash scripts/test-windows-wine.sh` sets
// MCP_GATES_WINE_NODE to a Windows node.exe and runs this file with mocha. Not part of
// `npm test` (its name does not end in .test.mjs): wine is slow and not everywhere.
import { expect } from 'chai';
import { before, describe, it } from 'mocha';
import { runScenario } from './capture/run-scenario.mjs';

const wineNode = process.env.MCP_GATES_WINE_NODE;
// The mingw prebuild, never a Linux build/Release binary.
const env = { PREBUILDS_ONLY: '1', WINEDEBUG: '-all' };
const run = (scenario, options = {}) => runScenario(scenario, { wineNode, env, ...options });

describe('capture runtime, Windows backend under wine', function () {
  this.timeout(120000);

  before(function () {
    if (!wineNode) this.skip(); // MCP_GATES_WINE_NODE unset: run scripts/test-windows-wine.sh
  });

  it('captures every writer (JS streams, native WriteFile, children, grandchildren)', async function () {
    const { code, stdout, stderr, result } = await run('markers');
    expect(code, stderr).to.equal(0);
    expect(result.mode.mode).to.equal('native');
    expect(result.mode.binding).to.match(/prebuilds\\win32-x64\\mcp-gates\.node$/);
    for (const marker of [
      'M-stderr-write',
      'M-console-error',
      'M-console-log',
      'M-stdout-write',
      'M-native',
      'M-child-stdout',
      'M-child-stderr',
      'M-grandchild-stdout',
      'M-grandchild-stderr',
    ]) {
      expect(result.text).to.include(marker);
      expect(stderr).to.not.include(marker);
    }
    for (const marker of [
      'E1-before',
      'E9-after',
      'E9-console-log-after',
      'E9-native-after',
      'E9-child-stdout',
    ]) {
      expect(stderr).to.include(marker);
    }
    expect(stdout).to.equal('PROTOCOL-FRAME\n');
    expect(result.state).to.equal('idle');
  });

  it('in forced degraded mode still captures children and console writes', async function () {
    const { code, stderr, result } = await run('markers', {
      env: { ...env, MCP_GATES_CAPTURE: 'degraded' },
    });
    expect(code, stderr).to.equal(0);
    expect(result.mode.mode).to.equal('degraded');
    for (const marker of [
      'M-console-log',
      'M-console-error',
      'M-child-stdout',
      'M-grandchild-stderr',
    ]) {
      expect(result.text).to.include(marker);
    }
  });

  it('takeCapture, quiet tools and failures behave as on POSIX', async function () {
    const take = await run('take');
    expect(take.result.tool.text).to.equal('own\n\n--- captured output (9 bytes) ---\nT-second\n');
    const quiet = await run('quiet');
    expect(quiet.result.same).to.equal(true);
    const failures = await run('failures');
    expect(failures.result.outcomes.cancelled).to.deep.equal({
      code: 'ECANCELLED',
      state: 'idle',
      restored: true,
    });
    expect(failures.result.outcomes.rejectNoisy.result.text).to.include('F-before-reject');
    expect(failures.stderr).to.include('F-after');
  });

  it('refuses nesting with ECAPTURE_ACTIVE and keeps the capture across a worker exit', async function () {
    const nested = await run('nested');
    expect(nested.result.codes).to.deep.equal({
      ts: 'ECAPTURE_ACTIVE',
      wrapper: 'ECAPTURE_ACTIVE',
      native: 'ECAPTURE_ACTIVE',
    });
    expect(nested.result.nativeEndWhenIdle).to.equal(null);
    const worker = await run('worker');
    expect(worker.result.nativeStateAfterWorker).to.equal('active');
  });

  it('bounds 100 MB from a child and prints a crash trace on the real stderr', async function () {
    const bulk = await run('bulk');
    expect(bulk.code, bulk.stderr).to.equal(0);
    expect(bulk.result.totalInHeading).to.equal(bulk.result.expectedTotal);
    expect(bulk.result.tail.endsWith('TAIL-MARK\n')).to.equal(true);
    expect(bulk.result.rssGrowth).to.be.below(32 * 1024 * 1024);
    const crash = await run('crash');
    expect(crash.code).to.equal(1);
    expect(crash.stderr).to.include('CRASH-MARK');
  });
});

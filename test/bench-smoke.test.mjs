// The benchmark harness itself runs: quick mode against our server and the floor.
// Checks the shape of the numbers only; timing belongs to `npm run bench`, not tests.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);

function expectPositive(value, what) {
  expect(value, what).to.be.a('number');
  expect(Number.isFinite(value) && value > 0, `${what} = ${value}`).to.equal(true);
}

describe('bench harness (quick mode)', function () {
  this.timeout(120000);
  let report;

  before(async function () {
    // reason: bench/ reads /proc/cpuinfo, nproc and /proc/<pid>/status (it measures on Linux)
    if (process.platform !== 'linux') this.skip();
    const { stdout } = await run(
      process.execPath,
      [
        'bench/run.mjs',
        '--quick',
        '--servers',
        'ours,floor',
        '--only',
        // Not gates, check or warm: they spawn real tools (tsc, eslint, prettier) for seconds
        // to a minute even in quick mode; `npm run bench -- --quick --only check,warm` runs them.
        'protocol,capture',
        '--json',
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    report = JSON.parse(stdout);
  });

  it('measures both eras for our server and the floor, with well-formed figures', () => {
    for (const era of ['legacy', 'modern']) {
      expect(Object.keys(report.results.protocol[era])).to.have.members(['ours', 'floor']);
      for (const [server, figures] of Object.entries(report.results.protocol[era])) {
        const what = `${era} ${server}`;
        expectPositive(figures.coldStartMs, `${what} cold start`);
        expectPositive(figures.idleRssBytes, `${what} idle RSS`);
        expectPositive(figures.peakRssBytes, `${what} peak RSS`);
        // Medians of pairs from the same processes: each peak is at least its own start's
        // RSS, so the median is too (idle RSS comes from other processes: no such bound).
        expect(figures.peakRssBytes, `${what} peak RSS`).to.be.at.least(figures.openRssBytes);
        for (const mode of ['seq', 'pipe']) {
          expectPositive(figures[mode].requestsPerSecond, `${what} ${mode} req/s`);
          expectPositive(figures[mode].p50Ms, `${what} ${mode} p50`);
          expect(figures[mode].p99Ms, `${what} ${mode} p99`).to.be.at.least(figures[mode].p50Ms);
        }
      }
    }
  });

  it('measures the capture cycle and the flood beside their references', () => {
    const { cycle, flood } = report.results.capture;
    for (const key of ['bareDup2PairUs', 'nativeCycleUs', 'captureCycleUs']) {
      expectPositive(cycle[key], key);
    }
    expectPositive(flood.plainMs, 'plain-file flood');
    expectPositive(flood.capturedMs, 'captured flood');
    expect(flood.rssGrowthBytes).to.be.a('number').and.at.least(0);
  });

  it('judges the targets it could measure and skips, with a reason, those it could not', () => {
    const judged = report.targets.filter((target) => !target.skipped);
    const skipped = report.targets.filter((target) => target.skipped);
    expect(judged.length).to.be.greaterThan(0);
    for (const target of judged) expect(target.pass, target.name).to.be.a('boolean');
    // The SDK servers were not run: their ratios are skipped, not invented.
    expect(skipped.map((target) => target.name).join('\n')).to.include('vs SDK v1');
    for (const target of skipped) expect(target.skipped).to.be.a('string').with.length.above(0);
  });
});

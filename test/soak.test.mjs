// Soak, CI size: 20,000 tool calls with capture on through the real example server
// (bench/soak.mjs runs 100,000). RSS climbs while V8 sizes its heap (about the first
// 10,000 calls here), so slopes are fitted over the second half only. Tolerances: RSS
// under 512 KiB per 1,000 calls (a leak of 512 bytes a call fails), the open-fd count
// within one of its first post-warm-up value with a zero slope, no temp file left.
import { expect } from 'chai';
import { runSoak } from '../bench/lib/soak.mjs';

const CALLS = 20000;
const RSS_SLOPE_LIMIT = 512 * 1024;

describe(`soak: ${CALLS} tool calls with capture on (examples/echo-server.mjs)`, function () {
  this.timeout(120000);
  let outcome;

  before(async function () {
    if (process.platform !== 'linux') this.skip(); // RSS and fds are read from /proc
    outcome = await runSoak({ calls: CALLS, sampleEvery: 500, warmupFraction: 0.5 });
  });

  it('answers every call correctly and exits 0 on EOF', () => {
    expect(outcome.problems).to.deep.equal([]);
    expect(outcome.exit).to.deep.equal({ code: 0, signal: null });
  });

  it(`keeps RSS flat: slope under ${RSS_SLOPE_LIMIT / 1024} KiB per 1,000 calls after warm-up`, () => {
    expect(Math.abs(outcome.rssSlopeBytesPer1000), 'RSS bytes per 1000 calls').to.be.below(
      RSS_SLOPE_LIMIT,
    );
  });

  it('keeps the open-fd count flat (sampled with no call in flight)', () => {
    const [low, high] = outcome.fdRange;
    expect(high - low, `fds ranged ${low}..${high}`).to.be.at.most(1);
    expect(Math.abs(outcome.fdSlopePer1000)).to.be.below(0.05);
  });

  it('leaves no temp file behind, and never held more than one capture file', () => {
    expect(outcome.leftovers).to.deep.equal([]);
    // The private directory plus at most one live capture file.
    expect(outcome.tempFilesMax).to.be.at.most(2);
  });
});

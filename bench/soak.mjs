// Soak: 100,000 tool calls with capture on through examples/echo-server.mjs (1% noisy runs
// that spawn a child, 10% failures, the rest echoes), RSS and open fds sampled every
// 1,000 calls. Prints the slopes (least squares, after a 20% warm-up) and exits 1 when a
// tolerance is broken. Linux only (/proc). Usage: node bench/soak.mjs [--calls N] [--json]
import { parseArgs } from 'node:util';
import { runSoak } from './lib/soak.mjs';

/** Tolerances: flat means under these slopes (per 1000 calls) and no fd drift at all. */
export const RSS_SLOPE_LIMIT_BYTES = 64 * 1024;
export const FD_SLOPE_LIMIT = 0.01;

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '100000' },
    'sample-every': { type: 'string', default: '1000' },
    json: { type: 'boolean', default: false },
  },
});
const calls = Number(values.calls);
const sampleEvery = Number(values['sample-every']);
const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);

const outcome = await runSoak({
  calls,
  sampleEvery,
  onSample: (entry) => {
    if (!values.json && entry.calls % (sampleEvery * 10) === 0) {
      process.stderr.write(
        `${entry.calls} calls: rss ${mib(entry.rss)} MiB, ${entry.fds} fds, ${entry.tempFiles} temp entries, ${(entry.elapsedMs / 1000).toFixed(0)} s\n`,
      );
    }
  },
});

const verdicts = {
  answersCorrect: outcome.problems.length === 0,
  exitClean: outcome.exit.code === 0,
  noLeftovers: outcome.leftovers.length === 0,
  rssFlat: Math.abs(outcome.rssSlopeBytesPer1000) < RSS_SLOPE_LIMIT_BYTES,
  fdsFlat: Math.abs(outcome.fdSlopePer1000) < FD_SLOPE_LIMIT,
};
const summary = {
  calls,
  elapsedS: outcome.elapsedMs / 1000,
  rssFirstMiB: Number(mib(outcome.samples[0].rss)),
  rssLastMiB: Number(mib(outcome.samples.at(-1).rss)),
  rssSlopeBytesPer1000Calls: Math.round(outcome.rssSlopeBytesPer1000),
  rssSlopeLimitBytesPer1000Calls: RSS_SLOPE_LIMIT_BYTES,
  fdSlopePer1000Calls: Number(outcome.fdSlopePer1000.toFixed(5)),
  fdRangeAfterWarmup: outcome.fdRange,
  tempEntriesMaxDuringRun: outcome.tempFilesMax,
  leftovers: outcome.leftovers,
  problems: outcome.problems,
  verdicts,
};
if (values.json) process.stdout.write(`${JSON.stringify({ summary, samples: outcome.samples })}\n`);
else process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
process.exitCode = Object.values(verdicts).every(Boolean) ? 0 : 1;

// Seeded fuzzing with malformed lines interleaved with valid requests: mostly through the
// replay double (fast), plus one real-process run of the example server over stdio.
// Replay a failure with FUZZ_SEED=<seed> (and the path fast-check prints); a longer
// budget runs with `node scripts/fuzz-long.mjs --runs N --seed S`.
import { expect } from 'chai';
import fc from 'fast-check';
import * as core from '../dist/index.js';
import {
  fuzzSeed,
  revisionArbitrary,
  runProcessSession,
  replayProperty,
  stepsArbitrary,
} from './helpers/fuzz-lines.mjs';
import { killAllServers } from './helpers/spawn-server.mjs';

const seed = fuzzSeed();
const REPLAY_RUNS = 80;
const PROCESS_STEPS = 3000;

/** Rethrows with the seed, so that any failure names how to replay it. */
function withSeed(error) {
  error.message = `FUZZ_SEED=${seed} (replay: FUZZ_SEED=${seed} npx mocha test/fuzz.test.mjs)\n${error.message}`;
  return error;
}

describe(`fuzzing with malformed lines (FUZZ_SEED=${seed})`, function () {
  this.timeout(60000);
  afterEach(killAllServers);

  it(`replay double: ${REPLAY_RUNS} seeded sessions, at least 10,000 lines, every invariant holds`, async () => {
    let lines = 0;
    try {
      await fc.assert(
        replayProperty(core, (count) => (lines += count)),
        { seed, numRuns: REPLAY_RUNS, endOnFailure: true },
      );
    } catch (error) {
      throw withSeed(error);
    }
    expect(lines).to.be.at.least(10000);
  });

  it(`real process: ${PROCESS_STEPS} seeded lines over stdio to the example server`, async () => {
    const [[steps, revision]] = fc.sample(
      fc.tuple(
        stepsArbitrary({ minLength: PROCESS_STEPS, maxLength: PROCESS_STEPS }),
        revisionArbitrary,
      ),
      { seed, numRuns: 1 },
    );
    const outcome = await runProcessSession(steps, revision);
    expect(outcome.lines).to.be.at.least(PROCESS_STEPS);
    try {
      expect(outcome.problems.slice(0, 20), `revision ${revision}`).to.deep.equal([]);
    } catch (error) {
      throw withSeed(error);
    }
  });
});

#!/usr/bin/env node
// The fuzz of test/fuzz.test.mjs with a larger budget, for runs outside CI:
//   node scripts/fuzz-long.mjs [--runs N] [--seed S] [--process-runs P] [--shrink]
//                              [--method-runs M]
// N replay-double sessions (about 250 lines each) then P real-process sessions of 3000
// lines each, then M runs of each property of test/fuzz-methods.test.mjs (garbage params
// per method, cancellation schedules), all derived from seed S (default: FUZZ_SEED or the
// fixed test seed).
// Needs `npm run build` first. Exits 1 on the first failing session, naming its seed.
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import {
  fuzzSeed,
  revisionArbitrary,
  runProcessSession,
  replayProperty,
  stepsArbitrary,
} from '../test/helpers/fuzz-lines.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '2000' },
    seed: { type: 'string' },
    'process-runs': { type: 'string', default: '5' },
    shrink: { type: 'boolean', default: false },
    'method-runs': { type: 'string', default: '0' },
  },
});

function count(name, text) {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) {
    console.error(`fuzz-long: --${name} must be a non-negative integer, got "${text}"`);
    process.exit(2);
  }
  return value;
}

const runs = count('runs', values.runs);
const processRuns = count('process-runs', values['process-runs']);
const methodRuns = count('method-runs', values['method-runs']);
const seed = fuzzSeed(values.seed);
const core = await import('../dist/index.js').catch((error) => {
  console.error(`fuzz-long: cannot load dist/ (run \`npm run build\` first): ${error.message}`);
  process.exit(2);
});

const started = Date.now();
let lines = 0;
try {
  if (runs > 0) {
    await fc.assert(
      replayProperty(core, (count) => (lines += count)),
      { seed, numRuns: runs, endOnFailure: !values.shrink },
    );
  }
  console.log(`replay double: ${runs} sessions, ${lines} lines, all invariants held`);

  const sessions = fc.sample(
    fc.tuple(stepsArbitrary({ minLength: 3000, maxLength: 3000 }), revisionArbitrary),
    { seed, numRuns: processRuns },
  );
  for (const [index, [steps, revision]] of sessions.entries()) {
    const outcome = await runProcessSession(steps, revision);
    if (outcome.problems.length > 0) {
      throw new Error(
        `real process, session ${index} (revision ${revision}):\n${outcome.problems.slice(0, 20).join('\n')}`,
      );
    }
    console.log(`real process session ${index}: ${outcome.lines} lines at ${revision}, held`);
  }

  if (methodRuns > 0) {
    // Loaded only now: it imports dist/, whose absence is reported above.
    const { cancellationProperty, methodFuzzProperty } =
      await import('../test/helpers/fuzz-methods.mjs');
    let methodLines = 0;
    let calls = 0;
    const options = { seed, numRuns: methodRuns, endOnFailure: !values.shrink };
    await fc.assert(
      methodFuzzProperty((count) => (methodLines += count)),
      options,
    );
    console.log(`garbage params: ${methodRuns} runs, ${methodLines} lines, all invariants held`);
    await fc.assert(
      cancellationProperty((count) => (calls += count)),
      options,
    );
    console.log(`cancellations: ${methodRuns} schedules, ${calls} tool calls, all invariants held`);
  }
} catch (error) {
  console.error(`fuzz-long: FAILED with seed ${seed} (replay: --seed ${seed})\n${error.message}`);
  process.exit(1);
}
console.log(`fuzz-long: seed ${seed}, done in ${((Date.now() - started) / 1000).toFixed(1)} s`);

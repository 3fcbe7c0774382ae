// Method-level fuzzing (issue 6, item 1): every method with garbage params in both eras,
// seeded interleavings of cancellations, and memory during a long real-process session.
// Replay a failure with FUZZ_SEED=<seed>; a larger budget runs with
// `node scripts/fuzz-long.mjs --method-runs N`.
import { expect } from 'chai';
import fc from 'fast-check';
import { Conversation } from './helpers/conversation.mjs';
import {
  ALLOWED_ERROR_CODES,
  cancellationProperty,
  garbageMethodLines,
  methodFuzzProperty,
} from './helpers/fuzz-methods.mjs';
import { fuzzSeed, noiseArbitrary, wireBytes } from './helpers/fuzz-lines.mjs';
import { ServerProcess, killAllServers, modernMeta } from './helpers/spawn-server.mjs';

const seed = fuzzSeed();
const METHOD_RUNS = 200;
const CANCELLATION_RUNS = 40;
const PROCESS_LINES = 6000;
// A client that stops reading: read-ahead (8 Mi chars) + one partial line + the runtime.
const STALLED_RSS_BOUND_MB = 150;
// Garbage: 30,000- and 100,000-deep lines make transient parse garbage the GC collects
// late; the plateau check (second half vs first half) is what would catch a leak.
const GARBAGE_RSS_BOUND_MB = 200;
const PLATEAU_MARGIN_MB = 32;
const BIG_LINES = 40;
const MB = 1024 * 1024;

/** Rethrows with the seed; counterexamples with 30,000-deep values are cut to stay readable. */
function withSeed(error) {
  const message = error.message
    .split('\n')
    .map((line) => (line.length > 2000 ? `${line.slice(0, 2000)}... (${line.length} chars)` : line))
    .join('\n');
  error.message = `FUZZ_SEED=${seed} (replay: FUZZ_SEED=${seed} npx mocha test/fuzz-methods.test.mjs)\n${message}`;
  return error;
}

// Memory is read from /proc/<pid>/status (VmRSS, VmHWM), which only Linux has.
const onLinux = process.platform === 'linux' ? it : it.skip;
const LINUX_ONLY = ' [Linux only: reads /proc/<pid>/status]';

/** Runs a property with the seed and this file's budget; a failure names the seed. */
async function assertSeeded(property, numRuns) {
  try {
    await fc.assert(property, { seed, numRuns, endOnFailure: true });
  } catch (error) {
    throw withSeed(error);
  }
}

const nested = (depth) => '['.repeat(depth) + ']'.repeat(depth);

describe(`fuzzing every method (FUZZ_SEED=${seed})`, function () {
  this.timeout(60000);
  afterEach(killAllServers);

  it(`garbage params for every method in both eras: ${METHOD_RUNS} fresh conversations`, async () => {
    let lines = 0;
    await assertSeeded(
      methodFuzzProperty((count) => (lines += count)),
      METHOD_RUNS,
    );
    expect(lines).to.be.at.least(METHOD_RUNS * 20);
  });

  it(`random interleavings of cancellations: ${CANCELLATION_RUNS} seeded schedules`, async () => {
    let calls = 0;
    await assertSeeded(
      cancellationProperty((count) => (calls += count)),
      CANCELLATION_RUNS,
    );
    expect(calls).to.be.at.least(CANCELLATION_RUNS * 3);
  });

  // Found by the garbage-params property: the exact-lexeme scanner recursed once per
  // nesting level, so a deep value before "id" overflowed it and the id came back null.
  it('a big integer id after 30,000-deep params is echoed exactly, and its call can be cancelled', async () => {
    const conversation = new Conversation();
    try {
      conversation.send(
        `{"jsonrpc":"2.0","params":{"x":${nested(30000)}},"id":9007199254740993,"method":"ping"}`,
      );
      await conversation.settle(20);
      const pong = conversation.transport.written.find((line) => line.includes('"result"'));
      expect(pong, conversation.transport.written.join('\n')).to.equal(
        '{"jsonrpc":"2.0","id":9007199254740993,"result":{}}',
      );
      await conversation.initialize();
      conversation.send(
        '{"jsonrpc":"2.0","id":9007199254740995,"method":"tools/call","params":{"name":"slow","arguments":{"ms":2000}}}',
      );
      await conversation.settle(20);
      conversation.send(
        `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":${nested(30000)},"requestId":9007199254740995}}`,
      );
      await conversation.request('ping', {}, 'after-cancel');
      await conversation.settle(20);
      const answers = conversation.transport.written.filter((line) =>
        line.includes('9007199254740995'),
      );
      expect(answers, 'a cancelled call gets no response').to.deep.equal([]);
    } finally {
      await conversation.end();
    }
    expect(conversation.violations).to.deep.equal([]);
  });

  // Found while measuring memory: the stdio read-ahead was bounded in lines (1024), not
  // bytes, so 4 MiB lines from a client that stopped reading piled up (700 MB for 150).
  onLinux(
    `a client that stops reading while sending ${BIG_LINES} lines of 4 MiB: RSS stays under ${STALLED_RSS_BOUND_MB} MB, nothing lost${LINUX_ONLY}`,
    async () => {
      const server = new ServerProcess();
      server.child.stdout.pause(); // the client stops reading: our answers fill the pipe
      const meta = modernMeta();
      await server.send({
        jsonrpc: '2.0',
        id: 'fill',
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'x'.repeat(300000) }, _meta: meta },
      });
      const pad = 'p'.repeat(4 * MB - 200);
      const stdin = server.child.stdin;
      let accepted = 0;
      const drainedWithin = (ms) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => resolve(false), ms);
          stdin.once('drain', () => {
            clearTimeout(timer);
            resolve(true);
          });
        });
      while (accepted < BIG_LINES) {
        const more = stdin.write(
          `{"jsonrpc":"2.0","id":${accepted},"method":"ping","params":{"pad":"${pad}"}}\n`,
        );
        accepted++;
        if (!more && !(await drainedWithin(500))) break; // the server stopped reading: good
      }
      const { resident } = server.memory();
      expect(resident, `after ${accepted} lines were accepted`).to.be.below(
        STALLED_RSS_BOUND_MB * MB,
      );
      server.child.stdout.resume();
      for (let id = accepted; id < BIG_LINES; id++) {
        await server.write(
          `{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"pad":"${pad}"}}\n`,
        );
      }
      await server.response(BIG_LINES - 1, 30000);
      const answered = new Set(server.frames.filter((frame) => 'result' in frame).map((f) => f.id));
      for (let id = 0; id < BIG_LINES; id++) expect(answered.has(id), `ping ${id}`).to.equal(true);
      expect(answered.has('fill')).to.equal(true);
      expect(server.memory().peak, 'VmHWM').to.be.below(STALLED_RSS_BOUND_MB * MB);
    },
  );

  onLinux(
    `memory stays bounded: ${PROCESS_LINES} garbage lines into the example server${LINUX_ONLY}`,
    async function () {
      // Measured here (Node 20, Linux x64, 2 cores): VmRSS 46 MB idle, a plateau of 110-140 MB
      // (VmHWM 128-141 MB) from 6,000 lines on, the same at 20,000: bounded, not growing.
      const [noise] = fc.sample(
        fc.array(noiseArbitrary(), { minLength: PROCESS_LINES / 2, maxLength: PROCESS_LINES / 2 }),
        { seed, numRuns: 1 },
      );
      const methods = garbageMethodLines(PROCESS_LINES / 2, seed);
      const lines = noise.flatMap((line, i) => [line, methods[i]]);
      const server = new ServerProcess();
      const samples = [];
      for (let start = 0; start < lines.length; start += 200) {
        await server.write(Buffer.concat(lines.slice(start, start + 200).map(wireBytes)));
        samples.push(server.memory().resident);
      }
      const pong = await server.request('memory-final', 'ping', undefined, 30000);
      expect(pong.result).to.deep.equal({});
      const { peak, resident } = server.memory();
      samples.push(resident);
      server.child.stdin.end();
      const exit = await server.exitWithin(5000);
      const sampledPeak = Math.max(...samples);
      const half = Math.floor(samples.length / 2);
      const firstHalf = Math.max(...samples.slice(0, half));
      const secondHalf = Math.max(...samples.slice(half));
      const mb = (bytes) => `${(bytes / MB).toFixed(1)} MB`;
      this.test.title += ` (VmRSS peak ${mb(sampledPeak)}: ${mb(firstHalf)} in the first half, ${mb(secondHalf)} in the second; VmHWM ${mb(peak)}; bound ${GARBAGE_RSS_BOUND_MB} MB)`;
      expect(exit.code, server.stderr).to.equal(0);
      expect(peak, 'VmHWM: the kernel-recorded peak').to.be.below(GARBAGE_RSS_BOUND_MB * MB);
      expect(secondHalf, 'RSS kept growing after the first half').to.be.below(
        firstHalf + PLATEAU_MARGIN_MB * MB,
      );
      const problems = [];
      for (const frame of server.frames) {
        if (frame === null || typeof frame !== 'object' || 'notJson' in frame) {
          problems.push(`not a JSON-RPC frame: ${JSON.stringify(frame).slice(0, 200)}`);
        } else if ('error' in frame && !ALLOWED_ERROR_CODES.has(frame.error.code)) {
          problems.push(`error code ${frame.error.code}`);
        }
      }
      expect(problems.slice(0, 10)).to.deep.equal([]);
      expect(server.stderr).not.to.match(/^\s+at .+:\d+/m);
    },
  );
});

// Soak driver shared by bench/soak.mjs (100,000 calls) and test/soak.test.mjs (CI size):
// tool calls with capture on through the real example server, a window of calls in
// flight, every answer checked, RSS and the open-fd count sampled from /proc, and the
// server's private TMPDIR checked for leftovers at the end.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RpcClient, readMemory } from './rpc-client.mjs';

const ECHO_SERVER = fileURLToPath(new URL('../../examples/echo-server.mjs', import.meta.url));
const GC_ON_SIGNAL = new URL('./gc-on-signal.mjs', import.meta.url).href;
const NOISY_MARKERS = ['marker: console.error', 'marker: child stdout', 'marker: child stderr'];

/** Least-squares slope and intercept of y over x. */
export function leastSquares(points) {
  const n = points.length;
  if (n < 2) return { slope: Number.NaN, intercept: Number.NaN };
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const { x, y } of points) {
    covariance += (x - meanX) * (y - meanY);
    variance += (x - meanX) ** 2;
  }
  const slope = covariance / variance;
  return { slope, intercept: meanY - slope * meanX };
}

/** Has the server run a full GC (gc-on-signal.mjs) and returns its memoryUsage() after it. */
async function memoryAfterGc(client, report) {
  fs.rmSync(report, { force: true });
  client.child.kill('SIGUSR2');
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    if (fs.existsSync(report)) return JSON.parse(fs.readFileSync(report, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the server did not report its memory after a forced GC within 10 s');
}

function openFds(pid) {
  return fs.readdirSync(`/proc/${pid}/fd`).length;
}

/** Every file under `directory`, recursively (relative paths). */
function filesUnder(directory) {
  return fs.readdirSync(directory, { recursive: true });
}

/** Which tool call number `i` makes: mostly quiet echoes, some failures, some noisy runs. */
function callFor(i, noisyEvery) {
  if (i % noisyEvery === 0) return { name: 'noisy', arguments: {}, check: 'noisy' };
  if (i % 10 === 5) return { name: 'fail', arguments: {}, check: 'fail' };
  return { name: 'echo', arguments: { text: `soak ${i} ✓` }, check: 'echo' };
}

function problemWith(call, i, result) {
  const text = result.content.map((block) => block.text).join('');
  if (call.check === 'echo')
    return text === call.arguments.text && !result.isError ? null : `echo ${i}: ${text}`;
  if (call.check === 'fail') return result.isError === true ? null : `fail ${i} did not fail`;
  const missing = NOISY_MARKERS.filter((marker) => !text.includes(marker));
  return missing.length === 0 ? null : `noisy ${i} lacks ${missing.join(', ')}`;
}

/**
 * Runs `calls` tool calls, `window` in flight, sampling after every `sampleEvery` calls.
 * Returns samples, the slopes per 1000 calls (after dropping the first `warmupFraction`
 * of samples: JIT and heap sizing), problems found, the exit status and leftovers.
 * With `forcedGcAt` (call counts, each a multiple of `sampleEvery`), the server runs a
 * full GC at those points and `afterGc` holds its memoryUsage() then, keyed by count.
 */
export async function runSoak({
  calls,
  sampleEvery,
  window = 32,
  noisyEvery = 100,
  warmupFraction = 0.2,
  forcedGcAt = [],
  onSample = () => {},
}) {
  const tmpdir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-gates-soak-tmpdir-'));
  // Outside the server's TMPDIR, which must end empty.
  const gcDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-gates-soak-gc-'));
  const gcReport = path.join(gcDirectory, 'memory.json');
  const client = new RpcClient(ECHO_SERVER, [], {
    env: { ...process.env, TMPDIR: tmpdir, MCP_GATES_GC_REPORT: gcReport },
    nodeArgs: forcedGcAt.length > 0 ? ['--expose-gc', '--import', GC_ON_SIGNAL] : [],
  });
  const afterGc = {};
  const samples = [];
  const problems = [];
  const started = Date.now();
  try {
    await client.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'soak', version: '1' },
    });
    client.notify('notifications/initialized', {});
    const sample = (done) => {
      const entry = {
        calls: done,
        rss: readMemory(client.pid).rss,
        fds: openFds(client.pid),
        tempFiles: filesUnder(tmpdir).length,
        elapsedMs: Date.now() - started,
      };
      samples.push(entry);
      onSample(entry);
    };
    sample(0);
    // Blocks of `sampleEvery` calls, `window` in flight; samples are taken between blocks,
    // with nothing in flight, so the fd count is exact (no child of a noisy run open).
    for (let blockStart = 1; blockStart <= calls; blockStart += sampleEvery) {
      const blockEnd = Math.min(calls, blockStart + sampleEvery - 1);
      let next = blockStart;
      const worker = async () => {
        while (next <= blockEnd) {
          const i = next++;
          const call = callFor(i, noisyEvery);
          const { result } = await client.request('tools/call', {
            name: call.name,
            arguments: call.arguments,
          });
          const problem = problemWith(call, i, result);
          if (problem && problems.length < 20) problems.push(problem);
        }
      };
      await Promise.all(Array.from({ length: window }, worker));
      sample(blockEnd);
      if (forcedGcAt.includes(blockEnd)) afterGc[blockEnd] = await memoryAfterGc(client, gcReport);
    }
    const exit = await client.close();
    const leftovers = filesUnder(tmpdir);
    const measured = samples.slice(Math.floor(samples.length * warmupFraction));
    const slope = (key) =>
      leastSquares(measured.map((entry) => ({ x: entry.calls / 1000, y: entry[key] }))).slope;
    return {
      calls,
      samples,
      problems,
      exit,
      leftovers,
      elapsedMs: Date.now() - started,
      rssSlopeBytesPer1000: slope('rss'),
      fdSlopePer1000: slope('fds'),
      fdRange: [
        Math.min(...measured.map((entry) => entry.fds)),
        Math.max(...measured.map((entry) => entry.fds)),
      ],
      tempFilesMax: Math.max(...samples.map((entry) => entry.tempFiles)),
      afterGc,
      stderrTail: client.stderrTail,
    };
  } finally {
    client.child.kill('SIGKILL');
    fs.rmSync(tmpdir, { recursive: true, force: true });
    fs.rmSync(gcDirectory, { recursive: true, force: true });
  }
}

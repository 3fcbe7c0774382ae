// Protocol figures: cold start, idle RSS, sequential and pipelined `tools/call echo`,
// with runs interleaved across servers (A B A B) so drift hits every server alike.
import { setTimeout as sleep } from 'node:timers/promises';
import { median, percentile } from './stats.mjs';
import { RpcClient } from './rpc-client.mjs';

const ECHO_TEXT = 'hello';
const IDLE_SETTLE_MS = 100;
const CLIENT = { name: 'mcp-gates-bench', version: '1.0.0' };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': CLIENT,
};

/** How each era opens a conversation and shapes a call. */
export const ERAS = {
  legacy: {
    label: 'legacy (2025-06-18)',
    async open(client) {
      const { receivedAt } = await client.request('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: CLIENT,
      });
      client.notify('notifications/initialized', {});
      return receivedAt;
    },
    callParams: { name: 'echo', arguments: { text: ECHO_TEXT } },
  },
  modern: {
    label: 'modern (2026-07-28)',
    async open(client) {
      const { receivedAt } = await client.request('server/discover', { _meta: MODERN_META });
      return receivedAt;
    },
    callParams: { name: 'echo', arguments: { text: ECHO_TEXT }, _meta: MODERN_META },
  },
};

function checkEcho({ result }) {
  const text = result?.content?.[0]?.text;
  if (result?.isError || text !== ECHO_TEXT) {
    throw new Error(`echo answered ${JSON.stringify(result).slice(0, 300)}, not "${ECHO_TEXT}"`);
  }
}

const toMs = (nanoseconds) => Number(nanoseconds) / 1e6;

export async function sequential(client, era, count) {
  const latencies = new Float64Array(count);
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const sent = process.hrtime.bigint();
    const answer = await client.request('tools/call', era.callParams);
    checkEcho(answer);
    latencies[i] = toMs(answer.receivedAt - sent);
  }
  return summarize(latencies, toMs(process.hrtime.bigint() - started));
}

export async function pipelined(client, era, count) {
  const prepared = Array.from({ length: count }, () =>
    client.prepare('tools/call', era.callParams),
  );
  const sent = process.hrtime.bigint();
  client.writeAll(prepared.map((request) => request.line));
  const answers = await Promise.all(prepared.map((request) => request.answer));
  const finished = process.hrtime.bigint();
  const latencies = new Float64Array(count);
  answers.forEach((answer, i) => {
    checkEcho(answer);
    latencies[i] = toMs(answer.receivedAt - sent);
  });
  return summarize(latencies, toMs(finished - sent));
}

function summarize(latencies, elapsedMs) {
  return {
    requestsPerSecond: (latencies.length / elapsedMs) * 1000,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}

/** Spawn → answer to the opening request, then idle RSS once settled. */
async function coldStart(server, era) {
  const client = new RpcClient(server.script, server.args);
  try {
    const answeredAt = await era.open(client);
    const coldStartMs = toMs(answeredAt - client.startedAt);
    await sleep(IDLE_SETTLE_MS);
    return { coldStartMs, idleRssBytes: client.memory().rss };
  } finally {
    await client.close();
  }
}

async function throughput(server, era, sizes) {
  const client = new RpcClient(server.script, server.args);
  try {
    await era.open(client);
    // The same process's RSS before the load: its peak is at least this (an idle figure of
    // other processes, the cold-start samples, need not be).
    const openRssBytes = client.memory().rss;
    await sequential(client, era, sizes.warmup);
    const seq = await sequential(client, era, sizes.sequential);
    const pipe = await pipelined(client, era, sizes.pipelined);
    return { seq, pipe, openRssBytes, peakRssBytes: client.memory().peak };
  } finally {
    await client.close();
  }
}

/**
 * Runs every server of `servers` (those supporting `eraName`) round by round and
 * returns medians per server: `{[serverId]: {coldStartMs, idleRssBytes, seq, pipe, openRssBytes, peakRssBytes}}`.
 */
export async function benchProtocol(servers, eraName, sizes, onProgress = () => {}) {
  const era = ERAS[eraName];
  const eligible = servers.filter((server) => server.eras.includes(eraName));
  const samples = new Map(eligible.map((server) => [server.id, { cold: [], runs: [] }]));
  for (let round = 0; round < sizes.coldRounds; round++) {
    for (const server of eligible) samples.get(server.id).cold.push(await coldStart(server, era));
  }
  onProgress(`${era.label}: cold start done (${sizes.coldRounds} rounds)`);
  for (let round = 0; round < sizes.rounds; round++) {
    for (const server of eligible) {
      samples.get(server.id).runs.push(await throughput(server, era, sizes));
    }
    onProgress(`${era.label}: throughput round ${round + 1}/${sizes.rounds}`);
  }
  const figures = {};
  for (const [id, { cold, runs }] of samples) {
    const pick = (values) => median(values);
    figures[id] = {
      coldStartMs: pick(cold.map((sample) => sample.coldStartMs)),
      idleRssBytes: pick(cold.map((sample) => sample.idleRssBytes)),
      openRssBytes: pick(runs.map((run) => run.openRssBytes)),
      peakRssBytes: pick(runs.map((run) => run.peakRssBytes)),
      seq: medianSummary(runs.map((run) => run.seq)),
      pipe: medianSummary(runs.map((run) => run.pipe)),
    };
  }
  return figures;
}

function medianSummary(summaries) {
  return {
    requestsPerSecond: median(summaries.map((summary) => summary.requestsPerSecond)),
    p50Ms: median(summaries.map((summary) => summary.p50Ms)),
    p99Ms: median(summaries.map((summary) => summary.p99Ms)),
  };
}

#!/usr/bin/env node
// Profiles one bench server under load: `node bench/profile.mjs [--server ours]
// [--era legacy|modern] [--mode pipelined|sequential] [--count 50000] [--top 25]`.
// Writes a .cpuprofile into bench/.work/profiles and prints the top self-time functions.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ERAS, pipelined, sequential } from './lib/protocol-bench.mjs';
import { RpcClient } from './lib/rpc-client.mjs';
import { SERVERS } from './lib/servers.mjs';

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: 'ours' },
    era: { type: 'string', default: 'legacy' },
    mode: { type: 'string', default: 'pipelined' },
    count: { type: 'string', default: '50000' },
    top: { type: 'string', default: '25' },
  },
});
const server = SERVERS.find((candidate) => candidate.id === values.server);
const era = ERAS[values.era];
if (!server || !era || !['pipelined', 'sequential'].includes(values.mode)) {
  process.stderr.write(`profile: unknown --server, --era or --mode\n`);
  process.exit(2);
}

const directory = fileURLToPath(new URL('./.work/profiles/', import.meta.url));
fs.mkdirSync(directory, { recursive: true });
const before = new Set(fs.readdirSync(directory));
const client = new RpcClient(server.script, server.args, {
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${directory}`],
});
await era.open(client);
const measure = values.mode === 'pipelined' ? pipelined : sequential;
const figures = await measure(client, era, Number(values.count));
const exit = await client.close(10000);
const written = fs.readdirSync(directory).filter((name) => !before.has(name));
if (written.length !== 1)
  throw new Error(`no profile written (server exit ${JSON.stringify(exit)})`);
const profilePath = path.join(directory, written[0]);

/** Self time per function (name and location), from the profile's samples. */
function selfTimes(profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map();
  profile.samples.forEach((id, i) => {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    const where = url
      ? `${url.replace(/^file:\/\/.*?\/(dist|node_modules|bench)\//, '$1/')}:${lineNumber + 1}`
      : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

const profile = JSON.parse(fs.readFileSync(profilePath, 'utf8'));
const ranked = selfTimes(profile);
const total = ranked.reduce((sum, [, micros]) => sum + micros, 0);
console.log(
  `${server.label}, ${era.label}, ${values.mode} x${values.count}: ${Math.round(figures.requestsPerSecond)} req/s; profile ${profilePath}`,
);
for (const [name, micros] of ranked.slice(0, Number(values.top))) {
  console.log(
    `${((100 * micros) / total).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${name}`,
  );
}

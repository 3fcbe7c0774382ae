#!/usr/bin/env node
// One-off measurement of warm gates (not part of `npm run bench`): on a generated fixture
// of 60 TypeScript files, for lint (eslint), format (prettier --check) and typecheck
// (tsc --noEmit), the median of N runs (default 7) of:
//   cold       the command run directly from node_modules/.bin
//   first      a warm call on a new pool (starts the worker)
//   repeat     a warm call with nothing changed
//   edit       a warm call after a one-file edit
//   gate cold / gate warm   the whole tool call (runGate: tree fingerprints, capture,
//              parse, result) without and with a warm pool (repeat, unchanged)
// each also as a ratio to cold. Every warm answer is checked against the cold one.
// Usage: npm run build && node bench/warm.mjs [--runs 7] [--files 60]
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseConfig } from '../dist/gates/config.js';
import { runGate } from '../dist/gates/gate-tools.js';
import { WarmPool } from '../dist/gates/warm/index.js';
import { cleanupTemporary, toolContext } from '../test/fixtures/gates-support.mjs';
import { gateEnv, makeWarmRepo, runCold } from '../test/fixtures/warm/warm-fixture.mjs';
import { median } from './lib/stats.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, files: { type: 'string', default: '60' } },
});
const RUNS = Number(values.runs);
const FILES = Number(values.files);
const GATES = {
  lint: ['eslint', '.', '--format', 'json'],
  format: ['prettier', '--check', '.'],
  typecheck: ['tsc', '--noEmit', '--pretty', 'false'],
};
const PARSERS = { lint: 'eslint-json', format: 'prettier', typecheck: 'tsc' };

/** One generated module: a few typed functions importing the previous module. */
function moduleText(index, variant) {
  const previous =
    index > 0 ? `import { value${index - 1} } from './module${index - 1}.js';\n` : '';
  const base = index > 0 ? `value${index - 1}` : '0';
  const lines = [previous, `export const value${index}: number = ${base} + ${variant};`];
  for (let fn = 0; fn < 8; fn++) {
    lines.push(
      `export function compute${index}x${fn}(items: readonly number[]): number {`,
      `  let total = value${index};`,
      '  for (const item of items) {',
      `    total += item * ${fn + 1};`,
      '  }',
      '  return total;',
      '}',
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}

function makeBenchRepo() {
  const root = makeWarmRepo('mcp-gates-warm-bench-');
  for (let index = 0; index < FILES; index++) {
    fs.writeFileSync(path.join(root, 'src', `module${index}.ts`), moduleText(index, 1));
  }
  return root;
}

const timed = async (work) => {
  const started = process.hrtime.bigint();
  const value = await work();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, value };
};

function sameAsCold(root, argv, warm, env) {
  const cold = runCold(root, argv, env);
  if (
    warm.kind !== 'ran' ||
    warm.exitCode !== cold.exitCode ||
    warm.stdout !== cold.stdout ||
    warm.stderr !== cold.stderr
  ) {
    throw new Error(`warm ${argv[0]} differs from cold: ${JSON.stringify(warm).slice(0, 300)}`);
  }
}

async function measure(root, argv) {
  const env = gateEnv();
  const request = { root, argv, timeoutMs: 120000, env };
  const cold = [];
  const first = [];
  const repeat = [];
  const edit = [];
  for (let run = 0; run < RUNS; run++) cold.push((await timed(() => runCold(root, argv, env))).ms);
  for (let run = 0; run < RUNS; run++) {
    const pool = new WarmPool();
    first.push((await timed(() => pool.run(request))).ms);
    pool.close();
  }
  const pool = new WarmPool();
  sameAsCold(root, argv, await pool.run(request), env);
  for (let run = 0; run < RUNS; run++) repeat.push((await timed(() => pool.run(request))).ms);
  const edited = path.join(root, 'src', `module${Math.floor(FILES / 2)}.ts`);
  for (let run = 0; run < RUNS; run++) {
    fs.writeFileSync(edited, moduleText(Math.floor(FILES / 2), run + 2));
    const result = await timed(() => pool.run(request));
    if (result.value.startedWorker)
      throw new Error(`a one-file edit restarted the ${argv[0]} worker`);
    edit.push(result.ms);
  }
  sameAsCold(root, argv, await pool.run(request), env);
  pool.close();
  return { cold: median(cold), first: median(first), repeat: median(repeat), edit: median(edit) };
}

/** The whole tool call, cold and warm (repeat): what an agent waits for. */
async function measureGate(root, name, argv) {
  // Built as mcp-gates.json would build it (typecheck gets its private --tsBuildInfoFile).
  const [gate] = parseConfig(
    { gates: { [name]: { command: argv, parser: PARSERS[name], timeoutMs: 120000 } } },
    'bench',
  );
  const call = (options) =>
    runGate(gate, false, {}, toolContext(), { root, env: gateEnv(), ...options });
  const gateCold = [];
  const gateWarm = [];
  for (let run = 0; run < RUNS; run++) gateCold.push((await timed(() => call({}))).ms);
  const pool = new WarmPool();
  const reference = (await call({})).structuredContent;
  const first = (await call({ warm: pool })).structuredContent;
  if (JSON.stringify(first.findings) !== JSON.stringify(reference.findings) || !first.warm?.used)
    throw new Error(`the warm ${name} gate differs from cold or did not run warm`);
  for (let run = 0; run < RUNS; run++) gateWarm.push((await timed(() => call({ warm: pool }))).ms);
  pool.close();
  return { gateCold: median(gateCold), gateWarm: median(gateWarm) };
}

const root = makeBenchRepo();
const rows = [];
try {
  for (const [gate, argv] of Object.entries(GATES)) {
    const figures = await measure(root, argv);
    rows.push({
      gate,
      command: argv.join(' '),
      ...figures,
      ...(await measureGate(root, gate, argv)),
    });
  }
} finally {
  cleanupTemporary();
}
const ms = (value) => `${Math.round(value)} ms`;
const ratio = (value, cold) => `${(value / cold).toFixed(2)}x`;
console.log(`warm gates, ${FILES + 4} source files, median of ${RUNS} (ratio to cold)`);
console.log(
  '| gate | cold | first call | repeat, unchanged | after a one-file edit | gate call cold | gate call warm |',
);
console.log('|---|---|---|---|---|---|---|');
for (const row of rows) {
  console.log(
    `| ${row.gate} (\`${row.command}\`) | ${ms(row.cold)} | ${ms(row.first)} (${ratio(row.first, row.cold)}) | ` +
      `${ms(row.repeat)} (${ratio(row.repeat, row.cold)}) | ${ms(row.edit)} (${ratio(row.edit, row.cold)}) | ` +
      `${ms(row.gateCold)} | ${ms(row.gateWarm)} (${ratio(row.gateWarm, row.gateCold)}) |`,
  );
}

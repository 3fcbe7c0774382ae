#!/usr/bin/env node
// The vuejs/core bench of issue 30 (see bench/lib/vue-bench.mjs for the set-up and protocol).
// Usage: npm run build && node bench/vue.mjs [--rounds 3]
//   [--families lint,format,typecheck-ts6,typecheck-ts7,hooks] [--peaks] [--results PATH] [--json]
//   [--phases]
// --phases: hook calls report their time per phase (MCP_GATES_TIMING=1), shown per call and
// as medians.
// --peaks: also the peak RSS of the commands serve replaces (always in a run of every family).
// Replaces the vue part of bench/RESULTS.md (the rest is kept) unless --results says where;
// a run of some families only writes nothing unless --results is given.
// MCP_GATES_BENCH_VUE=<dir> points at an existing set-up (see vue-bench.mjs).
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { VUE_FAMILIES, benchVue } from './lib/vue-bench.mjs';
import { largeReportText, renderVueReport, spliceLargeReport } from './lib/report.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    families: { type: 'string' },
    results: { type: 'string' },
    json: { type: 'boolean', default: false },
    peaks: { type: 'boolean' },
    phases: { type: 'boolean', default: false },
  },
});
// Hook calls answer with where their time went (phase-timing.ts): serve reads it from here.
if (values.phases) process.env.MCP_GATES_TIMING = '1';
const families = values.families?.split(',') ?? VUE_FAMILIES;
const unknown = families.filter((name) => !VUE_FAMILIES.includes(name));
if (unknown.length > 0) {
  process.stderr.write(
    `bench: unknown families ${unknown.join(', ')} (${VUE_FAMILIES.join(', ')})\n`,
  );
  process.exit(2);
}
const resultsPath =
  values.results ??
  (values.families ? undefined : fileURLToPath(new URL('./RESULTS.md', import.meta.url)));
const progress = (line) => process.stderr.write(`bench: ${line}\n`);
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

const meta = {
  date: new Date().toISOString(),
  command: `node bench/vue.mjs ${process.argv.slice(2).join(' ')}`.trim(),
  cores: os.availableParallelism(),
  node: process.version,
  load: load(),
};
const vue = await benchVue(
  { rounds: Number(values.rounds), families, peaks: values.peaks ?? !values.families },
  progress,
);
vue.loadAfter = load();
const parts = renderVueReport({ meta, results: { vue } });
if (resultsPath) {
  const existing = fs.existsSync(resultsPath) ? fs.readFileSync(resultsPath, 'utf8') : '';
  fs.writeFileSync(resultsPath, spliceLargeReport(existing, parts));
  progress(`wrote ${resultsPath}`);
}
process.stdout.write(
  values.json ? `${JSON.stringify({ meta, vue }, null, 2)}\n` : `${largeReportText(parts)}\n`,
);

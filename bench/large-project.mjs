#!/usr/bin/env node
// The large-project bench of issue 19 on its own (also the `large` and `treecost` sections of
// `npm run bench`): see bench/lib/large-bench.mjs (the protocol) and tree-cost-bench.mjs.
// Usage: npm run build && node bench/large-project.mjs [--quick] [--files 640] [--rounds 3]
//   [--only large,treecost] [--families lint,format,typecheck] [--tree-sizes 700,3000,150000]
//   [--pairs 15] [--results PATH] [--json]
// A full run replaces the issue 19 part of bench/RESULTS.md (the rest is kept); --quick
// (60 files, 1 round, trees of 700 and 3,000 files) writes nothing unless --results is given.
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchLarge } from './lib/large-bench.mjs';
import { largeReportText, renderLargeReport, spliceLargeReport } from './lib/report.mjs';
import { benchTreeCost } from './lib/tree-cost-bench.mjs';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    files: { type: 'string' },
    rounds: { type: 'string' },
    only: { type: 'string', default: 'large,treecost' },
    'tree-sizes': { type: 'string' },
    pairs: { type: 'string' },
    results: { type: 'string' },
    json: { type: 'boolean', default: false },
    families: { type: 'string' },
  },
});
const quick = values.quick;
const files = Number(values.files ?? (quick ? 60 : 640));
const rounds = Number(values.rounds ?? (quick ? 1 : 3));
const treeSizes = (values['tree-sizes'] ?? (quick ? '700,3000' : '700,3000,150000'))
  .split(',')
  .map(Number);
const pairs = Number(values.pairs ?? (quick ? 3 : 15));
const only = values.only.split(',');
const resultsPath =
  values.results ?? (quick ? undefined : fileURLToPath(new URL('./RESULTS.md', import.meta.url)));
const progress = (line) => process.stderr.write(`bench: ${line}\n`);

const meta = {
  date: new Date().toISOString(),
  command: `node bench/large-project.mjs ${process.argv.slice(2).join(' ')}`.trim(),
  cores: os.availableParallelism(),
  node: process.version,
};
const results = {};
if (only.includes('large'))
  results.large = await benchLarge(
    { files, rounds, families: values.families?.split(',') },
    progress,
  );
if (only.includes('treecost'))
  results.treecost = await benchTreeCost({ sizes: treeSizes, pairs }, progress);
const parts = renderLargeReport({ meta, results });
if (resultsPath) {
  const existing = fs.existsSync(resultsPath) ? fs.readFileSync(resultsPath, 'utf8') : '';
  fs.writeFileSync(resultsPath, spliceLargeReport(existing, parts));
  progress(`wrote ${resultsPath}`);
}
process.stdout.write(
  values.json ? `${JSON.stringify({ meta, results }, null, 2)}\n` : `${largeReportText(parts)}\n`,
);

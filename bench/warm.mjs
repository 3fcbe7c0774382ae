#!/usr/bin/env node
// Warm gates on their own (also the `warm` section of `npm run bench`): see
// bench/lib/warm-bench.mjs for what is measured. Prints the markdown table.
// Usage: npm run build && node bench/warm.mjs [--runs 7] [--files 60]
import { parseArgs } from 'node:util';
import { warmTable } from './lib/report.mjs';
import { benchWarm } from './lib/warm-bench.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, files: { type: 'string', default: '60' } },
});
const figures = await benchWarm({ runs: Number(values.runs), files: Number(values.files) });
console.log(warmTable(figures));

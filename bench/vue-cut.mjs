#!/usr/bin/env node
// A warm `eslint .` on the vue set-up cut by its budget, as a hook's budget cuts it (issue 30,
// item 5): a first call, then per round an edit (a comment appended to
// packages/shared/src/general.ts) and a call given 300 ms, then another edit
// and a call given all the time it takes. Prints who served the next call and how fast.
// Usage: npm run build && MCP_GATES_BENCH_VUE=<vuejs-core set-up> node bench/vue-cut.mjs [rounds]
import fs from 'node:fs';
import path from 'node:path';
import { WarmPool } from '../dist/gates/warm/index.js';

const root = process.env.MCP_GATES_BENCH_VUE;
if (!root) {
  process.stderr.write('bench: set MCP_GATES_BENCH_VUE to the vuejs/core set-up (bench/vue.mjs)\n');
  process.exit(2);
}
const rounds = Number(process.argv[2] ?? 3);
// The pool's workers hold no event loop while they wait for a killed worker to go.
const keep = setInterval(() => {}, 1000);
const file = path.join(root, 'packages/shared/src/general.ts');
const pristine = fs.readFileSync(file, 'utf8');
const env = { ...process.env, PATH: `${root}/node_modules/.bin:${process.env.PATH}` };
const argv = ['eslint', '.'];
const pool = new WarmPool();
const show = (label, result, ms) =>
  process.stdout.write(
    `${label}: ${Math.round(ms)} ms, ${result.kind}${result.reason ? ` (${result.reason})` : ''}` +
      `${result.startedWorker === undefined ? '' : `, started a worker: ${result.startedWorker}`}` +
      `${result.incremental ? `, kept ${result.incremental.kept}, checked ${result.incremental.checked}` : ''}\n`,
  );
const edit = (n) => fs.writeFileSync(file, `${pristine}\n// edit ${n}\n`);
const timed = async (label, timeoutMs) => {
  const started = Date.now();
  show(label, await pool.run({ root, argv, timeoutMs, env }), Date.now() - started);
};
try {
  await timed('first', 600000);
  for (let round = 1; round <= rounds; round++) {
    edit(round);
    await timed(`cut ${round}`, 300);
    edit(round + 1000);
    await timed(`next ${round}`, 600000);
  }
} finally {
  fs.writeFileSync(file, pristine);
  await pool.close();
  clearInterval(keep);
}

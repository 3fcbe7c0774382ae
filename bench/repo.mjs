#!/usr/bin/env node
// The large-repository benches of issue 30 (see bench/lib/vue-bench.mjs for the repositories,
// their set-up and the protocol): `node bench/vue.mjs` is `--repo vue`.
// Usage: npm run build && node bench/repo.mjs --repo vite|vue [--rounds 3]
//   [--families lint,format,typecheck-ts6,typecheck-ts7,hooks] [--peaks] [--results PATH] [--json]
//   [--phases] (see bench/vue.mjs)
// Replaces the repository's part of bench/RESULTS.md (the rest is kept) unless --results says
// where; a run of some families only writes nothing unless --results is given.
// MCP_GATES_BENCH_<NAME>=<dir> points at an existing set-up (MCP_GATES_BENCH_VITE, ...).
import { BENCH_REPOS } from './lib/vue-bench.mjs';
import { benchMain } from './lib/repo-main.mjs';

const argv = process.argv.slice(2);
const at = argv.findIndex((word) => word === '--repo' || word.startsWith('--repo='));
const name = at === -1 ? undefined : (argv[at].split('=')[1] ?? argv[at + 1]);
if (!BENCH_REPOS.includes(name)) {
  process.stderr.write(`bench: --repo ${BENCH_REPOS.join('|')} is required\n`);
  process.exit(2);
}
argv.splice(at, argv[at].includes('=') ? 1 : 2);
await benchMain(name, argv, `node bench/repo.mjs --repo ${name}`);

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
// The same as `node bench/repo.mjs --repo vue`.
import { benchMain } from './lib/repo-main.mjs';

await benchMain('vue', process.argv.slice(2), 'node bench/vue.mjs');

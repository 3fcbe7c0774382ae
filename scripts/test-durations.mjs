// Where a test run's time went: the slowest test files and tests, from the JSON of
// test/helpers/durations-reporter.mjs (per-file wall time, hooks included) or of mocha's
// own json reporter (test durations only: hooks are not in it).
//   node scripts/test-durations.mjs <file.json> [--top N]
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 15;
if (args.length !== 1) {
  console.error('usage: node scripts/test-durations.mjs <durations.json> [--top N]');
  process.exit(2);
}
const report = JSON.parse(fs.readFileSync(args[0], 'utf8'));
const relative = (file) => (file ? path.relative(process.cwd(), file) || file : '(unknown)');
const tests = (report.tests ?? []).map((test) => ({
  file: relative(test.file),
  title: test.title !== undefined && test.fullTitle === undefined ? test.title : test.fullTitle,
  ms: test.ms ?? test.duration ?? 0,
  failed: test.state === 'failed' || (test.err !== undefined && Object.keys(test.err).length > 0),
}));

const byFile = new Map();
for (const test of tests) {
  const entry = byFile.get(test.file) ?? { file: test.file, testMs: 0, tests: 0, failed: 0 };
  entry.testMs += test.ms;
  entry.tests += 1;
  entry.failed += test.failed ? 1 : 0;
  byFile.set(test.file, entry);
}
for (const file of report.files ?? []) {
  const entry = byFile.get(file.file) ?? { file: file.file, testMs: 0, tests: 0, failed: 0 };
  // Under --parallel a file's events arrive replayed: its wall time means nothing there.
  Object.assign(entry, { wallMs: file.wallMs >= 0 ? file.wallMs : undefined, hookMs: file.hookMs });
  byFile.set(file.file, entry);
}

const seconds = (ms) => (ms === undefined ? '-' : (ms / 1000).toFixed(1));
const spent = (file) => file.wallMs ?? file.testMs + (file.hookMs ?? 0);
const files = [...byFile.values()].sort((a, b) => spent(b) - spent(a));
const wall = report.wallMs ?? report.stats?.duration;
const testTotal = tests.reduce((sum, test) => sum + test.ms, 0);
console.log(
  `${tests.length} tests, ${tests.filter((t) => t.failed).length} failed; run ${seconds(wall)} s, tests ${seconds(testTotal)} s`,
);
console.log(`\nslowest ${top} files (s)      wall   tests   hooks  count`);
for (const file of files.slice(0, top))
  console.log(
    `${file.file.padEnd(42)} ${seconds(file.wallMs).padStart(6)} ${seconds(file.testMs).padStart(7)} ${seconds(file.hookMs).padStart(7)} ${String(file.tests).padStart(6)}`,
  );
console.log(`\nslowest ${top} tests (s)`);
for (const test of [...tests].sort((a, b) => b.ms - a.ms).slice(0, top))
  console.log(`${seconds(test.ms).padStart(7)}  ${test.file}: ${test.title.slice(0, 110)}`);

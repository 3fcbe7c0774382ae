// Capture runtime benchmark: `npm run build && node bench/capture.mjs`.
// 1. One begin/end cycle (median of 10,000) beside a bare dup2 pair in the same run.
// 2. 100 MB from a child through the capture beside the same child writing to a file.
// 3. Server RSS growth while capturing those 100 MB.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCaptureWrapper, childStdio } from '../dist/capture/index.js';
import {
  beginCapture,
  captureMode,
  endCapture,
  nativeBindingForTest,
} from '../dist/capture/capture-guard.js';

const CYCLES = Number(process.env.BENCH_CYCLES ?? 10000);
const BULK_RUNS = Number(process.env.BENCH_BULK_RUNS ?? 5);
const BULK_MIB = 100;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const microseconds = (start) => Number(process.hrtime.bigint() - start) / 1000;

const mode = captureMode();
const native = nativeBindingForTest();
if (!native) {
  console.error(
    `bench: the addon did not load (${mode.reason}); build it with npm run build:native`,
  );
  process.exit(1);
}
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-gates-bench-'));
const call = { toolName: 'bench', signal: new AbortController().signal };

// 1. Cycle cost. Warm up first so JIT and page cache do not count.
const bareTarget = {
  fd: fs.openSync(path.join(work, 'bare.log'), 'a'),
  path: path.join(work, 'bare.log'),
};
const bare = [];
const quiet = [];
const wrapped = [];
const noisy = [];
for (let i = 0; i < 1000; i++) {
  native.bareRedirectPairForTest(bareTarget);
  await beginCapture();
  endCapture();
}
for (let i = 0; i < CYCLES; i++) {
  let start = process.hrtime.bigint();
  native.bareRedirectPairForTest(bareTarget);
  bare.push(microseconds(start));
  start = process.hrtime.bigint();
  await beginCapture();
  endCapture();
  quiet.push(microseconds(start));
}
const wrapper = createCaptureWrapper();
const quietTool = async () => ({ text: '' });
const noisyTool = async () => {
  process.stderr.write('x\n');
  return { text: '' };
};
for (let i = 0; i < CYCLES; i++) {
  let start = process.hrtime.bigint();
  await wrapper(quietTool, call);
  wrapped.push(microseconds(start));
  if (i % 10 === 0) {
    start = process.hrtime.bigint();
    await wrapper(noisyTool, call);
    noisy.push(microseconds(start));
  }
}
fs.closeSync(bareTarget.fd);

// 2 and 3. 100 MB from a child: through the capture, and straight into a plain file.
const CHILD = `
  const fs = require('node:fs');
  const chunk = Buffer.alloc(1024 * 1024, 'x');
  for (let i = 0; i < ${BULK_MIB}; i++) fs.writeSync(2, chunk);`;
const runChild = (stdio) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CHILD], { stdio });
    child.on('error', reject).on('close', resolve);
  });
const plainTimes = [];
const captureTimes = [];
let rssGrowth = 0;
for (let run = 0; run < BULK_RUNS; run++) {
  const plainPath = path.join(work, 'plain.log');
  const plainFd = fs.openSync(plainPath, 'w');
  let start = process.hrtime.bigint();
  await runChild(['ignore', 'ignore', plainFd]);
  plainTimes.push(microseconds(start) / 1000);
  fs.closeSync(plainFd);
  fs.rmSync(plainPath);

  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 2);
  start = process.hrtime.bigint();
  const result = await wrapper(async () => {
    await runChild(childStdio());
    return { text: '' };
  }, call);
  captureTimes.push(microseconds(start) / 1000);
  clearInterval(sampler);
  rssGrowth = Math.max(rssGrowth, Math.max(rssPeak, process.memoryUsage().rss) - rssBefore);
  const logPath = /full log: (\S+)\) ---/.exec(result.text)?.[1];
  if (logPath) fs.rmSync(logPath, { force: true });
}
fs.rmSync(work, { recursive: true, force: true });

const bareMedian = median(bare);
const cycleMedian = median(quiet);
const plainMedian = median(plainTimes);
const captureMedian = median(captureTimes);
const rows = [
  ['bare dup2 pair (native, one call)', `${bareMedian.toFixed(2)} µs`, 'reference'],
  [
    'begin + end cycle, quiet',
    `${cycleMedian.toFixed(2)} µs`,
    `<= 20 µs and <= 3x bare: ${(cycleMedian / bareMedian).toFixed(1)}x ${cycleMedian <= 20 && cycleMedian <= 3 * bareMedian ? 'ok' : 'MISSED'}`,
  ],
  ['withCapture, quiet tool', `${median(wrapped).toFixed(2)} µs`, 'whole wrapper, await included'],
  [
    'withCapture, 2-byte tool (file replaced)',
    `${median(noisy).toFixed(2)} µs`,
    'every 10th cycle',
  ],
  ['100 MB child -> plain file', `${plainMedian.toFixed(1)} ms`, `median of ${BULK_RUNS}`],
  [
    '100 MB child -> capture',
    `${captureMedian.toFixed(1)} ms`,
    `<= 1.5x plain: ${(captureMedian / plainMedian).toFixed(2)}x ${captureMedian <= 1.5 * plainMedian ? 'ok' : 'MISSED'}`,
  ],
  [
    'server RSS growth, 100 MB capture',
    `${(rssGrowth / 1024 / 1024).toFixed(1)} MiB`,
    `< 32 MiB ${rssGrowth < 32 * 1024 * 1024 ? 'ok' : 'MISSED'}`,
  ],
];
const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column].length)));
console.log(
  `capture benchmark: ${CYCLES} cycles, ${os.cpus().length} CPUs, tmpdir ${os.tmpdir()}, ${mode.binding}`,
);
for (const row of rows)
  console.log(row.map((cell, column) => cell.padEnd(widths[column])).join('  '));

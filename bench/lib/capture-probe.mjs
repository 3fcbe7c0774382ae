// Runs in a child process (it moves fds 1 and 2) and reports capture figures over IPC.
// Usage: node capture-probe.mjs cycle <count> | flood <megabytes> <runs>
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  beginCapture,
  captureMode,
  childStdio,
  endCapture,
  guardStdio,
  nativeBindingForTest,
} from '../../dist/capture/capture-guard.js';
import { median } from './stats.mjs';

const BLOCK = 1000;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-gates-bench-'));

function elapsedMicroseconds(started) {
  return Number(process.hrtime.bigint() - started) / 1e3;
}

/** Per-cycle medians of a bare dup2 pair, the native begin/end, and the TS begin/end. */
async function cycle(count) {
  const native = nativeBindingForTest();
  if (!native)
    throw new Error(`capture is degraded (${captureMode().reason}): no cycle to measure`);
  const targetPath = path.join(scratch, 'bare.log');
  const target = { fd: fs.openSync(targetPath, 'a'), path: targetPath };
  const samples = { bare: [], native: [], typescript: [] };
  for (let done = 0; done < count; done += BLOCK) {
    for (let i = 0; i < BLOCK; i++) {
      const started = process.hrtime.bigint();
      native.bareRedirectPairForTest(target);
      samples.bare.push(elapsedMicroseconds(started));
    }
    for (let i = 0; i < BLOCK; i++) {
      const started = process.hrtime.bigint();
      native.begin(target);
      native.end();
      samples.native.push(elapsedMicroseconds(started));
    }
    for (let i = 0; i < BLOCK; i++) {
      const started = process.hrtime.bigint();
      await beginCapture();
      endCapture();
      samples.typescript.push(elapsedMicroseconds(started));
    }
  }
  fs.closeSync(target.fd);
  return {
    cycles: count,
    bareDup2PairUs: median(samples.bare),
    nativeCycleUs: median(samples.native),
    captureCycleUs: median(samples.typescript),
  };
}

const WRITER = `
const fs = require('node:fs');
const chunk = Buffer.alloc(65536, 'x\\n');
for (let left = Number(process.argv[1]) * 1048576; left > 0; left -= chunk.length) {
  fs.writeSync(1, chunk, 0, Math.min(chunk.length, left));
}`;

function runWriter(megabytes, stdio) {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, ['-e', WRITER, String(megabytes)], { stdio });
  // 'close', not 'exit': the output is complete only once the child's fds are closed.
  return new Promise((resolve, reject) => {
    child.on('error', reject).on('close', (code) => {
      if (code === 0) resolve(elapsedMicroseconds(started) / 1e3);
      else reject(new Error(`the writer exited with ${code}`));
    });
  });
}

/** The same child writing `megabytes` into a plain file and through the capture. */
async function flood(megabytes, runs) {
  const plainMs = [];
  const capturedMs = [];
  const rssGrowthBytes = [];
  const plainPath = path.join(scratch, 'plain.log');
  for (let run = 0; run < runs; run++) {
    const fd = fs.openSync(plainPath, 'w');
    try {
      plainMs.push(await runWriter(megabytes, ['ignore', fd, fd]));
    } finally {
      fs.closeSync(fd);
      fs.rmSync(plainPath);
    }

    globalThis.gc?.();
    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 2);
    const started = process.hrtime.bigint();
    await beginCapture();
    let report;
    try {
      await runWriter(megabytes, childStdio());
    } finally {
      report = endCapture();
    }
    capturedMs.push(elapsedMicroseconds(started) / 1e3);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage.rss());
    rssGrowthBytes.push(peak - baseline);
    if (report.totalBytes !== megabytes * 1048576 || !report.truncated) {
      throw new Error(`captured ${report.totalBytes} bytes, expected ${megabytes * 1048576}`);
    }
    if (report.logPath) fs.rmSync(report.logPath, { force: true });
  }
  return {
    megabytes,
    runs,
    plainMs: median(plainMs),
    capturedMs: median(capturedMs),
    rssGrowthBytes: Math.max(...rssGrowthBytes),
  };
}

const [mode, ...args] = process.argv.slice(2);
guardStdio(); // as the server does at start-up
try {
  const figures =
    mode === 'cycle' ? await cycle(Number(args[0])) : await flood(Number(args[0]), Number(args[1]));
  process.send({ ok: true, figures, mode: captureMode().mode });
} catch (error) {
  process.send({ ok: false, message: error.stack ?? String(error) });
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
  process.disconnect();
}

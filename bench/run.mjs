#!/usr/bin/env node
// The benchmark: `npm run bench` (full, writes bench/RESULTS.md) or `npm run bench -- --quick`
// (smoke: tiny N). Options: --servers ours,floor  --only protocol,capture,gates,check,warm,large,treecost,hooks
// --json --results PATH (where to write the markdown; the full run defaults to bench/RESULTS.md).
// A run of only `large` and/or `treecost` (issue 19) replaces that part of the existing results
// file and keeps the rest. A run of only `hooks` (issue 22) prints its table and writes no file.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchCapture } from './lib/capture-bench.mjs';
import { benchCheck } from './lib/check-bench.mjs';
import { benchGates } from './lib/gate-bench.mjs';
import { benchProtocol } from './lib/protocol-bench.mjs';
import {
  largeReportText,
  renderLargeReport,
  renderReport,
  spliceLargeReport,
} from './lib/report.mjs';
import { SERVERS } from './lib/servers.mjs';
import { judgeTargets } from './lib/targets.mjs';

const FULL = {
  coldRounds: 15,
  rounds: 7,
  warmup: 1000,
  sequential: 3000,
  pipelined: 20000,
  captureCycles: 10000,
  floodMegabytes: 100,
  floodRuns: 5,
  quickGatePairs: 30,
  tscGatePairs: 21,
  checkRounds: 7,
  warmRuns: 7,
  warmFiles: 60,
  largeFiles: 640,
  largeRounds: 3,
  treeSizes: [700, 3000, 150000],
  treePairs: 15,
  hooksFiles: 640,
  hooksRounds: 5,
};
const QUICK = {
  coldRounds: 1,
  rounds: 1,
  warmup: 10,
  sequential: 50,
  pipelined: 200,
  captureCycles: 1000,
  floodMegabytes: 4,
  floodRuns: 1,
  quickGatePairs: 2,
  tscGatePairs: 1,
  checkRounds: 1,
  warmRuns: 1,
  warmFiles: 20,
  largeFiles: 60,
  largeRounds: 1,
  treeSizes: [700, 3000],
  treePairs: 3,
  hooksFiles: 60,
  hooksRounds: 1,
};
const SECTIONS = ['protocol', 'capture', 'gates', 'check', 'warm', 'large', 'treecost', 'hooks'];
/** Sections whose report part is spliced into an existing results file when run alone. */
const LARGE_SECTIONS = ['large', 'treecost'];
const DEFAULT_RESULTS = fileURLToPath(new URL('./RESULTS.md', import.meta.url));

function usage(message) {
  process.stderr.write(
    `bench: ${message}\nusage: node bench/run.mjs [--quick] [--servers ${SERVERS.map((s) => s.id).join(',')}] [--only ${SECTIONS.join(',')}] [--json] [--results PATH]\n`,
  );
  process.exit(2);
}

function parseOptions() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        quick: { type: 'boolean', default: false },
        servers: { type: 'string' },
        only: { type: 'string' },
        json: { type: 'boolean', default: false },
        results: { type: 'string' },
      },
    }));
  } catch (error) {
    usage(error.message);
  }
  const pickList = (text, known, what) => {
    if (text === undefined) return known;
    const picked = text.split(',').filter(Boolean);
    const unknown = picked.filter((name) => !known.includes(name));
    if (unknown.length > 0) usage(`unknown ${what}: ${unknown.join(', ')}`);
    return picked;
  };
  const serverIds = pickList(
    values.servers,
    SERVERS.map((server) => server.id),
    'server',
  );
  return {
    quick: values.quick,
    json: values.json,
    servers: SERVERS.filter((server) => serverIds.includes(server.id)),
    sections: pickList(values.only, SECTIONS, 'section'),
    resultsPath: values.results ?? (values.quick ? undefined : DEFAULT_RESULTS),
  };
}

function packageVersion(name) {
  const url = new URL(`../node_modules/${name}/package.json`, import.meta.url);
  return JSON.parse(fs.readFileSync(url, 'utf8')).version;
}

function machine() {
  const cpuinfo = fs.readFileSync('/proc/cpuinfo', 'utf8');
  const model =
    /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? 'unknown CPU';
  return {
    cpu: model.trim(),
    cores: Number(execFileSync('nproc', { encoding: 'utf8' }).trim()),
    memoryBytes: os.totalmem(),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

const progress = (line) => process.stderr.write(`bench: ${line}\n`);

async function main() {
  const options = parseOptions();
  const sizes = options.quick ? QUICK : FULL;
  const started = Date.now();
  const meta = {
    date: new Date().toISOString(),
    ...machine(),
    node: process.version,
    packages: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server']
      .map((name) => `${name} ${packageVersion(name)}`)
      .join(', '),
    command: `node bench/run.mjs ${process.argv.slice(2).join(' ')}`.trim(),
    quick: options.quick,
  };
  const results = {};
  if (options.sections.includes('protocol')) {
    results.protocol = {};
    for (const era of ['legacy', 'modern']) {
      results.protocol[era] = await benchProtocol(options.servers, era, sizes, progress);
    }
  }
  if (options.sections.includes('capture')) {
    progress('capture: cycle and flood');
    results.capture = await benchCapture(sizes);
  }
  if (options.sections.includes('gates')) {
    progress('gates: through MCP beside direct');
    results.gates = await benchGates(sizes);
  }
  if (options.sections.includes('check')) {
    progress('check: every gate at once beside each alone');
    results.check = await benchCheck(sizes);
  }
  if (options.sections.includes('warm')) {
    // Loaded only when asked for: it imports dist/ (the other sections run without a build).
    const { benchWarm } = await import('./lib/warm-bench.mjs');
    results.warm = await benchWarm({ runs: sizes.warmRuns, files: sizes.warmFiles }, progress);
  }
  if (options.sections.includes('large')) {
    const { benchLarge } = await import('./lib/large-bench.mjs');
    results.large = await benchLarge(
      { files: sizes.largeFiles, rounds: sizes.largeRounds },
      progress,
    );
  }
  if (options.sections.includes('treecost')) {
    const { benchTreeCost } = await import('./lib/tree-cost-bench.mjs');
    results.treecost = await benchTreeCost(
      { sizes: sizes.treeSizes, pairs: sizes.treePairs },
      progress,
    );
  }
  let hooksText = '';
  if (options.sections.includes('hooks')) {
    const { benchHooks, renderHooksReport } = await import('./lib/hooks-bench.mjs');
    results.hooks = await benchHooks(
      { files: sizes.hooksFiles, rounds: sizes.hooksRounds },
      progress,
    );
    hooksText = renderHooksReport(
      results.hooks,
      `node bench/run.mjs ${process.argv.slice(2).join(' ')}`.trim(),
    );
    // Run alone, the hooks section is printed and leaves the results file as it is.
    if (options.sections.length === 1) {
      process.stdout.write(
        options.json ? `${JSON.stringify(results.hooks, null, 2)}\n` : hooksText,
      );
      return;
    }
  }
  meta.durationSeconds = Math.round((Date.now() - started) / 1000);
  const targets = judgeTargets(results);
  const onlyLarge =
    options.sections.every((section) => LARGE_SECTIONS.includes(section)) &&
    options.resultsPath !== undefined &&
    fs.existsSync(options.resultsPath);
  const report = onlyLarge
    ? spliceLargeReport(
        fs.readFileSync(options.resultsPath, 'utf8'),
        renderLargeReport({ meta, results }),
      )
    : renderReport({ meta, sizes, results, targets }) + (hooksText ? `\n${hooksText}` : '');
  if (options.resultsPath) {
    fs.writeFileSync(options.resultsPath, report);
    progress(`wrote ${options.resultsPath} (${meta.durationSeconds} s)`);
  }
  if (options.json)
    process.stdout.write(JSON.stringify({ meta, sizes, results, targets }, null, 2) + '\n');
  else
    process.stdout.write(
      onlyLarge ? `${largeReportText(renderLargeReport({ meta, results }))}\n` : report,
    );
}

await main();

#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against
// test/conformance/everything-server.mjs behind test/conformance/http-bridge.mjs, in
// both eras, and judges the result against test/conformance/expected.json:
//   - legacy era: suite 0.1.16, every scenario ("--suite all", revisions 2025-06-18 and 2025-11-25)
//   - modern era: suite 0.2.0-alpha.12, the scenarios revision 2026-07-28 requires
// Exits 1 when a scenario listed under "pass" fails (or the suite could not run).
// A scenario that passes while listed as pending is reported, not failed: move it.
//
//   node scripts/conformance.mjs [--compare]
//
// --compare also runs the official TypeScript SDK v1 and v2 everything servers (same
// bridge, same suites), for the figures beside ours; never gating.
// The suite needs Node 22: node@22 from npm, installed with the suites into
// $CONFORMANCE_CACHE (default bench/.work/conformance, gitignored), reused when present.
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const here = join(root, 'test', 'conformance');
const cache = resolve(process.env.CONFORMANCE_CACHE ?? join(root, 'bench', '.work', 'conformance'));
const compare = process.argv.includes('--compare');
const SUITE_TIMEOUT_MS = 5 * 60_000;

const ERAS = [
  { era: 'legacy', suite: '0.1.16', args: ['--suite', 'all'] },
  { era: 'modern', suite: '0.2.0-alpha.12', args: ['--requirements', '2026-07-28'] },
];
const NODE_PACKAGE = 'node@22';

/** npm install into a private prefix, once: the suite and Node 22 never enter the repo. */
function install(prefix, specs) {
  const marker = join(prefix, 'installed.txt');
  const wanted = specs.join(' ');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === wanted) return;
  mkdirSync(prefix, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error', ...specs],
    { stdio: ['ignore', 'ignore', 'inherit'], shell: process.platform === 'win32' },
  );
  if (result.status !== 0) {
    throw new Error(`npm install of ${wanted} into ${prefix} failed (status ${result.status})`);
  }
  writeFileSync(marker, wanted);
}

function node22() {
  const prefix = join(cache, 'node22');
  install(prefix, [NODE_PACKAGE]);
  const binary = join(
    prefix,
    'node_modules',
    'node',
    'bin',
    process.platform === 'win32' ? 'node.exe' : 'node',
  );
  const version = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0 || !version.stdout.startsWith('v22.')) {
    throw new Error(`${binary} does not run as Node 22 here: ${version.stderr || version.stdout}`);
  }
  return binary;
}

function suiteEntry(version) {
  const prefix = join(cache, `suite-${version}`);
  install(prefix, [`@modelcontextprotocol/conformance@${version}`]);
  return join(prefix, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
}

/** Starts the bridge in front of a server; resolves with its URL and a stop function. */
function startBridge({ label, argv, bridgeOptions = [] }) {
  const bridgeArgv = [join(here, 'http-bridge.mjs'), ...bridgeOptions, '--', process.execPath];
  const bridge = spawn(process.execPath, [...bridgeArgv, ...argv], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr = [];
  bridge.stderr.on('data', (chunk) => stderr.push(chunk));
  const stop = () =>
    new Promise((done) => {
      if (bridge.exitCode !== null) return done();
      bridge.once('exit', done);
      bridge.kill('SIGTERM');
    });
  return new Promise((resolveUrl, reject) => {
    let out = '';
    bridge.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /listening on (\S+)/.exec(out)?.[1];
      if (url) resolveUrl({ url, stop, log: () => Buffer.concat(stderr).toString() });
    });
    bridge.once('exit', (code) =>
      reject(
        new Error(
          `${label}: the bridge exited (${code}) before listening:\n${Buffer.concat(stderr)}`,
        ),
      ),
    );
  });
}

/** Adds one scenario's results directory (server-<scenario>-<timestamp>) to `scenarios`. */
function countChecks(scenarios, dir) {
  const name = basename(dir)
    .replace(/^server-/, '')
    .replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '');
  const counts = (scenarios[name] ??= { passed: 0, failed: 0, failedChecks: [] });
  const file = join(dir, 'checks.json');
  // No checks.json: the scenario crashed or timed out; one failure, not a silent pass.
  const checks = existsSync(file)
    ? JSON.parse(readFileSync(file, 'utf8'))
    : [{ status: 'FAILURE' }];
  for (const check of checks) {
    if (check.status === 'SUCCESS') counts.passed++;
    else if (check.status === 'FAILURE') {
      counts.failed++;
      counts.failedChecks.push(check.id ?? '(no id)');
    }
  }
}

/** Runs one suite; returns { scenario: { passed, failed } } read from its checks.json files. */
function runSuite(node, entry, url, args) {
  const outDir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  return new Promise((resolveRun) => {
    const suite = spawn(node, [entry, 'server', '--url', url, '-o', outDir, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = [];
    suite.stdout.on('data', (chunk) => output.push(chunk));
    suite.stderr.on('data', (chunk) => output.push(chunk));
    const timer = setTimeout(() => suite.kill('SIGKILL'), SUITE_TIMEOUT_MS);
    suite.on('close', (code, signal) => {
      clearTimeout(timer);
      const scenarios = {};
      try {
        for (const dir of readdirSync(outDir)) countChecks(scenarios, join(outDir, dir));
      } finally {
        rmSync(outDir, { recursive: true, force: true });
      }
      resolveRun({ scenarios, code, signal, output: Buffer.concat(output).toString() });
    });
  });
}

const totals = (scenarios) => {
  const all = Object.values(scenarios);
  return {
    scenarios: all.length,
    scenariosPassed: all.filter((counts) => counts.failed === 0).length,
    passed: all.reduce((sum, counts) => sum + counts.passed, 0),
    checks: all.reduce((sum, counts) => sum + counts.passed + counts.failed, 0),
  };
};
const figure = (t) =>
  `${t.scenariosPassed}/${t.scenarios} scenarios, ${t.passed}/${t.checks} checks`;

/** Compares one era's run with its expectations; returns the regressions. */
function judge(era, scenarios, expected) {
  const { pass, pending, notOffered, knownFailingChecks = {} } = expected;
  const regressions = [];
  console.log(`conformance ${era}:`);
  for (const [name, counts] of Object.entries(scenarios)) {
    // A scenario passes when every failed check is one expected.json names, with why.
    const known = knownFailingChecks[name] ?? {};
    const ok = counts.failedChecks.every((id) => id in known);
    let verdict;
    if (pass.includes(name)) {
      const knownNote = counts.failed > 0 ? `, ${counts.failed} known failing checks` : '';
      verdict = ok ? `expected pass${knownNote}` : 'REGRESSION: expected to pass';
      if (!ok) regressions.push(`${era} ${name}`);
    } else if (name in pending) {
      verdict = ok ? 'now passes: move it to "pass"' : `pending: ${pending[name]}`;
    } else if (name in notOffered) {
      verdict = ok ? 'passes though not offered' : `not offered: ${notOffered[name]}`;
    } else {
      verdict = 'unlisted in expected.json';
    }
    if (counts.passed + counts.failed === 0) verdict += '; no check scored';
    const checks = `${counts.passed}/${counts.passed + counts.failed}`;
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name} ${checks} (${verdict})`);
  }
  for (const name of pass) {
    if (!(name in scenarios)) {
      regressions.push(`${era} ${name} (did not run)`);
      console.log(`  FAIL ${name} did not run (expected to pass)`);
    }
  }
  return regressions;
}

/** One row per scenario: checks passed/scored for each server, side by side. */
function printComparison(eras) {
  for (const [era, results] of Object.entries(eras)) {
    const labels = Object.keys(results);
    const names = [...new Set(labels.flatMap((label) => Object.keys(results[label])))].sort();
    const width = Math.max(...names.map((name) => name.length));
    console.log(`conformance comparison, ${era} era (checks passed/scored):`);
    console.log(`  ${''.padEnd(width)}  ${labels.map((label) => label.padStart(9)).join('  ')}`);
    for (const name of names) {
      const cells = labels.map((label) => {
        const counts = results[label][name];
        const cell = counts ? `${counts.passed}/${counts.passed + counts.failed}` : '-';
        return cell.padStart(9);
      });
      console.log(`  ${name.padEnd(width)}  ${cells.join('  ')}`);
    }
  }
}

const started = Date.now();
const expected = JSON.parse(readFileSync(join(here, 'expected.json'), 'utf8'));
let node;
let entries;
try {
  node = node22();
  entries = Object.fromEntries(ERAS.map(({ era, suite }) => [era, suiteEntry(suite)]));
} catch (error) {
  console.log(`conformance: could not set up the suite: ${error.message}`);
  process.exit(1);
}

// v1 speaks only the legacy era. v2's serveStdio pins one era per stdio connection, so
// each of its stateless (modern) HTTP requests gets a child of its own.
const servers = [
  { label: 'mcp-gates', argv: [join(here, 'everything-server.mjs')], eras: ['legacy', 'modern'] },
];
if (compare) {
  const sdk = join(here, 'sdk-everything-server.mjs');
  servers.push({ label: 'SDK v1', argv: [sdk, 'v1'], eras: ['legacy'] });
  servers.push({
    label: 'SDK v2',
    argv: [sdk, 'v2'],
    eras: ['legacy', 'modern'],
    bridgeOptions: ['--fresh-stateless'],
  });
}

const regressions = [];
const figures = [];
const byEra = {}; // era -> server label -> scenario -> counts
for (const server of servers) {
  const ours = server.label === 'mcp-gates';
  const bridge = await startBridge(server);
  try {
    for (const { era, args } of ERAS.filter(({ era }) => server.eras.includes(era))) {
      const run = await runSuite(node, entries[era], bridge.url, args);
      const counted = totals(run.scenarios);
      if (counted.scenarios === 0) {
        console.log(run.output);
        const failure = `${server.label} ${era}: the suite produced no results (${run.signal ?? run.code})`;
        if (ours) regressions.push(failure);
        else figures.push(failure);
        continue;
      }
      figures.push(`${server.label} ${era}: ${figure(counted)}`);
      (byEra[era] ??= {})[server.label] = run.scenarios;
      if (ours) regressions.push(...judge(era, run.scenarios, expected[era]));
    }
  } finally {
    await bridge.stop();
  }
}

if (compare) printComparison(byEra);
for (const line of figures) console.log(`conformance ${line}`);
const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (regressions.length > 0) {
  console.log(`conformance: FAILED in ${seconds} s; expected to pass: ${regressions.join(', ')}`);
  process.exit(1);
}
console.log(`conformance: every expected scenario passed (${seconds} s)`);

// Warm gates (issue 11): on a generated fixture of TypeScript files (a git repository,
// formatted by its own .prettierrc, as a project that runs these gates is), for lint
// (eslint), format (prettier --check) and typecheck (tsc --noEmit), the median of N runs of:
//   cold              the command run directly from node_modules/.bin
//   MCP, warm off     a tools/call of the gate through `mcp-gates serve --no-warm`
//   MCP first         the first tools/call of a new `mcp-gates serve` (starts the worker)
//   MCP repeat        a tools/call with nothing changed
//   MCP after edit    a tools/call after a one-file edit
//   worker repeat / worker after edit: the same two asked of a WarmPool directly (what the
//                     worker itself costs, without the gate's tree watch, capture and report)
// Every warm answer is checked against the cold one (the worker's bytes against the cold
// command's; the MCP findings against the warm-off server's). Beside it, TypeScript 7's
// native `tsc --noEmit` cold on the same fixture (installed into a temp dir outside the repo).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WarmPool } from '../../dist/gates/warm/index.js';
import { cleanupTemporary } from '../../test/fixtures/gates-support.mjs';
import { gateEnv, git, makeWarmRepo, runCold } from '../../test/fixtures/warm/warm-fixture.mjs';
import { GATES_CLI, initializeClient } from './gate-bench.mjs';
import { RpcClient } from './rpc-client.mjs';
import { median } from './stats.mjs';

export const WARM_GATES = {
  lint: ['eslint', '.', '--format', 'json'],
  format: ['prettier', '--check', '.'],
  typecheck: ['tsc', '--noEmit', '--pretty', 'false'],
};
const PARSERS = { lint: 'eslint-json', format: 'prettier', typecheck: 'tsc' };
/** Where TypeScript 7 is installed once and reused by later runs (outside the repo). */
const TS7_DIR = path.join(os.tmpdir(), 'mcp-gates-bench-ts7');

/** One generated module, formatted as prettier would: typed functions importing the previous module. */
function moduleText(index, variant) {
  const lines =
    index > 0 ? [`import { value${index - 1} } from './module${index - 1}.js';`, ''] : [];
  const base = index > 0 ? `value${index - 1}` : '0';
  lines.push(`export const value${index}: number = ${base} + ${variant};`);
  for (let fn = 0; fn < 8; fn++) {
    lines.push(
      '',
      `export function compute${index}x${fn}(items: readonly number[]): number {`,
      `  let total = value${index};`,
      '  for (const item of items) {',
      `    total += item * ${fn + 1};`,
      '  }',
      '  return total;',
      '}',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The generated project, formatted by its prettier config and committed; returns its root. */
function makeBenchRepo(files) {
  const root = makeWarmRepo('mcp-gates-warm-bench-');
  for (let index = 0; index < files; index++) {
    fs.writeFileSync(path.join(root, 'src', `module${index}.ts`), moduleText(index, 1));
  }
  fs.writeFileSync(
    path.join(root, '.prettierrc.json'),
    `${JSON.stringify({ printWidth: 100, singleQuote: true }, null, 2)}\n`,
  );
  const gates = Object.fromEntries(
    Object.entries(WARM_GATES).map(([name, command]) => [
      name,
      { command, parser: PARSERS[name], timeoutMs: 120000 },
    ]),
  );
  fs.writeFileSync(path.join(root, 'mcp-gates.json'), `${JSON.stringify({ gates }, null, 2)}\n`);
  // Formatted as a project that runs prettier is: the fixture's own files too.
  const write = runCold(root, ['prettier', '--write', '.'], gateEnv());
  if (write.exitCode !== 0)
    throw new Error(`prettier --write on the bench fixture: ${write.stderr}`);
  for (let index = 0; index < files; index++) {
    const file = path.join(root, 'src', `module${index}.ts`);
    if (fs.readFileSync(file, 'utf8') !== moduleText(index, 1))
      throw new Error(`the generated ${file} is not as prettier formats it`);
  }
  git(root, 'init', '-q');
  fs.appendFileSync(path.join(root, '.git', 'info', 'exclude'), 'node_modules\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'bench fixture');
  return root;
}

const timed = async (work) => {
  const started = process.hrtime.bigint();
  const value = await work();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, value };
};

function sameAsCold(root, argv, warm, env) {
  const cold = runCold(root, argv, env);
  if (
    warm.kind !== 'ran' ||
    warm.exitCode !== cold.exitCode ||
    warm.stdout !== cold.stdout ||
    warm.stderr !== cold.stderr
  ) {
    throw new Error(`warm ${argv[0]} differs from cold: ${JSON.stringify(warm).slice(0, 300)}`);
  }
}

async function measure(root, argv, { runs, files }) {
  const env = gateEnv();
  const request = { root, argv, timeoutMs: 120000, env };
  const cold = [];
  const first = [];
  const repeat = [];
  const edit = [];
  for (let run = 0; run < runs; run++) cold.push((await timed(() => runCold(root, argv, env))).ms);
  for (let run = 0; run < runs; run++) {
    const pool = new WarmPool();
    first.push((await timed(() => pool.run(request))).ms);
    pool.close();
  }
  const pool = new WarmPool();
  sameAsCold(root, argv, await pool.run(request), env);
  for (let run = 0; run < runs; run++) repeat.push((await timed(() => pool.run(request))).ms);
  const middle = Math.floor(files / 2);
  const edited = path.join(root, 'src', `module${middle}.ts`);
  const original = fs.readFileSync(edited);
  for (let run = 0; run < runs; run++) {
    fs.writeFileSync(edited, moduleText(middle, run + 2));
    const result = await timed(() => pool.run(request));
    if (result.value.startedWorker)
      throw new Error(`a one-file edit restarted the ${argv[0]} worker`);
    edit.push(result.ms);
  }
  sameAsCold(root, argv, await pool.run(request), env);
  pool.close();
  fs.writeFileSync(edited, original);
  return { cold: median(cold), first: median(first), repeat: median(repeat), edit: median(edit) };
}

/** A `mcp-gates serve` of root, initialized. */
async function startServer(root, extra = []) {
  const client = new RpcClient(GATES_CLI, ['serve', '--root', root, ...extra], { cwd: root });
  await initializeClient(client);
  return client;
}

/** One tools/call of a gate: wall time and the structured result (a failing gate is a result). */
async function callGate(client, name) {
  const started = process.hrtime.bigint();
  const { result, receivedAt } = await client.request('tools/call', { name, arguments: {} });
  if (!result.structuredContent)
    throw new Error(`gate ${name} gave no result: ${result.content?.[0]?.text?.slice(0, 500)}`);
  return { ms: Number(receivedAt - started) / 1e6, result: result.structuredContent };
}

/** What must match between a warm and a cold gate result. */
const verdictOf = (result) =>
  JSON.stringify([result.status, result.exitCode, result.findingCount, result.findings]);

/** The gate's tool call through `mcp-gates serve`: warm off, first, repeat, after an edit. */
async function measureThroughMcp(root, name, { runs, files }) {
  const cold = await startServer(root, ['--no-warm']);
  const warmOff = [];
  let reference;
  try {
    reference = (await callGate(cold, name)).result;
    for (let run = 0; run < runs; run++) warmOff.push((await callGate(cold, name)).ms);
  } finally {
    await cold.close();
  }
  const first = [];
  for (let run = 0; run < runs; run++) {
    const client = await startServer(root);
    try {
      const call = await callGate(client, name);
      if (!call.result.warm?.used || verdictOf(call.result) !== verdictOf(reference))
        throw new Error(`the warm ${name} gate did not run warm or differs from cold`);
      first.push(call.ms);
    } finally {
      await client.close();
    }
  }
  const client = await startServer(root);
  const repeat = [];
  const edit = [];
  const middle = Math.floor(files / 2);
  const edited = path.join(root, 'src', `module${middle}.ts`);
  const original = fs.readFileSync(edited, 'utf8');
  try {
    await callGate(client, name);
    for (let run = 0; run < runs; run++) {
      const call = await callGate(client, name);
      if (verdictOf(call.result) !== verdictOf(reference))
        throw new Error(`the warm ${name} gate differs from cold on a repeat call`);
      repeat.push(call.ms);
    }
    for (let run = 0; run < runs; run++) {
      fs.writeFileSync(edited, moduleText(middle, run + 2));
      const call = await callGate(client, name);
      if (call.result.warm?.started || call.result.warm?.reused)
        throw new Error(`a one-file edit restarted the ${name} worker or reused its result`);
      edit.push(call.ms);
    }
    const last = (await callGate(client, name)).result;
    const coldAgain = await startServer(root, ['--no-warm']);
    try {
      if (verdictOf(last) !== verdictOf((await callGate(coldAgain, name)).result))
        throw new Error(`the warm ${name} gate differs from cold after the edits`);
    } finally {
      await coldAgain.close();
    }
  } finally {
    await client.close();
    fs.writeFileSync(edited, original);
  }
  return {
    mcpWarmOff: median(warmOff),
    mcpFirst: median(first),
    mcpRepeat: median(repeat),
    mcpEdit: median(edit),
  };
}

/** The native `tsc` of TypeScript 7, installed once into TS7_DIR; `{tsc, version}` or `{skipped}`. */
function typescript7() {
  const tsc = path.join(
    TS7_DIR,
    'node_modules',
    '.bin',
    process.platform === 'win32' ? 'tsc.cmd' : 'tsc',
  );
  if (!fs.existsSync(tsc)) {
    fs.mkdirSync(TS7_DIR, { recursive: true });
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const install = spawnSync(
      npm,
      ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', TS7_DIR, 'typescript@7'],
      { encoding: 'utf8', timeout: 300000, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    if (install.status !== 0 || !fs.existsSync(tsc))
      return {
        skipped: `npm install typescript@7 into ${TS7_DIR} failed (${install.error?.message ?? `exit ${install.status}`}): ${(install.stderr ?? '').trim().split('\n').slice(-1)[0] ?? ''}`,
      };
  }
  const version = spawnSync(tsc, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) return { skipped: `${tsc} --version failed: ${version.stderr}` };
  return { tsc, version: version.stdout.trim().replace(/^Version /, '') };
}

/** The `error TS…` lines of a tsc run, sorted: what TypeScript 6 and 7 must agree on. */
const diagnostics = (text) =>
  text
    .split(/\r?\n/)
    .filter((line) => /error TS\d+/.test(line))
    .sort()
    .join('\n');

/**
 * TypeScript 7's cold `tsc --noEmit` on the fixture, checked to report the same errors as
 * TypeScript 6 (their exit codes for "errors found" differ: 2 in TypeScript 6, 1 in 7).
 */
function measureTypescript7(root, argv, { runs }) {
  const found = typescript7();
  if (found.skipped) return found;
  const env = gateEnv();
  const args = argv.slice(1);
  const run = (extra = []) =>
    spawnSync(found.tsc, [...args, ...extra], {
      cwd: root,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120000,
    });
  const ts6 = runCold(root, argv, env);
  const first = run();
  if (
    (first.status === 0) !== (ts6.exitCode === 0) ||
    diagnostics(first.stdout + first.stderr) !== diagnostics(ts6.stdout + ts6.stderr)
  )
    return {
      skipped: `TypeScript ${found.version} does not report what TypeScript 6 reports on the fixture (exit ${first.status} vs ${ts6.exitCode}): ${(first.stdout + first.stderr).slice(0, 300)}`,
    };
  const timedRuns = (extra) => {
    const times = [];
    for (let index = 0; index < runs; index++) {
      const started = process.hrtime.bigint();
      run(extra);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    return median(times);
  };
  const cold = timedRuns([]);
  // Its incremental mode, build info outside the tree, nothing changed since the last run:
  // what keeping TypeScript 7 "warm" that way would save.
  const buildInfo = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-gates-ts7-')),
    'b.tsbuildinfo',
  );
  const incrementalArgs = ['--incremental', '--tsBuildInfoFile', buildInfo];
  run(incrementalArgs);
  const incremental = timedRuns(incrementalArgs);
  fs.rmSync(path.dirname(buildInfo), { recursive: true, force: true });
  return { version: found.version, command: `tsc ${args.join(' ')}`, cold, incremental };
}

/**
 * `{files, runs, gates: [{gate, command, cold, first, repeat, edit, mcpWarmOff, mcpFirst,
 * mcpRepeat, mcpEdit}],
 * typescript7: {version, command, cold, incremental} | {skipped}}` (times in ms, medians of
 * `runs`).
 */
export async function benchWarm({ runs, files }, progress = () => {}) {
  const root = makeBenchRepo(files);
  const gates = [];
  try {
    for (const [gate, argv] of Object.entries(WARM_GATES)) {
      progress(`warm: ${gate}`);
      const figures = await measure(root, argv, { runs, files });
      gates.push({
        gate,
        command: argv.join(' '),
        ...figures,
        ...(await measureThroughMcp(root, gate, { runs, files })),
      });
    }
    progress('warm: TypeScript 7 cold');
    const typescript = measureTypescript7(root, WARM_GATES.typecheck, { runs });
    // The generated modules plus the fixture's own files.
    const sourceFiles = fs.readdirSync(path.join(root, 'src')).length;
    return { files: sourceFiles, runs, gates, typescript7: typescript };
  } finally {
    cleanupTemporary();
  }
}

// The large-project bench (issue 19): a generated real-shaped TypeScript project (see
// big-project.mjs), each gate called through `mcp-gates serve` side by side, in one run,
// with the commands users already run: `eslint --cache`, `eslint_d`, cold `eslint .`;
// `prettier --check --cache`, cold `prettier --check .`; `tsc --incremental` (TypeScript 6),
// `tsgo --incremental` (TypeScript 7), cold `tsc` / `tsgo`.
//
// Protocol, per round and per gate family (lint, format, typecheck), for each contender in an
// order rotated every round:
//   reset    the two edit targets are rewritten to their committed bytes; the contender's
//            cache starts empty (a new cache file / build info file in a fresh temp dir,
//            eslint_d stopped, a new `serve` process each round)
//   first    the first call (eslint_d starts its daemon here; serve starts its worker here)
//   repeat   the same call, nothing changed
//   body     after an edit inside a function body of one feature module (API unchanged)
//   type     then, on top of it, an optional field added to the exported interface of the
//            hub module the most feature modules extend
// The edits are the same bytes for every contender of a round (they vary between rounds so
// every round's edit is new to every cache). Cold commands keep no cache; they are not run
// at `repeat` (the same tree as `first`: their `first` figure stands for it). The anchors'
// caches live in temp dirs outside the project; nothing writes into the project through a
// gate. Every result is checked: the tree stays clean (exit 0 / passed) at every step.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateProject, writeProjectConfig } from './big-project.mjs';
import { GATES_CLI, initializeClient } from './gate-bench.mjs';
import { RpcClient } from './rpc-client.mjs';
import { median } from './stats.mjs';

/** The tools the project runs, pinned (the cache dir is keyed by this list). */
export const TOOL_VERSIONS = {
  eslint: '10.15.0',
  '@eslint/js': '10.0.1',
  'typescript-eslint': '8.74.0',
  prettier: '3.10.1',
  typescript: '6.0.3',
  '@typescript/native-preview': '7.0.0-dev.20260707.2',
};
/** eslint_d 15 needs Node 22; 14.3 runs on Node 18+ and uses the project's own ESLint. */
export const ESLINT_D_VERSION =
  Number(process.versions.node.split('.')[0]) >= 22 ? '15.0.3' : '14.3.0';

export const STEPS = ['first', 'repeat', 'body', 'type'];
const CALL_TIMEOUT_MS = 900000;

/** The one environment of every contender (serve included). */
export function gateEnv() {
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  delete env.CLAUDE_PROJECT_DIR;
  // Set on some machines for the registry's proxy: it makes every node start parse a CA
  // bundle, a cost users' own runs do not have.
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** npm install of `specs` into the prefix `dir` (once: the marker file says it completed). */
export function installInto(dir, specs, marker) {
  if (fs.existsSync(marker)) return { ok: true };
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(path.join(dir, 'package.json')))
    fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const install = spawnSync(
    npm,
    ['install', '--no-audit', '--no-fund', '--prefix', dir, ...specs],
    {
      encoding: 'utf8',
      timeout: 600000,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  if (install.status !== 0) {
    const tail = (install.stderr ?? '').trim().split('\n').slice(-3).join(' / ');
    return {
      ok: false,
      why: `npm install ${specs.join(' ')} failed (${install.error?.message ?? `exit ${install.status}`}): ${tail}`,
    };
  }
  fs.writeFileSync(marker, `${specs.join('\n')}\n`);
  return { ok: true };
}

/**
 * The tools, installed into os.tmpdir()/mcp-gates-bench-tools/tools-<key of the versions>
 * (never into this repository). eslint_d goes into the same prefix, as a project's
 * devDependency would (eslint_d 14 requires `chalk` from next to the project's eslint, which
 * ESLint 10 no longer brings), by a second install whose failure costs only its column.
 * `{dir, eslintD: {bin, version} | {skipped}}`.
 */
export function installTools(progress) {
  const specs = Object.entries(TOOL_VERSIONS).map(([name, version]) => `${name}@${version}`);
  const everything = [...specs, `eslint_d@${ESLINT_D_VERSION}`];
  const key = crypto.createHash('sha256').update(everything.join(' ')).digest('hex').slice(0, 12);
  const dir = path.join(os.tmpdir(), 'mcp-gates-bench-tools', `tools-${key}`);
  progress(`large: tools in ${dir}`);
  const tools = installInto(dir, specs, path.join(dir, '.complete'));
  if (!tools.ok) throw new Error(tools.why);
  const daemon = installInto(
    dir,
    [`eslint_d@${ESLINT_D_VERSION}`],
    path.join(dir, '.complete-eslint_d'),
  );
  const eslintD = daemon.ok
    ? { bin: path.join(dir, 'node_modules', '.bin', 'eslint_d'), version: ESLINT_D_VERSION }
    : { skipped: daemon.why };
  return { dir, eslintD };
}

/**
 * With `kernel.sched_autogroup_enabled=1` a process in a session of its own (serve's detached
 * workers) gets a CPU share of its own: a direct command runs under `setsid -w` too, so that
 * both sides are scheduled alike.
 */
const SETSID =
  process.platform === 'linux' && fs.existsSync('/usr/bin/setsid') ? '/usr/bin/setsid' : undefined;

/** Wall time of one command run to its end (in a session of its own); never throws on a non-zero exit. */
export function runTimed(file, args, cwd, env = gateEnv()) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const [program, argv] = SETSID ? [SETSID, ['-w', file, ...args]] : [file, args];
    const child = spawn(program, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => {
      output = (output + chunk).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), CALL_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ms: NaN, exitCode: null, output: error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, exitCode: code, output });
    });
  });
}

/**
 * git in a bench repository, with an identity of its own (no user config needed) and none
 * of the repository's hooks (an install may have set them up: vue's commit-msg hook
 * refuses the bench's commit messages, vite's pre-commit formats).
 */
export function git(root, ...args) {
  const result = spawnSync(
    'git',
    [
      '-c',
      'core.hooksPath=/dev/null',
      '-c',
      'user.email=bench@mcp-gates',
      '-c',
      'user.name=bench',
      '-c',
      'init.defaultBranch=main',
      ...args,
    ],
    { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

/** The generated project: formatted by its own prettier, its tools linked in, committed. */
export function makeLargeProject(toolsDir, files) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-gates-bench-large-')));
  writeProjectConfig(root);
  const project = generateProject(root, { files });
  const gate = (command, parser) => ({ command, parser, timeoutMs: CALL_TIMEOUT_MS });
  const config = {
    gates: {
      lint: gate(['eslint', '--format', 'json', '.'], 'eslint-json'),
      format: gate(['prettier', '--check', '.'], 'prettier'),
      typecheck: gate(['tsc', '--noEmit', '--pretty', 'false', '-p', 'tsconfig.json'], 'tsc'),
      typecheck7: gate(['tsgo', '--noEmit', '--pretty', 'false', '-p', 'tsconfig.json'], 'tsc'),
    },
  };
  fs.writeFileSync(path.join(root, 'mcp-gates.json'), `${JSON.stringify(config, null, 2)}\n`);
  // node_modules: every entry of the tool cache linked in (as an install of them would be).
  const modules = path.join(root, 'node_modules');
  fs.mkdirSync(modules);
  const cached = path.join(toolsDir, 'node_modules');
  for (const name of fs.readdirSync(cached)) {
    if (name.startsWith('.') && name !== '.bin' && name !== '.package-lock.json') continue;
    fs.symlinkSync(path.join(cached, name), path.join(modules, name), 'junction');
  }
  const write = spawnSync(path.join(modules, '.bin', 'prettier'), ['--write', '.'], {
    cwd: root,
    encoding: 'utf8',
    env: gateEnv(),
  });
  if (write.status !== 0) throw new Error(`prettier --write on the large project: ${write.stderr}`);
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'large bench project');
  const pristine = {};
  for (const edit of [project.bodyEdit, project.typeEdit]) {
    pristine[edit.file] = fs.readFileSync(path.join(root, edit.file), 'utf8');
    edit.apply(pristine[edit.file], 0); // throws when prettier moved the edit's target
  }
  return { root, ...project, pristine };
}

/** The RSS (and peak RSS) of a process and all its descendants, from /proc (Linux). */
export function treeMemory(pid) {
  const processes = [];
  const visit = (id) => {
    let status;
    try {
      status = fs.readFileSync(`/proc/${id}/status`, 'utf8');
    } catch {
      return;
    }
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    const cmdline = fs.readFileSync(`/proc/${id}/cmdline`, 'utf8').split('\0').join(' ').trim();
    processes.push({ pid: id, rss: kb('VmRSS') * 1024, peak: kb('VmHWM') * 1024, cmdline });
    for (const task of fs.readdirSync(`/proc/${id}/task`)) {
      let children;
      try {
        children = fs.readFileSync(`/proc/${id}/task/${task}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const child of children.split(' ').filter(Boolean)) visit(Number(child));
    }
  };
  visit(pid);
  return {
    rss: processes.reduce((sum, p) => sum + p.rss, 0),
    peak: processes.reduce((sum, p) => sum + p.peak, 0),
    processes,
  };
}

/** One tools/call through serve; `ok` is the gate's verdict. */
export async function callServe(client, name) {
  const started = process.hrtime.bigint();
  const { result, receivedAt } = await client.request('tools/call', { name, arguments: {} });
  const ms = Number(receivedAt - started) / 1e6;
  const content = result.structuredContent;
  if (!content)
    throw new Error(`gate ${name} gave no result: ${result.content?.[0]?.text?.slice(0, 500)}`);
  return {
    ms,
    ok: content.passed === true,
    findings: content.findingCount,
    warm: content.warm,
    detail: content.passed ? '' : JSON.stringify(content).slice(0, 400),
  };
}

function freshTemp(prefix) {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** A command the user runs, from the project's node_modules/.bin (or an absolute bin). */
export function commandContender(
  id,
  label,
  program,
  argsFor,
  { cold = false, env = gateEnv() } = {},
) {
  let temp;
  return {
    id,
    label,
    cold,
    start() {
      temp = freshTemp('mcp-gates-bench-cache-');
    },
    async call(root) {
      const file = path.isAbsolute(program)
        ? program
        : path.join(root, 'node_modules', '.bin', program);
      const run = await runTimed(file, argsFor(temp), root, env);
      return {
        ms: run.ms,
        ok: run.exitCode === 0,
        detail: run.exitCode === 0 ? '' : run.output.slice(-400),
      };
    },
    finish() {
      fs.rmSync(temp, { recursive: true, force: true });
    },
  };
}

export function serveContender(id, label, gate, state) {
  return {
    id,
    label,
    serve: true,
    start() {},
    call: () => callServe(state.client, gate),
    finish() {},
  };
}

/**
 * eslint_d with --cache: its daemon started by the first call, stopped after the type step.
 * `eslintDir` is the project's eslint (the daemon writes its record there).
 */
export function eslintDContender(eslintD, eslintDir, memory) {
  const base = commandContender(
    'eslint_d',
    '`eslint_d --cache`',
    eslintD.bin,
    (temp) => ['--cache', '--cache-location', path.join(temp, 'eslintcache'), '.'],
    { env: daemonEnv() },
  );
  const stop = (root) =>
    spawnSync(eslintD.bin, ['stop'], { cwd: root, env: daemonEnv(), encoding: 'utf8' });
  // The daemon's record: `<token> <port> <pid> <hash>` in the resolved eslint's directory.
  const record = path.join(fs.realpathSync(eslintDir), '.eslint_d');
  return {
    ...base,
    stop,
    start(root) {
      stop(root);
      base.start();
    },
    // Its launcher waits 2 s for a new daemon to write its record; on a loaded machine that
    // can time out while the daemon still comes up. The call is then made again (at most
    // twice more) and the time of every attempt counts; the retries are reported.
    async call(root) {
      let total = 0;
      for (let attempt = 0; ; attempt++) {
        const result = await base.call(root);
        total += result.ms;
        if (result.ok || attempt === 2 || !/Timed out waiting for config/.test(result.detail))
          return { ...result, ms: total, retries: attempt };
      }
    },
    finish(root) {
      try {
        const pid = Number(fs.readFileSync(record, 'utf8').split(' ')[2]);
        if (pid > 0) memory.push(treeMemory(pid));
      } catch {
        // no daemon record: no RSS figure this round
      }
      stop(root);
      base.finish();
    },
  };
}

/** eslint_d's daemon bound to this bench process: it exits when the bench does. */
function daemonEnv() {
  return { ...gateEnv(), ESLINT_D_PPID: String(process.pid) };
}

/** `tsc`/`tsgo --incremental` with its build info in the contender's temp dir. */
export const incrementalArgs = (temp) => [
  '--noEmit',
  '--incremental',
  '--tsBuildInfoFile',
  path.join(temp, 'b.tsbuildinfo'),
];

/** serve's format gate beside `prettier --check --cache` and cold `prettier --check .`. */
export function formatContenders(state) {
  return [
    serveContender('serve', '`serve` format', 'format', state),
    commandContender('prettier-cache', '`prettier --check --cache`', 'prettier', (temp) => [
      '--check',
      '--cache',
      '--cache-location',
      path.join(temp, 'prettiercache'),
      '.',
    ]),
    commandContender(
      'prettier-cold',
      '`prettier --check .` cold',
      'prettier',
      () => ['--check', '.'],
      {
        cold: true,
      },
    ),
  ];
}

/**
 * serve's lint gate beside `eslint --cache`, `eslint_d --cache` (unless skipped) and cold
 * `eslint .`; `eslintDir` is the project's eslint; `options`, what the project's lint script
 * adds to eslint's own two (vite's `--concurrency auto`).
 */
export function lintContenders(eslintD, eslintDir, state, options = []) {
  const shown = options.length > 0 ? ` ${options.join(' ')}` : '';
  const lint = [
    serveContender('serve', '`serve` lint', 'lint', state),
    commandContender('eslint-cache', `\`eslint --cache${shown}\``, 'eslint', (temp) => [
      '--cache',
      '--cache-location',
      path.join(temp, 'eslintcache'),
      ...options,
      '.',
    ]),
    commandContender(
      'eslint-cold',
      `\`eslint${shown} .\` cold`,
      'eslint',
      () => [...options, '.'],
      {
        cold: true,
      },
    ),
  ];
  if (!eslintD.skipped)
    lint.splice(2, 0, eslintDContender(eslintD, eslintDir, state.eslintDMemory));
  return lint;
}

function families(tools, state) {
  const lint = lintContenders(tools.eslintD, path.join(tools.dir, 'node_modules', 'eslint'), state);
  const format = formatContenders(state);
  const incremental = incrementalArgs;
  const typecheck = [
    serveContender('serve', '`serve` typecheck (TS 6 `tsc`)', 'typecheck', state),
    serveContender('serve-tsgo', '`serve` typecheck7 (TS 7 `tsgo`)', 'typecheck7', state),
    commandContender('tsc-incremental', 'TS 6 `tsc --incremental`', 'tsc', incremental),
    commandContender('tsgo-incremental', 'TS 7 `tsgo --incremental`', 'tsgo', incremental),
    commandContender('tsc-cold', 'TS 6 `tsc --noEmit` cold', 'tsc', () => ['--noEmit'], {
      cold: true,
    }),
    commandContender('tsgo-cold', 'TS 7 `tsgo --noEmit` cold', 'tsgo', () => ['--noEmit'], {
      cold: true,
    }),
  ];
  return { lint, format, typecheck };
}

function resetTree(project) {
  for (const [file, text] of Object.entries(project.pristine)) {
    const target = path.join(project.root, file);
    if (fs.readFileSync(target, 'utf8') !== text) fs.writeFileSync(target, text);
  }
}

/** One family's round: every contender through the four steps, in a rotated order. */
async function runFamily(name, contenders, project, round, record, progress, label) {
  const order = contenders.map((_, index) => contenders[(index + round) % contenders.length]);
  for (const contender of order) {
    resetTree(project);
    contender.start(project.root);
    for (const step of STEPS) {
      if (step === 'body') {
        const file = path.join(project.root, project.bodyEdit.file);
        fs.writeFileSync(
          file,
          project.bodyEdit.apply(project.pristine[project.bodyEdit.file], round + 1),
        );
      } else if (step === 'type') {
        const file = path.join(project.root, project.typeEdit.file);
        fs.writeFileSync(
          file,
          project.typeEdit.apply(project.pristine[project.typeEdit.file], round + 1),
        );
      }
      if (contender.cold && step === 'repeat') continue;
      const result = await contender.call(project.root);
      progress(
        `${label}: round ${round + 1} ${name} ${contender.id} ${step}: ${Math.round(result.ms)} ms${result.ok ? '' : ' (FAILED)'}`,
      );
      record(name, contender, step, result, round);
    }
    contender.finish(project.root);
  }
  resetTree(project);
}

/**
 * The rounds of the families' contenders on `project` (`{root, bodyEdit, typeEdit, pristine}`),
 * a new `serve` (`serveArgs` after `serve --root <root>`) per round for every serve contender:
 * `{families: {name: [{id, label, serve, cold, steps: {first: ms, ...}}]}, serveStartMs,
 * serveMemory, problems, retries, warm: {key: {step: [..warm records]}}}`.
 */
export async function runRounds(
  { project, groups, rounds, only, state, label, serveArgs = [], freshServeCache = false },
  progress,
) {
  const samples = {};
  const problems = [];
  const retries = [];
  const warm = {};
  const record = (family, contender, step, result, round) => {
    const key = `${family}/${contender.id}`;
    samples[key] ??= Object.fromEntries(STEPS.map((s) => [s, []]));
    samples[key][step].push(result.ms);
    if (!result.ok)
      problems.push(`${family} ${contender.id} at ${step}: not clean: ${result.detail}`);
    if (result.retries)
      retries.push(
        `${family} ${contender.id} at ${step} (round ${round + 1}): ${result.retries} retries`,
      );
    if (contender.serve) {
      warm[key] ??= Object.fromEntries(STEPS.map((s) => [s, []]));
      warm[key][step].push(result.warm ?? null);
    }
  };
  const serveStart = [];
  const serveMemory = [];
  const picked = Object.entries(groups).filter(([name]) => !only || only.includes(name));
  try {
    for (let round = 0; round < rounds; round++) {
      const started = process.hrtime.bigint();
      // serve keeps TypeScript 7 build info in the user's cache across starts: a cache of
      // its own each round starts it empty, as every other contender's cache starts.
      const cache = freshServeCache ? freshTemp('mcp-gates-bench-serve-cache-') : undefined;
      state.client = new RpcClient(GATES_CLI, ['serve', '--root', project.root, ...serveArgs], {
        cwd: project.root,
        env: cache ? { ...gateEnv(), XDG_CACHE_HOME: cache } : gateEnv(),
      });
      await initializeClient(state.client);
      serveStart.push(Number(process.hrtime.bigint() - started) / 1e6);
      try {
        for (const [name, contenders] of picked)
          await runFamily(name, contenders, project, round, record, progress, label);
        serveMemory.push(treeMemory(state.client.pid));
      } finally {
        await state.client.close(30000);
        if (cache) fs.rmSync(cache, { recursive: true, force: true });
      }
    }
  } finally {
    for (const contender of Object.values(groups).flat()) contender.stop?.(project.root);
  }
  const families = Object.fromEntries(
    picked.map(([name, contenders]) => [
      name,
      contenders.map((contender) => ({
        id: contender.id,
        label: contender.label,
        serve: Boolean(contender.serve),
        cold: Boolean(contender.cold),
        steps: Object.fromEntries(
          STEPS.map((step) => [step, median(samples[`${name}/${contender.id}`]?.[step] ?? [])]),
        ),
      })),
    ]),
  );
  return {
    families,
    serveStartMs: median(serveStart),
    serveMemory: summarizeMemory(serveMemory),
    eslintDMemory: summarizeMemory(state.eslintDMemory),
    problems,
    retries,
    warm,
  };
}

/**
 * `{files, lines, bodyEdit, typeEdit, rounds, versions, eslintD, families: {lint: {contenders:
 * [{id, label, serve, cold, steps: {first: ms, ...}}]}, ...}, serveStartMs, serveMemory,
 * eslintDMemory, problems: [..], warm: {gate: {step: [..warm records]}}}`
 */
export async function benchLarge({ files, rounds, families: only }, progress = () => {}) {
  const tools = installTools(progress);
  progress(`large: generating ${files} files`);
  const project = makeLargeProject(tools.dir, files);
  const state = { client: undefined, eslintDMemory: [] };
  const groups = families(tools, state);
  let figures;
  try {
    figures = await runRounds({ project, groups, rounds, only, state, label: 'large' }, progress);
  } finally {
    fs.rmSync(project.root, { recursive: true, force: true });
  }
  const version = (name) =>
    JSON.parse(fs.readFileSync(path.join(tools.dir, 'node_modules', name, 'package.json'), 'utf8'))
      .version;
  return {
    files: project.files,
    lines: project.lines,
    bodyEdit: project.bodyEdit.file,
    typeEdit: { file: project.typeEdit.file, dependents: project.typeEdit.dependents },
    rounds,
    versions: {
      ...Object.fromEntries(Object.keys(TOOL_VERSIONS).map((name) => [name, version(name)])),
      eslint_d: tools.eslintD.skipped ? undefined : tools.eslintD.version,
    },
    eslintD: tools.eslintD.skipped
      ? { skipped: tools.eslintD.skipped }
      : { version: tools.eslintD.version },
    ...figures,
  };
}

/** `{rssMedian, rssMax, peakMax, processes}` of the largest of `list` (treeMemory answers). */
export function summarizeMemory(list) {
  if (list.length === 0) return undefined;
  const top = list.reduce((best, m) => (m.rss > best.rss ? m : best));
  return {
    rssMedian: median(list.map((m) => m.rss)),
    rssMax: top.rss,
    peakMax: Math.max(...list.map((m) => m.peak)),
    processes: top.processes.map((p) => ({
      rss: p.rss,
      peak: p.peak,
      cmdline: p.cmdline.slice(0, 160),
    })),
  };
}

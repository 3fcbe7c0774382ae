// The vuejs/core bench (issue 30): the benchmark that decides. A snapshot of vuejs/core from
// ../shared/corpus (ESLint 10 + typescript-eslint, Prettier 3, TypeScript 6, a pnpm workspace
// whose packages/shared every package imports), set up outside this repository's tree and
// cached between runs, each gate called through `mcp-gates serve` beside what users run
// instead, interleaved (the large bench's protocol: see large-bench.mjs), per gate family:
//   lint            serve `lint`       beside `eslint --cache`, `eslint_d --cache`, cold `eslint .`
//   format          serve `format`     beside `prettier --check --cache`, cold `prettier --check .`
//   typecheck-ts6   serve `check`      beside `tsc --noEmit --incremental`, cold `tsc --noEmit`
//   typecheck-ts7   serve `typecheck7` beside `tsgo --noEmit --incremental`, cold `tsgo --noEmit`
//   hooks           `after_edit` through serve (session_start first, as `init --hooks` sets
//                   it up) for lint + format, and with the typecheck, beside a cold command hook
// The edits are those of shared/corpus/README.md: an argument added to an `indexOf` call in
// packages/shared/src/general.ts (body), then an optional field added to
// `ComponentInternalInstance` in packages/runtime-core/src/component.ts (exported type).
// Every direct command runs under `setsid -w`, every contender in one environment.
// Environment: MCP_GATES_BENCH_VUE=<dir> uses an existing set-up (a git work tree of the
// snapshot with its pnpm install; the bench commits `init --hooks claude-code`'s file there
// once); MCP_GATES_BENCH_CORPUS=<dir> where the snapshot is (default ../shared/corpus);
// MCP_GATES_BENCH_VUE_TOOLS=<dir> where the anchors (eslint_d, tsgo) are installed.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GATES_CLI, initializeClient } from './gate-bench.mjs';
import {
  ESLINT_D_VERSION,
  TOOL_VERSIONS,
  commandContender,
  formatContenders,
  gateEnv,
  git,
  incrementalArgs,
  installInto,
  lintContenders,
  runRounds,
  runTimed,
  serveContender,
} from './large-bench.mjs';
import { phaseLine } from './report.mjs';
import { RpcClient } from './rpc-client.mjs';
import { median } from './stats.mjs';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = path.join(os.tmpdir(), 'mcp-gates-bench-vue');
export const VUE_FAMILIES = ['lint', 'format', 'typecheck-ts6', 'typecheck-ts7', 'hooks'];
const CALL_TIMEOUT_MS = 15 * 60 * 1000;

/** The snapshot tarball of vuejs/core in the corpus directory. */
function snapshot() {
  const dir = process.env.MCP_GATES_BENCH_CORPUS ?? path.resolve(REPO, '..', 'shared', 'corpus');
  const name = fs.existsSync(dir)
    ? fs.readdirSync(dir).find((file) => /^vuejs-core-.*\.tar\.gz$/.test(file))
    : undefined;
  if (!name)
    throw new Error(
      `no vuejs-core-*.tar.gz in ${dir}: set MCP_GATES_BENCH_CORPUS to the corpus directory, or MCP_GATES_BENCH_VUE to a set-up`,
    );
  return path.join(dir, name);
}

/** A set-up step (its own environment: installs may need the registry's CA settings). */
function run(file, args, cwd, what, timeout = 900000) {
  const result = spawnSync(file, args, {
    cwd,
    env: { ...process.env, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0)
    throw new Error(
      `${what} failed (${result.error?.message ?? `exit ${result.status}`}): ${`${result.stdout}\n${result.stderr}`.trim().slice(-600)}`,
    );
  return result.stdout;
}

/** The anchors users run beside the project's own tools, installed outside the tree (once). */
function installAnchors(progress) {
  const dir = process.env.MCP_GATES_BENCH_VUE_TOOLS ?? path.join(CACHE, 'tools');
  const specs = [
    `eslint_d@${ESLINT_D_VERSION}`,
    `@typescript/native-preview@${TOOL_VERSIONS['@typescript/native-preview']}`,
  ];
  progress(`vue: anchors in ${dir}`);
  const installed = installInto(dir, specs, path.join(dir, '.complete-vue-anchors'));
  if (!installed.ok && !fs.existsSync(path.join(dir, 'node_modules', '.bin', 'tsgo')))
    throw new Error(installed.why);
  // pnpm runs the gates `init` finds in vue's package.json scripts, as it does for its users:
  // a prefix of its own, so only pnpm joins PATH (every contender's environment).
  const pnpmDir = path.join(dir, 'pnpm');
  const pnpm = installInto(pnpmDir, ['pnpm@10'], path.join(pnpmDir, '.complete'));
  if (!pnpm.ok) throw new Error(pnpm.why);
  process.env.PATH = `${path.join(pnpmDir, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}`;
  // vue's package.json asks for pnpm 11 (which needs Node 22): pnpm 10 runs its scripts
  // instead of trying to switch to it.
  if (Number(process.versions.node.split('.')[0]) < 22)
    process.env.npm_config_manage_package_manager_versions = 'false';
  const bin = (name) => path.join(dir, 'node_modules', '.bin', name);
  const version = (name) =>
    JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8'))
      .version;
  return {
    dir,
    tsgo: bin('tsgo'),
    eslintD: fs.existsSync(bin('eslint_d'))
      ? { bin: bin('eslint_d'), version: version('eslint_d') }
      : { skipped: installed.why ?? 'eslint_d is not installed' },
    versions: {
      pnpm: JSON.parse(
        fs.readFileSync(path.join(pnpmDir, 'node_modules', 'pnpm', 'package.json'), 'utf8'),
      ).version,
      '@typescript/native-preview': version('@typescript/native-preview'),
      eslint_d: fs.existsSync(bin('eslint_d')) ? version('eslint_d') : undefined,
    },
  };
}

/**
 * The set-up: the snapshot extracted, committed and installed with pnpm 10 (as
 * shared/corpus/README.md says), into os.tmpdir()/mcp-gates-bench-vue unless
 * MCP_GATES_BENCH_VUE names one; then, once, `init --hooks claude-code`'s hooks file,
 * committed. Returns the root.
 */
export function setUpVue(tools, progress) {
  let root = process.env.MCP_GATES_BENCH_VUE;
  if (!root) {
    const tarball = snapshot();
    const home = path.join(CACHE, path.basename(tarball, '.tar.gz'));
    root = path.join(home, 'vuejs-core');
    if (!fs.existsSync(path.join(home, '.installed'))) {
      progress(`vue: setting up ${root} (pnpm 10 install; minutes)`);
      fs.rmSync(home, { recursive: true, force: true });
      fs.mkdirSync(home, { recursive: true });
      run('tar', ['xzf', tarball, '-C', home], home, 'extracting the snapshot');
      git(root, 'init', '-q');
      git(root, 'add', '-A');
      git(root, 'commit', '-q', '-m', 'snapshot');
      run('pnpm', ['install', '--frozen-lockfile'], root, 'pnpm install');
      fs.writeFileSync(path.join(home, '.installed'), `${new Date().toISOString()}\n`);
    }
  }
  root = fs.realpathSync(root);
  // The gates are detection's (package.json scripts), as vue's users get them.
  if (!fs.existsSync(path.join(root, '.claude', 'settings.json'))) {
    progress('vue: committing `init --hooks claude-code`');
    run(
      process.execPath,
      [GATES_CLI, 'init', '--hooks', 'claude-code', '--root', root],
      root,
      'mcp-gates init --hooks claude-code',
    );
    git(root, 'add', '.claude');
    git(root, 'commit', '-q', '-m', 'mcp-gates hooks (init --hooks claude-code)');
  }
  linkChalkForEslintD(root, tools);
  if (git(root, 'status', '--porcelain').trim() !== '')
    throw new Error(`the vue set-up ${root} has changes: commit or reset them first`);
  return root;
}

/**
 * eslint_d 14 (the one for Node 20) requires `chalk` from beside the project's eslint; under
 * pnpm that finds the hoisted chalk 5, which is ESM only (its daemon then answers every call
 * "unexpected response"). The chalk 4 it was installed with is linked beside eslint instead
 * (in node_modules/.pnpm: nothing git sees).
 */
function linkChalkForEslintD(root, tools) {
  if (tools.eslintD.skipped) return;
  const beside = path.join(
    path.dirname(fs.realpathSync(path.join(root, 'node_modules', 'eslint'))),
    'chalk',
  );
  const chalk4 = path.join(tools.dir, 'node_modules', 'chalk');
  if (!fs.existsSync(beside) && fs.existsSync(chalk4)) fs.symlinkSync(chalk4, beside, 'junction');
}

/** `text` with `from` replaced by `to`; throws when `from` is not there (the snapshot moved). */
function replaceOnce(text, from, to, file) {
  if (!text.includes(from)) throw new Error(`${file} no longer contains ${JSON.stringify(from)}`);
  return text.replace(from, to);
}

const BODY_FILE = 'packages/shared/src/general.ts';
const TYPE_FILE = 'packages/runtime-core/src/component.ts';

/** The two edits of shared/corpus/README.md, new bytes for every `n` >= 1. */
function vueProject(root) {
  const pristine = {};
  for (const file of [BODY_FILE, TYPE_FILE])
    pristine[file] = fs.readFileSync(path.join(root, file), 'utf8');
  const bodyEdit = {
    file: BODY_FILE,
    apply: (text, n) =>
      replaceOnce(text, 'arr.indexOf(el)', `arr.indexOf(el, ${n - 1})`, BODY_FILE),
  };
  const typeEdit = {
    file: TYPE_FILE,
    apply: (text, n) =>
      replaceOnce(
        text,
        'export interface ComponentInternalInstance {\n',
        `export interface ComponentInternalInstance {\n  benchField${n}?: number\n`,
        TYPE_FILE,
      ),
  };
  for (const edit of [bodyEdit, typeEdit]) edit.apply(pristine[edit.file], 1);
  return { root, bodyEdit, typeEdit, pristine };
}

/** The contenders of each step-shaped family (hooks are measured apart). */
function vueFamilies(root, tools, state) {
  const incremental = incrementalArgs;
  // vue's tsconfig is composite: `--noEmit` alone reads and rewrites temp/tsconfig.tsbuildinfo
  // in vue's tree (incremental from the last run, not cold); a new build-info file outside
  // the tree each call keeps every cold run cold.
  let coldRuns = 0;
  const cold = (temp) => [
    '--noEmit',
    '--tsBuildInfoFile',
    path.join(temp, `cold-${++coldRuns}.tsbuildinfo`),
  ];
  const lint = lintContenders(tools.eslintD, path.join(root, 'node_modules', 'eslint'), state);
  return {
    lint,
    format: formatContenders(state),
    'typecheck-ts6': [
      serveContender('serve', '`serve` check (TS 6 `tsc`)', 'check', state),
      commandContender('tsc-incremental', 'TS 6 `tsc --incremental`', 'tsc', incremental),
      commandContender('tsc-cold', 'TS 6 `tsc --noEmit` cold', 'tsc', cold, { cold: true }),
    ],
    'typecheck-ts7': [
      serveContender('serve', '`serve` typecheck7 (TS 7 `tsgo`)', 'typecheck7', state),
      commandContender('tsgo-incremental', 'TS 7 `tsgo --incremental`', tools.tsgo, incremental),
      commandContender('tsgo-cold', 'TS 7 `tsgo --noEmit` cold', tools.tsgo, cold, { cold: true }),
    ],
  };
}

/**
 * Runs `work` with `gates` as the set-up's mcp-gates.json (formatted by its Prettier, so the
 * format gate sees a clean tree); the file is removed afterwards, detection's gates return.
 */
async function withConfig(root, gates, work) {
  const file = path.join(root, 'mcp-gates.json');
  if (fs.existsSync(file)) throw new Error(`${file} exists: the bench measures detection's gates`);
  const gate = (command, parser) => ({ command, parser, timeoutMs: CALL_TIMEOUT_MS });
  const config = {
    gates: Object.fromEntries(
      Object.entries(gates).map(([name, [command, parser]]) => [name, gate(command, parser)]),
    ),
  };
  fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  try {
    run(path.join(root, 'node_modules', '.bin', 'prettier'), ['--write', file], root, 'prettier');
    return await work();
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** One hook tool call through serve: ms and whether it let the (clean) edit through. */
async function callHook(client, name, args) {
  const started = process.hrtime.bigint();
  const { result, receivedAt } = await client.request('tools/call', { name, arguments: args });
  const content = result.structuredContent;
  if (!content) throw new Error(`${name} gave no result: ${result.content?.[0]?.text}`);
  const unfinished = (content.gates ?? []).filter(
    (row) => !['passed', 'failed'].includes(row.status),
  );
  return {
    ms: Number(receivedAt - started) / 1e6,
    ok: content.decision !== 'block' && unfinished.length === 0,
    gates: (content.gates ?? []).map((row) => `${row.gate}:${row.status}`).join(' '),
    detail: JSON.stringify(content).slice(0, 400),
    // Where the call's time went (serve with MCP_GATES_TIMING=1: bench/vue.mjs --phases).
    timing: content.timing,
  };
}

/** The median of each phase over the calls that timed it (a phase a call missed counts 0). */
function medianPhases(timings) {
  const names = [...new Set(timings.flatMap((timing) => Object.keys(timing)))];
  return Object.fromEntries(
    names.map((name) => [name, median(timings.map((timing) => timing[name] ?? 0))]),
  );
}

/** The `input` of a hook tool in the set-up's .claude/settings.json (its budget). */
function hookInput(root, tool) {
  const settings = JSON.parse(fs.readFileSync(path.join(root, '.claude', 'settings.json'), 'utf8'));
  for (const entries of Object.values(settings.hooks ?? {}))
    for (const entry of entries)
      for (const hook of entry.hooks ?? []) if (hook.tool === tool) return { ...hook.input };
  throw new Error(`.claude/settings.json of ${root} calls no ${tool}`);
}

/**
 * The hooks family: a serve of lint + format (`eslint .` and `prettier --check .` in a
 * config of their own), then of detection's gates (lint, format and the TS 6 check), each
 * asked as the set-up's .claude/settings.json asks: session_start, then a first after_edit
 * given all the time it takes (it waits for the session's baseline), then each round the
 * body edit (new bytes) and one after_edit with the hook's own budget. Beside them a cold
 * command hook: `eslint <file>` then `prettier --check <file>`.
 */
async function benchVueHooks(project, rounds, progress) {
  const { root, bodyEdit, pristine } = project;
  const edited = path.join(root, bodyEdit.file);
  const bin = (name) => path.join(root, 'node_modules', '.bin', name);
  const startInput = hookInput(root, 'session_start');
  const editInput = hookInput(root, 'after_edit');
  const problems = [];
  const rows = [];
  const measureServe = async (id, label) => {
    fs.writeFileSync(edited, pristine[bodyEdit.file]);
    const client = new RpcClient(GATES_CLI, ['serve', '--root', root], {
      cwd: root,
      env: gateEnv(),
    });
    const row = { id, label, samples: [] };
    try {
      await initializeClient(client);
      const start = await callHook(client, 'session_start', startInput);
      row.sessionStart = start.ms;
      progress(`vue: hooks ${id} session_start: ${Math.round(start.ms)} ms`);
      for (let round = 0; round <= rounds; round++) {
        fs.writeFileSync(edited, bodyEdit.apply(pristine[bodyEdit.file], round + 1));
        const input = { ...editInput, path: edited };
        if (round === 0) input.budgetMs = CALL_TIMEOUT_MS;
        const call = await callHook(client, 'after_edit', input);
        if (!call.ok) problems.push(`${id} round ${round}: ${call.detail}`);
        if (round === 0) row.first = call.ms;
        else row.samples.push(call.ms);
        if (round > 0 && call.timing) (row.timings ??= []).push(call.timing);
        progress(`vue: hooks ${id} after_edit ${round}: ${Math.round(call.ms)} ms (${call.gates})`);
        if (call.timing) progress(`vue: hooks ${id} phases ${round}: ${phaseLine(call.timing)}`);
      }
    } finally {
      await client.close(30000);
      fs.writeFileSync(edited, pristine[bodyEdit.file]);
    }
    rows.push(row);
  };
  await withConfig(
    root,
    {
      lint: [['eslint', '.'], 'eslint-stylish'],
      format: [['prettier', '--check', '.'], 'prettier'],
    },
    () =>
      measureServe(
        'serve-lint-format',
        '`after_edit` through serve, lint + format (`eslint .`, `prettier --check .`; warm)',
      ),
  );
  await measureServe(
    'serve-with-check',
    "`after_edit` through serve, detection's lint + format + check (TS 6; warm)",
  );
  const cold = {
    id: 'command-cold',
    label: 'command hook: `eslint <file>` then `prettier --check <file>`, cold',
    samples: [],
  };
  try {
    for (let round = 0; round <= rounds; round++) {
      fs.writeFileSync(edited, bodyEdit.apply(pristine[bodyEdit.file], round + 1));
      const lint = await runTimed(bin('eslint'), [bodyEdit.file], root);
      const format = await runTimed(bin('prettier'), ['--check', bodyEdit.file], root);
      if (lint.exitCode !== 0 || format.exitCode !== 0)
        problems.push(`command-cold round ${round}: exit ${lint.exitCode}/${format.exitCode}`);
      if (round === 0) cold.first = lint.ms + format.ms;
      else cold.samples.push(lint.ms + format.ms);
      progress(`vue: hooks command-cold ${round}: ${Math.round(lint.ms + format.ms)} ms`);
    }
  } finally {
    fs.writeFileSync(edited, pristine[bodyEdit.file]);
  }
  rows.push(cold);
  return {
    rounds,
    contenders: rows.map(({ timings, ...row }) => ({
      ...row,
      median: median(row.samples),
      ...(timings ? { phases: medianPhases(timings) } : {}),
    })),
    problems,
  };
}

/** Peak RSS (VmHWM, bytes) of one command run to its end, by /usr/bin/time; undefined without it. */
function peakOf(file, args, cwd) {
  if (!fs.existsSync('/usr/bin/time')) return undefined;
  return new Promise((resolve) => {
    const child = spawn('/usr/bin/time', ['-f', 'mcp-gates-maxrss %M', file, ...args], {
      cwd,
      env: gateEnv(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', () => {
      const kb = /mcp-gates-maxrss (\d+)/.exec(stderr)?.[1];
      resolve(kb === undefined ? undefined : Number(kb) * 1024);
    });
  });
}

/** The peak RSS of the cold commands serve's workers replace, and of `tsc --incremental`. */
async function commandPeaks(project, tools, progress) {
  const { root } = project;
  const bin = (name) => path.join(root, 'node_modules', '.bin', name);
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-gates-bench-peak-'));
  const buildInfo = [
    '--noEmit',
    '--incremental',
    '--tsBuildInfoFile',
    path.join(temp, 'b.tsbuildinfo'),
  ];
  try {
    progress('vue: peak RSS of the commands');
    const peaks = {
      'eslint --cache (first)': await peakOf(
        bin('eslint'),
        ['--cache', '--cache-location', path.join(temp, 'eslintcache'), '.'],
        root,
      ),
      'prettier --check .': await peakOf(bin('prettier'), ['--check', '.'], root),
      'tsc --incremental (first)': await peakOf(bin('tsc'), buildInfo, root),
    };
    const file = path.join(root, project.bodyEdit.file);
    fs.writeFileSync(file, project.bodyEdit.apply(project.pristine[project.bodyEdit.file], 1));
    peaks['tsc --incremental (after a body edit)'] = await peakOf(bin('tsc'), buildInfo, root);
    peaks['tsgo --incremental (first)'] = await peakOf(tools.tsgo, buildInfo, root);
    return peaks;
  } finally {
    fs.writeFileSync(
      path.join(root, project.bodyEdit.file),
      project.pristine[project.bodyEdit.file],
    );
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

/** Two runRounds answers as one (the later one's serve memory is of a typecheck7 serve only). */
function mergeFigures(first, second) {
  if (!first.families) return second;
  return {
    ...first,
    families: { ...first.families, ...second.families },
    problems: [...first.problems, ...second.problems],
    retries: [...first.retries, ...second.retries],
    warm: { ...first.warm, ...second.warm },
  };
}

/** The version of `name` as the set-up resolves it from its root. */
function projectVersion(root, name) {
  const file = path.join(root, 'node_modules', name, 'package.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')).version : undefined;
}

/**
 * `{root, rounds, versions, eslintD, families, serveStartMs, serveMemory, eslintDMemory,
 * problems, retries, warm, hooks?, peaks?}`; `families` picks among VUE_FAMILIES.
 */
export async function benchVue(
  {
    rounds,
    families: only = VUE_FAMILIES,
    peaks: measurePeaks = only.length === VUE_FAMILIES.length,
  },
  progress = () => {},
) {
  const tools = installAnchors(progress);
  const root = setUpVue(tools, progress);
  const project = vueProject(root);
  const state = { client: undefined, eslintDMemory: [] };
  const groups = vueFamilies(root, tools, state);
  // Detection's gates; TypeScript 7, which vue's scripts do not run, from a config of its own
  // (so a serve of its own each round).
  const detected = only.filter((name) => ['lint', 'format', 'typecheck-ts6'].includes(name));
  let figures = {};
  if (detected.length > 0)
    figures = await runRounds(
      { project, groups, rounds, only: detected, state, label: 'vue' },
      progress,
    );
  if (only.includes('typecheck-ts7')) {
    const ts7 = await withConfig(
      root,
      { typecheck7: [[tools.tsgo, '--noEmit', '--pretty', 'false'], 'tsc'] },
      () =>
        runRounds(
          {
            project,
            groups,
            rounds,
            only: ['typecheck-ts7'],
            state,
            label: 'vue',
            freshServeCache: true,
          },
          progress,
        ),
    );
    figures = mergeFigures(figures, ts7);
  }
  const hooks = only.includes('hooks') ? await benchVueHooks(project, rounds, progress) : undefined;
  const peaks = measurePeaks ? await commandPeaks(project, tools, progress) : undefined;
  if (git(root, 'status', '--porcelain').trim() !== '')
    throw new Error(`the bench left changes in ${root}: ${git(root, 'status', '--porcelain')}`);
  return {
    root,
    rounds,
    files: Number(git(root, 'ls-files', '-z').split('\0').filter(Boolean).length),
    bodyEdit: project.bodyEdit.file,
    typeEdit: { file: project.typeEdit.file },
    versions: {
      eslint: projectVersion(root, 'eslint'),
      'typescript-eslint': projectVersion(root, 'typescript-eslint'),
      prettier: projectVersion(root, 'prettier'),
      typescript: projectVersion(root, 'typescript'),
      ...tools.versions,
    },
    eslintD: tools.eslintD.skipped
      ? { skipped: tools.eslintD.skipped }
      : { version: tools.eslintD.version },
    ...figures,
    hooks,
    peaks,
  };
}

// The large-repository benches of issue 30: real repositories as the benchmarks that decide.
// vuejs/core, a snapshot from ../shared/corpus (ESLint 10 + typescript-eslint, Prettier 3,
// TypeScript 6, a pnpm workspace whose packages/shared every package imports), and vitejs/vite
// at a pinned commit (ESLint 9 + typescript-eslint, oxfmt, TypeScript 6, a pnpm workspace whose
// packages/vite/src/node/utils.ts most of vite's node code imports). Each is set up outside this
// repository's tree and cached between runs, each gate called through `mcp-gates serve` beside
// what users run instead, interleaved (the large bench's protocol: see large-bench.mjs), per
// gate family:
//   lint            serve `lint`       beside `eslint --cache`, `eslint_d --cache`, cold `eslint .`
//   format          serve's format gate beside `prettier --check --cache`, cold `prettier --check .`
//                   (vite: `oxfmt --check`, which keeps no cache)
//   typecheck-ts6   serve's TS 6 gate  beside `tsc --noEmit --incremental`, cold `tsc --noEmit`
//   typecheck-ts7   serve `typecheck7` beside `tsgo --noEmit --incremental`, cold `tsgo --noEmit`
//   hooks           `after_edit` through serve (session_start first, as `init --hooks` sets
//                   it up) for lint + format, and with the typecheck, beside a cold command hook
// vue's edits are those of shared/corpus/README.md: an argument added to an `indexOf` call in
// packages/shared/src/general.ts (body), then an optional field added to
// `ComponentInternalInstance` in packages/runtime-core/src/component.ts (exported type); vite's
// are alike (REPOS below).
// Every direct command runs under `setsid -w`, every contender in one environment.
// Environment, NAME being VUE or VITE: MCP_GATES_BENCH_NAME=<dir> uses an existing set-up (a
// git work tree of the repository with its pnpm install; the bench commits `init --hooks
// claude-code`'s file there once); MCP_GATES_BENCH_NAME_TOOLS=<dir> where the anchors
// (eslint_d, tsgo, pnpm) are installed; MCP_GATES_BENCH_CORPUS=<dir> where vue's snapshot is
// (default ../shared/corpus); MCP_GATES_BENCH_HOOK_PAUSE_MS=<ms> a pause before each hooks
// round's edit, as an agent's edits come apart (default none: each edit as the last answer
// came); MCP_GATES_BENCH_VITE_GIT=<git dir or URL> what vite is cloned
// from (default its GitHub repository).
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
/** Where a repository's set-up and anchors are cached unless the environment says. */
const cacheOf = (repo) => path.join(os.tmpdir(), `mcp-gates-bench-${repo.name}`);
export const VUE_FAMILIES = ['lint', 'format', 'typecheck-ts6', 'typecheck-ts7', 'hooks'];
const CALL_TIMEOUT_MS = 15 * 60 * 1000;
/** A pause before each hooks round's edit (MCP_GATES_BENCH_HOOK_PAUSE_MS). */
const HOOK_PAUSE_MS = Number(process.env.MCP_GATES_BENCH_HOOK_PAUSE_MS ?? 0);

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
function run(file, args, cwd, what, timeout = 900000, env = {}) {
  const result = spawnSync(file, args, {
    cwd,
    env: { ...process.env, NO_COLOR: '1', ...env },
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
function installAnchors(repo, progress) {
  const dir = process.env[`${repo.env}_TOOLS`] ?? path.join(cacheOf(repo), 'tools');
  const specs = [
    `eslint_d@${ESLINT_D_VERSION}`,
    `@typescript/native-preview@${TOOL_VERSIONS['@typescript/native-preview']}`,
  ];
  progress(`${repo.name}: anchors in ${dir}`);
  const installed = installInto(dir, specs, path.join(dir, '.complete-vue-anchors'));
  if (!installed.ok && !fs.existsSync(path.join(dir, 'node_modules', '.bin', 'tsgo')))
    throw new Error(installed.why);
  // pnpm runs the gates `init` finds in the package.json scripts, as it does for its users:
  // a prefix of its own, so only pnpm joins PATH (every contender's environment).
  const pnpmDir = path.join(dir, 'pnpm');
  const pnpm = installInto(pnpmDir, [repo.pnpm], path.join(pnpmDir, '.complete'));
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

/** vue's source: the corpus snapshot extracted into `home` and committed. */
function extractVue(home) {
  const tarball = snapshot();
  run('tar', ['xzf', tarball, '-C', home], home, 'extracting the snapshot');
  const root = path.join(home, 'vuejs-core');
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'snapshot');
  return root;
}

/** vite's source: a clone of MCP_GATES_BENCH_VITE_GIT (a git dir or URL) at the pinned commit. */
function cloneVite(home, repo) {
  const from = process.env.MCP_GATES_BENCH_VITE_GIT ?? 'https://github.com/vitejs/vite.git';
  const root = path.join(home, 'vite');
  run('git', ['clone', '-q', '--no-checkout', from, root], home, `git clone ${from}`);
  run('git', ['checkout', '-q', repo.commit], root, `git checkout ${repo.commit}`);
  return root;
}

/**
 * The set-up: the repository's source in os.tmpdir()/mcp-gates-bench-NAME (unless
 * MCP_GATES_BENCH_NAME names one), installed with its pnpm (nothing downloaded outside the
 * npm registry); then, once, `init --hooks claude-code`'s hooks file, committed. Returns the
 * root.
 */
function setUpRepo(repo, tools, progress) {
  let root = process.env[repo.env];
  if (!root) {
    const home = path.join(cacheOf(repo), repo.home());
    root = path.join(home, repo.directory);
    if (!fs.existsSync(path.join(home, '.installed'))) {
      progress(`${repo.name}: setting up ${root} (${repo.pnpm} install; minutes)`);
      fs.rmSync(home, { recursive: true, force: true });
      fs.mkdirSync(home, { recursive: true });
      root = repo.source(home, repo);
      run('pnpm', ['install', '--frozen-lockfile'], root, 'pnpm install', 900000, INSTALL_ENV);
      fs.writeFileSync(path.join(home, '.installed'), `${new Date().toISOString()}\n`);
    }
  }
  root = fs.realpathSync(root);
  // The gates are detection's (package.json scripts), as the repository's users get them.
  if (!fs.existsSync(path.join(root, '.claude', 'settings.json'))) {
    progress(`${repo.name}: committing \`init --hooks claude-code\``);
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
    throw new Error(`the ${repo.name} set-up ${root} has changes: commit or reset them first`);
  return root;
}

/**
 * An install downloads nothing outside the npm registry (browsers), and installs no git
 * hooks (vite's simple-git-hooks would run lint-staged, which formats, on the bench's commit).
 */
const INSTALL_ENV = {
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  // vue's puppeteer: without it its postinstall fails where only the registry is reachable.
  PUPPETEER_SKIP_DOWNLOAD: '1',
  CYPRESS_INSTALL_BINARY: '0',
  SKIP_INSTALL_SIMPLE_GIT_HOOKS: '1',
};

/** vue's set-up (see setUpRepo). */
export function setUpVue(tools, progress) {
  return setUpRepo(REPOS.vue, tools, progress);
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

/** An edit of `file` replacing `from` by `to(n)`, new bytes for every `n` >= 1. */
function edit(file, from, to) {
  return { file, apply: (text, n) => replaceOnce(text, from, to(n), file) };
}

/**
 * The formatters the format family and the hooks measure: the gate serve calls, the
 * anchors, and the command of a config gate (and of a cold hook) for each.
 */
const FORMATTERS = {
  prettier: {
    contenders: (state) => formatContenders(state),
    anchor: { id: 'prettier-cache', label: '`prettier --check --cache`' },
    gate: [['prettier', '--check', '.'], 'prettier'],
    write: (file) => ['prettier', ['--write', file]],
    check: (file) => ['prettier', ['--check', file]],
    peak: ['prettier --check .', 'prettier', ['--check', '.']],
  },
  oxfmt: {
    // oxfmt keeps no cache: its cold check is all users can run.
    contenders: (state) => [
      serveContender('serve', '`serve` oxfmt (`oxfmt --check`)', 'oxfmt', state),
      commandContender('oxfmt-cold', '`oxfmt --check` cold', 'oxfmt', () => ['--check'], {
        cold: true,
      }),
    ],
    anchor: { id: 'oxfmt-cold', label: '`oxfmt --check` (it keeps no cache)' },
    gate: [['oxfmt', '--check'], 'oxfmt'],
    write: (file) => ['oxfmt', [file]],
    check: (file) => ['oxfmt', ['--check', file]],
  },
};

/**
 * The repositories. `typecheck` names the TS 6 gate serve calls: detection's (`gate`), or one
 * of a config of its own (`project`: the tsconfig directory, for the gate and the anchors).
 */
const REPOS = {
  vue: {
    name: 'vue',
    title: 'vuejs/core',
    env: 'MCP_GATES_BENCH_VUE',
    pnpm: 'pnpm@10',
    home: () => path.basename(snapshot(), '.tar.gz'),
    directory: 'vuejs-core',
    source: extractVue,
    formatter: FORMATTERS.prettier,
    typecheck: { gate: 'check' },
    // tsconfig.json sets composite.
    composite: true,
    detectedHooks: "detection's lint + format + check (TS 6; warm)",
    // What bench/RESULTS.md says of it (report.mjs).
    report: {
      source: 'vuejs/core from `shared/corpus`',
      install: 'pnpm 10 install, committed',
      gates:
        "detection's (vue's package.json scripts, run by pnpm PNPM); TypeScript 7, which no script runs, is a " +
        '`typecheck7` gate of a config written for its family only',
      body: 'an argument added to an `indexOf` call in',
      type: 'then an optional field added to `ComponentInternalInstance` in',
    },
    body: edit(
      'packages/shared/src/general.ts',
      'arr.indexOf(el)',
      (n) => `arr.indexOf(el, ${n - 1})`,
    ),
    type: edit(
      'packages/runtime-core/src/component.ts',
      'export interface ComponentInternalInstance {\n',
      (n) => `export interface ComponentInternalInstance {\n  benchField${n}?: number\n`,
    ),
  },
  vite: {
    name: 'vite',
    title: 'vitejs/vite',
    env: 'MCP_GATES_BENCH_VITE',
    // Its packageManager; a v9 lockfile, Node ^20.19.
    pnpm: 'pnpm@10.34.5',
    commit: 'a98c8d95d552c6fa98ab66fb810f5b39ad5abf49',
    home() {
      return `vite-${this.commit.slice(0, 9)}`;
    },
    directory: 'vite',
    source: cloneVite,
    formatter: FORMATTERS.oxfmt,
    // Its typecheck script runs tsc in every package (`pnpm -r --parallel run typecheck`):
    // serve runs it cold. The gate measured is its largest program, vite's node sources.
    typecheck: { gate: 'check', project: 'packages/vite/src/node' },
    // Its lint script's own (`eslint --cache . --concurrency auto`): the anchors run as
    // vite's users do; eslint_d lints in its daemon's one thread.
    lintOptions: ['--concurrency', 'auto'],
    detectedHooks: "detection's lint + oxfmt + typecheck (TS 6 in every package, `pnpm -r`: cold)",
    report: {
      source: 'vitejs/vite at a98c8d95d (2026-08-22, cloned)',
      install: 'pnpm 10.34.5 install, no browser downloads',
      gates:
        "detection's for lint (`eslint --cache . --concurrency auto` through pnpm PNPM) and format (`oxfmt --check`); " +
        "TS 6 is a `check` gate of a config of its own, `tsc --noEmit -p packages/vite/src/node` (vite's typecheck " +
        'script runs tsc in every package through `pnpm -r`, which serve runs cold), and TS 7 a `typecheck7` gate ' +
        'of the same project',
      body: 'an argument added to an `indexOf` call in',
      type: 'then an optional field added to `UserConfig` in',
    },
    body: edit(
      'packages/vite/src/node/utils.ts',
      "const nameEndIndex = remaining.indexOf(':')",
      (n) => `const nameEndIndex = remaining.indexOf(':', ${n - 1})`,
    ),
    type: edit(
      'packages/vite/src/node/config.ts',
      'export interface UserConfig extends DefaultEnvironmentOptions {\n',
      (n) =>
        `export interface UserConfig extends DefaultEnvironmentOptions {\n  benchField${n}?: number\n`,
    ),
  },
};
export const BENCH_REPOS = Object.keys(REPOS);

/** The repository's two edits and their files' committed bytes. */
function repoProject(repo, root) {
  const pristine = {};
  for (const { file } of [repo.body, repo.type])
    pristine[file] = fs.readFileSync(path.join(root, file), 'utf8');
  for (const change of [repo.body, repo.type]) change.apply(pristine[change.file], 1);
  return { root, bodyEdit: repo.body, typeEdit: repo.type, pristine };
}

/** `tsc`/`tsgo` arguments for the repository's TS 6 project (none: the root's tsconfig). */
const projectArgs = (repo) => (repo.typecheck.project ? ['-p', repo.typecheck.project] : []);

/** The contenders of each step-shaped family (hooks are measured apart). */
function repoFamilies(repo, root, tools, state) {
  const project = projectArgs(repo);
  const incremental = (temp) => [...incrementalArgs(temp), ...project];
  // A composite tsconfig (vue's) makes `--noEmit` alone incremental: it reads and rewrites
  // its build info in the tree (vue: temp/tsconfig.tsbuildinfo), so a "cold" run went on
  // from the last one; a new build-info file outside the tree each call keeps it cold.
  let coldRuns = 0;
  const cold = (temp) => [
    '--noEmit',
    ...(repo.composite
      ? ['--tsBuildInfoFile', path.join(temp, `cold-${++coldRuns}.tsbuildinfo`)]
      : []),
    ...project,
  ];
  const lint = lintContenders(
    tools.eslintD,
    path.join(root, 'node_modules', 'eslint'),
    state,
    repo.lintOptions,
  );
  return {
    lint,
    format: repo.formatter.contenders(state),
    'typecheck-ts6': [
      serveContender('serve', '`serve` check (TS 6 `tsc`)', repo.typecheck.gate, state),
      commandContender('tsc-incremental', 'TS 6 `tsc --incremental`', 'tsc', incremental),
      commandContender('tsc-cold', 'TS 6 `tsc --noEmit` cold', 'tsc', cold, {
        cold: true,
      }),
    ],
    'typecheck-ts7': [
      serveContender('serve', '`serve` typecheck7 (TS 7 `tsgo`)', 'typecheck7', state),
      commandContender('tsgo-incremental', 'TS 7 `tsgo --incremental`', tools.tsgo, incremental),
      commandContender('tsgo-cold', 'TS 7 `tsgo --noEmit` cold', tools.tsgo, cold, {
        cold: true,
      }),
    ],
  };
}

/**
 * Runs `work` with `gates` as the set-up's mcp-gates.json (formatted by its formatter, so the
 * format gate sees a clean tree); the file is removed afterwards, detection's gates return.
 */
async function withConfig(repo, root, gates, work) {
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
    const [formatter, args] = repo.formatter.write(file);
    run(path.join(root, 'node_modules', '.bin', formatter), args, root, formatter);
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
 * The hooks family: a serve of lint + format (`eslint .` and the formatter's check, e.g.
 * `prettier --check .`, in a config of their own), then of detection's gates, each
 * asked as the set-up's .claude/settings.json asks: session_start, then a first after_edit
 * given all the time it takes (it waits for the session's baseline), then each round the
 * body edit (new bytes) and one after_edit with the hook's own budget. Beside them a cold
 * command hook: `eslint <file>` then the formatter's check of it (`prettier --check <file>`).
 */
async function benchHooks(repo, project, rounds, progress) {
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
      progress(`${repo.name}: hooks ${id} session_start: ${Math.round(start.ms)} ms`);
      for (let round = 0; round <= rounds; round++) {
        if (round > 0 && HOOK_PAUSE_MS > 0)
          await new Promise((resolve) => setTimeout(resolve, HOOK_PAUSE_MS));
        fs.writeFileSync(edited, bodyEdit.apply(pristine[bodyEdit.file], round + 1));
        const input = { ...editInput, path: edited };
        if (round === 0) input.budgetMs = CALL_TIMEOUT_MS;
        const call = await callHook(client, 'after_edit', input);
        if (!call.ok) problems.push(`${id} round ${round}: ${call.detail}`);
        if (round === 0) row.first = call.ms;
        else row.samples.push(call.ms);
        if (round > 0 && call.timing) (row.timings ??= []).push(call.timing);
        progress(
          `${repo.name}: hooks ${id} after_edit ${round}: ${Math.round(call.ms)} ms (${call.gates})`,
        );
        if (call.timing)
          progress(`${repo.name}: hooks ${id} phases ${round}: ${phaseLine(call.timing)}`);
      }
    } finally {
      await client.close(30000);
      fs.writeFileSync(edited, pristine[bodyEdit.file]);
    }
    rows.push(row);
  };
  const { formatter } = repo;
  const formatCheck = `\`${formatter.gate[0].join(' ')}\``;
  await withConfig(
    repo,
    root,
    { lint: [['eslint', '.'], 'eslint-stylish'], format: formatter.gate },
    () =>
      measureServe(
        'serve-lint-format',
        `\`after_edit\` through serve, lint + format (\`eslint .\`, ${formatCheck}; warm)`,
      ),
  );
  await measureServe('serve-with-check', `\`after_edit\` through serve, ${repo.detectedHooks}`);
  const [formatProgram, formatArgs] = formatter.check(bodyEdit.file);
  const cold = {
    id: 'command-cold',
    label: `command hook: \`eslint <file>\` then \`${formatter.check('<file>').flat().join(' ')}\`, cold`,
    samples: [],
  };
  try {
    for (let round = 0; round <= rounds; round++) {
      fs.writeFileSync(edited, bodyEdit.apply(pristine[bodyEdit.file], round + 1));
      const lint = await runTimed(bin('eslint'), [bodyEdit.file], root);
      const format = await runTimed(bin(formatProgram), formatArgs, root);
      if (lint.exitCode !== 0 || format.exitCode !== 0)
        problems.push(`command-cold round ${round}: exit ${lint.exitCode}/${format.exitCode}`);
      if (round === 0) cold.first = lint.ms + format.ms;
      else cold.samples.push(lint.ms + format.ms);
      progress(`${repo.name}: hooks command-cold ${round}: ${Math.round(lint.ms + format.ms)} ms`);
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
async function commandPeaks(repo, project, tools, progress) {
  const { root } = project;
  const bin = (name) => path.join(root, 'node_modules', '.bin', name);
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-gates-bench-peak-'));
  const buildInfo = [
    '--noEmit',
    '--incremental',
    '--tsBuildInfoFile',
    path.join(temp, 'b.tsbuildinfo'),
    ...projectArgs(repo),
  ];
  try {
    progress(`${repo.name}: peak RSS of the commands`);
    const peaks = {
      'eslint --cache (first)': await peakOf(
        bin('eslint'),
        ['--cache', '--cache-location', path.join(temp, 'eslintcache'), '.'],
        root,
      ),
    };
    // A formatter with a warm worker (prettier): the cold command it replaces.
    if (repo.formatter.peak) {
      const [command, program, args] = repo.formatter.peak;
      peaks[command] = await peakOf(bin(program), args, root);
    }
    peaks['tsc --incremental (first)'] = await peakOf(bin('tsc'), buildInfo, root);
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

/**
 * Two runRounds answers as one; the serve memory is the larger one's (a typecheck7 serve
 * holds no worker after its calls).
 */
function mergeFigures(first, second) {
  if (!first.families) return second;
  const larger = (second.serveMemory?.rssMax ?? 0) > (first.serveMemory?.rssMax ?? 0);
  return {
    ...first,
    ...(larger ? { serveMemory: second.serveMemory } : {}),
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
 * problems, retries, warm, hooks?, peaks?, report}` of the repository `name` (BENCH_REPOS);
 * `families` picks among VUE_FAMILIES.
 */
export async function benchRepo(
  name,
  {
    rounds,
    families: only = VUE_FAMILIES,
    peaks: measurePeaks = only.length === VUE_FAMILIES.length,
  },
  progress = () => {},
) {
  const repo = REPOS[name];
  if (!repo) throw new Error(`no bench repository ${name} (${BENCH_REPOS.join(', ')})`);
  const tools = installAnchors(repo, progress);
  const root = setUpRepo(repo, tools, progress);
  const project = repoProject(repo, root);
  const state = { client: undefined, eslintDMemory: [] };
  const groups = repoFamilies(repo, root, tools, state);
  const rest = { project, groups, rounds, state, label: repo.name };
  const tsc = ['--noEmit', '--pretty', 'false', ...projectArgs(repo)];
  // Detection's gates; a TS 6 project no single script checks, and TypeScript 7, which the
  // scripts do not run, from a config of its own (so a serve of its own each round).
  const configured = {
    'typecheck-ts6': repo.typecheck.project
      ? { [repo.typecheck.gate]: [['tsc', ...tsc], 'tsc'] }
      : undefined,
    'typecheck-ts7': { typecheck7: [[tools.tsgo, ...tsc], 'tsc'] },
  };
  const detected = only.filter(
    (family) => ['lint', 'format', 'typecheck-ts6'].includes(family) && !configured[family],
  );
  let figures = {};
  if (detected.length > 0) figures = await runRounds({ ...rest, only: detected }, progress);
  for (const [family, gates] of Object.entries(configured)) {
    if (!gates || !only.includes(family)) continue;
    const alone = await withConfig(repo, root, gates, () =>
      // serve keeps TypeScript 7 build info in the user's cache across starts: a cache of its
      // own each round starts it empty, as the other contenders' caches start.
      runRounds({ ...rest, only: [family], freshServeCache: family === 'typecheck-ts7' }, progress),
    );
    figures = mergeFigures(figures, alone);
  }
  const hooks = only.includes('hooks')
    ? await benchHooks(repo, project, rounds, progress)
    : undefined;
  const peaks = measurePeaks ? await commandPeaks(repo, project, tools, progress) : undefined;
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
      oxfmt: projectVersion(root, 'oxfmt'),
      typescript: projectVersion(root, 'typescript'),
      ...tools.versions,
    },
    eslintD: tools.eslintD.skipped
      ? { skipped: tools.eslintD.skipped }
      : { version: tools.eslintD.version },
    ...figures,
    hooks,
    peaks,
    repo: repoWords(name),
  };
}

/** What the report (report.mjs) says of repository `name`. */
export function repoWords(name) {
  const repo = REPOS[name];
  return { name, title: repo.title, format: repo.formatter.anchor, ...repo.report };
}

/** The vuejs/core bench (benchRepo's, as `node bench/vue.mjs` runs it). */
export const benchVue = (options, progress) => benchRepo('vue', options, progress);

// Issue 18, item 6: seeded warm-vs-cold sequences made of the attack shapes. Each step
// applies one edit kind to a fixture repository and compares the warm answer (WarmPool)
// with the cold command on the same tree: exit code, stdout, stderr. Edit kinds: a data
// file eslint.config.js / prettier.config.mjs read while loading; node_modules edits
// without a lockfile change (a package's "types" switched, a plugin's rule file); rules
// reading the clock by performance, process.hrtime and Intl after their deadline passed;
// a recursive listing with a nested file added or deleted; an optional require appearing
// and disappearing; for per-file lint, a source file another file's lint reads and a file
// a rule read once and kept for every file; plugin caches of another file's exports, kept
// forever or validated by mtime, with a same-size rewrite whose mtime is set back; two tsc
// gates of one project whose options differ in what the binder reads (unreachable code,
// unused labels, moduleDetection) and a tsconfig extended from node_modules flipping them;
// a tracked hard link edited through its other name outside the root and a tracked
// symlink whose target outside the root changes; the same tool run by a package.json
// script and a tox env with other options (both served, each its cold command); source
// edits; branch switches between clean commits. Paging through
// `serve` after calls with other paths/scope, committed mcp-gates.json edits and the two
// links, are the second part. Quick by default; WARM_LONG=1 runs more seeds and steps, WARM_SEED=<n>
// replays one seed; every sequence draws issue 29's kinds once at least (as many as its
// steps hold). WARM_ESLINT=<version> / WARM_PRETTIER=<version> run it on that released
// version or newest release of a major (`9`; installed once into the temp directory) and on
// that tool alone; WARM_SEEDS, WARM_STEPS and WARM_SERVE_STEPS size a run (CI runs one per
// version).
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { fileMatcher } from '../dist/gates/report/file-filter.js';
import { detectGates } from '../dist/gates/index.js';
import { WarmPool } from '../dist/gates/warm/index.js';
import { warmPlanOf } from '../dist/gates/warm/warm-plan.js';
import {
  CLI,
  cleanupTemporary,
  envWithTools,
  makeRepo,
  makeTempDir,
  runCli,
} from './fixtures/gates-support.mjs';
import { gateEnv, git, makeWarmRepo, runColdAsync } from './fixtures/warm/warm-fixture.mjs';
import {
  another,
  answersAsCold,
  edit,
  itSeeds,
  pick,
  planSteps,
  seededRandom,
  sequenceSize,
  write,
} from './fixtures/warm/sequence.mjs';
import { installTools, linkTool, versionsFromEnv } from './fixtures/warm/tool-versions.mjs';

// npm test runs the first seed, of 8 steps: the 7 kinds marked `forced` once each, one
// drawn; .ci/run's warm-long stage six of 30 steps.
const {
  long: LONG,
  firstSeed: FIRST_SEED,
  seeds: SEEDS,
  steps: STEPS,
} = sequenceSize({ firstSeed: 18061, quick: [1, 8], long: [6, 30] });

/**
 * The compared commands, each what one detected gate runs warm: the package.json scripts'
 * (lint, format:check, typecheck) and two tox envs running ESLint and tsc with other
 * options (`eslint --quiet`; `tsc -p tsconfig.strict.json`, whose binder options and
 * moduleDetection differ), served beside the scripts as checks of their own.
 */
const COMMANDS = {
  eslint: ['eslint', 'src', '--format', 'json'],
  prettier: ['prettier', '--check', 'src'],
  tsc: ['tsc', '--noEmit', '--pretty', 'false'],
  'eslint --quiet': ['eslint', '--format', 'json', '--quiet', 'src'],
  'tsc strict': ['tsc', '--noEmit', '--pretty', 'false', '-p', 'tsconfig.strict.json'],
};
/** The tool behind each compared command. */
const toolOf = (name) => name.split(' ')[0];
/** The gates detection serves for them, by name: a script's, or a tox env's command itself. */
const DETECTED = {
  lint: { command: 'eslint', via: ['npm', 'run', '--silent', 'lint'] },
  format: { command: 'prettier', via: ['npm', 'run', '--silent', 'format:check'] },
  typecheck: { command: 'tsc', via: ['npm', 'run', '--silent', 'typecheck'] },
  'tox.lint': { command: 'eslint --quiet' },
  types: { command: 'tsc strict' },
};

/** [name, version] from WARM_ESLINT / WARM_PRETTIER: the released versions this run is on. */
const VERSIONS = versionsFromEnv();
/**
 * The commands compared: all, or those of the tools a version was named for (the others
 * are the main run's).
 */
const TOOLS = Object.keys(COMMANDS).filter(
  (name) => VERSIONS.length === 0 || VERSIONS.some(([tool]) => tool === toolOf(name)),
);
/** name -> installed package directory, filled by installVersions(). */
const installed = new Map();

/** Installs the named versions once (npm, cached in the temp directory by version). */
async function installVersions() {
  if (installed.size === VERSIONS.length) return;
  for (const [key, found] of await installTools(VERSIONS)) {
    if (found.skipped) throw new Error(found.skipped);
    installed.set(key.split('@')[0], found.directory);
  }
  const named = [...installed].map(([name, directory]) => `${name} ${versionOf(directory)}`);
  if (named.length > 0) console.log(`      on ${named.join(', ')}`);
}

const versionOf = (directory) =>
  JSON.parse(fs.readFileSync(path.join(directory, 'package.json'), 'utf8')).version;
const majorOf = (directory) => Number(versionOf(directory).split('.')[0]);

/** Clock shapes a rule reads (none of them Date): the time now in the unit its deadline uses. */
const CLOCKS = {
  performance: 'performance.timeOrigin + performance.now()',
  hrtime: 'Number(process.hrtime.bigint() / 1000000n)',
  intl: `Date.parse(new Intl.DateTimeFormat('en-US', { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }).format() + ' UTC')`,
};
/** The same clocks read by the test, for the deadlines it writes. */
const NOW = {
  performance: () => performance.timeOrigin + performance.now(),
  hrtime: () => Number(process.hrtime.bigint() / 1000000n),
  intl: () => Date.now(),
};

/**
 * A flat config whose inline rules read the world as the attacks did: a data file read
 * while the config loads, the clock by each shape (only in a file naming a deadline), a
 * recursive listing, an optional require; plus a rule from a package in node_modules.
 */
const ESLINT_CONFIG = `import fs from 'node:fs';
import { createRequire } from 'node:module';
import attack from 'eslint-plugin-attack';
const require = createRequire(import.meta.url);
const banned = JSON.parse(fs.readFileSync(new URL('./banned.json', import.meta.url), 'utf8'));
let keptWords;
const exportsIn = (file) =>
  new Set([...fs.readFileSync(file, 'utf8').matchAll(/export const (\\w+)/g)].map((match) => match[1]));
// Plugin caches of other files' exports: kept forever, and validated by mtime (as
// eslint-plugin-import's ExportMap compares a Date's milliseconds).
const foreverExports = new Map();
const mtimeExports = new Map();
const importCheck = (label, exportsOf) => ({
  meta: { type: 'problem', schema: [] },
  create(context) {
    return {
      ImportDeclaration(node) {
        if (!node.source.value.startsWith('.')) return;
        const names = exportsOf(new URL(node.source.value, 'file://' + context.filename).pathname);
        for (const specifier of node.specifiers)
          if (specifier.type === 'ImportSpecifier' && !names.has(specifier.imported.name))
            context.report({ node: specifier, message: label + ': ' + specifier.imported.name + ' not exported' });
      },
    };
  },
});
const rule = (check) => ({
  meta: { type: 'problem', schema: [] },
  create(context) {
    return { Program(node) { check(context, node, context.sourceCode.text); } };
  },
});
const clocks = {
${Object.entries(CLOCKS)
  .map(([name, expression]) => `  ${name}: () => ${expression},`)
  .join('\n')}
};
const rules = {
  banned: rule((context, node, text) => {
    for (const name of banned) if (text.includes(name)) context.report({ node, message: 'banned: ' + name });
  }),
  clock: rule((context, node, text) => {
    for (const [, name, deadline] of text.matchAll(/EXPIRES-(\\w+): (\\d+)/g))
      if (clocks[name]() > Number(deadline)) context.report({ node, message: 'expired by ' + name });
  }),
  listing: rule((context, node, text) => {
    if (!text.includes('LIST-FIXTURES')) return;
    const names = fs.readdirSync('fixtures', { recursive: true }).map(String).sort();
    context.report({ node, message: 'fixtures: ' + names.join(' ') });
  }),
  // Per-file lint: one file's lint reads another source file.
  sibling: rule((context, node) => {
    if (!context.filename.endsWith('b.js')) return;
    if (fs.readFileSync('src/a.js', 'utf8').includes('zebra')) context.report({ node, message: 'a.js says zebra' });
  }),
  // Per-file lint: read while linting the first file, then kept in memory for every file.
  kept: rule((context, node, text) => {
    keptWords ??= fs.readFileSync('words.txt', 'utf8').split(/\\s+/).filter(Boolean);
    for (const word of keptWords) if (text.includes(word)) context.report({ node, message: 'kept word: ' + word });
  }),
  forever: importCheck('forever', (file) => {
    if (!foreverExports.has(file)) foreverExports.set(file, exportsIn(file));
    return foreverExports.get(file);
  }),
  mtime: importCheck('mtime', (file) => {
    const mtime = fs.statSync(file).mtime.getTime();
    const kept = mtimeExports.get(file);
    if (kept?.mtime === mtime) return kept.names;
    const names = exportsIn(file);
    mtimeExports.set(file, { mtime, names });
    return names;
  }),
  optional: rule((context, node) => {
    let strict = false;
    try {
      strict = require('./optional.cjs').strict;
    } catch {}
    if (strict) context.report({ node, message: 'optional strict mode' });
  }),
};
export default [
  { ignores: ['node_modules/'] },
  {
    files: ['src/**/*.js'],
    plugins: { inline: { rules }, attack },
    rules: {
      'inline/banned': 'error',
      'inline/clock': 'error',
      'inline/listing': 'warn',
      'inline/optional': 'error',
      'inline/sibling': 'error',
      'inline/kept': 'error',
      'inline/forever': 'error',
      'inline/mtime': 'error',
      'attack/word': 'error',
    },
  },
];
`;

const PLUGIN_INDEX = `import word from './rules/word.js';\nexport default { rules: { word } };\n`;
/** The plugin's rule file, flagging `word`. */
const pluginRule = (word) => `export default {
  meta: { type: 'problem', schema: [] },
  create(context) {
    return {
      Identifier(node) {
        if (node.name === ${JSON.stringify(word)}) context.report({ node, message: 'word: ${word}' });
      },
    };
  },
};
`;

const typesPackage = (types) =>
  `{ "name": "shifting-types", "version": "1.0.0", "types": "${types}" }\n`;

/** The attack-shaped repository: the warm fixture's TypeScript, JS sources for ESLint, the data and packages. */
function differentialRepo() {
  const root = makeWarmRepo('mcp-gates-warm-differential-');
  fs.rmSync(path.join(root, '.prettierrc.json'));
  write(root, 'eslint.config.js', ESLINT_CONFIG);
  write(root, 'banned.json', '["zzz"]\n');
  // Prettier 2 loads no ESM config (.mjs came with 3): the same config as CommonJS.
  if (installed.has('prettier') && majorOf(installed.get('prettier')) < 3)
    write(
      root,
      'prettier.config.cjs',
      `const fs = require('node:fs');\nmodule.exports = JSON.parse(fs.readFileSync(require('node:path').join(__dirname, 'shared.json'), 'utf8'));\n`,
    );
  else
    write(
      root,
      'prettier.config.mjs',
      `import fs from 'node:fs';\nexport default JSON.parse(fs.readFileSync(new URL('./shared.json', import.meta.url), 'utf8'));\n`,
    );
  write(root, 'shared.json', '{ "semi": true }\n');
  write(root, 'src/a.js', 'export const a = 1;\n');
  write(root, 'src/b.js', 'export const b = 2;\n');
  write(root, 'words.txt', 'nothing-matches\n');
  write(root, 'src/c.js', "import { d } from './d.js';\nexport const c = d;\n");
  write(root, 'src/d.js', EXPORTS_D[0]);
  write(root, 'src/listing.js', '// LIST-FIXTURES\nexport const listing = 1;\n');
  write(root, 'fixtures/deep/down/one.txt', 'one\n');
  write(
    root,
    'src/uses-types.ts',
    "import { x } from 'shifting-types';\nexport const y: number = x;\n",
  );
  const modules = path.join('node_modules');
  write(
    root,
    path.join(modules, 'shifting-types', 'number.d.ts'),
    'export declare const x: number;\n',
  );
  write(
    root,
    path.join(modules, 'shifting-types', 'string.d.ts'),
    'export declare const x: string;\n',
  );
  write(root, path.join(modules, 'shifting-types', 'package.json'), typesPackage('number.d.ts'));
  write(
    root,
    path.join(modules, 'eslint-plugin-attack', 'package.json'),
    '{ "name": "eslint-plugin-attack", "version": "1.0.0", "type": "module", "main": "index.js" }\n',
  );
  write(root, path.join(modules, 'eslint-plugin-attack', 'index.js'), PLUGIN_INDEX);
  write(root, path.join(modules, 'eslint-plugin-attack', 'rules', 'word.js'), pluginRule('zebra'));
  for (const [name, directory] of installed) linkTool(root, name, directory);
  twoChecksOfEachTool(root);
  const outside = linkOutside(root);
  git(root, 'init', '-q');
  fs.appendFileSync(path.join(root, '.git', 'info', 'exclude'), 'node_modules\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'fixture');
  return { root, outside };
}

const json = (value) => `${JSON.stringify(value, null, 2)}\n`;

/** What the binder reads: the strict gate's, and what the extended config flips between. */
const STRICT_OPTIONS = {
  allowUnreachableCode: false,
  allowUnusedLabels: false,
  moduleDetection: 'legacy',
};
/**
 * The states of node_modules/@acme/tsconfig/flags.json, which tsconfig.base.json extends:
 * none (the fixture is an ES module package, so `auto` makes every file a module), the
 * strict gate's options (then both gates have one option set), and the other way.
 */
const EXTENDED_FLAGS = [
  {},
  STRICT_OPTIONS,
  { allowUnreachableCode: true, allowUnusedLabels: true, moduleDetection: 'force' },
];

/**
 * src/flow.ts: unreachable code and an unused label (TS7027, TS7028 where the options
 * forbid them), both, or neither.
 */
const FLOW = [
  'export function f(): number {\n  return 1;\n}\n',
  "export function f(): number {\n  return 1;\n  console.log('never');\n}\n",
  'export function f(): void {\n  outer: for (let i = 0; i < 2; i++) {\n    console.log(i);\n  }\n}\n',
  "export function f(): number {\n  outer: for (let i = 0; i < 2; i++) {\n    console.log(i);\n  }\n  return 1;\n  console.log('never');\n}\n",
];
/** src/script-two.ts: a script declaring the name script-one.ts declares (TS2451 unless each is a module), or a module. */
const SCRIPT_TWO = ['const shared = 2;\n', 'export const shared = 2;\n'];

/**
 * Two gates of each checking tool, from two sources: package.json's scripts and a tox
 * env running the tool with other options (ESLint --quiet; tsc on tsconfig.strict.json,
 * whose binder options and moduleDetection differ from tsconfig.json's). tsconfig.json
 * extends tsconfig.base.json, which extends a package in node_modules (flipped by a step,
 * with no install record change); sources the binder judges under those options.
 */
function twoChecksOfEachTool(root) {
  edit(root, 'package.json', (text) =>
    json({
      ...JSON.parse(text),
      scripts: {
        lint: COMMANDS.eslint.join(' '),
        'format:check': COMMANDS.prettier.join(' '),
        typecheck: COMMANDS.tsc.join(' '),
      },
    }),
  );
  write(
    root,
    'tox.ini',
    '[testenv:lint]\ncommands = eslint --quiet src\n\n[testenv:types]\ncommands = tsc -p tsconfig.strict.json\n',
  );
  write(
    root,
    'tsconfig.strict.json',
    json({ extends: './tsconfig.json', compilerOptions: STRICT_OPTIONS }),
  );
  edit(root, 'tsconfig.base.json', (text) =>
    json({ extends: '@acme/tsconfig/flags.json', ...JSON.parse(text) }),
  );
  write(
    root,
    'node_modules/@acme/tsconfig/package.json',
    json({ name: '@acme/tsconfig', version: '1.0.0' }),
  );
  write(
    root,
    'node_modules/@acme/tsconfig/flags.json',
    json({ compilerOptions: EXTENDED_FLAGS[0] }),
  );
  write(root, 'src/flow.ts', FLOW[3]);
  write(root, 'src/script-one.ts', 'const shared = 1;\n');
  write(root, 'src/script-two.ts', SCRIPT_TWO[0]);
}

/**
 * What the linked files hold: clean, an import of a name src/d.js never exports (the
 * plugin rules report it), unformatted. Each step writes another than the one there.
 */
const LINKED = [
  'export const linked = 1;\n',
  "import { nope } from './d.js';\nexport const linked = nope;\n",
  'export const   linked=1\n',
];
/** The outside target of src/outside-types.ts: typed right, or not (TS2322). */
const OUTSIDE_TYPES = ['export const t: number = 1;\n', "export const t: number = 'one';\n"];

/**
 * Files outside the root the tree depends on: src/linked.js, tracked, has a second name
 * outside (a hard link); src/outside.js and src/outside-types.ts are tracked symlinks to
 * files outside. No event under the root tells their edits. Returns the outside directory.
 */
function linkOutside(root) {
  const outside = makeTempDir('mcp-gates-outside-');
  write(root, 'src/linked.js', LINKED[0]);
  fs.linkSync(path.join(root, 'src/linked.js'), path.join(outside, 'linked-other-name.js'));
  fs.writeFileSync(path.join(outside, 'target.js'), LINKED[1]);
  fs.symlinkSync(path.join(outside, 'target.js'), path.join(root, 'src/outside.js'));
  fs.writeFileSync(path.join(outside, 'target.ts'), OUTSIDE_TYPES[0]);
  fs.symlinkSync(path.join(outside, 'target.ts'), path.join(root, 'src/outside-types.ts'));
  return outside;
}

/** src/warned.js: clean, a warning (--quiet drops it), an error. */
const WARNED = [
  'export const warned = 1;\n',
  '// LIST-FIXTURES\nexport const warned = 1;\n',
  "import { nope } from './d.js';\nexport const warned = nope;\n",
];

/** What src/d.js exports (src/c.js imports `d`): the same size, so a rewrite can keep its mtime. */
const EXPORTS_D = ['export const d = 1;\n', 'export const e = 1;\n'];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The edit kinds: each changes the tree (maybe the world: time passes) and names the
 * tools whose answer it can move. `run` gets the step's context (root, random, warm
 * to run the warm tools before time passes).
 */
const EDITS = {
  'config data file (banned.json read by eslint.config.js)': {
    tools: ['eslint'],
    run: ({ root, random }) =>
      write(
        root,
        'banned.json',
        JSON.stringify([pick(random, ['zzz', 'const a', 'listing', 'y'])]),
      ),
  },
  'config data file (shared.json read by the prettier config)': {
    tools: ['prettier'],
    run: ({ root, random }) =>
      write(
        root,
        'shared.json',
        JSON.stringify(pick(random, [{ semi: true }, { semi: false }, { singleQuote: true }])),
      ),
  },
  'node_modules: a package switches its "types" (no lockfile change)': {
    tools: ['tsc'],
    run: ({ root }) =>
      edit(root, 'node_modules/shifting-types/package.json', (text) =>
        text.includes('number.d.ts') ? typesPackage('string.d.ts') : typesPackage('number.d.ts'),
      ),
  },
  "node_modules: a plugin's rule file changes (no lockfile change)": {
    tools: ['eslint'],
    run: ({ root, random }) =>
      write(
        root,
        'node_modules/eslint-plugin-attack/rules/word.js',
        pluginRule(pick(random, ['zebra', 'a', 'listing', 'y'])),
      ),
  },
  'clock: a rule reads performance / hrtime / Intl; its deadline passes': {
    tools: ['eslint'],
    clock: true,
    run: async ({ root, random, warm }) => {
      const shape = pick(random, Object.keys(CLOCKS));
      // 2.5 s ahead: the warm run below answers before it, the compared one after.
      const deadline = Math.ceil(NOW[shape]() + 2500);
      write(root, 'src/clock.js', `// EXPIRES-${shape}: ${deadline}\nexport const clock = 1;\n`);
      await warm('eslint');
      while (NOW[shape]() <= deadline + 1100) await sleep(100);
    },
  },
  'recursive listing: a nested file added or deleted': {
    tools: ['eslint'],
    run: ({ root, random }) => {
      // A branch switch to a commit whose fixtures were all deleted removes the directory.
      const fixtures = path.join(root, 'fixtures');
      const present = (fs.existsSync(fixtures) ? fs.readdirSync(fixtures, { recursive: true }) : [])
        .map(String)
        .filter((name) => name.endsWith('.txt'));
      if (present.length > 0 && random() < 0.5)
        fs.rmSync(path.join(root, 'fixtures', pick(random, present)));
      else
        write(
          root,
          `fixtures/deep/${pick(random, ['down', 'other/level'])}/f${Math.floor(random() * 100)}.txt`,
          'x\n',
        );
    },
  },
  "per-file lint: a file another file's lint reads changes (src/a.js, read linting src/b.js)": {
    tools: ['eslint'],
    run: ({ root, random }) =>
      write(
        root,
        'src/a.js',
        pick(random, ['export const a = "zebra";\n', 'export const a = 1;\n']),
      ),
  },
  'per-file lint: a file a rule read once and kept for every file changes (words.txt)': {
    tools: ['eslint'],
    run: ({ root, random }) =>
      write(
        root,
        'words.txt',
        `${pick(random, ['nothing-matches', 'export', 'const b', 'listing'])}\n`,
      ),
  },
  "plugin caches (forever, by mtime): the imported file's exports change (src/d.js)": {
    tools: ['eslint'],
    forced: true,
    run: ({ root, random }) =>
      write(root, 'src/d.js', another(random, EXPORTS_D, path.join(root, 'src/d.js'))),
  },
  'plugin caches: src/d.js rewritten at the same size with its mtime set back (cp -p)': {
    tools: ['eslint'],
    forced: true,
    run: ({ root, random }) => {
      const file = path.join(root, 'src/d.js');
      const before = fs.statSync(file);
      fs.writeFileSync(file, another(random, EXPORTS_D, file));
      fs.utimesSync(file, before.atime, before.mtime);
    },
  },
  'two tsc gates: unreachable code, an unused label or a redeclared name appear or vanish': {
    tools: ['tsc', 'tsc strict'],
    forced: true,
    run: ({ root, random }) => {
      const [file, texts] =
        random() < 0.6 ? ['src/flow.ts', FLOW] : ['src/script-two.ts', SCRIPT_TWO];
      write(root, file, another(random, texts, path.join(root, file)));
    },
  },
  'extends from node_modules: binder options and moduleDetection flip (no lockfile change)': {
    tools: ['tsc', 'tsc strict'],
    forced: true,
    run: ({ root, random }) => {
      const file = 'node_modules/@acme/tsconfig/flags.json';
      const states = EXTENDED_FLAGS.map((flags) => json({ compilerOptions: flags }));
      write(root, file, another(random, states, path.join(root, file)));
    },
  },
  'hard link: src/linked.js edited through its other name outside the root': {
    tools: ['eslint', 'prettier'],
    forced: true,
    run: async ({ root, random, outside, warm }) => {
      const tracked = path.join(root, 'src/linked.js');
      const other = path.join(outside, 'linked-other-name.js');
      // A checkout writes the file anew: its other name is linked again, and the tools
      // see that tree before the edit through it.
      if (fs.statSync(tracked).ino !== fs.statSync(other).ino) {
        fs.rmSync(other);
        fs.linkSync(tracked, other);
        for (const name of ['eslint', 'prettier']) if (TOOLS.includes(name)) await warm(name);
      }
      fs.writeFileSync(other, another(random, LINKED, other));
    },
  },
  'symlink: the target outside the root of src/outside.js or src/outside-types.ts changes': {
    tools: ['eslint', 'tsc', 'tsc strict'],
    forced: true,
    run: ({ random, outside }) => {
      // The tools that read the target changed: ESLint's, or tsc's (prettier skips links).
      const typed = TOOLS.includes('tsc') && random() < 0.5;
      const target = path.join(outside, typed ? 'target.ts' : 'target.js');
      fs.writeFileSync(target, another(random, typed ? OUTSIDE_TYPES : LINKED, target));
      return typed ? ['tsc', 'tsc strict'] : ['eslint'];
    },
  },
  "cross-source duplicates: a warning or an error appears or goes (the script's ESLint and the tox env's --quiet)":
    {
      tools: ['eslint', 'eslint --quiet'],
      forced: true,
      run: ({ root, random }) => {
        const file = path.join(root, 'src/warned.js');
        fs.writeFileSync(file, another(random, WARNED, file));
      },
    },
  'optional require: the file appears or disappears': {
    tools: ['eslint'],
    run: ({ root, random }) => {
      const file = path.join(root, 'optional.cjs');
      if (fs.existsSync(file)) fs.rmSync(file);
      else write(root, 'optional.cjs', `module.exports = { strict: ${random() < 0.7} };\n`);
    },
  },
  'source edit': {
    tools: ['eslint', 'prettier', 'tsc'],
    run: ({ root, random }) => {
      const snippets = [
        'export const a = 1;\n',
        'export const a = "zebra"\n',
        'const zzz = 1;\nexport const a = zzz;\n',
        'export const  a   =  2;\n',
      ];
      write(root, 'src/a.js', pick(random, snippets));
      if (random() < 0.5)
        write(
          root,
          'src/uses-types.ts',
          pick(random, [
            "import { x } from 'shifting-types';\nexport const y: number = x;\n",
            "import { x } from 'shifting-types';\nexport const y: string = x;\n",
          ]),
        );
    },
  },
  'branch switch between two clean commits': {
    tools: ['eslint', 'prettier', 'tsc'],
    run: ({ root, random, commits }) => {
      git(root, 'add', '-A');
      git(root, 'commit', '-q', '--allow-empty', '-m', 'step');
      const head = git(root, 'rev-parse', 'HEAD').trim();
      commits.push(head);
      const others = commits.filter((commit) => commit !== head);
      git(root, 'checkout', '-q', '--detach', pick(random, others));
    },
  },
};

/**
 * Detection serves the compared commands as gates of their own: each package.json script
 * runs its command warm, and each tox env, whose options differ from the script's, is
 * served beside it (not folded into it as "already run") and is that command.
 */
function expectServedApart(root, env) {
  const { gates, notServed } = detectGates(root);
  const served = gates.map((gate) => `${gate.name} (${gate.source}): ${gate.command.join(' ')}`);
  for (const [name, { command, via }] of Object.entries(DETECTED)) {
    if (!TOOLS.includes(command)) continue;
    const gate = gates.find((candidate) => candidate.name === name);
    expect(
      gate,
      `gate ${name} among ${served.join('; ')}; not served: ${JSON.stringify(notServed)}`,
    ).to.not.equal(undefined);
    expect(gate.command, name).to.deep.equal(via ?? COMMANDS[command]);
    const plan = warmPlanOf(gate, gate.command, root, env);
    expect(plan, name).to.deep.include({ warm: true, argv: COMMANDS[command] });
  }
}

/** Runs one seeded sequence; returns its mismatches (empty when warm always equalled cold). */
async function runSequence(seed, steps, log) {
  const random = seededRandom(seed);
  const { root, outside } = differentialRepo();
  const env = gateEnv();
  const pool = new WarmPool();
  const commits = [git(root, 'rev-parse', 'HEAD').trim()];
  const mismatches = [];
  const warm = (tool) => pool.run({ root, argv: COMMANDS[tool], timeoutMs: 90000, env });
  try {
    expectServedApart(root, env);
    // Every tool warm once, so the first edit meets workers that have served.
    for (const tool of TOOLS) await warm(tool);
    // The edit kinds that can move a compared tool (all of them unless a version is named).
    const kinds = Object.keys(EDITS).filter((name) =>
      EDITS[name].tools.some((tool) => TOOLS.includes(tool)),
    );
    const planned = planSteps(
      random,
      kinds,
      kinds.filter((name) => EDITS[name].forced),
      steps,
    );
    for (let step = 0; step < steps; step++) {
      const name = planned[step];
      const kind = EDITS[name];
      const moved = await kind.run({ root, outside, random, warm, commits });
      // The tools the edit can move, and one other: a stale answer may show anywhere.
      const tools = new Set(
        [...(moved ?? kind.tools), pick(random, TOOLS)].filter((tool) => TOOLS.includes(tool)),
      );
      for (const tool of tools) {
        const hot = await warm(tool);
        const cold = await runColdAsync(root, COMMANDS[tool], env);
        log.push(
          `seed ${seed} step ${step} ${name}: ${tool} ${hot.reused ? 'reused' : hot.startedWorker ? 'restarted' : 'ran'}`,
        );
        if (!answersAsCold(hot, cold))
          mismatches.push({ seed, step, edit: name, tool, warm: hot, cold });
        // A clock-reading run is never reused: its answer moves with time alone.
        if (kind.clock && tool === 'eslint' && hot.reused)
          mismatches.push({ seed, step, edit: name, tool, reusedAfterClock: true });
      }
    }
  } finally {
    pool.close();
  }
  return mismatches;
}

describe('warm gates: seeded sequences of the attack shapes (warm equals cold)', function () {
  this.timeout(600000);
  before(installVersions);
  after(cleanupTemporary);

  itSeeds(
    FIRST_SEED,
    SEEDS,
    `${STEPS} steps, every answer equals the cold command's`,
    (seed, log) => runSequence(seed, STEPS, log),
  );
});

const SERVE_STEPS = Number(process.env.WARM_SERVE_STEPS ?? (LONG ? 24 : 6));
const LINT_GATE = {
  command: ['eslint', '--format', 'json', '.'],
  parser: 'eslint-json',
  paths: 'append',
};
const STRICT_GATE = {
  ...LINT_GATE,
  command: ['eslint', '--format', 'json', '--max-warnings', '0', '.'],
};
const SOURCES = {
  clean: 'export const clean = 1;\n',
  warning: 'console.log("a warning");\nexport const warned = 1;\n',
  error: 'const unused = 1;\nexport const dirty = 2;\n',
};
const FILES = ['src/one.js', 'src/two.js', 'src/three.js', 'src/four.js', 'src/five.js'];
/** The files a call may name as paths: not the symlink out of the root, which run and serve refuse. */
const PATHS = FILES.filter((file) => file !== 'src/five.js');

/**
 * A committed repository for the served lint gate: five sources, a flat config,
 * mcp-gates.json. src/four.js has a second name outside the root (a hard link) and
 * src/five.js is a symlink to a file outside: the tree watch gets no event for their edits.
 */
function servedRepo() {
  const root = makeRepo({
    'eslint.config.mjs': `export default [{ files: ['**/*.js'], rules: { 'no-unused-vars': 'error', 'no-console': 'warn' } }];\n`,
    'src/one.js': SOURCES.clean,
    'src/two.js': SOURCES.warning,
    'src/three.js': SOURCES.error,
    'src/four.js': SOURCES.clean,
    'mcp-gates.json': { gates: { lint: LINT_GATE } },
  });
  const outside = makeTempDir('mcp-gates-outside-');
  fs.linkSync(path.join(root, 'src/four.js'), path.join(outside, 'four-other-name.js'));
  fs.writeFileSync(path.join(outside, 'five-target.js'), SOURCES.clean);
  fs.symlinkSync(path.join(outside, 'five-target.js'), path.join(root, 'src/five.js'));
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'base');
  return { root, outside };
}

/** The calls of the sequence: runs with other paths or scope, and pages (file, offset) after them. */
const CALLS = [
  () => ({}),
  (random) => ({ paths: [pick(random, PATHS)] }),
  () => ({ scope: 'changed' }),
  () => ({ offset: 0 }),
  (random) => ({ offset: Math.floor(random() * 3) }),
  (random) => ({ file: pick(random, [...FILES, 'src/*.js', 'src']) }),
  (random) => ({ paths: [pick(random, PATHS)], offset: 0 }),
  () => ({ scope: 'changed', offset: 0 }),
];

/** The served repository's tools: this repository's, with WARM_ESLINT's install first on PATH. */
function servedEnv() {
  const eslint = installed.get('eslint');
  if (!eslint) return envWithTools();
  const bin = path.join(path.dirname(eslint), '.bin');
  return envWithTools({ PATH: `${bin}${path.delimiter}${envWithTools().PATH}` });
}

/**
 * What the cold command says for `args`: `mcp-gates run --json`, then the page applied as
 * documented. `runs` holds the runs made since the last edit, by paths and scope: a page of
 * one is the same command on the same tree and outside files, run once.
 */
function coldAnswer(root, args, runs) {
  const key = JSON.stringify([args.paths ?? [], args.scope ?? null]);
  if (!runs.has(key)) runs.set(key, coldRun(root, args));
  const data = runs.get(key);
  const matches = args.file === undefined ? () => true : fileMatcher(args.file);
  const findings = data.findings.filter((finding) => matches(finding.file));
  return {
    status: data.status,
    findingCount: findings.length,
    findings: findings.slice(args.offset ?? 0).map(brief),
  };
}

/** `mcp-gates run lint --json` with the call's paths and scope: its JSON result. */
function coldRun(root, args) {
  const run = runCli(
    [
      'run',
      'lint',
      ...(args.paths ?? []),
      ...(args.scope === 'changed' ? ['--changed'] : []),
      '--json',
      '--root',
      root,
    ],
    { cwd: root, env: servedEnv() },
  );
  if (!run.stdout)
    throw new Error(
      `mcp-gates run ${JSON.stringify(args)} printed nothing (exit ${run.code}, signal ${run.signal}): ${run.stderr}`,
    );
  return JSON.parse(run.stdout);
}

const brief = (finding) => `${finding.file}:${finding.line}:${finding.rule}:${finding.message}`;

describe('warm gates through serve: seeded sequences of pages, branch switches and committed config edits', function () {
  this.timeout(600000);
  before(async function () {
    // reason: the served gate is ESLint's; a run on WARM_PRETTIER alone has nothing to serve.
    if (VERSIONS.length > 0 && !TOOLS.includes('eslint')) this.skip();
    await installVersions();
  });
  after(cleanupTemporary);

  const seed = FIRST_SEED;
  it(`seed ${seed}: ${SERVE_STEPS} steps, every page equals the cold run's findings`, async () => {
    const random = seededRandom(seed);
    const { root, outside } = servedRepo();
    const client = new Client({ name: 'warm-differential', version: '0.0.1' });
    let listChanged = () => {};
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => listChanged());
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'serve', '--root', root],
        cwd: root,
        env: servedEnv(),
        stderr: 'pipe',
      }),
    );
    const commits = [git(root, 'rev-parse', 'HEAD').trim()];
    const commitAll = () => {
      git(root, 'add', '-A');
      git(root, 'commit', '-q', '--allow-empty', '-m', 'step');
      commits.push(git(root, 'rev-parse', 'HEAD').trim());
    };
    const edits = {
      'source edit': () =>
        write(root, pick(random, FILES), SOURCES[pick(random, Object.keys(SOURCES))]),
      commit: commitAll,
      'branch switch between two clean commits': () => {
        commitAll();
        const head = commits.at(-1);
        git(
          root,
          'checkout',
          '-q',
          '--detach',
          pick(
            random,
            commits.filter((commit) => commit !== head),
          ),
        );
      },
      "committed mcp-gates.json edit changing the gate's command": async () => {
        const config = JSON.parse(fs.readFileSync(path.join(root, 'mcp-gates.json'), 'utf8'));
        const strict = config.gates.lint.command.includes('--max-warnings');
        const reloaded = new Promise((resolve) => (listChanged = resolve));
        write(
          root,
          'mcp-gates.json',
          JSON.stringify({ gates: { lint: strict ? LINT_GATE : STRICT_GATE } }),
        );
        commitAll();
        await Promise.race([reloaded, sleep(10000)]);
      },
      'hard link: src/four.js edited through its other name outside the root': () => {
        const tracked = path.join(root, 'src/four.js');
        const other = path.join(outside, 'four-other-name.js');
        // A checkout writes the file anew: its other name is linked to it again.
        if (fs.statSync(tracked).ino !== fs.statSync(other).ino) {
          fs.rmSync(other);
          fs.linkSync(tracked, other);
        }
        fs.writeFileSync(other, another(random, Object.values(SOURCES), other));
      },
      'symlink: the target outside the root of src/five.js changes': () => {
        const target = path.join(outside, 'five-target.js');
        fs.writeFileSync(target, another(random, Object.values(SOURCES), target));
      },
      none: () => {},
    };
    // The links (issue 29) once each at least.
    const forced = Object.keys(edits).filter((name) => /^(hard link|symlink):/.test(name));
    const log = [];
    const mismatches = [];
    try {
      const planned = planSteps(random, Object.keys(edits), forced, SERVE_STEPS);
      for (let step = 0; step < SERVE_STEPS; step++) {
        const name = planned[step];
        await edits[name]();
        const runs = new Map();
        for (let call = 0; call < 2; call++) {
          const args = pick(random, CALLS)(random);
          const result = await client.callTool({ name: 'lint', arguments: args }, undefined, {
            timeout: 60000,
          });
          const content = result.structuredContent;
          const warm = {
            status: content.status,
            findingCount: content.findingCount,
            findings: content.findings.map(brief),
          };
          const cold = coldAnswer(root, args, runs);
          log.push(`step ${step} ${name}: ${JSON.stringify(args)} ${content.source}`);
          if (JSON.stringify(warm) !== JSON.stringify(cold))
            mismatches.push({ step, edit: name, args, source: content.source, warm, cold });
        }
      }
    } finally {
      await client.close();
    }
    if (mismatches.length > 0)
      console.log(`serve mismatches (replay: WARM_SEED=${seed}):\n${log.join('\n')}`, mismatches);
    expect(mismatches, `replay with WARM_SEED=${seed}`).to.deep.equal([]);
  });
});

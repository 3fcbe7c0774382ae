// Issue 29, items 2 and 7: what a warm tool keeps in its own memory is an input too.
// A plugin that read another linted file once and keeps what it found answers the next
// call from memory; ESLint reading that file again to lint it is not the plugin asking
// again. Each case: warm and cold agree before and after the change, and the cold answer
// changed, so a stale warm answer would be caught. And the other way: a file a tool
// writes for itself inside node_modules (eslint_d's port file), which no loaded module
// reads, does not restart the worker; one that a loaded module does read still does.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { WarmPool } from '../dist/gates/warm/index.js';
import { cleanupTemporary } from './fixtures/gates-support.mjs';
import { installTools, linkTool } from './fixtures/warm/tool-versions.mjs';
import { gateEnv, makeWarmRepo, warmAndCold, warmRepeat } from './fixtures/warm/warm-fixture.mjs';

const write = (root, file, text) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};

/**
 * Rewrites `file` with `text` (the same size) and sets its times back to what they were,
 * as `cp -p`, `rsync -t`, `tar` or git-restore-mtime leave a file: only its content (and
 * ctime, which no tool can set) tells the edit.
 */
function rewriteKeepingTimes(root, file, text) {
  const full = path.join(root, file);
  const before = fs.statSync(full);
  const padding = before.size - Buffer.byteLength(text);
  expect(padding, 'the new text fits in the old size').to.be.at.least(0);
  fs.writeFileSync(full, text + ' '.repeat(padding));
  fs.utimesSync(full, before.atime, before.mtime);
  const after = fs.statSync(full);
  expect(after.size).to.equal(before.size);
  // What an mtime-validated cache compares (a Date: whole milliseconds).
  expect(after.mtime.getTime()).to.equal(before.mtime.getTime());
}

/** A repository with `files` under src/ and `config` as its eslint.config.js (nothing else linted). */
function repoWith(config, files) {
  const root = makeWarmRepo('mcp-gates-warm-memory-');
  fs.rmSync(path.join(root, 'src'), { recursive: true });
  write(root, 'eslint.config.js', config);
  for (const [file, text] of Object.entries(files)) write(root, file, text);
  return root;
}

/**
 * A local plugin that caches forever: the names a file exports, read once per process
 * (the way no-unused-modules-style rules keep what they found), and a rule reporting an
 * import of a name the other file does not export; beside it, in the same file, the same
 * rule over a cache validated by mtime.
 */
const FOREVER_CONFIG = `import fs from 'node:fs';
import path from 'node:path';
const namesIn = (file) =>
  new Set([...fs.readFileSync(file, 'utf8').matchAll(/export const (\\w+)/g)].map((match) => match[1]));
const exported = new Map();
const exportsOf = (file) => {
  if (!exported.has(file)) exported.set(file, namesIn(file));
  return exported.get(file);
};
// A second cache in the same file, validated by mtime: after an ordinary edit it reads the
// file again, which says nothing of the cache above.
const byMtime = new Map();
const freshExportsOf = (file) => {
  const mtime = fs.statSync(file).mtimeMs;
  if (byMtime.get(file)?.mtime !== mtime) byMtime.set(file, { mtime, names: namesIn(file) });
  return byMtime.get(file).names;
};
const named = (exportsOf, said) => ({
  meta: { type: 'problem', schema: [] },
  create(context) {
    return {
      ImportDeclaration(node) {
        const file = path.resolve(path.dirname(context.filename), node.source.value);
        for (const specifier of node.specifiers)
          if (specifier.type === 'ImportSpecifier' && !exportsOf(file).has(specifier.imported.name))
            context.report({ node: specifier, message: specifier.imported.name + said + node.source.value });
      },
    };
  },
});
const rules = { named: named(exportsOf, ' is not exported by '), fresh: named(freshExportsOf, ' is not in ') };
export default [
  { ignores: ['node_modules/'] },
  { files: ['src/**/*.js'], plugins: { forever: { rules } }, rules: { 'forever/named': 'error', 'forever/fresh': 'warn' } },
];
`;

const IMPORT_CONFIG = `import importPlugin from 'eslint-plugin-import';
export default [
  { ignores: ['node_modules/'] },
  {
    files: ['src/**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    plugins: { import: importPlugin },
    rules: {
      'import/named': 'error',
      'import/namespace': 'error',
      'import/no-unused-modules': ['error', { unusedExports: true, src: ['src'] }],
    },
  },
];
`;

describe('warm gates: what a tool keeps in memory (issue 29 items 2 and 7)', function () {
  this.timeout(300000);
  const env = gateEnv();
  const lint = ['eslint', 'src', '--format', 'json'];
  let pool;
  beforeEach(() => {
    pool = new WarmPool();
  });
  afterEach(() => pool.close());
  after(cleanupTemporary);
  const warmEqualsCold = (root, argv = lint) => warmAndCold(pool, root, argv, env);

  describe('a plugin that caches forever', () => {
    const files = {
      'src/a.js': "import { x } from './b.js';\nexport const use = x;\n",
      'src/b.js': 'export const x = 1;\n',
    };

    it('after an ordinary edit of the file it cached: ESLint reading it again to lint it is not the plugin asking again', async () => {
      const root = repoWith(FOREVER_CONFIG, files);
      const first = await warmEqualsCold(root);
      expect(first.cold.exitCode).to.equal(0);
      await warmRepeat(pool, first);
      write(root, 'src/b.js', 'export const y = 1;\n');
      const after = await warmEqualsCold(root);
      expect(after.cold.stdout).to.include('x is not exported by ./b.js');
      expect(after.warm.startedWorker, 'the plugin may keep the old exports').to.equal(true);
    });

    it('after a same-size rewrite with the mtime set back', async () => {
      const root = repoWith(FOREVER_CONFIG, files);
      expect((await warmEqualsCold(root)).cold.exitCode).to.equal(0);
      rewriteKeepingTimes(root, 'src/b.js', 'export const y = 1;\n');
      expect((await warmEqualsCold(root)).cold.exitCode).to.equal(1);
    });

    it('keeps its worker while nothing the plugin read has changed', async () => {
      const root = repoWith(FOREVER_CONFIG, files);
      await warmEqualsCold(root);
      write(root, 'src/a.js', "import { x } from './b.js';\nexport const used = x;\n");
      const after = await warmEqualsCold(root);
      expect(after.warm.startedWorker, after.warm.restartedBecause).to.equal(false);
    });
  });

  describe('eslint-plugin-import (the real one, with its mtime-validated ExportMap)', () => {
    let pluginDirectory;
    let eslintDirectory;
    before(async function () {
      const installed = (await installTools([['eslint-plugin-import', '2.32.0']])).get(
        'eslint-plugin-import@2.32.0',
      );
      if (installed.skipped) return this.skip();
      pluginDirectory = installed.directory;
      // The ESLint it was installed beside (its peer, 9.x): the plugin supports ESLint 2 to 9.
      eslintDirectory = path.join(path.dirname(pluginDirectory), 'eslint');
    });

    const importRepo = (sources) => {
      // no-unused-modules asks for an eslintrc file, even an empty one, under flat config.
      const root = repoWith(IMPORT_CONFIG, { ...sources, '.eslintrc.json': '{}\n' });
      linkTool(root, 'eslint', eslintDirectory);
      fs.symlinkSync(pluginDirectory, path.join(root, 'node_modules', 'eslint-plugin-import'));
      return root;
    };

    const CYCLE = { 'src/b.js': "import { use } from './a.js';\nexport const x = use;\n" };
    const USES_B = {
      'src/a.js': "import b, { x } from './b.js';\nexport default x + b;\n",
      'src/b.js': "export const x = 1;\nimport a from './a.js';\nexport default a;\n",
    };
    const NOT_EXPORTED = "import { use } from './a.js';\nexport const y = use;\n";
    const STOPS_IMPORTING = "import b from './b.js';\nexport default b;\n";
    const UNUSED = "exported declaration 'x' not used within other modules";
    for (const { title, sources, edit, argv = lint, expected } of [
      {
        title: 'import/named: a same-size rewrite of the imported file with its mtime set back',
        sources: { ...CYCLE, 'src/a.js': "import { x } from './b.js';\nexport const use = x;\n" },
        edit: (root) => rewriteKeepingTimes(root, 'src/b.js', NOT_EXPORTED),
        expected: "x not found in './b.js'",
      },
      {
        title: 'import/namespace: a same-size rewrite of the imported file with its mtime set back',
        sources: {
          ...CYCLE,
          'src/a.js': "import * as b from './b.js';\nexport const use = b.x;\n",
        },
        edit: (root) => rewriteKeepingTimes(root, 'src/b.js', NOT_EXPORTED),
        expected: "'x' not found in imported namespace 'b'",
      },
      {
        title: 'import/no-unused-modules: the importer stops importing (same size, mtime set back)',
        sources: USES_B,
        edit: (root) => rewriteKeepingTimes(root, 'src/a.js', STOPS_IMPORTING),
        // b.js alone: ESLint does not read a.js, the plugin's ExportMap of it is all there is.
        argv: ['eslint', 'src/b.js', '--format', 'json'],
        expected: UNUSED,
      },
      {
        title: 'import/no-unused-modules: an ordinary edit of the importer',
        sources: USES_B,
        edit: (root) => write(root, 'src/a.js', STOPS_IMPORTING),
        expected: UNUSED,
      },
    ]) {
      it(title, async () => {
        const root = importRepo(sources);
        const first = await warmEqualsCold(root);
        expect(first.cold.exitCode).to.equal(0);
        await warmRepeat(pool, first);
        edit(root);
        expect((await warmEqualsCold(root, argv)).cold.stdout).to.include(expected);
      });
    }
  });

  describe('files a tool writes for itself inside node_modules', () => {
    // A config that requires an optional module inside node_modules/eslint, if there.
    const OPTIONAL_CONFIG = `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
let strict = false;
try {
  strict = require('./node_modules/eslint/extra').strict;
} catch {}
const rule = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    return { Program(node) { if (strict) context.report({ node, message: 'strict mode' }); } };
  },
};
export default [
  { ignores: ['node_modules/'] },
  { files: ['src/**/*.js'], plugins: { optional: { rules: { rule } } }, rules: { 'optional/rule': 'error' } },
];
`;

    it("eslint_d's port file in node_modules/eslint does not restart the worker; a file resolution looked for does", async () => {
      const root = repoWith(OPTIONAL_CONFIG, { 'src/a.js': 'export const a = 1;\n' });
      // ESLint copied in (not linked to the shared install): the test writes into it.
      const eslint = path.join(root, 'node_modules', 'eslint');
      const installed = fs.realpathSync(eslint);
      fs.rmSync(eslint);
      fs.cpSync(installed, eslint, { recursive: true });
      const first = await warmEqualsCold(root);
      expect(first.cold.exitCode).to.equal(0);
      // What eslint_d writes when it starts, and removes when it stops.
      write(root, 'node_modules/eslint/.eslint_d', '41234 0123456789abcdef\n');
      const started = await warmEqualsCold(root);
      expect(started.warm.startedWorker, started.warm.restartedBecause).to.equal(false);
      fs.rmSync(path.join(eslint, '.eslint_d'));
      // The first call's tree again: its cold answer is that call's.
      const stopped = await warmRepeat(pool, first);
      expect(stopped.warm.startedWorker, stopped.warm.restartedBecause).to.equal(false);
      // The optional module appearing (as extra.js: resolution adds the extension) counts.
      write(root, 'node_modules/eslint/extra.js', 'module.exports = { strict: true };\n');
      const after = await warmEqualsCold(root);
      expect(after.cold.exitCode, 'the optional module makes the cold run fail').to.equal(1);
      expect(after.warm.startedWorker).to.equal(true);
    });
  });
});

// Per-file incremental lint (issue 19, item 1): after an edit, a warm ESLint lints again
// only the files whose text, config or reads changed, and its answer equals the cold
// command's. Each case also checks what was kept and what was linted again, so a run that
// silently relinted everything (or kept what it should not) fails.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { WarmPool } from '../dist/gates/warm/index.js';
import { cleanupTemporary, REPO_ROOT } from './fixtures/gates-support.mjs';
import { gateEnv, makeWarmRepo, warmAndCold, warmRepeat } from './fixtures/warm/warm-fixture.mjs';
import { isCompleteInstall, npmInstallInto } from './fixtures/warm/tool-versions.mjs';
import os from 'node:os';

const FILES = 12;
const ARGV = ['eslint', '.', '--format', 'json'];

const write = (root, file, text) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};

/**
 * A flat config for src/**\/*.js with one inline rule: it reports "BAD" in a file's text,
 * after `check` (a statement run in Program with `context` and `fs` in scope).
 */
function configWithRule(check = '') {
  return `import fs from 'node:fs';
let kept;
const rule = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    return {
      Program(node) {
        ${check}
        if (context.sourceCode.text.includes('BAD')) context.report({ node, message: 'BAD found' });
      },
    };
  },
};
export default [
  { ignores: ['node_modules/', 'ignored/', '*.js'] },
  { files: ['src/**/*.js'], plugins: { local: { rules: { rule } } }, rules: { 'local/rule': 'error', 'no-unused-vars': 'warn' } },
];
`;
}

function incrementalRepo(check) {
  const root = makeWarmRepo('mcp-gates-warm-incremental-');
  fs.rmSync(path.join(root, 'src'), { recursive: true });
  for (let index = 0; index < FILES; index++)
    write(root, `src/f${index}.js`, `export const f${index} = ${index};\n`);
  write(root, 'eslint.config.js', configWithRule(check));
  return root;
}

/**
 * A local ESLint plugin `eslint-plugin-<name>` in root/node_modules whose index.js is
 * `indexJs` (its rule `rule`, on for the JS files under src), optionally with mcp-gates' own addon
 * copied beside it as addon.node.
 */
function localPlugin(root, name, indexJs, { addon = false } = {}) {
  const directory = `node_modules/eslint-plugin-${name}`;
  write(
    root,
    `${directory}/package.json`,
    `{"name":"eslint-plugin-${name}","type":"module","exports":"./index.js"}\n`,
  );
  if (addon)
    fs.copyFileSync(
      path.join(REPO_ROOT, 'build', 'Release', 'capture.node'),
      path.join(root, directory, 'addon.node'),
    );
  write(root, `${directory}/index.js`, indexJs);
  write(
    root,
    'eslint.config.js',
    `import local from 'eslint-plugin-${name}';
export default [
  { ignores: ['node_modules/', '*.js'] },
  { files: ['src/**/*.js'], plugins: { local }, rules: { 'local/rule': 'error' } },
];
`,
  );
}

/**
 * eslint-plugin-import-x's shape (vuejs/core lints with it): a rule resolving each import
 * through a ModuleCache that keeps a resolution for `lifetime` seconds, aged by
 * process.hrtime, shared by every file of a directory. The package is a stand-in at the
 * real package's path (the path is what names a memo-aging clock reader), its ModuleCache
 * as the real one's (4.17) is written.
 */
function importXRepo() {
  const root = makeWarmRepo('mcp-gates-warm-import-x-');
  fs.rmSync(path.join(root, 'src'), { recursive: true });
  const plugin = 'node_modules/eslint-plugin-import-x';
  write(
    root,
    `${plugin}/package.json`,
    '{"name":"eslint-plugin-import-x","version":"4.17.1","type":"module","exports":"./lib/index.js"}\n',
  );
  write(
    root,
    `${plugin}/lib/utils/module-cache.js`,
    `export class ModuleCache {
  constructor(map = new Map()) { this.map = map; }
  set(cacheKey, result) {
    this.map.set(cacheKey, { result, lastSeen: process.hrtime() });
    return result;
  }
  get(cacheKey, settings) {
    const cache = this.map.get(cacheKey);
    if (cache) {
      if (process.hrtime(cache.lastSeen)[0] < settings.lifetime) return cache.result;
    }
  }
}
`,
  );
  write(
    root,
    `${plugin}/lib/index.js`,
    `import fs from 'node:fs';
import path from 'node:path';
import { ModuleCache } from './utils/module-cache.js';
const cache = new ModuleCache();
const unresolved = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    return {
      ImportDeclaration(node) {
        const key = path.dirname(context.filename) + '\\0' + node.source.value;
        let found = cache.get(key, { lifetime: 30 });
        if (found === undefined)
          found = cache.set(key, fs.existsSync(path.resolve(path.dirname(context.filename), node.source.value)));
        if (!found) context.report({ node, message: 'unresolved import' });
      },
    };
  },
};
export default { rules: { unresolved } };
`,
  );
  write(
    root,
    'eslint.config.js',
    `import importX from 'eslint-plugin-import-x';
export default [
  { ignores: ['node_modules/', '*.js'] },
  { files: ['src/**/*.js'], plugins: { 'import-x': importX }, rules: { 'import-x/unresolved': 'error' } },
];
`,
  );
  write(root, 'src/shared.js', 'export const shared = 1;\n');
  for (let index = 0; index < FILES; index++)
    write(
      root,
      `src/f${index}.js`,
      `import { shared } from './shared.js';\nexport const f${index} = shared;\n`,
    );
  return root;
}

describe('warm gates: per-file incremental lint (ESLint)', function () {
  this.timeout(180000);
  const env = gateEnv();
  let pool;
  beforeEach(() => {
    pool = new WarmPool();
  });
  afterEach(() => pool.close());
  after(cleanupTemporary);

  /** Runs warm and cold; asserts they agree and returns the warm result. */
  let last;
  const warmEqualsCold = async (root) => (last = await warmAndCold(pool, root, ARGV, env)).warm;
  /** The last call again on its unchanged tree, whose cold answer is that call's. */
  const repeatOfLast = async () => (last = await warmRepeat(pool, last)).warm;

  // A rule that takes a while on each file, asleep (no clock read: its result stays keepable;
  // no core spun on a shared machine), so a call over every file lasts long enough to be
  // cancelled mid-run.
  const SLOW = 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30);';
  const editAll = (root, version) => {
    for (let index = 0; index < FILES; index++)
      write(root, `src/f${index}.js`, `export const f${index} = ${index + version};\n`);
  };

  /**
   * Every file edited, then a call cancelled 300 ms in, whose worker says it finishes the call
   * for the next one. Under load the call can end before the cancel (its worker has the other
   * core while this process's timer waits): that is no cancelled call, so the files are
   * edited again and the cancel comes sooner.
   */
  const editAllAndCancel = async (root, version) => {
    for (const [attempt, after] of [300, 100, 30].entries()) {
      editAll(root, version + attempt);
      const controller = new AbortController();
      const call = pool.run({ root, argv: ARGV, timeoutMs: 90000, env, signal: controller.signal });
      const timer = setTimeout(() => controller.abort(), after);
      const cancelled = await call;
      clearTimeout(timer);
      if (cancelled.kind === 'ran') continue;
      expect(cancelled).to.include({ kind: 'failed', end: 'cancelled' });
      expect(cancelled.reason).to.match(/finishes the check for the next call/);
      return;
    }
    expect.fail('every call ended before its cancel');
  };

  it('a cancelled call is finished by its worker, and the next call starts from it', async () => {
    const root = incrementalRepo(SLOW);
    await warmEqualsCold(root);
    const [pid] = pool.workerPids();
    await editAllAndCancel(root, 100);
    write(root, 'src/f3.js', 'export const f3 = "BAD";\n');
    const next = await warmEqualsCold(root);
    expect(next.startedWorker, next.restartedBecause).to.equal(false);
    expect(pool.workerPids()).to.deep.equal([pid]);
    expect(next.incremental).to.deep.equal({ kept: FILES - 1, checked: 1 });
  });

  it('answers the call that waited behind a cancelled one with a fresh worker when the cancelled call ends stale', async () => {
    // Issue 30's resolver differential (WARM_SEED=30001): an edit landed while the worker
    // finished a cancelled call, the call's end found an input changed and the pool stopped
    // the worker; the next call, queued on it meanwhile, failed ("the warm eslint worker was
    // stopped") and its gate ran cold. Here the cancelled call ends stale for certain: f11.js's
    // lint waits for go.txt, written once the worker has said it finishes the call refusing
    // effects, and then writes.
    const root = incrementalRepo(
      `if (context.filename.endsWith('f11.js')) { while (!fs.existsSync('go.txt')) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10); if (fs.readFileSync('go.txt', 'utf8') === 'write') fs.writeFileSync('f11.out', 'x'); } else { ${SLOW} }`,
    );
    write(root, 'go.txt', 'go');
    await warmEqualsCold(root);
    fs.rmSync(path.join(root, 'go.txt'));
    await editAllAndCancel(root, 100);
    const next = pool.run({ root, argv: ARGV, timeoutMs: 90000, env });
    write(root, 'go.txt', 'write');
    const answer = await next;
    expect(answer.kind, answer.reason).to.equal('ran');
    expect(answer.startedWorker).to.equal(true);
    expect(answer.restartedBecause).to.match(/refused a write/);
    write(root, 'go.txt', 'go');
    fs.rmSync(path.join(root, 'f11.out'));
    await warmEqualsCold(root);
  });

  it('refuses a write that a call abandoned by its caller makes later, and does not keep its worker', async () => {
    // The rule leaves a timer behind on f9.js that writes beside it a second later.
    const out = (root) => path.join(root, 'src/f9.js.out');
    const root = incrementalRepo(
      `${SLOW} const file = context.filename; if (file.endsWith('f9.js')) setTimeout(() => fs.writeFileSync(file + '.out', 'x'), 1000);`,
    );
    await pool.run({ root, argv: ARGV, timeoutMs: 90000, env });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    fs.rmSync(out(root), { force: true });
    editAll(root, 100);
    const timedOut = await pool.run({ root, argv: ARGV, timeoutMs: 300, env });
    expect(timedOut).to.include({ kind: 'failed', end: 'timed-out' });
    expect(timedOut.reason).to.match(/finishes the check for the next call/);
    // Taken now: the first call's worker may have been replaced (its timer wrote between calls).
    const [pid] = pool.workerPids();
    // The timer's write is refused: the worker goes (the error is uncaught).
    const deadline = Date.now() + 10000;
    while (pool.workerPids().includes(pid) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fs.existsSync(out(root)), 'written while no call watched').to.equal(false);
    const next = await pool.run({ root, argv: ARGV, timeoutMs: 90000, env });
    expect(next).to.include({ kind: 'ran', startedWorker: true });
    expect(next.restartedBecause).to.match(/refused a write/);
    expect(pool.workerPids()).to.not.include(pid);
  });

  it('lints again only the edited, added and renamed files, and answers as cold', async () => {
    const root = incrementalRepo();
    const first = await warmEqualsCold(root);
    expect(first.incremental).to.deep.equal({ kept: 0, checked: FILES });

    write(root, 'src/f3.js', 'export const f3 = "BAD";\n');
    const edited = await warmEqualsCold(root);
    expect(edited.exitCode).to.equal(1);
    expect(edited.incremental).to.deep.equal({ kept: FILES - 1, checked: 1 });

    write(root, 'src/new.js', 'const unused = 1;\n');
    const added = await warmEqualsCold(root);
    expect(added.incremental).to.deep.equal({ kept: FILES, checked: 1 });

    // The same text under another name is another file's lint.
    fs.renameSync(path.join(root, 'src/f5.js'), path.join(root, 'src/g5.js'));
    const renamed = await warmEqualsCold(root);
    expect(renamed.incremental).to.deep.equal({ kept: FILES, checked: 1 });

    // Back to a text linted before: its kept result answers.
    write(root, 'src/f3.js', 'export const f3 = 3;\n');
    const reverted = await warmEqualsCold(root);
    expect(reverted.exitCode).to.equal(0); // new.js's unused variable is only a warning
    expect(reverted.incremental).to.deep.equal({ kept: FILES + 1, checked: 0 });
  });

  it("reads a kept file's text again after a same-size rewrite whose mtime was set back", async () => {
    // ESLint's read of a file whose bytes are unchanged is answered from the text it read
    // before: the rewrite below keeps size and mtime (a whole second, set back), and only
    // its ctime and content tell it apart.
    const root = incrementalRepo();
    const file = path.join(root, 'src/f3.js');
    const mtime = new Date(Math.floor(Date.now() / 1000) * 1000 - 60000);
    fs.utimesSync(file, mtime, mtime);
    // Older than the racy window when first read: its signature may come from its stat.
    await new Promise((resolve) => setTimeout(resolve, 2200));
    const warm = () => pool.run({ root, argv: ARGV, timeoutMs: 90000, env });
    await warm();
    write(root, 'src/f5.js', 'export const f5 = 55;\n');
    const other = await warm();
    expect(other.incremental).to.deep.equal({ kept: FILES - 1, checked: 1 });
    const before = fs.readFileSync(file, 'utf8');
    const rewritten = 'export let BAD = 3;'.padEnd(before.length - 1) + '\n';
    expect(rewritten.length).to.equal(before.length);
    fs.writeFileSync(file, rewritten);
    fs.utimesSync(file, mtime, mtime);
    expect(fs.statSync(file).mtimeMs).to.equal(mtime.getTime());
    const edited = await warmEqualsCold(root);
    expect(edited.exitCode).to.equal(1);
    expect(edited.incremental).to.deep.equal({ kept: FILES - 1, checked: 1 });
  });

  it('keeps the suppressed messages of a kept file as the cold run reports them', async () => {
    const root = incrementalRepo();
    write(
      root,
      'src/f0.js',
      '/* eslint-disable local/rule -- kept on purpose */\nexport const f0 = "BAD";\n',
    );
    await warmEqualsCold(root);
    write(root, 'src/f1.js', 'export const f1 = "BAD";\n');
    const warm = await warmEqualsCold(root);
    expect(warm.incremental).to.deep.equal({ kept: FILES - 1, checked: 1 });
    const report = JSON.parse(warm.stdout);
    const f0 = report.find((result) => result.filePath.endsWith(`${path.sep}f0.js`));
    expect(f0.suppressedMessages.map((message) => message.ruleId)).to.deep.equal(['local/rule']);
  });

  it('lints every file again when anything a file lint read changes', async () => {
    // Every file's lint reads data/banned.txt: an edit there changes every answer.
    const root = incrementalRepo(
      `if (context.sourceCode.text.includes(fs.readFileSync('data/banned.txt', 'utf8').trim())) context.report({ node, message: 'banned' });`,
    );
    write(root, 'data/banned.txt', 'nothing-matches\n');
    await warmEqualsCold(root);
    write(root, 'data/banned.txt', 'export\n');
    const warm = await warmEqualsCold(root);
    expect(warm.exitCode).to.equal(1);
    expect(warm.incremental.checked).to.equal(FILES);
    expect(warm.incremental.kept).to.equal(0);
    expect(warm.incremental.droppedBecause).to.match(/data\/banned\.txt/);
  });

  it('answers as cold when a rule read a file once and kept it for every later file', async () => {
    // Read while linting the first file only, then kept in memory: no other file's lint
    // reads it again, so only dropping every kept result (and the worker) is sound.
    const root = incrementalRepo(
      `kept ??= fs.readFileSync('data/banned.txt', 'utf8').trim(); if (context.sourceCode.text.includes(kept)) context.report({ node, message: 'banned' });`,
    );
    write(root, 'data/banned.txt', 'nothing-matches\n');
    await warmEqualsCold(root);
    write(root, 'src/f2.js', 'export const f2 = 22;\n');
    await warmEqualsCold(root);
    write(root, 'data/banned.txt', 'export\n');
    const warm = await warmEqualsCold(root);
    expect(warm.exitCode).to.equal(1);
  });

  it('answers as cold when two rules read one file far below them, one keeping it and one reading it each time', async () => {
    // A resolver's pipeline is as deep (enhanced-resolve: up to 230 frames for a package
    // with exports): what tells the rule that keeps its read from the one that reads each
    // time lies below all of it, and a reader cut short of it would make them one reader,
    // which asks again each time.
    const root = incrementalRepo();
    localPlugin(
      root,
      'deep',
      `import fs from 'node:fs';
const readDeep = (depth) => (depth === 0 ? fs.readFileSync('data/banned.txt', 'utf8').trim() : readDeep(depth - 1));
let kept;
const rule = (check) => ({ meta: { type: 'problem', schema: [] }, create: (context) => ({ Program: (node) => check(context, node) }) });
export default {
  rules: {
    rule: rule((context, node) => {
      kept ??= readDeep(300);
      if (context.sourceCode.text.includes(kept)) context.report({ node, message: 'banned' });
    }),
    fresh: rule(() => readDeep(300)),
  },
};
`,
    );
    const config = path.join(root, 'eslint.config.js');
    fs.writeFileSync(
      config,
      fs
        .readFileSync(config, 'utf8')
        .replace("'local/rule': 'error'", "'local/rule': 'error', 'local/fresh': 'error'"),
    );
    write(root, 'data/banned.txt', 'nothing-matches\n');
    await warmEqualsCold(root);
    write(root, 'data/banned.txt', 'export\n');
    const warm = await warmEqualsCold(root);
    expect(warm.exitCode).to.equal(1);
  });

  it('lints again every time a file whose lint read the clock', async () => {
    const root = incrementalRepo(`if (context.filename.endsWith('f2.js')) performance.now();`);
    await warmEqualsCold(root);
    write(root, 'src/f4.js', 'export const f4 = "BAD";\n');
    const warm = await warmEqualsCold(root);
    // f4 (edited) and f2 (read the clock) are linted again; the result says f2 is linted
    // again on every call, and why.
    expect(warm.incremental).to.deep.equal({
      kept: FILES - 2,
      checked: 2,
      relintedBecause: [
        `src${path.sep}f2.js: it used the current time (performance.now) in ${path.join(fs.realpathSync(root), 'eslint.config.js')}`,
      ],
    });
    // The clock read makes the whole answer one that is never reused either.
    const again = await warmEqualsCold(root);
    expect(again.reused).to.equal(false);
    expect(again.notReusedBecause).to.match(/performance\.now/);
  });

  it('answers the call after a lint printed from a fresh worker (a print may be once per process)', async () => {
    const root = incrementalRepo(
      `if (context.filename.endsWith('f1.js')) console.error('rule says hello');`,
    );
    await warmEqualsCold(root);
    write(root, 'src/f4.js', 'export const f4 = "BAD";\n');
    const warm = await warmEqualsCold(root);
    expect(warm.stderr).to.include('rule says hello');
    expect(warm.startedWorker).to.equal(true);
    expect(warm.restartedBecause).to.match(/printed while linting/);
    expect(warm.incremental).to.deep.equal({
      kept: 0,
      checked: FILES,
      relintedBecause: [`src${path.sep}f1.js: a rule or plugin printed while linting it`],
    });
  });

  it('starts over when the config changes', async () => {
    const root = incrementalRepo();
    await warmEqualsCold(root);
    write(
      root,
      'eslint.config.js',
      configWithRule().replace("'no-unused-vars': 'warn'", "'no-unused-vars': 'error'"),
    );
    write(root, 'src/f6.js', 'const unused = 6;\n');
    const warm = await warmEqualsCold(root);
    expect(warm.exitCode).to.equal(1);
    expect(warm.incremental).to.deep.equal({ kept: 0, checked: FILES });
  });

  /**
   * After a body edit of src/f3.js (which imports ./shared.js), only it is linted again of
   * the `files`, and a repeat is reused.
   */
  async function keepsAllButAnEdit(root, files) {
    write(
      root,
      'src/f3.js',
      "import { shared } from './shared.js';\nexport const f3 = shared + 3;\n",
    );
    const edited = await warmEqualsCold(root);
    expect(edited.incremental).to.deep.equal({ kept: files - 1, checked: 1 });
    const repeat = await repeatOfLast();
    expect(repeat.reused, repeat.notReusedBecause).to.equal(true);
  }

  it('keeps the files whose imports met the memo, reuses a repeat, and answers as cold when a resolution changes', async () => {
    const root = importXRepo();
    const files = FILES + 1; // and shared.js
    const first = await warmEqualsCold(root);
    expect(first.incremental).to.deep.equal({ kept: 0, checked: files });

    await keepsAllButAnEdit(root, files);

    // What every file's import resolves to changes: a memo kept from the last call would
    // still say it resolves; the cold run reports every import.
    fs.rmSync(path.join(root, 'src/shared.js'));
    const removed = await warmEqualsCold(root);
    expect(removed.exitCode).to.equal(1);
    expect(JSON.parse(removed.stdout).filter((result) => result.errorCount === 1)).to.have.length(
      FILES,
    );
  });

  /**
   * incrementalRepo with the package `name`@`version` in its node_modules (installed from
   * npm once, into the temp directory); undefined when npm cannot be reached.
   */
  async function incrementalRepoWith(name, version) {
    const prefix = path.join(os.tmpdir(), `mcp-gates-test-${name}-${version}`);
    if (!isCompleteInstall(prefix) && (await npmInstallInto(prefix, [`${name}@${version}`])))
      return undefined;
    const root = incrementalRepo();
    fs.symlinkSync(
      path.join(prefix, 'node_modules', name),
      path.join(root, 'node_modules', name),
      'junction',
    );
    return root;
  }

  /**
   * A repository linted with the real eslint-plugin-n@18.3.0 (installed from npm once; vite
   * lints with it): its rules look up each file's package.json and whether each import's
   * target exists through memos that expire 5 seconds after their last use, by Date.now.
   * Every src file imports ./shared.js; f0 imports chai too, which package.json does not
   * list. Undefined (the case skipped) when npm cannot be reached.
   */
  async function pluginNRepo() {
    const root = await incrementalRepoWith('eslint-plugin-n', '18.3.0');
    if (!root) return undefined;
    write(
      root,
      'eslint.config.js',
      `import n from 'eslint-plugin-n';
export default [
  { ignores: ['node_modules/', '*.js'] },
  { files: ['src/**/*.js'], plugins: { n }, rules: { 'n/no-missing-import': 'error', 'n/no-extraneous-import': 'error' } },
];
`,
    );
    write(root, 'src/shared.js', 'export const shared = 1;\n');
    for (let index = 0; index < FILES; index++)
      write(
        root,
        `src/f${index}.js`,
        `${index === 0 ? "import 'chai';\n" : ''}import { shared } from './shared.js';\nexport const f${index} = shared;\n`,
      );
    return root;
  }

  it('keeps the files whose package.json and imports the real eslint-plugin-n finds the same, and answers as cold when they change', async function () {
    // vite: each file's lint met eslint-plugin-n's memos, aged by Date.now, so every one of
    // its 1,340 files was linted again on every call.
    const root = await pluginNRepo();
    if (!root) this.skip(); // reason: the npm registry cannot be reached from this machine.
    const files = FILES + 1; // and shared.js
    const first = await warmEqualsCold(root);
    expect(messagesOf(first)).to.deep.equal(['f0.js: "chai" is extraneous.']);
    await keepsAllButAnEdit(root, files);

    // What the memos held changes: package.json now lists chai, then the import target goes.
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    manifest.dependencies = { chai: '*' };
    write(root, 'package.json', `${JSON.stringify(manifest, null, 2)}\n`);
    const listed = await warmEqualsCold(root);
    expect(messagesOf(listed)).to.deep.equal([]);
    fs.rmSync(path.join(root, 'src/shared.js'));
    const removed = await warmEqualsCold(root);
    expect(messagesOf(removed)).to.have.length(FILES);
    expect(messagesOf(removed)[0]).to.match(/^f\d+\.js: Can't resolve '\.\/shared\.js'/);
  });

  it('reuses a repeat after a call in which a plugin first loaded its native addon', async () => {
    // A stand-in plugin whose rule, first used in a call, requires a module that loads a
    // native addon (mcp-gates' own, copied) from its top level a few calls deep, as
    // unrs-resolver's index.js does for eslint-plugin-import-x: a package initialising.
    const root = incrementalRepo();
    write(
      root,
      'node_modules/eslint-plugin-lazy-native/native.cjs',
      "function requireNative() { return load(); }\nfunction load() { return again(); }\nfunction again() { return require('./addon.node'); }\nmodule.exports = { loaded: typeof requireNative() };\n",
    );
    localPlugin(
      root,
      'lazy-native',
      `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const rule = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    return { Program(node) { if (require('./native.cjs').loaded !== 'object') context.report({ node, message: 'no addon' }); } };
  },
};
export default { rules: { rule } };
`,
      { addon: true },
    );
    const first = await warmEqualsCold(root);
    expect(first.exitCode).to.equal(0);
    const repeat = await repeatOfLast();
    expect(repeat.reused, repeat.notReusedBecause).to.equal(true);
  });

  it('never reuses a run whose rule called into a native addon (its reads are not seen), though loading it is allowed', async () => {
    // unrs-resolver, which eslint-plugin-import-x and eslint-import-resolver-typescript call to
    // resolve imports, reads the disk from C++ and keeps its own cache: a run that asked it
    // may depend on files no fingerprint covers. Stand-in: a rule calling mcp-gates' addon.
    const root = incrementalRepo();
    localPlugin(
      root,
      'calls-native',
      `import { createRequire } from 'node:module';
const addon = createRequire(import.meta.url)('./addon.node');
const rule = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    return { Program(node) { if (typeof addon.state() !== 'string') context.report({ node, message: 'no state' }); } };
  },
};
export default { rules: { rule } };
`,
      { addon: true },
    );
    const first = await warmEqualsCold(root);
    expect(first.exitCode).to.equal(0);
    const repeat = await repeatOfLast();
    expect(repeat.reused, 'a run that called a native addon is reused').to.equal(false);
    expect(repeat.notReusedBecause).to.match(/native addon addon\.node/);
  });

  /**
   * A repository whose local plugin resolves each import through the real
   * unrs-resolver@1.11.1 (installed from npm once), with a resolver made when the plugin
   * loads from `options`, and reports where each led: `resolved <path from the root>` or
   * `unresolved <specifier>`; `extra` runs for each import too. Undefined (the case
   * skipped) when npm cannot be reached.
   */
  async function unrsRepo({ options = "{ extensions: ['.js'] }", extra = '' } = {}) {
    const root = await incrementalRepoWith('unrs-resolver', '1.11.1');
    if (!root) return undefined;
    localPlugin(
      root,
      'resolves',
      `import path from 'node:path';
import { ResolverFactory } from 'unrs-resolver';
const resolver = new ResolverFactory(${options});
const rule = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    return {
      ImportDeclaration(node) {
        const found = resolver.sync(path.dirname(context.filename), node.source.value);
        const message = found.error ? 'unresolved ' + node.source.value : 'resolved ' + path.relative(context.cwd, found.path);
        context.report({ node, message });
        ${extra}
      },
    };
  },
};
export default { rules: { rule } };
`,
    );
    return root;
  }

  /** The messages of a JSON report, as `file: message`, file by its name. */
  const messagesOf = (result) =>
    JSON.parse(result.stdout).flatMap((file) =>
      file.messages.map((message) => `${path.basename(file.filePath)}: ${message.message}`),
    );

  it('a native resolver (the real unrs-resolver) reads the tree anew in every call: a file created since resolves, as cold', async function () {
    // unrs-resolver keeps file stats for its instance's life: a module missing at the first
    // call stayed missing in the worker after it was created (warm: "unresolved", cold: clean).
    const root = await unrsRepo();
    if (!root) this.skip(); // reason: the npm registry cannot be reached from this machine.
    write(root, 'src/f0.js', "import { later } from './later.js';\nexport const f0 = later;\n");
    const missing = await warmEqualsCold(root);
    expect(messagesOf(missing)).to.deep.equal(['f0.js: unresolved ./later.js']);
    write(root, 'src/later.js', 'export const later = 1;\n');
    const created = await warmEqualsCold(root);
    expect(messagesOf(created)).to.deep.equal([`f0.js: resolved ${path.join('src', 'later.js')}`]);
    expect(created.startedWorker, created.restartedBecause).to.equal(false);
  });

  it('keeps the files whose imports a native resolver (the real unrs-resolver) answers the same, and reuses a repeat', async function () {
    // vuejs/core: eslint-plugin-import-x resolves every import through unrs-resolver; a
    // call into it was not replayable, so every file with an import was linted every call.
    const root = await unrsRepo();
    if (!root) this.skip(); // reason: the npm registry cannot be reached from this machine.
    write(root, 'src/shared.js', 'export const shared = 1;\n');
    for (let index = 0; index < 4; index++)
      write(
        root,
        `src/f${index}.js`,
        `import { shared } from './shared.js';\nexport const f${index} = shared;\n`,
      );
    const first = await warmEqualsCold(root);
    expect(first.incremental).to.deep.equal({ kept: 0, checked: FILES + 1 });
    write(root, 'src/f7.js', 'export const f7 = 77;\n');
    const edited = await warmEqualsCold(root);
    expect(edited.incremental).to.deep.equal({ kept: FILES, checked: 1 });
    const repeat = await repeatOfLast();
    expect(repeat.reused, repeat.notReusedBecause).to.equal(true);
  });

  it('lints again, as cold, the files whose imports a native resolver answers otherwise: a target created, renamed, a package.json exports or tsconfig paths changed', async function () {
    const root = await unrsRepo({
      // A tsconfig*.json edit restarts the worker (a config file): another name shows
      // the resolution's own question answering the paths change.
      options:
        "{ extensions: ['.js'], tsconfig: { configFile: path.resolve('config/paths.json') } }",
    });
    if (!root) this.skip(); // reason: the npm registry cannot be reached from this machine.
    const tsconfig = (target) =>
      write(
        root,
        'config/paths.json',
        JSON.stringify({ compilerOptions: { baseUrl: '..', paths: { '@lib/*': [target] } } }),
      );
    tsconfig('src/one/*');
    write(root, 'src/one/x.js', 'export const x = 1;\n');
    write(root, 'src/two/x.js', 'export const x = 2;\n');
    const exportsOf = (target) =>
      write(
        root,
        'node_modules/dep/package.json',
        JSON.stringify({ name: 'dep', exports: { './sub': target } }),
      );
    exportsOf('./a.js');
    write(root, 'node_modules/dep/a.js', 'export const sub = 1;\n');
    write(root, 'node_modules/dep/b.js', 'export const sub = 2;\n');
    // Not linted: only the resolver reads data/ (a file ESLint lints once and that then
    // goes restarts the worker, which may keep it: worker-main.ts).
    write(root, 'src/f0.js', "import later from '../data/later.json';\nexport const f0 = later;\n");
    write(root, 'src/f1.js', "import { sub } from 'dep/sub';\nexport const f1 = sub;\n");
    write(root, 'src/f2.js', "import { x } from '@lib/x.js';\nexport const f2 = x;\n");
    const said = (result) => messagesOf(result).filter((message) => /^f[012]\.js/.test(message));
    const first = await warmEqualsCold(root);
    expect(said(first)).to.deep.equal([
      'f0.js: unresolved ../data/later.json',
      `f1.js: resolved ${path.join('node_modules', 'dep', 'a.js')}`,
      `f2.js: resolved ${path.join('src', 'one', 'x.js')}`,
    ]);

    /** Each change: the warm answer is the cold one, and the kept results went because of it. */
    const changed = async (specifier, message) => {
      const warm = await warmEqualsCold(root);
      expect(warm.startedWorker, warm.restartedBecause).to.equal(false);
      expect(warm.incremental.droppedBecause).to.include(`the resolution of ${specifier} from`);
      expect(said(warm)).to.include(message);
    };
    write(root, 'data/later.json', '{}\n');
    await changed('../data/later.json', `f0.js: resolved ${path.join('data', 'later.json')}`);
    fs.renameSync(path.join(root, 'data/later.json'), path.join(root, 'data/renamed.json'));
    await changed('../data/later.json', 'f0.js: unresolved ../data/later.json');
    exportsOf('./b.js');
    await changed('dep/sub', `f1.js: resolved ${path.join('node_modules', 'dep', 'b.js')}`);
    tsconfig('src/two/*');
    await changed('@lib/x.js', `f2.js: resolved ${path.join('src', 'two', 'x.js')}`);
    const repeat = await repeatOfLast();
    expect(repeat.reused, repeat.notReusedBecause).to.equal(true);
  });

  it("keeps a native resolver's synchronous answers but never replays another of its methods (an async resolution settles after the lint is kept)", async function () {
    const root = await unrsRepo({
      extra:
        "if (context.filename.endsWith('f0.js')) resolver.async(path.dirname(context.filename), node.source.value).catch(() => {});",
    });
    if (!root) this.skip(); // reason: the npm registry cannot be reached from this machine.
    for (let index = 0; index < 4; index++)
      write(
        root,
        `src/f${index}.js`,
        `import { f9 } from './f9.js';\nexport const f${index} = f9;\n`,
      );
    await warmEqualsCold(root);
    write(root, 'src/f7.js', 'export const f7 = 77;\n');
    const edited = await warmEqualsCold(root);
    expect(edited.incremental).to.deep.include({ kept: FILES - 2, checked: 2 });
    expect(edited.incremental.relintedBecause).to.have.length(1);
    expect(edited.incremental.relintedBecause[0]).to.match(
      new RegExp(
        `^src\\${path.sep}f0\\.js: it used a call into the native addon resolver\\.[\\w-]+\\.node`,
      ),
    );
    const repeat = await repeatOfLast();
    expect(repeat.reused).to.equal(false);
  });

  it('reuses a repeat after a call that imported a package drawing random tokens at its top level', async () => {
    // As brace-expansion 5 does (minimatch's, imported with the config in the first call).
    const root = incrementalRepo();
    write(
      root,
      'node_modules/random-tokens/package.json',
      '{"name":"random-tokens","type":"module","exports":"./index.js"}\n',
    );
    write(
      root,
      'node_modules/random-tokens/index.js',
      "const token = '\\0TOKEN' + Math.random() + '\\0';\nexport const escape = (text) => text.split(',').join(token).split(token).join(',');\n",
    );
    write(
      root,
      'eslint.config.js',
      `import { escape } from 'random-tokens';\n${configWithRule(`escape('a,b');`)}`,
    );
    const first = await warmEqualsCold(root);
    expect(first.exitCode).to.equal(0);
    const repeat = await repeatOfLast();
    expect(repeat.reused, repeat.notReusedBecause).to.equal(true);
  });
});

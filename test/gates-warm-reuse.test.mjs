// A warm worker returns its earlier result only when nothing that run read has changed
// (src/gates/warm/read-ledger.ts). These tests give ESLint rules that look beyond the file
// they lint (a data file, a sibling's existence, a directory listing, a child process) and
// check after every step that the warm answer equals the cold command's, and that a reused
// result is never stale. ESLint's own --cache is shown to miss the same step.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WarmPool } from '../dist/gates/warm/index.js';
import {
  cleanupTemporary,
  endedPid,
  makeTempDir,
  runModuleJson,
} from './fixtures/gates-support.mjs';
import {
  gateEnv,
  makeWarmRepo,
  runCold,
  warmAndCold,
  warmRepeat,
} from './fixtures/warm/warm-fixture.mjs';

const LEDGER = fileURLToPath(new URL('../dist/gates/warm/read-ledger.js', import.meta.url));

/** A plugin whose rules read what is not the linted file. */
const CROSS_FILE_PLUGIN = `import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
const rule = (check) => ({ meta: { type: 'problem', schema: [] }, create: (context) => ({ Program: (node) => check(context, node) }) });
export default {
  rules: {
    // Identifiers listed in data/banned.txt (one per line) are reported.
    banned: rule((context) => {
      const banned = fs.readFileSync(path.join(context.cwd, 'data', 'banned.txt'), 'utf8').split('\\n').filter(Boolean);
      for (const token of context.sourceCode.ast.tokens)
        if (token.type === 'Identifier' && banned.includes(token.value)) context.report({ loc: token.loc, message: 'banned: ' + token.value });
    }),
    // Each source needs a .md note beside it.
    documented: rule((context, node) => {
      if (!fs.existsSync(context.filename.replace(/\\.ts$/, '.md'))) context.report({ node, message: 'no note beside this file' });
    }),
    // A directory of more than 6 entries is reported.
    crowded: rule((context, node) => {
      const count = fs.readdirSync(path.dirname(context.filename)).length;
      if (count > 6) context.report({ node, message: 'crowded directory: ' + count });
    }),
    // Reads the clock (as rules that flag expired TODO dates do).
    clock: rule((context, node) => {
      if (new Date().getFullYear() > 2000) context.report({ node, message: 'past the year 2000' });
    }),
    // Asks a child process, which the ledger cannot see into.
    oracle: rule((context, node) => {
      const said = execFileSync(process.execPath, ['-e', 'process.stdout.write(require("fs").readFileSync("data/flag.txt", "utf8"))'], { cwd: context.cwd, encoding: 'utf8' });
      if (said.trim() === 'on') context.report({ node, message: 'the flag is on' });
    }),
  },
};
`;

function configWith(rules) {
  return `import tseslint from 'typescript-eslint';
import cross from 'eslint-plugin-cross';
export default [
  { ignores: ['node_modules/', 'ignored/'] },
  { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
  { plugins: { cross }, rules: ${JSON.stringify(rules)} },
];
`;
}

function crossFileRepo(rules) {
  const root = makeWarmRepo('mcp-gates-warm-reuse-');
  const plugin = path.join(root, 'node_modules', 'eslint-plugin-cross');
  fs.mkdirSync(plugin);
  fs.writeFileSync(
    path.join(plugin, 'package.json'),
    '{ "name": "eslint-plugin-cross", "version": "1.0.0", "type": "module", "main": "index.js" }\n',
  );
  fs.writeFileSync(path.join(plugin, 'index.js'), CROSS_FILE_PLUGIN);
  fs.mkdirSync(path.join(root, 'data'));
  fs.writeFileSync(path.join(root, 'data', 'banned.txt'), 'alpha\n');
  fs.writeFileSync(path.join(root, 'data', 'flag.txt'), 'off');
  fs.writeFileSync(path.join(root, 'eslint.config.js'), configWith(rules));
  return root;
}

describe('warm gates: a reused result is never stale (rules that read other files)', function () {
  this.timeout(120000);
  const env = gateEnv();
  const argv = ['eslint', 'src', '--format', 'json'];
  let pool;
  beforeEach(() => {
    pool = new WarmPool();
  });
  afterEach(() => pool.close());
  after(cleanupTemporary);

  /** The warm answer, asserted equal to the cold command's; returns it. */
  let last;
  const warmEqualsCold = async (root) =>
    (last = await warmAndCold(pool, root, argv, env, 60000)).warm;
  /** The last call again on its unchanged tree, whose cold answer is that call's. */
  const repeatOfLast = async () => (last = await warmRepeat(pool, last)).warm;
  const messages = (warm) =>
    JSON.parse(warm.stdout)
      .flatMap((result) => result.messages.map((message) => message.message))
      .sort();

  it('sees a data file, a sibling and a directory listing change; reuses only when none did', async () => {
    const root = crossFileRepo({
      'cross/banned': 'error',
      'cross/documented': 'error',
      'cross/crowded': 'error',
    });
    const first = await warmEqualsCold(root);
    expect(first.reused).to.equal(false);
    const repeat = await repeatOfLast();
    expect(repeat.reused, 'nothing changed: the earlier result').to.equal(true);

    // Same size, other content: a name that src/math.ts uses becomes banned.
    const used = fs.readFileSync(path.join(root, 'src', 'math.ts'), 'utf8').match(/\b(add)\b/);
    expect(used, 'src/math.ts uses `add`').to.not.equal(null);
    fs.writeFileSync(path.join(root, 'data', 'banned.txt'), 'add\n\n\n');
    expect(fs.statSync(path.join(root, 'data', 'banned.txt')).size).to.equal(6);
    const banned = await warmEqualsCold(root);
    expect(banned.reused).to.equal(false);
    expect(messages(banned)).to.include('banned: add');

    fs.writeFileSync(path.join(root, 'src', 'math.md'), 'a note\n');
    const documented = await warmEqualsCold(root);
    expect(documented.reused).to.equal(false);
    expect(
      messages(documented).filter((text) => text === 'no note beside this file'),
    ).to.have.length(
      messages(banned).filter((text) => text === 'no note beside this file').length - 1,
    );

    for (const extra of ['a', 'b', 'c'])
      fs.writeFileSync(path.join(root, 'src', `${extra}.txt`), '');
    const crowded = await warmEqualsCold(root);
    expect(crowded.reused).to.equal(false);
    expect(messages(crowded).some((text) => text.startsWith('crowded directory'))).to.equal(true);

    const again = await repeatOfLast();
    expect(again.reused).to.equal(true);
  });

  it('never reuses a run that asked a child process; it still follows what the child read', async () => {
    const root = crossFileRepo({ 'cross/oracle': 'error' });
    expect((await warmEqualsCold(root)).reused).to.equal(false);
    // The child reads data/flag.txt, in the root: the same tree, the same cold answer.
    expect((await repeatOfLast()).reused, 'a child process is not replayable').to.equal(false);
    fs.writeFileSync(path.join(root, 'data', 'flag.txt'), 'on');
    const flagged = await warmEqualsCold(root);
    expect(messages(flagged)).to.include('the flag is on');
  });

  it('never reuses a run that read the current time', async () => {
    const root = crossFileRepo({ 'cross/clock': 'error' });
    const first = await warmEqualsCold(root);
    expect(messages(first)).to.include('past the year 2000');
    const again = await warmEqualsCold(root);
    expect(again.reused).to.equal(false);
    expect(again.notReusedBecause).to.match(/the current time/);
  });

  it("is the step ESLint's own --cache misses", async () => {
    // Why a per-file result cache is unsound and ours looks at every read instead.
    const root = crossFileRepo({ 'cross/banned': 'error' });
    const cacheFile = path.join(makeTempDir('mcp-gates-eslintcache-'), 'cache');
    const cached = ['eslint', 'src', '--format', 'json', '--cache', '--cache-location', cacheFile];
    const before = runCold(root, cached, env);
    fs.writeFileSync(path.join(root, 'data', 'banned.txt'), 'add\n\n\n');
    const cachedAfter = runCold(root, cached, env);
    const coldAfter = runCold(root, argv, env);
    expect(coldAfter.stdout).to.include('banned: add');
    expect(cachedAfter.stdout, 'eslint --cache kept the stale answer').to.not.include(
      'banned: add',
    );
    expect(before.exitCode).to.equal(cachedAfter.exitCode);
    // The tree coldAfter ran on (the cache is outside it): its answer is the cold one.
    const warm = await pool.run({ root, argv, timeoutMs: 60000, env });
    expect(warm.kind, warm.reason).to.equal('ran');
    expect({ exitCode: warm.exitCode, stdout: warm.stdout, stderr: warm.stderr }).to.deep.equal(
      coldAfter,
    );
    expect(warm).to.have.property('reused', false);
  });
});

describe('read ledger (in a child process: it wraps fs process-wide)', function () {
  this.timeout(30000);
  after(cleanupTemporary);

  it('records every way of reading, signed before the read, and names the first change', () => {
    const directory = makeTempDir('mcp-gates-ledger-');
    const report = runModuleJson(`
      const { installReadRecording, ReadLedger, recordReads } = await import(${JSON.stringify(LEDGER)});
      installReadRecording();
      // Imported after installing, by name: ESM importers of node:fs see the recording ones.
      const { readFileSync, existsSync } = await import('node:fs');
      const fs = (await import('node:fs')).default;
      const path = await import('node:path');
      const dir = ${JSON.stringify(directory)};
      const file = (name) => path.join(dir, name);
      fs.writeFileSync(file('a.txt'), 'one');
      fs.writeFileSync(file('b.txt'), 'two');
      fs.mkdirSync(file('sub'));
      fs.symlinkSync(file('b.txt'), file('link'));
      const ledger = new ReadLedger();
      await recordReads(ledger, async () => {
        readFileSync(file('a.txt'));
        await fs.promises.readFile(file('b.txt'));
        existsSync(file('missing.txt'));
        await new Promise((resolve) => fs.readdir(file('sub'), resolve));
        fs.realpathSync.native(file('link'));
      });
      const changes = [];
      changes.push(['none', ledger.firstChange() ?? null]);
      fs.writeFileSync(file('a.txt'), 'owe');
      changes.push(['same-size content', ledger.firstChange() ?? null]);
      fs.writeFileSync(file('a.txt'), 'one');
      fs.writeFileSync(file('missing.txt'), '');
      changes.push(['appeared', ledger.firstChange() ?? null]);
      fs.rmSync(file('missing.txt'));
      fs.writeFileSync(file('sub/new.txt'), '');
      changes.push(['listing', ledger.firstChange() ?? null]);
      fs.rmSync(file('sub/new.txt'));
      fs.rmSync(file('link'));
      fs.symlinkSync(file('a.txt'), file('link'));
      changes.push(['link target', ledger.firstChange() ?? null]);
      fs.rmSync(file('link'));
      fs.symlinkSync(file('b.txt'), file('link'));
      changes.push(['restored', ledger.firstChange() ?? null]);
      // Outside a recording nothing is noted.
      readFileSync(file('b.txt'));
      process.stdout.write(JSON.stringify({ changes, size: ledger.size, reusable: ledger.notReusableBecause ?? null }));
    `);
    const change = Object.fromEntries(report.changes);
    expect(change.none).to.equal(null);
    expect(change['same-size content']).to.equal(`content ${path.join(directory, 'a.txt')}`);
    expect(change.appeared).to.equal(`stat ${path.join(directory, 'missing.txt')}`);
    expect(change.listing).to.equal(`list ${path.join(directory, 'sub')}`);
    expect(change['link target']).to.equal(`link ${path.join(directory, 'link')}`);
    expect(change.restored).to.equal(null);
    expect(report.reusable).to.equal(null);
  });

  it('sees a same-size rewrite of an old file whose mtime was set back (ctime moves)', () => {
    const directory = makeTempDir('mcp-gates-ledger-');
    const report = runModuleJson(`
      const { installReadRecording, ReadLedger, recordReads } = await import(${JSON.stringify(LEDGER)});
      installReadRecording();
      const fs = (await import('node:fs')).default;
      const file = ${JSON.stringify(path.join(directory, 'old.txt'))};
      fs.writeFileSync(file, 'alpha');
      // A whole second, so setting it back restores the very same mtime.
      const mtime = new Date(Math.floor(Date.now() / 1000) * 1000 - 60000);
      fs.utimesSync(file, mtime, mtime);
      // Older than the racy window: its hash may be remembered.
      await new Promise((resolve) => setTimeout(resolve, 2200));
      const first = new ReadLedger();
      await recordReads(first, async () => fs.readFileSync(file));
      const second = new ReadLedger();
      await recordReads(second, async () => fs.readFileSync(file));
      const unchanged = second.firstChange() ?? null;
      fs.writeFileSync(file, 'omega');
      fs.utimesSync(file, mtime, mtime);
      const sameStat = fs.statSync(file, { bigint: true }).mtimeNs === BigInt(mtime.getTime()) * 1000000n;
      process.stdout.write(JSON.stringify({ unchanged, sameStat, changed: second.firstChange() ?? null }));
    `);
    expect(report.unchanged).to.equal(null);
    expect(report.sameStat, 'the rewrite kept size and mtime').to.equal(true);
    expect(report.changed).to.equal(`content ${path.join(directory, 'old.txt')}`);
  });

  it("keeps a clock-aged memo's entry within the file lint that made it, never into another lint or call", () => {
    // eslint-plugin-n's Cache (Date.now) and eslint-plugin-import-x's ModuleCache
    // (process.hrtime), as the real ones are written, at the paths that name them.
    const directory = makeTempDir('mcp-gates-memo-');
    const write = (file, text) => {
      fs.mkdirSync(path.dirname(path.join(directory, file)), { recursive: true });
      fs.writeFileSync(path.join(directory, file), text);
    };
    write(
      'node_modules/eslint-plugin-n/lib/util/cache.js',
      `export class Cache {
  constructor() { this.map = new Map(); }
  get(key) {
    const entry = this.map.get(key);
    const now = Date.now();
    if (entry) {
      if (entry.expire > now) { entry.expire = now + 5000; return entry.value; }
      this.map.delete(key);
    }
    return null;
  }
  set(key, value) { this.map.set(key, { value, expire: Date.now() + 5000 }); }
}
`,
    );
    write(
      'node_modules/eslint-plugin-import-x/lib/utils/module-cache.js',
      `export class ModuleCache {
  constructor() { this.map = new Map(); }
  set(key, result) { this.map.set(key, { result, lastSeen: process.hrtime() }); return result; }
  get(key, settings) {
    const cache = this.map.get(key);
    if (cache && process.hrtime(cache.lastSeen)[0] < settings.lifetime) return cache.result;
  }
}
`,
    );
    write('src/target.js', '');
    const report = runModuleJson(`
      const { clockAgesMemoOnly, installReadRecording, ReadLedger, recordPartSync, recordReads } = await import(${JSON.stringify(LEDGER)});
      installReadRecording();
      clockAgesMemoOnly('eslint-plugin-n/lib/util/cache.js');
      clockAgesMemoOnly('eslint-plugin-import-x/lib/utils/module-cache.js');
      const fs = (await import('node:fs')).default;
      const dir = ${JSON.stringify(directory)};
      const { Cache } = await import(dir + '/node_modules/eslint-plugin-n/lib/util/cache.js');
      const { ModuleCache } = await import(dir + '/node_modules/eslint-plugin-import-x/lib/utils/module-cache.js');
      const target = dir + '/src/target.js';
      const cache = new Cache();
      const moduleCache = new ModuleCache();
      let reads = 0;
      // A lookup through each memo, reading the disk when the memo has no fresh entry.
      const lookUp = () => {
        let found = cache.get(target);
        if (found === null) { reads++; found = fs.existsSync(target); cache.set(target, found); }
        if (moduleCache.get(target, { lifetime: 30 }) === undefined) { reads++; moduleCache.set(target, fs.statSync(target).size); }
      };
      const asked = (ledger) => [...ledger.questions()].some(([key]) => key.endsWith(target));
      const lint = () => {
        const part = new ReadLedger();
        part.part = true;
        const before = reads;
        recordPartSync(part, () => { lookUp(); lookUp(); lookUp(); });
        return { reads: reads - before, asked: asked(part), reusable: part.notReusableBecause ?? null };
      };
      const lints = [];
      await recordReads(new ReadLedger(), async () => { lints.push(lint(), lint()); });
      await recordReads(new ReadLedger(), async () => { lints.push(lint()); });
      // Between calls (the background), then in a call outside any lint.
      lookUp();
      const call = new ReadLedger();
      const before = reads;
      await recordReads(call, async () => lookUp());
      process.stdout.write(JSON.stringify({ lints, outside: { reads: reads - before, asked: asked(call) } }));
    `);
    // Each lint reads once through each memo (its own question, recorded in it), then uses
    // the entry it made; the next lint, in the same call or the next, reads again.
    const once = { reads: 2, asked: true, reusable: null };
    expect(report.lints).to.deep.equal([once, once, once]);
    expect(report.outside).to.deep.equal({ reads: 2, asked: true });
  });

  it('marks a run that writes, opens for writing, spawns or starts a thread as not reusable', () => {
    const directory = makeTempDir('mcp-gates-ledger-');
    const report = runModuleJson(`
      const { installReadRecording, ReadLedger, recordReads } = await import(${JSON.stringify(LEDGER)});
      installReadRecording();
      const fs = (await import('node:fs')).default;
      const { spawnSync } = await import('node:child_process');
      const { Worker } = await import('node:worker_threads');
      const path = await import('node:path');
      const dir = ${JSON.stringify(directory)};
      const reasons = {};
      const attempt = async (name, work) => {
        const ledger = new ReadLedger();
        await recordReads(ledger, work);
        reasons[name] = ledger.notReusableBecause ?? null;
      };
      fs.writeFileSync(path.join(dir, 'r.txt'), 'read me');
      await attempt('reads', async () => {
        fs.readdirSync(dir);
        fs.readFileSync(path.join(dir, 'r.txt'), 'latin1');
        const fd = fs.openSync(path.join(dir, 'r.txt'));
        fs.readSync(fd, Buffer.alloc(4));
        fs.closeSync(fd);
        for await (const chunk of fs.createReadStream(path.join(dir, 'r.txt'))) void chunk;
        const handle = await fs.promises.open(path.join(dir, 'r.txt'));
        await handle.close();
      });
      const early = fs.openSync(path.join(dir, 'r.txt'));
      await attempt('descriptor opened before', async () => fs.readSync(early, Buffer.alloc(4)));
      await attempt('glob', async () => fs.globSync?.('*.txt', { cwd: dir }) ?? fs.writeFileSync(path.join(dir, 'g'), ''));
      await attempt('write', async () => fs.writeFileSync(path.join(dir, 'w.txt'), 'x'));
      await attempt('open for append', async () => fs.closeSync(fs.openSync(path.join(dir, 'w.txt'), 'a')));
      await attempt('spawn', async () => spawnSync(process.execPath, ['-e', '']));
      await attempt('thread', async () => { await new Worker('1', { eval: true }).terminate(); });
      await attempt('a fixed date', async () => new Date(0).getTime() + Date.UTC(2020, 0) + Date.parse('2020-01-01'));
      await attempt('Date.now', async () => Date.now());
      await attempt('new Date()', async () => new Date());
      await attempt('Date()', async () => Date());
      reasons.constructor = new Date(1).constructor === Date && new Date(1) instanceof Date;
      process.stdout.write(JSON.stringify(reasons));
    `);
    expect(report.reads).to.equal(null);
    expect(report['descriptor opened before']).to.match(/file descriptor opened before the call/);
    expect(report.glob).to.match(/fs\.globSync|a write/);
    expect(report.write).to.match(/a write \(fs binding writeFileUtf8 \//);
    expect(report['open for append']).to.match(/opened for writing/);
    expect(report.spawn).to.match(/child process \(spawnSync\)/);
    expect(report.thread).to.match(/worker thread/);
    expect(report['a fixed date']).to.equal(null);
    for (const clock of ['Date.now', 'new Date()', 'Date()'])
      expect(report[clock], clock).to.match(/the current time/);
    expect(report.constructor, 'Date still looks like Date').to.equal(true);
  });
});

describe("warm workers' private temp directories", function () {
  this.timeout(60000);
  after(cleanupTemporary);

  it('are swept when their worker died, kept while it lives, and removed when it is retired', async () => {
    const root = makeWarmRepo('mcp-gates-warm-private-');
    const temp = makeTempDir('mcp-gates-warm-tmp-');

    const deadPid = endedPid();
    const dead = path.join(temp, `mcp-gates-warm-${deadPid}-Ab12Cd`);
    const live = path.join(temp, `mcp-gates-warm-${process.pid}-Ef34Gh`);
    const elsewhere = makeTempDir('mcp-gates-warm-target-');
    for (const directory of [dead, live]) {
      fs.mkdirSync(directory);
      fs.writeFileSync(path.join(directory, 'prettier-cache'), '{}');
    }
    fs.symlinkSync(elsewhere, path.join(temp, `mcp-gates-warm-${deadPid}-Link99`));
    fs.writeFileSync(path.join(elsewhere, 'keep'), '');

    const pool = new WarmPool();
    const env = { ...gateEnv(), TMPDIR: temp, TMP: temp, TEMP: temp };
    const result = await pool.run({
      root,
      argv: ['prettier', '--check', 'src'],
      timeoutMs: 60000,
      env,
    });
    expect(result.kind, result.reason).to.equal('ran');
    const [pid] = pool.workerPids();
    const own = fs.readdirSync(temp).filter((name) => name.startsWith(`mcp-gates-warm-${pid}-`));
    expect(own, 'the worker made its private directory').to.have.length(1);
    expect(fs.existsSync(dead), 'a dead worker’s directory is swept').to.equal(false);
    expect(fs.existsSync(live), 'a live process’s directory stays').to.equal(true);
    expect(fs.existsSync(path.join(elsewhere, 'keep')), 'a symlink is not followed').to.equal(true);

    pool.close();
    const deadline = Date.now() + 5000;
    while (fs.existsSync(path.join(temp, own[0])) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(
      fs.existsSync(path.join(temp, own[0])),
      'a retired worker removes its directory',
    ).to.equal(false);
  });
});

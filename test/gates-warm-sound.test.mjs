// Issue 18, attacks 1-6: a warm answer equals the cold command after changes that no
// read path of the tool's own announces (data files read by a config while it loads,
// node_modules edits without an install, clocks, recursive listings, optional requires).
// Each case: warm and cold agree before and after the change, and the cold answer
// changed, so a stale warm answer would be caught.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { WarmPool } from '../dist/gates/warm/index.js';
import { cleanupTemporary } from './fixtures/gates-support.mjs';
import {
  gateEnv,
  makeWarmRepo,
  runCold,
  warmAndCold,
  warmRepeat,
} from './fixtures/warm/warm-fixture.mjs';

const write = (root, file, text) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};

/** A flat config for src/**\/*.js with one inline rule whose body is `check` (a function body of (context, node)). */
function configWithRule({ prelude = '', check }) {
  return `import fs from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
${prelude}
const rule = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    return { Program(node) { ${check} } };
  },
};
export default [
  { ignores: ['node_modules/', 'ignored/'] },
  { files: ['src/**/*.js'], plugins: { attack: { rules: { rule } } }, rules: { 'attack/rule': 'error' } },
];
`;
}

/** A fixture repository with plain JS sources and `config` as its eslint.config.js. */
function attackRepo(config) {
  const root = makeWarmRepo('mcp-gates-warm-sound-');
  fs.rmSync(path.join(root, 'src'), { recursive: true });
  write(root, 'src/a.js', 'export const a = 1;\n');
  write(root, 'src/b.js', 'export const b = 2;\n');
  write(root, 'eslint.config.js', config);
  return root;
}

/** A fixture repository with plain JS sources and `prettierrc` as its .prettierrc.json. */
function prettierRepo(prettierrc) {
  const root = attackRepo(configWithRule({ check: '' }));
  write(root, '.prettierrc.json', prettierrc);
  return root;
}

/** A repository whose prettier.config.mjs reads shared.json (`{ "semi": true }`) when it loads. */
function sharedConfigRepo() {
  const root = attackRepo(configWithRule({ check: '' }));
  fs.rmSync(path.join(root, '.prettierrc.json'));
  write(
    root,
    'prettier.config.mjs',
    `import fs from 'node:fs';\nexport default JSON.parse(fs.readFileSync(new URL('./shared.json', import.meta.url), 'utf8'));\n`,
  );
  write(root, 'shared.json', '{ "semi": true }\n');
  return root;
}

describe('warm gates: sound by construction (issue 18 attacks 1-6, and 12)', function () {
  this.timeout(180000);
  const env = gateEnv();
  let pool;
  beforeEach(() => {
    pool = new WarmPool();
  });
  afterEach(() => pool.close());
  after(cleanupTemporary);

  const warmEqualsCold = (root, argv) => warmAndCold(pool, root, argv, env);
  const lint = ['eslint', 'src', '--format', 'json'];

  it('1: a data file eslint.config.js reads while it loads is an input', async () => {
    const root = attackRepo(
      configWithRule({
        prelude: `const banned = fs.readFileSync(new URL('./banned.json', import.meta.url), 'utf8');`,
        check: `if (JSON.parse(banned).some((name) => context.sourceCode.text.includes(name))) context.report({ node, message: 'banned name' });`,
      }),
    );
    write(root, 'banned.json', '["zzz"]\n');
    const first = await warmEqualsCold(root, lint);
    expect(first.cold.exitCode).to.equal(0);
    await warmRepeat(pool, first); // a warm worker that has served twice
    write(root, 'banned.json', '["b ="]\n');
    const after = await warmEqualsCold(root, lint);
    expect(after.cold.exitCode, 'the edit makes the cold run fail').to.equal(1);
  });

  it('2: a shared JSON prettier.config.mjs reads while it loads is an input', async () => {
    const root = sharedConfigRepo();
    const check = ['prettier', '--check', 'src'];
    const first = await warmEqualsCold(root, check);
    expect(first.cold.exitCode).to.equal(0);
    await warmRepeat(pool, first);
    write(root, 'shared.json', '{ "semi": false }\n');
    expect((await warmEqualsCold(root, check)).cold.exitCode).to.equal(1);
  });

  it('2: the shared JSON is an input of results computed after it was read (a later run that did not read it again)', async () => {
    // Found by gates-warm-differential.test.mjs (seed 18062): prettier keeps its loaded
    // config, so a run after a source edit does not read shared.json; its result was then
    // reused after shared.json changed.
    const root = sharedConfigRepo();
    const check = ['prettier', '--check', 'src'];
    expect((await warmEqualsCold(root, check)).cold.exitCode).to.equal(0);
    write(root, 'src/a.js', 'export const a = 3;\n');
    const second = await warmEqualsCold(root, check);
    expect(second.warm.startedWorker, 'the source edit is served by the same worker').to.equal(
      false,
    );
    write(root, 'shared.json', '{ "semi": false }\n');
    expect((await warmEqualsCold(root, check)).cold.exitCode).to.equal(1);
  });

  it('3: a package in node_modules changing its "types" without an install is seen by tsc', async () => {
    const root = makeWarmRepo('mcp-gates-warm-sound-');
    const pkg = path.join('node_modules', 'shifting-types');
    write(root, path.join(pkg, 'number.d.ts'), 'export declare const x: number;\n');
    write(root, path.join(pkg, 'string.d.ts'), 'export declare const x: string;\n');
    write(
      root,
      path.join(pkg, 'package.json'),
      '{ "name": "shifting-types", "version": "1.0.0", "types": "number.d.ts" }\n',
    );
    write(
      root,
      'src/uses-types.ts',
      "import { x } from 'shifting-types';\nexport const y: number = x;\n",
    );
    const tsc = ['tsc', '--noEmit', '--pretty', 'false'];
    const before = await warmEqualsCold(root, tsc);
    await warmRepeat(pool, before);
    write(
      root,
      path.join(pkg, 'package.json'),
      '{ "name": "shifting-types", "version": "1.0.0", "types": "string.d.ts" }\n',
    );
    const after = await warmEqualsCold(root, tsc);
    expect(after.cold.stdout).to.include('TS2322');
    expect(before.cold.stdout).to.not.include('uses-types');
  });

  for (const [name, expression] of [
    ['performance.timeOrigin + performance.now()', 'performance.timeOrigin + performance.now()'],
    ['Intl.DateTimeFormat().format()', 'Date.parse(new Intl.DateTimeFormat("en-US").format())'],
    ['process.hrtime.bigint()', 'Number(process.hrtime.bigint() / 1000000n)'],
  ]) {
    it(`4: a rule reading the clock through ${name} is never reused`, async () => {
      const root = attackRepo(
        configWithRule({
          check: `if (${expression} > Date.UTC(2100, 0)) context.report({ node, message: 'expired' });`,
        }),
      );
      await warmEqualsCold(root, lint);
      const again = await pool.run({ root, argv: lint, timeoutMs: 90000, env });
      expect(again.reused).to.equal(false);
      expect(again.notReusedBecause).to.match(/the current time/);
    });
  }

  it('5: a recursive listing is signed all the way down', async () => {
    const root = attackRepo(
      configWithRule({
        check: `const names = fs.readdirSync('fixtures', { recursive: true }); if (!names.some((name) => name.endsWith('needed.txt'))) context.report({ node, message: 'needed.txt missing' });`,
      }),
    );
    write(root, 'fixtures/deep/down/needed.txt', 'here\n');
    const listed = await warmEqualsCold(root, lint);
    expect(listed.cold.exitCode).to.equal(0);
    const repeat = await warmRepeat(pool, listed);
    expect(repeat.warm.reused, repeat.warm.notReusedBecause).to.equal(true);
    fs.rmSync(path.join(root, 'fixtures/deep/down/needed.txt'));
    const after = await warmEqualsCold(root, lint);
    expect(after.cold.exitCode).to.equal(1);
    expect(after.warm.reused).to.equal(false);
  });

  it('6: an optional require that failed is retried when the file appears', async () => {
    const root = attackRepo(
      configWithRule({
        check: `let strict = false; try { strict = require('./optional.cjs').strict; } catch {} if (strict) context.report({ node, message: 'strict mode' });`,
      }),
    );
    const first = await warmEqualsCold(root, lint);
    expect(first.cold.exitCode).to.equal(0);
    await warmRepeat(pool, first);
    write(root, 'optional.cjs', 'module.exports = { strict: true };\n');
    expect((await warmEqualsCold(root, lint)).cold.exitCode).to.equal(1);
  });

  it('12: a warning prettier prints once per process (a deprecated option) is in every answer', async () => {
    const root = prettierRepo('{ "jsxBracketSameLine": true }\n');
    const check = ['prettier', '--check', '.'];
    const first = await warmEqualsCold(root, check);
    expect(first.cold.stderr).to.include('jsxBracketSameLine is deprecated');
    // A worker that printed it can no longer answer as the command does: it declines (the
    // gate then runs the command cold), or a fresh worker answers.
    for (let step = 0; step < 2; step++) {
      fs.appendFileSync(path.join(root, 'src/a.js'), `export const added${step} = ${step};\n`);
      const warm = await pool.run({ root, argv: check, timeoutMs: 90000, env });
      if (warm.kind === 'not-warmable') {
        expect(warm.reason).to.match(/deprecated option, which it does once per process/);
        continue;
      }
      expect(warm.startedWorker, 'answered by a worker that has not warned yet').to.equal(true);
      const cold = runCold(root, check, env);
      expect({ stdout: warm.stdout, stderr: warm.stderr }).to.deep.equal({
        stdout: cold.stdout,
        stderr: cold.stderr,
      });
    }
  });

  it('12: a rule that prints once per process (as typescript-eslint warns of an unsupported TypeScript) prints in every answer', async () => {
    const root = attackRepo(
      configWithRule({
        prelude: 'let warned = false;',
        check: `if (!warned) { warned = true; console.warn('printed once per process'); }`,
      }),
    );
    const first = await warmEqualsCold(root, lint);
    expect(first.cold.stderr).to.include('printed once per process');
    for (let step = 0; step < 2; step++) {
      fs.appendFileSync(path.join(root, 'src/a.js'), `export const added${step} = ${step};\n`);
      const { warm } = await warmEqualsCold(root, lint);
      expect(warm.startedWorker, 'answered by a worker that has not printed yet').to.equal(true);
    }
  });

  it('12: a warning prettier prints for each file it normalizes options for is printed for each file', async () => {
    // The worker keeps normalized options within a call only where normalizing printed
    // nothing; an unknown option is warned about once per file, every time.
    const root = prettierRepo('{ "unknownOption": 1 }\n');
    const check = ['prettier', '--check', 'src'];
    const first = await warmEqualsCold(root, check);
    expect(first.cold.stderr.match(/Ignored unknown option/g)).to.have.length(2);
    fs.appendFileSync(path.join(root, 'src/a.js'), 'export const added = 1;\n');
    await warmEqualsCold(root, check);
  });
});

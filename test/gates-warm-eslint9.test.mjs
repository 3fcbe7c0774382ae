// ESLint 9, the major most repositories run today, kept warm: its CLI chooses between flat
// config and eslintrc at run time and has --concurrency (worker threads), so it gets its
// own test against the cold command. ESLint 9 is installed once into the temp directory
// (fixtures/warm/tool-versions.mjs; the product's own dev dependency is ESLint 10);
// without the npm registry the test skips.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WarmPool } from '../dist/gates/warm/index.js';
import { cleanupTemporary, makeTempDir } from './fixtures/gates-support.mjs';
import { gateEnv, runCold } from './fixtures/warm/warm-fixture.mjs';
import { installTools, linkTool } from './fixtures/warm/tool-versions.mjs';

// The newest 9.x, shared with gates-warm-versions.test.mjs's installs.
const ESLINT9_VERSION = '9.39.5';

describe('warm gates: ESLint 9 (flat config) equals its cold command', function () {
  this.timeout(360000);
  const env = gateEnv();
  const argv = ['eslint', 'src', '--format', 'json'];
  let root;
  let pool;

  before(async function () {
    // reason: the fixture's node_modules/.bin/eslint is a POSIX symlink to a .js file.
    if (process.platform === 'win32') this.skip();
    const found = (await installTools([['eslint', ESLINT9_VERSION]])).get(
      `eslint@${ESLINT9_VERSION}`,
    );
    // reason: ESLint 9 comes from the npm registry, which this machine cannot reach.
    if (found.skipped) this.skip();
    root = makeTempDir('mcp-gates-warm-eslint9-');
    fs.writeFileSync(path.join(root, 'package.json'), '{ "name": "e9", "type": "module" }\n');
    fs.writeFileSync(
      path.join(root, 'eslint.config.js'),
      "export default [{ rules: { 'no-var': 'error', eqeqeq: 'error', 'no-unused-vars': 'warn' } }];\n",
    );
    fs.mkdirSync(path.join(root, 'src'));
    fs.writeFileSync(path.join(root, 'src', 'a.js'), 'export const a = 1;\n');
    fs.writeFileSync(path.join(root, 'src', 'b.js'), 'var b = 2;\nexport { b };\n');
    linkTool(root, 'eslint', found.directory);
    pool = new WarmPool();
  });
  after(() => {
    pool?.close();
    cleanupTemporary();
  });

  async function warmEqualsCold(args = argv) {
    const warm = await pool.run({ root, argv: args, timeoutMs: 60000, env });
    expect(warm.kind, warm.reason).to.equal('ran');
    const cold = runCold(root, args, env);
    expect([warm.exitCode, warm.stdout, warm.stderr]).to.deep.equal([
      cold.exitCode,
      cold.stdout,
      cold.stderr,
    ]);
    return warm;
  }

  it('runs warm (not refused for --concurrency or eslintrc options), reuses, follows an edit', async () => {
    const installed = JSON.parse(
      fs.readFileSync(path.join(root, 'node_modules', 'eslint', 'package.json'), 'utf8'),
    );
    expect(installed.version).to.equal(ESLINT9_VERSION);
    const first = await warmEqualsCold();
    expect(first.exitCode).to.equal(1);
    expect(first.stdout).to.include('no-var');
    expect((await warmEqualsCold()).reused).to.equal(true);
    fs.writeFileSync(path.join(root, 'src', 'a.js'), 'export const a = 1 == 2;\n');
    const edited = await warmEqualsCold();
    expect(edited.reused).to.equal(false);
    expect(edited.stdout).to.include('eqeqeq');
  });

  it('leaves ESLint 9 worker threads (--concurrency 2 on two files) to the cold command', async () => {
    const result = await pool.run({
      root,
      argv: [...argv, '--concurrency', '2'],
      timeoutMs: 60000,
      env,
    });
    expect(result.kind).to.equal('not-warmable');
    expect(result.reason).to.match(/--concurrency 2 runs cold: ESLint lints in worker threads/);
  });

  it('runs --concurrency warm where ESLint can start no thread (1; auto below 4 CPUs), as cold', async () => {
    // vite's lint script: `eslint --cache . --concurrency auto`.
    for (const concurrency of ['1', 'auto']) {
      const threaded = [...argv, '--concurrency', concurrency];
      if (concurrency === 'auto' && os.availableParallelism() >> 1 > 1) {
        // 4 CPUs or more: auto may start threads here, so the cold command answers.
        const result = await pool.run({ root, argv: threaded, timeoutMs: 60000, env });
        expect(result.kind).to.equal('not-warmable');
        expect(result.reason).to.match(/--concurrency auto on \d+ CPUs runs cold/);
        continue;
      }
      const first = await warmEqualsCold(threaded);
      expect(first.stdout).to.include('no-var');
      const repeat = await warmEqualsCold(threaded);
      expect(repeat.reused, repeat.notReusedBecause).to.equal(true);
    }
  });
});

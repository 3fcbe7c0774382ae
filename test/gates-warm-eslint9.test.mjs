// ESLint 9, the major most repositories run today, kept warm: its option parser and option
// translation differ from ESLint 10's (flat config must be asked for), so it gets its own
// test against the cold command. ESLint 9 is installed once into the temp directory (the
// product's own dev dependency is ESLint 10); without the npm registry the test skips.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WarmPool } from '../dist/gates/warm/index.js';
import { cleanupTemporary, makeTempDir } from './fixtures/gates-support.mjs';
import { gateEnv, runCold } from './fixtures/warm/warm-fixture.mjs';

const ESLINT9_VERSION = '9.39.2';
const ESLINT9_DIR = path.join(os.tmpdir(), `mcp-gates-test-eslint-${ESLINT9_VERSION}`);

/** The installed ESLint 9 package directory, or why there is none. */
function eslint9() {
  const directory = path.join(ESLINT9_DIR, 'node_modules', 'eslint');
  if (fs.existsSync(path.join(directory, 'package.json'))) return { directory };
  fs.mkdirSync(ESLINT9_DIR, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const install = spawnSync(
    npm,
    [
      'install',
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--prefix',
      ESLINT9_DIR,
      `eslint@${ESLINT9_VERSION}`,
    ],
    { encoding: 'utf8', timeout: 300000, shell: process.platform === 'win32' },
  );
  if (install.status !== 0 || !fs.existsSync(path.join(directory, 'package.json')))
    return {
      skipped: `npm install eslint@${ESLINT9_VERSION} failed: ${install.stderr ?? install.error}`,
    };
  return { directory };
}

describe('warm gates: ESLint 9 (flat config) equals its cold command', function () {
  this.timeout(360000);
  const env = gateEnv();
  const argv = ['eslint', 'src', '--format', 'json'];
  let root;
  let pool;

  before(function () {
    // reason: the fixture's node_modules/.bin/eslint is a POSIX symlink to a .js file.
    if (process.platform === 'win32') this.skip();
    const found = eslint9();
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
    fs.mkdirSync(path.join(root, 'node_modules', '.bin'), { recursive: true });
    fs.symlinkSync(found.directory, path.join(root, 'node_modules', 'eslint'), 'junction');
    fs.symlinkSync(
      path.join('..', 'eslint', 'bin', 'eslint.js'),
      path.join(root, 'node_modules', '.bin', 'eslint'),
    );
    pool = new WarmPool();
  });
  after(() => {
    pool?.close();
    cleanupTemporary();
  });

  async function warmEqualsCold() {
    const warm = await pool.run({ root, argv, timeoutMs: 60000, env });
    expect(warm.kind, warm.reason).to.equal('ran');
    const cold = runCold(root, argv, env);
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

  it('leaves ESLint 9 worker threads (--concurrency) to the cold command', async () => {
    const result = await pool.run({
      root,
      argv: [...argv, '--concurrency', '2'],
      timeoutMs: 60000,
      env,
    });
    expect(result.kind).to.equal('not-warmable');
    expect(result.reason).to.match(/--concurrency/);
  });
});

// What `npm pack` ships works on its own: the docs pages, no test logs, and every script npm runs in an
// installed copy (install, and prepare, which npm runs for a folder install of an unpacked
// tarball) needs only shipped files. Fast: a dry-run pack, no install.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { NPM_CLI, REPO_ROOT, cleanupTemporary, makeTempDir } from './fixtures/gates-support.mjs';

/** The files `npm pack` would put in the tarball. */
function packedFiles() {
  const pack = spawnSync(
    process.execPath,
    [NPM_CLI, 'pack', '--dry-run', '--json', '--ignore-scripts'],
    { cwd: REPO_ROOT, encoding: 'utf8' },
  );
  expect(pack.status, pack.stderr).to.equal(0);
  return JSON.parse(pack.stdout)[0].files.map((file) => file.path);
}

describe('the packed package', function () {
  this.timeout(60000);
  after(cleanupTemporary);
  before(function () {
    if (!fs.existsSync(NPM_CLI)) this.skip(); // npm-cli.js not beside this node
  });

  it('ships no test log, and the scripts npm runs in an installed copy', () => {
    const files = packedFiles();
    // Every page of docs/ the README links to ships (they are the reference), no test log.
    const pages = fs
      .readdirSync(path.join(REPO_ROOT, 'docs'))
      .filter((name) => name.endsWith('.md') && !name.startsWith('acceptance'))
      .map((name) => `docs/${name}`);
    expect(pages).to.include('docs/PROTOCOL.md');
    expect(pages.filter((page) => !files.includes(page))).to.deep.equal([]);
    expect(files.filter((file) => /^docs\/acceptance/.test(file))).to.deep.equal([]);
    const { scripts } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    // The lifecycle scripts an installed copy runs: each file they name is in the tarball.
    for (const name of ['preinstall', 'install', 'postinstall', 'prepare']) {
      for (const [file] of (scripts[name] ?? '').matchAll(/[\w./-]+\.m?js\b/g))
        expect(files, `${name}: ${scripts[name]}`).to.include(file);
    }
  });

  it('prepare does nothing in an installed copy (no src/), as a folder install runs it', () => {
    const copy = makeTempDir('mcp-gates-packed-');
    for (const file of packedFiles()) {
      fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
      fs.copyFileSync(path.join(REPO_ROOT, file), path.join(copy, file));
    }
    const before = fs.readdirSync(path.join(copy, 'dist')).sort();
    const { scripts } = JSON.parse(fs.readFileSync(path.join(copy, 'package.json'), 'utf8'));
    const prepare = spawnSync(scripts.prepare, { cwd: copy, shell: true, encoding: 'utf8' });
    expect(prepare.status, prepare.stderr).to.equal(0);
    // dist/ as shipped: not cleaned, not rebuilt (no tsc, no sources there).
    expect(fs.readdirSync(path.join(copy, 'dist')).sort()).to.deep.equal(before);
    expect(before).to.include('index.js');
  });
});

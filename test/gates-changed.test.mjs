// Changed files from git, on real temporary repositories.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { listChangedFiles } from '../dist/gates/run/changed-files.js';
import { cleanupTemporary, makeTempDir } from './fixtures/gates-support.mjs';

/** Git isolated from the machine's own config (no signing, no hooks, fixed identity). */
function gitEnv(directory) {
  return {
    ...process.env,
    GIT_CONFIG_GLOBAL: path.join(directory, '.no-global-config'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
    // Never find a repository above the temp directory.
    GIT_CEILING_DIRECTORIES: path.dirname(directory),
  };
}

function git(directory, ...args) {
  const result = spawnSync('git', args, {
    cwd: directory,
    env: gitEnv(directory),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

function write(directory, files) {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(directory, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

/** A repository on branch main with `files` committed. */
function makeGitRepo(files) {
  const directory = makeTempDir('mcp-gates-changed-');
  git(directory, 'init', '-q', '-b', 'main');
  write(directory, files);
  git(directory, 'add', '-A');
  git(directory, 'commit', '-q', '-m', 'initial');
  return directory;
}

function changed(directory, options = {}) {
  return listChangedFiles(directory, { env: gitEnv(directory), ...options });
}

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('gates changed files', () => {
  after(cleanupTemporary);

  it('lists staged, unstaged and untracked files; leaves out deleted, ignored and unchanged ones', async () => {
    const repo = makeGitRepo({
      '.gitignore': 'ignored/\n*.log\n',
      'a.ts': 'a\n',
      'b.ts': 'b\n',
      'c.ts': 'c\n',
      'd.ts': 'd\n',
      'e.ts': 'e\n',
      'same.ts': 'same\n',
    });
    write(repo, { 'a.ts': 'a2\n', 'b.ts': 'b2\n', 'new-staged.ts': 'n\n', 'untracked.ts': 'u\n' });
    write(repo, { 'ignored/x.ts': 'x\n', 'debug.log': 'log\n' });
    git(repo, 'add', 'b.ts', 'new-staged.ts');
    fs.rmSync(path.join(repo, 'c.ts')); // deleted, not staged
    git(repo, 'rm', '-q', 'd.ts'); // deleted, staged
    write(repo, { 'e.ts': 'e2\n' });
    git(repo, 'add', 'e.ts');
    write(repo, { 'e.ts': 'e3\n' }); // staged and changed again
    expect(await changed(repo)).to.deep.equal([
      'a.ts',
      'b.ts',
      'e.ts',
      'new-staged.ts',
      'untracked.ts',
    ]);
  });

  it('gives the new path of a renamed file, staged or not', async () => {
    const repo = makeGitRepo({
      'old-staged.ts': 'one\n',
      'old-plain.ts': 'two\n',
      'keep.ts': 'k\n',
    });
    git(repo, 'mv', 'old-staged.ts', 'new-staged.ts');
    fs.mkdirSync(path.join(repo, 'moved'));
    fs.renameSync(path.join(repo, 'old-plain.ts'), path.join(repo, 'moved', 'new-plain.ts'));
    expect(await changed(repo)).to.deep.equal(['moved/new-plain.ts', 'new-staged.ts']);
  });

  it('is empty on a clean tree', async () => {
    const repo = makeGitRepo({ 'a.ts': 'a\n' });
    expect(await changed(repo)).to.deep.equal([]);
  });

  it('compares with the merge-base of a base ref, not its tip', async () => {
    const repo = makeGitRepo({ 'x.ts': 'x\n', 'z.ts': 'z\n', 'gone.ts': 'g\n' });
    git(repo, 'checkout', '-q', '-b', 'feature');
    write(repo, { 'x.ts': 'x2\n', 'y.ts': 'y\n' });
    git(repo, 'rm', '-q', 'gone.ts');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'feature work');
    git(repo, 'checkout', '-q', 'main');
    write(repo, { 'z.ts': 'z changed on main\n' });
    git(repo, 'commit', '-q', '-am', 'main moves on');
    git(repo, 'checkout', '-q', 'feature');
    write(repo, { 'w.ts': 'untracked\n' });
    expect(await changed(repo, { base: 'main' })).to.deep.equal(['w.ts', 'x.ts', 'y.ts']);
    expect(await changed(repo)).to.deep.equal(['w.ts']);
    const mainCommit = git(repo, 'rev-parse', 'main').trim();
    expect(await changed(repo, { base: mainCommit })).to.deep.equal(['w.ts', 'x.ts', 'y.ts']);
  });

  it('counts every staged and untracked file in a repository with no commits', async () => {
    const repo = makeTempDir('mcp-gates-changed-');
    git(repo, 'init', '-q', '-b', 'main');
    write(repo, { 'src/a.ts': 'a\n', 'b.ts': 'b\n', 'c.ts': 'c\n' });
    git(repo, 'add', 'src/a.ts', 'c.ts');
    fs.rmSync(path.join(repo, 'c.ts')); // staged, then deleted
    expect(await changed(repo)).to.deep.equal(['b.ts', 'src/a.ts']);
  });

  it('gives paths relative to a root below the top of the repository', async () => {
    const repo = makeGitRepo({ 'packages/app/src/a.ts': 'a\n', 'top.ts': 't\n' });
    write(repo, {
      'packages/app/src/a.ts': 'a2\n',
      'packages/app/new.ts': 'n\n',
      'top.ts': 't2\n',
    });
    expect(
      await listChangedFiles(path.join(repo, 'packages', 'app'), { env: gitEnv(repo) }),
    ).to.deep.equal(['new.ts', 'src/a.ts']);
  });

  it('keeps file names with spaces, quotes and unicode as they are', async function () {
    const names = ['dir with space/naïve file ü.ts', '日本語.ts', 'it\'s "quoted".ts'];
    // reason: Windows forbids " and newlines in file names.
    if (process.platform !== 'win32') names.push('line\nbreak.ts', 'tab\there.ts');
    const repo = makeGitRepo(Object.fromEntries(names.map((name) => [`committed ${name}`, 'x\n'])));
    write(repo, Object.fromEntries(names.map((name) => [`committed ${name}`, 'y\n'])));
    write(repo, Object.fromEntries(names.map((name) => [name, 'new\n'])));
    const expected = [...names, ...names.map((name) => `committed ${name}`)].sort();
    expect(await changed(repo)).to.deep.equal(expected);
  });

  it('does not write into .git (no index refresh, no lock)', async () => {
    const repo = makeGitRepo({ 'a.ts': 'a\n' });
    // A touched but unchanged file is what makes a plain `git status` rewrite the index.
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(repo, 'a.ts'), later, later);
    write(repo, { 'b.ts': 'b\n' });
    const index = path.join(repo, '.git', 'index');
    const before = { bytes: fs.readFileSync(index), mtimeMs: fs.statSync(index).mtimeMs };
    expect(await changed(repo)).to.deep.equal(['b.ts']);
    expect(fs.readFileSync(index).equals(before.bytes)).to.equal(true);
    expect(fs.statSync(index).mtimeMs).to.equal(before.mtimeMs);
    expect(fs.existsSync(`${index}.lock`)).to.equal(false);
  });

  it('says which directory is not a repository and how to fix it', async () => {
    const directory = makeTempDir('mcp-gates-not-a-repo-');
    const error = await rejection(changed(directory));
    expect(error).to.have.property('code', 'EGIT_NOT_REPOSITORY');
    expect(error.message).to.include(directory).and.to.include('git init');
  });

  it('says which base ref is unknown', async () => {
    const repo = makeGitRepo({ 'a.ts': 'a\n' });
    for (const base of ['no-such-branch', '--output=/tmp/x', '']) {
      const error = await rejection(changed(repo, { base }));
      expect(error, base).to.have.property('code', 'EGIT_UNKNOWN_REF');
      expect(error.message).to.include(`base "${base}"`).and.to.include(repo);
    }
    const empty = makeTempDir('mcp-gates-changed-');
    git(empty, 'init', '-q', '-b', 'main');
    expect(await rejection(changed(empty, { base: 'main' }))).to.have.property(
      'code',
      'EGIT_UNKNOWN_REF',
    );
  });

  it('says when the base shares no history with HEAD', async () => {
    const repo = makeGitRepo({ 'a.ts': 'a\n' });
    git(repo, 'checkout', '-q', '--orphan', 'other');
    git(repo, 'commit', '-q', '-m', 'unrelated');
    const error = await rejection(changed(repo, { base: 'main' }));
    expect(error).to.have.property('code', 'EGIT_NO_MERGE_BASE');
    expect(error.message).to.include('share no history');
  });

  it('says when git is not on PATH', async () => {
    const repo = makeGitRepo({ 'a.ts': 'a\n' });
    const empty = makeTempDir();
    const error = await rejection(
      listChangedFiles(repo, { env: { ...gitEnv(repo), PATH: empty, Path: empty } }),
    );
    expect(error).to.have.property('code', 'EGIT_NOT_FOUND');
    expect(error.message).to.include('install git');
  });

  it('kills a git that hangs at the time bound', async function () {
    // reason: the stand-in git is a POSIX shell script.
    if (process.platform === 'win32') this.skip();
    const bin = makeTempDir();
    fs.writeFileSync(path.join(bin, 'git'), '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
    const started = Date.now();
    const error = await rejection(
      listChangedFiles(bin, {
        env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` },
        timeoutMs: 300,
      }),
    );
    expect(error).to.have.property('code', 'EGIT_TIMEOUT');
    expect(Date.now() - started).to.be.below(5000);
  });

  it('stops when the signal aborts', async () => {
    const repo = makeGitRepo({ 'a.ts': 'a\n' });
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(changed(repo, { signal: controller.signal }));
    expect(error).to.have.property('name', 'AbortError');
  });
});

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The files an agent just changed, from git: feedback on what it edited rather than on
 * the whole tree. Read-only: git runs with optional locks off, so not even the index is
 * refreshed (a check never changes the tree).
 */

/** For all git commands of one call together. */
export const DEFAULT_CHANGED_FILES_TIMEOUT_MS = 15_000;
/** More output than this from one git command is refused rather than buffered. */
const MAX_GIT_OUTPUT_BYTES = 64 * 1024 * 1024;

export type ChangedFilesErrorCode =
  | 'EGIT_NOT_FOUND'
  | 'EGIT_NOT_REPOSITORY'
  | 'EGIT_UNKNOWN_REF'
  | 'EGIT_NO_MERGE_BASE'
  | 'EGIT_TIMEOUT'
  | 'EGIT_FAILED';

/** Why the changed files could not be listed; the message names the directory and the fix. */
export class ChangedFilesError extends Error {
  readonly code: ChangedFilesErrorCode;

  constructor(code: ChangedFilesErrorCode, message: string) {
    super(message);
    this.name = 'ChangedFilesError';
    this.code = code;
  }
}

export interface ChangedFilesOptions {
  /** Compare with the merge-base of HEAD and this ref (e.g. "main") instead of HEAD. */
  base?: string;
  /** Bound on all git commands together; default DEFAULT_CHANGED_FILES_TIMEOUT_MS. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The environment git runs with (PATH is where git is found); default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** Variables that would point git at another repository, index or object store. */
const REPOSITORY_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
];

function gitEnvironment(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const name of REPOSITORY_VARIABLES) delete env[name];
  return {
    ...env,
    // No index refresh, no lock: reading must not write into .git.
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    // Messages in English, so "not a git repository" can be told apart from other failures.
    LC_ALL: 'C',
  };
}

interface GitRun {
  root: string;
  env: NodeJS.ProcessEnv;
  deadline: number;
  signal: AbortSignal | undefined;
}

interface GitResult {
  exitCode: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * One git command: argv without a shell, stdin ignored, cwd = root, killed at the deadline.
 * A config that could run a program on a read (core.fsmonitor) is switched off.
 */
function runGit(run: GitRun, args: readonly string[]): Promise<GitResult> {
  const argv = ['-c', 'core.fsmonitor=false', ...args];
  const describe = `git ${args.join(' ')}`;
  return new Promise((resolve, reject) => {
    const remaining = run.deadline - Date.now();
    if (remaining <= 0) {
      reject(timeoutError(run.root, describe));
      return;
    }
    const child = spawn('git', argv, {
      cwd: run.root,
      env: run.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let bytes = 0;
    let failure: Error | undefined;
    const stop = (error: Error) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop(timeoutError(run.root, describe)), remaining);
    const onAbort = () =>
      stop(
        Object.assign(new Error('listing changed files was cancelled'), {
          name: 'AbortError',
          code: 'ABORT_ERR',
        }),
      );
    if (run.signal?.aborted) onAbort();
    run.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_GIT_OUTPUT_BYTES) {
        stop(
          new ChangedFilesError(
            'EGIT_FAILED',
            `${describe} in ${run.root} wrote more than ${MAX_GIT_OUTPUT_BYTES} bytes; run the gate on all files instead`,
          ),
        );
      } else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      failure ??=
        error.code === 'ENOENT'
          ? new ChangedFilesError(
              'EGIT_NOT_FOUND',
              `git was not found on PATH (needed to list the changed files in ${run.root}); install git, or run the gate on all files`,
            )
          : new ChangedFilesError(
              'EGIT_FAILED',
              `cannot start git in ${run.root}: ${error.message}`,
            );
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      if (failure) reject(failure);
      else
        resolve({
          exitCode,
          stdout: Buffer.concat(stdout),
          stderr: Buffer.concat(stderr).toString('utf8').trim(),
        });
    });
  });
}

function timeoutError(root: string, describe: string): ChangedFilesError {
  return new ChangedFilesError(
    'EGIT_TIMEOUT',
    `${describe} in ${root} did not finish in time; raise the timeout, or run the gate on all files`,
  );
}

function failed(root: string, args: readonly string[], result: GitResult): ChangedFilesError {
  return new ChangedFilesError(
    'EGIT_FAILED',
    `git ${args.join(' ')} failed in ${root} (exit ${result.exitCode}): ${result.stderr || 'no message'}`,
  );
}

/** Runs git and returns stdout; a non-zero exit is an EGIT_FAILED error with git's message. */
async function gitOutput(run: GitRun, args: readonly string[]): Promise<Buffer> {
  const result = await runGit(run, args);
  if (result.exitCode !== 0) throw failed(run.root, args, result);
  return result.stdout;
}

/** NUL-separated paths (`-z`): any byte but NUL may be in a name, newlines included. */
function splitPaths(output: Buffer): string[] {
  return output
    .toString('utf8')
    .split('\0')
    .filter((entry) => entry !== '');
}

/** The root's path below the top of its work tree ('' or ending in /); the root must be in one. */
async function workTreePrefix(run: GitRun): Promise<string> {
  const args = ['rev-parse', '--is-inside-work-tree', '--show-prefix'];
  const result = await runGit(run, args);
  const output = result.stdout.toString('utf8');
  if (result.exitCode === 0 && output.startsWith('true\n'))
    return output.slice(5).replace(/\n$/, '');
  if (result.exitCode === 0 || /not a git repository/i.test(result.stderr)) {
    throw new ChangedFilesError(
      'EGIT_NOT_REPOSITORY',
      `${run.root} is not inside a git work tree, so its changed files are unknown; run "git init" there (and commit), or run the gate on all files`,
    );
  }
  throw failed(run.root, args, result);
}

/**
 * Paths in `git status --porcelain -z` output (top-level relative), staged, unstaged and
 * untracked alike; a rename's second path (its origin) is skipped.
 */
function statusPaths(output: Buffer): { path: string; untracked: boolean }[] {
  const entries = splitPaths(output);
  const paths: { path: string; untracked: boolean }[] = [];
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index];
    paths.push({ path: entry.slice(3), untracked: entry.startsWith('??') });
    if (/^[RC]|^.[RC]/.test(entry)) index += 1;
  }
  return paths;
}

/** Directories whose untracked files are an environment's, never the project's changes. */
const ENVIRONMENT_DIRECTORIES = new Set(['node_modules', '.venv']);

/**
 * Whether an untracked file (root-relative, forward slashes) lies in an environment: under
 * node_modules or .venv, or under any directory holding pyvenv.cfg (a virtual environment
 * of any name). An untracked .venv would otherwise make thousands of "changed files".
 */
function inEnvironment(root: string, file: string, venvs: Map<string, boolean>): boolean {
  const segments = file.split('/').slice(0, -1);
  for (let depth = 1; depth <= segments.length; depth += 1) {
    if (ENVIRONMENT_DIRECTORIES.has(segments[depth - 1]!)) return true;
    const directory = segments.slice(0, depth).join('/');
    let venv = venvs.get(directory);
    if (venv === undefined) {
      venv = fs.existsSync(path.join(root, directory, 'pyvenv.cfg'));
      venvs.set(directory, venv);
    }
    if (venv) return true;
  }
  return false;
}

/** One call's git commands in root, bounded together by the options' timeout. */
function gitRunIn(root: string, options: Omit<ChangedFilesOptions, 'base'>): GitRun {
  return {
    root,
    env: gitEnvironment(options.env ?? process.env),
    deadline: Date.now() + (options.timeoutMs ?? DEFAULT_CHANGED_FILES_TIMEOUT_MS),
    signal: options.signal,
  };
}

/** The commit a ref names, or null when it names none. */
async function resolveCommit(run: GitRun, ref: string): Promise<string | null> {
  const result = await runGit(run, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  return result.exitCode === 0 ? result.stdout.toString('utf8').trim() : null;
}

/** The commit `base` names; EGIT_UNKNOWN_REF when it names none. */
async function resolveBase(run: GitRun, base: string): Promise<string> {
  // A leading dash would be read as an option; no branch or tag can start with one.
  const commit =
    base.startsWith('-') || base.includes('\0') ? null : await resolveCommit(run, base);
  if (commit === null) {
    throw new ChangedFilesError(
      'EGIT_UNKNOWN_REF',
      `base "${base}" names no commit in the repository at ${run.root}; pass an existing branch, tag or commit (for a remote branch, fetch it first, e.g. git fetch origin main)`,
    );
  }
  return commit;
}

async function mergeBase(run: GitRun, base: string, baseCommit: string): Promise<string> {
  const args = ['merge-base', baseCommit, 'HEAD'];
  const result = await runGit(run, args);
  if (result.exitCode === 1) {
    throw new ChangedFilesError(
      'EGIT_NO_MERGE_BASE',
      `base "${base}" and HEAD share no history in ${run.root}; pass a base that HEAD was branched from`,
    );
  }
  if (result.exitCode !== 0) throw failed(run.root, args, result);
  return result.stdout.toString('utf8').trim();
}

/**
 * The commit a changed scope's `base` names now (undefined when it names none, or git
 * cannot say): part of a run's identity, since the base moving changes the changed files.
 */
export async function baseCommitOf(
  root: string,
  base: string,
  options: Pick<ChangedFilesOptions, 'env' | 'signal'> = {},
): Promise<string | undefined> {
  const run: GitRun = {
    root,
    env: gitEnvironment(options.env ?? process.env),
    deadline: Date.now() + DEFAULT_CHANGED_FILES_TIMEOUT_MS,
    signal: options.signal,
  };
  try {
    return await resolveBase(run, base);
  } catch {
    return undefined;
  }
}

function exists(root: string, file: string): boolean {
  try {
    fs.lstatSync(path.join(root, file));
    return true;
  } catch {
    return false;
  }
}

/** What changed under `root` against one or more commits, relative to it with forward slashes. */
export interface Changes {
  /** Changed files that exist: added, modified, a rename's new path, untracked. Sorted. */
  files: string[];
  /** Files that no longer exist: deleted, or a rename's old path. Sorted. */
  deleted: string[];
}

export interface ChangesOptions extends Omit<ChangedFilesOptions, 'base'> {
  /**
   * Commits (or refs) to compare with besides HEAD: what HEAD's commits changed since each
   * counts too (work committed during a session, a branch switched to). Each must name a
   * commit (ChangedFilesError EGIT_UNKNOWN_REF otherwise).
   */
  since?: readonly string[];
}

/**
 * The files changed under `root`: against HEAD (staged, unstaged and untracked; ignored
 * files and untracked environments (node_modules, .venv, any directory holding pyvenv.cfg)
 * left out), and against each of `since` (the trees of that commit and HEAD compared, so
 * a commit need not be an ancestor). Deleted files and a rename's old path are listed
 * apart. Without any commit yet, every staged and untracked file counts.
 */
export async function listChanges(root: string, options: ChangesOptions = {}): Promise<Changes> {
  const run = gitRunIn(root, options);
  const prefix = await workTreePrefix(run);
  const head = await resolveCommit(run, 'HEAD');
  const since: string[] = [];
  for (const ref of options.since ?? []) {
    const commit = await resolveBase(run, ref);
    if (head !== null && commit !== head && !since.includes(commit)) since.push(commit);
  }

  // `git status` (not `git diff`): with optional locks off it never rewrites the index, and
  // it still compares the content of files whose timestamps alone changed. Without a
  // commit it lists everything staged.
  const status = [
    'status',
    '--porcelain=v1',
    '-z',
    '--untracked-files=all',
    '--no-renames',
    '--ignore-submodules=all',
  ];
  const venvs = new Map<string, boolean>();
  const files = new Set(
    statusPaths(await gitOutput(run, status))
      .filter((entry) => entry.path.startsWith(prefix))
      .map((entry) => ({ ...entry, path: entry.path.slice(prefix.length) }))
      .filter((entry) => !(entry.untracked && inEnvironment(root, entry.path, venvs)))
      .map((entry) => entry.path),
  );
  for (const commit of since) {
    // What HEAD's commits changed since then: two trees, no index or work tree.
    const committed = [
      'diff',
      '--name-only',
      '-z',
      '--no-renames',
      '--no-ext-diff',
      '--ignore-submodules',
      '--relative',
      commit,
      'HEAD',
      '--',
    ];
    for (const file of splitPaths(await gitOutput(run, committed))) files.add(file);
  }
  const sorted = [...files].sort();
  return {
    files: sorted.filter((file) => exists(root, file)),
    deleted: sorted.filter((file) => !exists(root, file)),
  };
}

/**
 * The files changed under `root`, relative to it with forward slashes, sorted: against
 * HEAD (see listChanges), or also against the merge-base of HEAD and `base`. Deleted files
 * are left out; a renamed file gives its new path.
 */
export async function listChangedFiles(
  root: string,
  options: ChangedFilesOptions = {},
): Promise<string[]> {
  const { base, ...rest } = options;
  const since = base === undefined ? [] : [await mergeBaseOf(root, base, rest)];
  return (await listChanges(root, { ...rest, since: since.filter((c) => c !== null) })).files;
}

/**
 * The merge-base of HEAD and `base`, or null when HEAD has no commit yet. EGIT_UNKNOWN_REF
 * when `base` names no commit, EGIT_NO_MERGE_BASE when they share no history.
 */
export async function mergeBaseOf(
  root: string,
  base: string,
  options: Omit<ChangedFilesOptions, 'base'> = {},
): Promise<string | null> {
  const run = gitRunIn(root, options);
  await workTreePrefix(run);
  const baseCommit = await resolveBase(run, base);
  if ((await resolveCommit(run, 'HEAD')) === null) return null;
  return mergeBase(run, base, baseCommit);
}

/** The commit HEAD names, or null without git, a repository or a commit. */
export async function headCommitOf(
  root: string,
  options: Pick<ChangedFilesOptions, 'env' | 'signal'> = {},
): Promise<string | null> {
  try {
    const run = gitRunIn(root, options);
    await workTreePrefix(run);
    return await resolveCommit(run, 'HEAD');
  } catch (error) {
    if (error instanceof ChangedFilesError) return null;
    throw error;
  }
}

/** Lines of a file that differ from a commit: a set of 1-based line numbers, or 'all' (not in it). */
export type ChangedLines = ReadonlySet<number> | 'all';

const C_ESCAPES: Record<string, number> = {
  a: 7,
  b: 8,
  t: 9,
  n: 10,
  v: 11,
  f: 12,
  r: 13,
  '"': 34,
  '\\': 92,
};

/**
 * A name as git prints it in a patch header: C-quoted ("...", with \ooo octal bytes) when
 * it holds a quote, a backslash or a control byte, or non-ASCII under core.quotePath.
 */
export function unquoteGitName(name: string): string {
  if (!name.startsWith('"') || !name.endsWith('"') || name.length < 2) return name;
  const bytes: number[] = [];
  const body = name.slice(1, -1);
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index]!;
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      continue;
    }
    const next = body[index + 1] ?? '';
    const octal = /^[0-7]{3}/.exec(body.slice(index + 1));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      index += 3;
    } else {
      bytes.push(C_ESCAPES[next] ?? next.charCodeAt(0));
      index += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * Hunks of `git diff -U0` output, by file (relative to the root): the lines each hunk
 * added or changed, and for a pure deletion the lines on both sides of the gap. The
 * diff is asked with fixed prefixes (a/, b/); a name git quoted is unquoted, and the tab
 * git adds after a name holding a space is dropped.
 */
function hunkLines(diff: string): Map<string, Set<number>> {
  const byFile = new Map<string, Set<number>>();
  let current: Set<number> | undefined;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) {
      const name = unquoteGitName(line.slice(4).replace(/\t$/, ''));
      current = undefined;
      if (name === '/dev/null') continue;
      const file = name.startsWith('b/') ? name.slice(2) : name;
      current = byFile.get(file) ?? new Set<number>();
      byFile.set(file, current);
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (!hunk || !current) continue;
    const start = Number(hunk[1]);
    const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
    if (count === 0) {
      current.add(start);
      current.add(start + 1);
    }
    for (let offset = 0; offset < count; offset += 1) current.add(start + offset);
  }
  return byFile;
}

/** Settings that change how `git diff` spells names and prefixes, pinned for parsing. */
const DIFF_SETTINGS = [
  '-c',
  'core.quotePath=false',
  '-c',
  'diff.mnemonicPrefix=false',
  '-c',
  'diff.noprefix=false',
  '-c',
  'diff.relative=false',
];

/**
 * For each of `files` (relative to `root`), the lines that differ from `against` (a
 * commit; default HEAD), read-only (no index refresh): 'all' for a file that commit does
 * not hold, an empty set for an unchanged one. null when there is nothing to compare with
 * (no git, no commit, git failed).
 */
export async function changedLinesAgainst(
  root: string,
  files: readonly string[],
  options: Pick<ChangedFilesOptions, 'env' | 'signal' | 'timeoutMs'> & { against?: string } = {},
): Promise<Map<string, ChangedLines> | null> {
  const run = gitRunIn(root, options);
  try {
    const commit = await resolveCommit(run, options.against ?? 'HEAD');
    if (commit === null) return null;
    const result = new Map<string, ChangedLines>();
    if (files.length === 0) return result;
    const prefix = await workTreePrefix(run);
    const listed = ['ls-tree', '-r', '-z', '--name-only', '--full-name', commit, '--', ...files];
    const tracked = new Set(splitPaths(await gitOutput(run, ['--literal-pathspecs', ...listed])));
    const diff = await gitOutput(run, [
      ...DIFF_SETTINGS,
      '--literal-pathspecs',
      'diff',
      '--no-color',
      '--no-ext-diff',
      '--no-renames',
      '--src-prefix=a/',
      '--dst-prefix=b/',
      '--relative',
      '-U0',
      commit,
      '--',
      ...files,
    ]);
    const lines = hunkLines(diff.toString('utf8'));
    for (const file of files) {
      if (!tracked.has(`${prefix}${file}`)) result.set(file, 'all');
      else result.set(file, lines.get(file) ?? new Set<number>());
    }
    return result;
  } catch (error) {
    if (error instanceof ChangedFilesError) return null;
    throw error;
  }
}

/**
 * The project's own files under `root`, relative to it with forward slashes, sorted:
 * tracked and untracked files git does not ignore (a new script counts before it is
 * committed), untracked environments left out, deleted files and submodules left out.
 */
export async function listProjectFiles(
  root: string,
  options: Omit<ChangedFilesOptions, 'base'> = {},
): Promise<string[]> {
  const run = gitRunIn(root, options);
  await workTreePrefix(run);
  const tracked = splitPaths(await gitOutput(run, ['ls-files', '-z', '--cached']));
  const untracked = splitPaths(
    await gitOutput(run, ['ls-files', '-z', '--others', '--exclude-standard']),
  );
  const venvs = new Map<string, boolean>();
  const files = new Set([
    ...tracked,
    ...untracked.filter((file) => !inEnvironment(root, file, venvs)),
  ]);
  return [...files]
    .filter((file) => {
      try {
        return fs.lstatSync(path.join(root, file)).isFile();
      } catch {
        return false;
      }
    })
    .sort();
}

/**
 * Writes the tree of `commit` below the root (the root's part of it, when the root is a
 * subdirectory of its work tree) into the empty directory `into`, read-only for the
 * repository (`git archive` into `tar`), then links in what git ignores there (node_modules,
 * a virtual environment, build outputs), so tools run in `into` as in the root. Returns the
 * files written (as listProjectFiles lists them): `into` is no git work tree, so a gate that
 * lists its files with git is given these.
 */
export async function extractTree(
  root: string,
  commit: string,
  into: string,
  options: Omit<ChangedFilesOptions, 'base'> = {},
): Promise<string[]> {
  const run = gitRunIn(root, options);
  const prefix = await workTreePrefix(run);
  const treeish = prefix === '' ? commit : `${commit}:${prefix.replace(/\/$/, '')}`;
  await new Promise<void>((resolve, reject) => {
    const archive = spawn(
      'git',
      ['-c', 'core.fsmonitor=false', 'archive', '--format=tar', treeish],
      {
        cwd: root,
        env: run.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      },
    );
    const tar = spawn('tar', ['-x', '-f', '-', '-C', into], {
      stdio: ['pipe', 'ignore', 'pipe'],
      windowsHide: true,
    });
    const errors: string[] = [];
    archive.stderr.on('data', (chunk: Buffer) => errors.push(chunk.toString('utf8')));
    tar.stderr.on('data', (chunk: Buffer) => errors.push(chunk.toString('utf8')));
    archive.stdout.pipe(tar.stdin);
    const timer = setTimeout(
      () => {
        archive.kill('SIGKILL');
        tar.kill('SIGKILL');
      },
      Math.max(0, run.deadline - Date.now()),
    );
    const onAbort = () => {
      archive.kill('SIGKILL');
      tar.kill('SIGKILL');
    };
    run.signal?.addEventListener('abort', onAbort, { once: true });
    let pending = 2;
    let failed: string | undefined;
    const done = (what: string) => (code: number | null) => {
      if (code !== 0) failed ??= `${what} exited with ${code}`;
      pending -= 1;
      if (pending > 0) return;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      if (failed)
        reject(
          new ChangedFilesError(
            'EGIT_FAILED',
            `could not write the tree of ${commit} from ${root}: ${failed}: ${errors.join('').trim() || 'no message'}`,
          ),
        );
      else resolve();
    };
    archive.on('error', (error) =>
      reject(new ChangedFilesError('EGIT_NOT_FOUND', `cannot start git: ${error.message}`)),
    );
    tar.on('error', (error) =>
      reject(new ChangedFilesError('EGIT_FAILED', `cannot start tar: ${error.message}`)),
    );
    archive.on('close', done('git archive'));
    tar.on('close', done('tar'));
  });
  const ignored = splitPaths(
    await gitOutput(run, [
      'ls-files',
      '-z',
      '--others',
      '--ignored',
      '--exclude-standard',
      '--directory',
    ]),
  );
  for (const entry of ignored) {
    const relative = entry.replace(/\/$/, '');
    if (relative === '' || relative.split('/').includes('.git')) continue;
    const link = path.join(into, relative);
    if (!fs.existsSync(path.dirname(link)) || fs.existsSync(link)) continue;
    try {
      fs.symlinkSync(path.join(root, relative), link, 'junction');
    } catch {
      // A name the platform cannot link: the tool runs without it, as on a fresh clone.
    }
  } // Files only, as listProjectFiles: no link (mode 120000), no submodule (a commit entry).
  const entries = splitPaths(await gitOutput(run, ['ls-tree', '-r', '-z', '--full-tree', treeish]));
  return entries
    .filter((entry) => /^100[0-7]{3} blob /.test(entry))
    .map((entry) => entry.slice(entry.indexOf('\t') + 1))
    .sort();
}

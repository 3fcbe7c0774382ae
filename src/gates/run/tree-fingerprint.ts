import { spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { KNOWN_WRITES } from '../tools/index.js';

/**
 * A snapshot of the project tree cheap enough to take around every gate run, so a check
 * that writes (a linter with `fix = true` in its config, a script that touches a file) is
 * caught whatever the tool: two fingerprints that differ name the files the run added,
 * removed or changed. The places known tools write (tools/*.ts `writes`: caches under
 * node_modules/.cache, .ruff_cache...) are watched too, ignored or not.
 */
export interface TreeFingerprint {
  /** `git`: status of tracked and untracked (not ignored) files; `walk`: every file up to the cap. */
  method: 'git' | 'walk';
  /** Root-relative path (forward slashes) -> what identifies its state (status record, size, times, inode). */
  entries: Map<string, string>;
  /**
   * `git` only: the commit HEAD names (`(initial)` before the first commit). Clean files
   * have no status record, so two clean checkouts of different commits differ only here;
   * the index is in the records (a staged change shows as its own status and object name).
   */
  head?: string;
  /** The walk stopped at WALK_FILE_CAP files; `lastPath` is the last one it covered. */
  capped: boolean;
  lastPath?: string;
  durationMs: number;
  /** Why git was not used, when the walk ran in a git repository's place. */
  gitProblem?: string;
}

/** The walk's bound; it stops there and says so (git status has no such bound). */
export const WALK_FILE_CAP = 50_000;
const GIT_TIMEOUT_MS = 20_000;
const GIT_OUTPUT_LIMIT_BYTES = 64 * 1024 * 1024;
/** Never part of the tree a check may change: dependencies and the repository's own store. */
const WALK_SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', '__pycache__']);
/**
 * A directory holding CACHEDIR.TAG (the cache-directory tagging convention) is a tool's
 * cache, written as a matter of course: cargo's target/, a linter's cache. Git
 * repositories keep them out through .gitignore; the walk needs the tag.
 */
const CACHE_DIRECTORY_TAG = 'CACHEDIR.TAG';

function toPosix(relative: string): string {
  return relative.split(path.sep).join('/');
}

export function statSignature(file: string): string {
  try {
    const stat = fs.lstatSync(file, { bigint: true });
    return `${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}:${stat.ino}`;
  } catch {
    return 'absent';
  }
}

export interface GitRun {
  ok: boolean;
  stdout: Buffer;
  problem: string;
  /** git itself could not be found (spawn ENOENT): not on the PATH the server has. */
  missing?: boolean;
}

/**
 * Runs git with no shell, bounded time and output, no optional index writes; stdin is
 * ignored, or `input` is written to it.
 */
export function runGit(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  input?: string,
): Promise<GitRun> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = '';
    let settled = false;
    const settle = (run: GitRun) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(run);
    };
    let child: ChildProcessByStdio<Writable | null, Readable, Readable>;
    try {
      child = spawn(
        'git',
        ['--no-optional-locks', '-c', 'core.fsmonitor=false', '-c', 'core.quotepath=off', ...args],
        {
          cwd,
          env: { ...env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' },
          stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
          shell: false,
          windowsHide: true,
        },
      ) as ChildProcessByStdio<Writable | null, Readable, Readable>;
      // git may exit before reading all of stdin (EPIPE): its exit code says what happened.
      child.stdin?.on('error', () => {});
      child.stdin?.end(input);
    } catch (error) {
      // spawn throws synchronously for some refusals (E2BIG: a huge environment); the
      // caller falls back to the walk, as when git is missing.
      resolve({ ok: false, stdout: Buffer.alloc(0), problem: (error as Error).message });
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      settle({ ok: false, stdout: Buffer.alloc(0), problem: `git ${args[0]} timed out` });
    }, GIT_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > GIT_OUTPUT_LIMIT_BYTES) {
        child.kill('SIGKILL');
        settle({ ok: false, stdout: Buffer.alloc(0), problem: `git ${args[0]} printed too much` });
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      settle({
        ok: false,
        stdout: Buffer.alloc(0),
        problem: error.message,
        ...(error.code === 'ENOENT' ? { missing: true } : {}),
      }),
    );
    child.on('close', (code) => {
      if (code === 0) settle({ ok: true, stdout: Buffer.concat(chunks), problem: '' });
      else
        settle({
          ok: false,
          stdout: Buffer.alloc(0),
          problem: `git ${args[0]} exited ${code}: ${stderr.trim().split('\n')[0] ?? ''}`,
        });
    });
  });
}

interface GitTopAnswer {
  top?: string;
  problem?: string;
  /** For "not a git repository": while none of these `.git` paths exists, it still holds. */
  absentGitDirs?: string[];
}

/** Per root: the repository's top directory (or why there is none), asked once per process. */
const gitTops = new Map<string, Promise<GitTopAnswer>>();

/** `<dir>/.git` for root and each of its parents: where git would find a repository. */
function gitDirCandidates(root: string): string[] {
  const candidates: string[] = [];
  for (let directory = path.resolve(root); ; directory = path.dirname(directory)) {
    candidates.push(path.join(directory, '.git'));
    if (path.dirname(directory) === directory) return candidates;
  }
}

/**
 * The repository's top directory, asked of git once per root. "Not a git repository" is
 * remembered too (each fingerprint asking again cost two git processes per call, ~10 ms),
 * as long as no `.git` appears in the root or a parent; any other failure (git missing,
 * a timeout) is asked again next time.
 */
function gitTop(root: string, env: NodeJS.ProcessEnv): Promise<GitTopAnswer> {
  let known = gitTops.get(root);
  if (known) {
    const current = known;
    known = current.then((answer) => {
      const stale = answer.absentGitDirs?.some((candidate) => fs.existsSync(candidate));
      if (!stale) return answer;
      if (gitTops.get(root) === current) gitTops.delete(root);
      return gitTop(root, env);
    });
    return known;
  }
  const candidates = gitDirCandidates(root);
  known = runGit(['rev-parse', '--show-toplevel'], root, env).then((run) => {
    if (run.ok) return { top: run.stdout.toString('utf8').trim() };
    const notARepository =
      /not a git repository/i.test(run.problem) &&
      !candidates.some((candidate) => fs.existsSync(candidate));
    if (notARepository) return { problem: run.problem, absentGitDirs: candidates };
    gitTops.delete(root);
    return { problem: run.problem };
  });
  gitTops.set(root, known);
  return known;
}

/**
 * `git status --porcelain=v2 -z`: one record per changed or untracked file. The record
 * (status, modes, object names) plus the file's stat identify its state: a change to an
 * already-modified file shows in the stat, a change to a clean tracked file shows as a
 * new record.
 */
export function parsePorcelainV2(
  output: string,
): { path: string; record: string; original?: string }[] {
  const fields = output.split('\0');
  const entries: { path: string; record: string; original?: string }[] = [];
  // Space-separated fields before the path, per record kind (git-status(1), porcelain v2).
  const fieldsBeforePath: Record<string, number> = { '1': 8, '2': 9, u: 10, '?': 1, '!': 1 };
  for (let index = 0; index < fields.length; index += 1) {
    const record = fields[index]!;
    const count = fieldsBeforePath[record[0] ?? ''];
    if (count === undefined) continue;
    let cut = 0;
    for (let seen = 0; seen < count && cut !== -1; seen += 1) cut = record.indexOf(' ', cut + 1);
    if (cut === -1) continue;
    const entry = { path: record.slice(cut + 1), record: record.slice(0, cut) };
    // A rename or copy record is followed by its original path as its own field.
    if (record[0] === '2') {
      index += 1;
      entries.push({ ...entry, original: fields[index] ?? '' });
    } else entries.push(entry);
  }
  return entries;
}

/** `# branch.oid <commit>`: the first header `--branch` adds to porcelain v2. */
const BRANCH_OID = '# branch.oid ';

function headOf(output: string): string | undefined {
  if (!output.startsWith(BRANCH_OID)) return undefined;
  const end = output.indexOf('\0');
  return output.slice(BRANCH_OID.length, end === -1 ? undefined : end);
}

export interface GitFingerprint {
  entries?: Map<string, string>;
  /** Root-relative path -> its status record without the path (what the entry starts with). */
  records?: Map<string, string>;
  /**
   * Root-relative paths whose records depend on more than their own file: either side of
   * a staged rename, and a path with two records (removed from the index, back untracked),
   * of which the entry keeps the last.
   */
  coupled?: Set<string>;
  head?: string;
  problem?: string;
}

export async function gitFingerprint(
  root: string,
  env: NodeJS.ProcessEnv,
): Promise<GitFingerprint> {
  const { top, problem } = await gitTop(root, env);
  if (!top) return { problem };
  const run = await runGit(
    [
      'status',
      '--porcelain=v2',
      '-z',
      '--branch',
      '--no-ahead-behind',
      '--untracked-files=all',
      '--',
      '.',
    ],
    root,
    env,
  );
  if (!run.ok) return { problem: run.problem };
  let realRoot: string;
  try {
    realRoot = fs.realpathSync.native(root);
  } catch (error) {
    return { problem: (error as Error).message };
  }
  const entries = new Map<string, string>();
  const records = new Map<string, string>();
  const coupled = new Set<string>();
  const output = run.stdout.toString('utf8');
  const relativeOf = (file: string) => toPosix(path.relative(realRoot, path.join(top, file)));
  for (const { path: file, record, original } of parsePorcelainV2(output)) {
    const absolute = path.join(top, file);
    const relative = relativeOf(file);
    if (records.has(relative)) coupled.add(relative);
    entries.set(relative, `${record}|${statSignature(absolute)}`);
    records.set(relative, record);
    if (original !== undefined) coupled.add(relative).add(relativeOf(original));
  }
  const head = headOf(output);
  return head === undefined ? { entries, records, coupled } : { entries, records, coupled, head };
}

/** The walk's order: path segments compared one by one, as a sorted depth-first walk visits them. */
export function compareWalkOrder(left: string, right: string): number {
  const a = left.split('/');
  const b = right.split('/');
  for (let index = 0; index < Math.min(a.length, b.length); index += 1) {
    if (a[index] !== b[index]) return a[index]! < b[index]! ? -1 : 1;
  }
  return a.length - b.length;
}

/** Every file under root in sorted depth-first order, symlinks not followed, up to `cap` files. */
export function walkFingerprint(
  root: string,
  cap = WALK_FILE_CAP,
): { entries: Map<string, string>; capped: boolean; lastPath?: string } {
  const entries = new Map<string, string>();
  let lastPath: string | undefined;
  let capped = false;
  // Files and directories interleave in sorted order, so a directory is walked where it
  // sorts: the order compareWalkOrder describes, which a capped comparison relies on.
  const visit = (relative: string): void => {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(path.join(root, relative), { withFileTypes: true });
    } catch {
      return;
    }
    if (relative !== '' && names.some((entry) => entry.name === CACHE_DIRECTORY_TAG)) return;
    names.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    for (const entry of names) {
      if (capped) return;
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!WALK_SKIPPED_DIRECTORIES.has(entry.name)) visit(child);
        continue;
      }
      if (entries.size >= cap) {
        capped = true;
        return;
      }
      entries.set(child, statSignature(path.join(root, child)));
      lastPath = child;
    }
  };
  visit('');
  return lastPath === undefined ? { entries, capped } : { entries, capped, lastPath };
}

/** The watch's bound on the files of the known write places together. */
const KNOWN_WRITES_FILE_CAP = 20_000;

/**
 * The places known tools write (KNOWN_WRITES), which git status skips when ignored and the
 * walk skips as caches: each directory (so creating an empty one shows) and each file,
 * added where the fingerprint has no entry of its own for the path.
 */
export function addKnownWrites(root: string, entries: Map<string, string>): void {
  let files = 0;
  const visit = (relative: string): void => {
    if (files >= KNOWN_WRITES_FILE_CAP) return;
    const absolute = path.join(root, relative);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(absolute);
    } catch {
      return;
    }
    if (!stat.isDirectory()) {
      files += 1;
      if (!entries.has(relative)) entries.set(relative, statSignature(absolute));
      return;
    }
    if (!entries.has(`${relative}/`)) entries.set(`${relative}/`, 'directory');
    let names: string[];
    try {
      names = fs.readdirSync(absolute).sort();
    } catch {
      return;
    }
    for (const name of names) visit(`${relative}/${name}`);
  };
  for (const place of KNOWN_WRITES) visit(place);
}

/** The fingerprint of a git status answer, begun at `started`. */
export function gitPrint(
  entries: Map<string, string>,
  head: string | undefined,
  started: number,
): TreeFingerprint {
  const print: TreeFingerprint = {
    method: 'git',
    entries,
    capped: false,
    durationMs: Date.now() - started,
  };
  if (head !== undefined) print.head = head;
  return print;
}

/** Fingerprints the tree under root: git status where git works, a bounded walk elsewhere. */
export async function fingerprintTree(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<TreeFingerprint> {
  const started = Date.now();
  const git = await gitFingerprint(root, env);
  if (git.entries) {
    addKnownWrites(root, git.entries);
    return gitPrint(git.entries, git.head, started);
  }
  const walk = walkFingerprint(root);
  addKnownWrites(root, walk.entries);
  const fingerprint: TreeFingerprint = {
    method: 'walk',
    entries: walk.entries,
    capped: walk.capped,
    durationMs: Date.now() - started,
  };
  if (walk.lastPath !== undefined) fingerprint.lastPath = walk.lastPath;
  // "not a git repository" is the ordinary case for the walk, not a problem worth a note.
  if (git.problem && !/not a git repository/i.test(git.problem))
    fingerprint.gitProblem = git.problem;
  return fingerprint;
}

/**
 * The files whose state differs between two fingerprints, sorted. A capped walk compares
 * only up to where both walks reached: beyond it a file is unseen, not removed.
 */
export function changedFiles(before: TreeFingerprint, after: TreeFingerprint): string[] {
  let horizon: string | undefined;
  if (before.capped || after.capped) {
    const ends = [before, after]
      .filter((print) => print.capped && print.lastPath !== undefined)
      .map((print) => print.lastPath!);
    horizon = ends.sort(compareWalkOrder)[0];
  }
  const within = (file: string) => horizon === undefined || compareWalkOrder(file, horizon) <= 0;
  const changed = new Set<string>();
  for (const [file, state] of before.entries)
    if (after.entries.get(file) !== state && within(file)) changed.add(file);
  for (const file of after.entries.keys())
    if (!before.entries.has(file) && within(file)) changed.add(file);
  return [...changed].sort(compareWalkOrder);
}

/** What the fingerprints around one run saw: the report's tree section. */
export interface TreeWatch {
  method: 'git' | 'walk';
  capped: boolean;
  /** The last file a capped walk covered. */
  lastPath?: string;
  changedFiles: string[];
  /** Both fingerprints. */
  durationMs: number;
  /** Why git status could not be used, or could not be compared. */
  gitProblem?: string;
}

export function compareTrees(before: TreeFingerprint, after: TreeFingerprint): TreeWatch {
  const comparable = before.method === after.method;
  const watch: TreeWatch = {
    method: after.method,
    capped: before.capped || after.capped,
    changedFiles: comparable ? changedFiles(before, after) : [],
    durationMs: before.durationMs + after.durationMs,
  };
  const lastPath = after.lastPath ?? before.lastPath;
  if (watch.capped && lastPath !== undefined) watch.lastPath = lastPath;
  const gitProblem =
    after.gitProblem ??
    before.gitProblem ??
    (comparable
      ? undefined
      : 'git status answered on one side of the run only, so changes could not be compared');
  if (gitProblem) watch.gitProblem = gitProblem;
  return watch;
}

/**
 * Whether two fingerprints prove the same tree: the same method, every file in the same
 * state, the same HEAD, and no cap that leaves files unseen.
 */
export function sameTree(before: TreeFingerprint, after: TreeFingerprint): boolean {
  if (before.method !== after.method || before.capped || after.capped) return false;
  if (before.head !== after.head) return false;
  return changedFiles(before, after).length === 0;
}

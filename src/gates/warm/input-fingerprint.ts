import { createHash } from 'node:crypto';
import fs, { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What a warm worker loaded, and the check that it is still what is on disk. A worker
 * serves a call only when every input it recorded has the signature it had when it was
 * read; any difference restarts the worker (a fresh process loads everything again), so
 * a warm result never comes from a config, plugin or dependency that has since changed.
 */

/**
 * Files whose presence or content can change what eslint, prettier or tsc does, wherever
 * they sit in the tree (ESLint 10 and prettier look configs up from each file's
 * directory; tsconfig files extend each other; lockfiles and package.json say what is
 * installed).
 */
const CONFIG_NAME =
  /^(eslint\.config\.[cm]?[jt]s|\.eslintrc(\..+)?|\.eslintignore|eslint-suppressions\.json|\.prettierrc(\..+)?|prettier\.config\.[cm]?[jt]s|\.prettierignore|\.editorconfig|\.gitignore|package\.json|[jt]sconfig(\..+)?\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|pnpm-workspace\.yaml|bun\.lockb?|\.pnp\.c?js)$/;

/** What an install rewrites inside node_modules (npm, pnpm, yarn). */
const INSTALL_RECORDS = ['.package-lock.json', '.modules.yaml', '.yarn-state.yml'];

/** Directories never walked: dependencies (install records stand for them) and VCS data. */
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git']);

/**
 * Above this, a file outside node_modules is compared by stat rather than content (a
 * large file of the repository's own is rarely an input; a loaded module is always read
 * whole, whatever its size, so files under node_modules are hashed at any size).
 */
const HASH_LIMIT_BYTES = 4 * 1024 * 1024;

/** Whether a path lies inside an installed package (either separator: TypeScript uses /). */
export function insideNodeModules(file: string): boolean {
  return file.split(/[\\/]/).includes('node_modules');
}

/**
 * The stat fields of a path as Node's fs binding fills them (STAT_FIELDS names their
 * places), or undefined when it is absent (ENOENT or ENOTDIR, as statSync's
 * `throwIfNoEntry: false`); any other error is thrown. The binding fills one array it
 * shares, so the fields are only valid until the next stat: statSync would build a
 * BigIntStats object (and BigInt arithmetic for each time) per path, several times the cost
 * of the system call, on the thousands of paths a warm worker checks before each call.
 * Where the binding is not called as this Node's own statSync calls it (an older calling
 * convention, no binding in this thread), statSync gives the same fields.
 */
export function statFields(file: string, link = false): StatFields | undefined {
  const call = link ? bindingCalls.lstat : bindingCalls.stat;
  if (call) return call(path.toNamespacedPath(file), true, undefined, false);
  const stat = (link ? fs.lstatSync : fs.statSync)(file, { bigint: true, throwIfNoEntry: false });
  if (!stat) return undefined;
  const split = (ns: bigint) => [ns / NS_PER_SECOND, ns % NS_PER_SECOND];
  return BigInt64Array.from([
    ...[stat.dev, stat.mode, stat.nlink, stat.uid, stat.gid, stat.rdev, stat.blksize],
    ...[stat.ino, stat.size, stat.blocks],
    ...[stat.atimeNs, stat.mtimeNs, stat.ctimeNs, stat.birthtimeNs].flatMap(split),
  ]);
}

/** The fields statFields gives, in the binding's order. */
export type StatFields = BigInt64Array;
/** Where each field lies in StatFields (times: seconds, then nanoseconds at the next place). */
export const STAT_FIELDS = { mode: 1, ino: 7, size: 8, mtime: 12, ctime: 14 } as const;
const NS_PER_SECOND = 1_000_000_000n;

/** A time of StatFields in nanoseconds. */
export const timeNs = (fields: StatFields, at: number): bigint =>
  fields[at]! * NS_PER_SECOND + fields[at + 1]!;

/** The type bits of a StatFields mode. */
export function fileType(fields: StatFields): 'f' | 'd' | 'l' | 'o' {
  const type = Number(fields[STAT_FIELDS.mode]!) & fs.constants.S_IFMT;
  if (type === fs.constants.S_IFREG) return 'f';
  if (type === fs.constants.S_IFDIR) return 'd';
  if (type === fs.constants.S_IFLNK) return 'l';
  return 'o';
}

type BindingStat = (
  file: string,
  bigint: true,
  request: undefined,
  throwIfNoEntry: false,
) => StatFields | undefined;

/**
 * The binding's stat and lstat, where this Node's own statSync / lstatSync call them as
 * `(path, bigint, undefined, throwIfNoEntry)` (Node 20.10 and later; before, the fourth
 * argument was an error context object, which a boolean would crash the process on).
 */
const bindingCalls = ((): { stat?: BindingStat; lstat?: BindingStat } => {
  try {
    const binding = (
      process as unknown as { binding(name: string): Record<string, unknown> }
    ).binding('fs');
    const calls: { stat?: BindingStat; lstat?: BindingStat } = {};
    for (const name of ['stat', 'lstat'] as const) {
      const source = String(name === 'stat' ? fs.statSync : fs.lstatSync);
      const convention = new RegExp(
        `binding\\.${name}\\(\\s*[^;]*?options\\.bigint,\\s*undefined,\\s*options\\.throwIfNoEntry,?\\s*\\)`,
      );
      const fn = binding[name];
      if (typeof fn === 'function' && convention.test(source))
        calls[name] = fn.bind(binding) as BindingStat;
    }
    return calls;
  } catch {
    return {}; // No binding here (a thread without it): statSync.
  }
})();

/**
 * Content hashes already taken, with the stat they were taken under. A file whose stat is
 * unchanged and whose last change (ctime, which no tool can set back) lies well before
 * the hash was taken (`settled`) still has that content: any write after the hash would
 * have moved its ctime past it. Recent files are hashed again (git's "racily clean" rule).
 */
const hashed = new Map<string, { stat: bigint[]; hash: string; settled: boolean }>();
const RACY_WINDOW_NS = 2_000_000_000n;
const MAX_REMEMBERED_HASHES = 100_000;

/** The fields a remembered hash is taken under: mtime, ctime (seconds, nanoseconds), size, inode. */
const HASHED_UNDER = [
  STAT_FIELDS.mtime,
  STAT_FIELDS.mtime + 1,
  STAT_FIELDS.ctime,
  STAT_FIELDS.ctime + 1,
  STAT_FIELDS.size,
  STAT_FIELDS.ino,
];

/** Whether `stat` has the fields a hash was taken under (compared as numbers: no text is made). */
function sameStat(stat: StatFields, under: readonly bigint[]): boolean {
  for (let index = 0; index < HASHED_UNDER.length; index++)
    if (stat[HASHED_UNDER[index]!] !== under[index]) return false;
  return true;
}

/**
 * The signature of one input as it is now: its content hash (an edit within the same
 * mtime tick still shows), stat fields for a repository file above HASH_LIMIT_BYTES, or
 * `absent`. Files under node_modules are signed by content too: pnpm links them from a
 * store shared by every project of the machine, so any install elsewhere moves their
 * ctime without changing a byte, and a signature of stat fields would restart warm
 * workers for nothing. The stat stays the fast path: an unchanged stat (ctime included,
 * which no tool can set back) gives the hash taken under it; a changed one is hashed
 * again, and only a changed content changes the signature.
 */
export function signatureOf(file: string): string {
  let stat;
  try {
    stat = statFields(file);
  } catch {
    return 'absent';
  }
  if (!stat) return 'absent';
  if (fileType(stat) !== 'f') return `not-a-file`;
  if (stat[STAT_FIELDS.size]! > BigInt(HASH_LIMIT_BYTES) && !insideNodeModules(file))
    return `stat:${HASHED_UNDER.map((at) => stat[at]).join(':')}`;
  const known = hashed.get(file);
  if (known?.settled && sameStat(stat, known.stat)) return known.hash;
  // Copied before the read below: the binding's array is shared by every stat.
  const under = HASHED_UNDER.map((at) => stat[at]!);
  const settled =
    timeNs(stat, STAT_FIELDS.ctime) < BigInt(Date.now()) * 1_000_000n - RACY_WINDOW_NS;
  let hash: string;
  try {
    hash = contentSignature(readFileSync(file));
  } catch {
    return 'unreadable';
  }
  if (hashed.size >= MAX_REMEMBERED_HASHES) hashed.clear();
  hashed.set(file, { stat: under, hash, settled });
  return hash;
}

/** The signature of a file whose bytes are `bytes` (signatureOf, below the size limit). */
export const contentSignature = (bytes: Buffer): string =>
  `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/**
 * What one directory's listing gave the walk (its config files and the subdirectories to
 * walk), with the directory's stat when it was listed. Any entry made, removed or renamed
 * in a directory moves its mtime and ctime (and a utimes call setting the mtime back moves
 * the ctime, which no tool can set back), so a directory whose inode, mtime and ctime are
 * the same still has the same names of the same types, and is not listed again: only the
 * directories that changed are. A directory whose ctime was within the racy window of its
 * listing (the same clock tick may hold another change) is listed every time until it
 * settles, as the ledger's `entries` answers are.
 */
interface WalkedDirectory {
  stat: bigint[];
  settled: boolean;
  configs: string[];
  directories: string[];
}
const walked = new Map<string, WalkedDirectory>();
const WALKED_UNDER = [
  STAT_FIELDS.ino,
  STAT_FIELDS.mtime,
  STAT_FIELDS.mtime + 1,
  STAT_FIELDS.ctime,
  STAT_FIELDS.ctime + 1,
];
const MAX_WALKED_DIRECTORIES = 100_000;

function configFilesUnder(directory: string, found: string[]): void {
  const listing = walkedListing(directory);
  if (!listing) return;
  found.push(...listing.configs);
  for (const subdirectory of listing.directories) configFilesUnder(subdirectory, found);
}

/** `directory`'s config files and subdirectories, listed again only when it changed. */
function walkedListing(directory: string): WalkedDirectory | undefined {
  let stat;
  try {
    stat = statFields(directory);
  } catch {
    return undefined;
  }
  if (!stat) return undefined;
  const known = walked.get(directory);
  if (known?.settled && WALKED_UNDER.every((at, index) => stat[at] === known.stat[index]))
    return known;
  const under = WALKED_UNDER.map((at) => stat[at]!);
  const settled =
    timeNs(stat, STAT_FIELDS.ctime) < BigInt(Date.now()) * 1_000_000n - RACY_WINDOW_NS;
  let entries;
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    walked.delete(directory);
    return undefined;
  }
  const listing: WalkedDirectory = { stat: under, settled, configs: [], directories: [] };
  for (const entry of entries) {
    const full = path.join(directory, entry.name);
    // Symbolic links are not followed: a link to a directory outside the tree is not
    // the tree's config, and a link loop must not hang the check.
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) listing.directories.push(full);
    } else if (CONFIG_NAME.test(entry.name)) {
      listing.configs.push(full);
    }
  }
  if (walked.size >= MAX_WALKED_DIRECTORIES) walked.clear();
  walked.set(directory, listing);
  return listing;
}

function configFilesAbove(root: string, found: string[]): void {
  let directory = path.dirname(root);
  for (;;) {
    let names: string[] = [];
    try {
      names = readdirSync(directory);
    } catch {
      // An unreadable parent holds nothing the tools could read either.
    }
    for (const name of names) if (CONFIG_NAME.test(name)) found.push(path.join(directory, name));
    const parent = path.dirname(directory);
    if (parent === directory) return;
    directory = parent;
  }
}

/**
 * Every config-like file in the root, its subdirectories (outside node_modules and .git)
 * and its parents, plus the install records of the root's node_modules. The list itself
 * is part of the fingerprint: a config file that appears or disappears restarts the worker.
 */
export function configInputs(root: string): string[] {
  const found: string[] = [];
  configFilesUnder(root, found);
  configFilesAbove(root, found);
  for (const record of INSTALL_RECORDS) found.push(path.join(root, 'node_modules', record));
  return found.sort();
}

/** The recorded inputs of one worker: path -> signature when it was read. */
export class InputRecord {
  private readonly signatures = new Map<string, string>();
  private configList = '';

  constructor(private readonly root: string) {}

  /** Records the config inputs as they are now; call before loading the tool. */
  recordConfig(): void {
    const files = configInputs(this.root);
    this.configList = files.join('\n');
    for (const file of files) this.signatures.set(file, signatureOf(file));
  }

  /** Records one loaded file (first sighting wins: that is the version in memory). */
  recordLoaded(file: string, signature?: string): void {
    // Signed only when new: every call offers each loaded module again.
    if (!this.signatures.has(file)) this.signatures.set(file, signature ?? signatureOf(file));
  }

  get size(): number {
    return this.signatures.size;
  }

  /** Every recorded input's path. */
  files(): IterableIterator<string> {
    return this.signatures.keys();
  }

  /**
   * Why the worker is stale, or undefined when every input is as it was loaded; `signature`
   * signs a file now (signatureOf; a caller may share its answers with other checks).
   */
  staleReason(signature: (file: string) => string = signatureOf): string | undefined {
    const files = configInputs(this.root);
    if (files.join('\n') !== this.configList) {
      const before = new Set(this.configList.split('\n'));
      const after = new Set(files);
      const added = files.find((file) => !before.has(file));
      const removed = [...before].find((file) => !after.has(file));
      return added ? `config file added: ${added}` : `config file removed: ${removed}`;
    }
    for (const [file, recorded] of this.signatures) {
      if (signature(file) !== recorded) return `input changed: ${file}`;
    }
    return undefined;
  }
}

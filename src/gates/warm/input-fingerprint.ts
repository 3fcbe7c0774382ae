import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
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
 * Content hashes already taken, with the stat they were taken under. A file whose stat is
 * unchanged and whose last change (ctime, which no tool can set back) lies well before
 * the hash was taken still has that content: any write after the hash would have moved
 * its ctime past it. Recent files are hashed again (git's "racily clean" rule).
 */
const hashed = new Map<string, { stat: string; hash: string; hashedAtNs: bigint }>();
const RACY_WINDOW_NS = 2_000_000_000n;
const MAX_REMEMBERED_HASHES = 100_000;

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
    stat = statSync(file, { bigint: true });
  } catch {
    return 'absent';
  }
  if (!stat.isFile()) return `not-a-file`;
  const statText = `${stat.mtimeNs}:${stat.ctimeNs}:${stat.size}:${stat.ino}`;
  if (stat.size > BigInt(HASH_LIMIT_BYTES) && !insideNodeModules(file)) return `stat:${statText}`;
  const known = hashed.get(file);
  if (known && known.stat === statText && stat.ctimeNs < known.hashedAtNs - RACY_WINDOW_NS)
    return known.hash;
  const hashedAtNs = BigInt(Date.now()) * 1_000_000n;
  let hash: string;
  try {
    hash = contentSignature(readFileSync(file));
  } catch {
    return 'unreadable';
  }
  if (hashed.size >= MAX_REMEMBERED_HASHES) hashed.clear();
  hashed.set(file, { stat: statText, hash, hashedAtNs });
  return hash;
}

/** The signature of a file whose bytes are `bytes` (signatureOf, below the size limit). */
export const contentSignature = (bytes: Buffer): string =>
  `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

function configFilesUnder(directory: string, found: string[]): void {
  let entries;
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(directory, entry.name);
    // Symbolic links are not followed: a link to a directory outside the tree is not
    // the tree's config, and a link loop must not hang the check.
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) configFilesUnder(full, found);
    } else if (CONFIG_NAME.test(entry.name)) {
      found.push(full);
    }
  }
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

  /** Why the worker is stale, or undefined when every input is as it was loaded. */
  staleReason(): string | undefined {
    const files = configInputs(this.root);
    if (files.join('\n') !== this.configList) {
      const before = new Set(this.configList.split('\n'));
      const after = new Set(files);
      const added = files.find((file) => !before.has(file));
      const removed = [...before].find((file) => !after.has(file));
      return added ? `config file added: ${added}` : `config file removed: ${removed}`;
    }
    for (const [file, signature] of this.signatures) {
      if (signatureOf(file) !== signature) return `input changed: ${file}`;
    }
    return undefined;
  }
}

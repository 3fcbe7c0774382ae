import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KNOWN_WRITES } from '../tools/index.js';
import {
  addKnownWrites,
  addTargets,
  fingerprintTree,
  gitFingerprint,
  gitPrint,
  outsideTargets,
  runGit,
  statSignature,
  type TreeFingerprint,
} from './tree-fingerprint.js';

/**
 * A watch on a served root that makes the tree fingerprint cost the changes, not the tree.
 *
 * The full fingerprint (`git status` of the whole tree) costs about a second at 150,000
 * tracked files. The watch keeps the last fingerprint and an inotify watch on every
 * directory git could report a file in (those holding tracked files, and those
 * `git check-ignore` does not ignore), and on what decides the records (HEAD, the index,
 * the ref HEAD names, config, info/, the ignore and attributes files). Between two
 * questions only the files named by events are looked at again; their records are
 * computed from the index as listed when the watch was armed, lstat and the hash of the
 * file's bytes; a new directory is watched, then read. Whatever the watch cannot vouch for
 * takes the full fingerprint and arms again: an event without a name, a watcher error, a
 * removed or moved directory, a change under `.git`, an ignore, attributes or modules
 * file, more events than half the inotify queue, a file whose record is not a plain one
 * (renames, conflicts, intent-to-add, skip-worktree, assume-unchanged), content git would
 * convert (CRLF under eol settings, filters).
 *
 * Linux only: inotify queues an event within the writing system call, so once the loop
 * has polled after a question, every change made before it has been seen (drainEvents).
 * macOS FSEvents and Windows deliver later, with no flush: full fingerprints there.
 * Nothing is ever written under the root (no cookie files).
 *
 * Files with more than one link (found when the watch arms, or when an event names them)
 * and what tracked symlinks lead to outside the root are looked at on every question: a
 * write through another name, or outside the root, gives the watched name no event.
 *
 * Not covered: a hard link made to a tree file from outside the root after the watch
 * armed, then written through (inotify reports neither, and only a stat of every file
 * would show it); writes through a shared memory mapping (inotify reports none); a lost
 * event while fewer than half the queue reached this watch (an overflow needs a full
 * queue, all of which is delivered; the server's only other watch, the gates' on the
 * root, shares the root's); git config at a system prefix other than /etc.
 */

export type TreeWatchState =
  { active: true; directories: number } | { active: false; reason: string };

/** statfs f_type of filesystems whose local changes inotify reports. */
const INOTIFY_FILESYSTEMS = new Map<number, string>([
  [0xef53, 'ext2/3/4'],
  [0x58465342, 'xfs'],
  [0x9123683e, 'btrfs'],
  [0x01021994, 'tmpfs'],
  [0x794c7630, 'overlayfs'],
  [0x2fc12fc1, 'zfs'],
  [0xf2f52010, 'f2fs'],
]);

/** Files under the git directory whose changes leave every status record as it was. */
const QUIET_GIT_FILES =
  /^(?:.*\.lock|FETCH_HEAD|ORIG_HEAD|COMMIT_EDITMSG|AUTO_MERGE|gc\.pid|gc\.log|logs|objects)$/;
/** Worktree files whose change can change the records of other files. */
const RULE_FILES = new Set(['.gitignore', '.gitattributes', '.gitmodules', '.git']);
/** Attributes that make git's hash of a file differ from the hash of its bytes, whatever they hold. */
const CONVERTING_ATTRIBUTES = /\b(?:filter|ident|working-tree-encoding)\b/;

function readNumber(file: string): number | undefined {
  try {
    const value = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    return Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function lstatOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Lets the loop poll: inotify events are queued by the kernel within the writing system
 * call, and libuv reads the inotify descriptor (and runs every watcher callback) in the
 * poll phase. The first immediate may run in the check phase of the iteration whose poll
 * is already over; the second is queued from the check phase, so it runs after one more
 * poll, which began after this call. Every change made before the call has been seen then
 * (with one immediate, the write-then-ask tests fail).
 */
export async function drainEvents(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}

/** Bounds the directories of the known write places watched; past it they are read each time. */
const KNOWN_WRITES_DIRECTORY_CAP = 2000;

/**
 * Git's part with the known write places' entries where it has none, and what tracked
 * symlinks lead to outside the root, as fingerprintTree adds them.
 */
function composed(
  git: TreeFingerprint,
  known: Map<string, string>,
  targets: Map<string, string>,
): TreeFingerprint {
  const entries = new Map(git.entries);
  for (const [file, state] of known) if (!entries.has(file)) entries.set(file, state);
  addTargets(entries, targets);
  return { ...git, entries };
}

/** Not watchable here, and why: kept for the life of the watch (doctor says it). */
class Unwatchable extends Error {}

interface GitLayout {
  top: string;
  gitDir: string;
  commonDir: string;
  config: Map<string, string>;
}

class WatchedTree {
  private readonly realRoot: string;
  private state: TreeWatchState | undefined;
  private watchers: fs.FSWatcher[] = [];
  private closed = false;
  /** Directories watched, root-relative ('' is the root), with their watchers. */
  private directories = new Map<string, fs.FSWatcher>();
  /** Watched directories whose own watch reported them deleted, moved or changed. */
  private gone = new Set<string>();
  /** Index entries by root-relative path: `<mode> <object>`, or '!' for one not plain. */
  private index = new Map<string, string>();
  /** Directories holding tracked files: watched even where git ignores untracked ones. */
  private trackedDirectories = new Set<string>();
  private hashAlgorithm: 'sha1' | 'sha256' = 'sha1';
  /** What git's clean step may do to a file's bytes: nothing, CRLF to LF, or unknown. */
  private conversion: 'none' | 'crlf' | 'unknown' = 'none';
  /** An intent-to-add entry lets git pair a deleted file with it as a worktree rename. */
  private intentToAdd = false;
  /** Paths whose record depends on more than their own file (GitFingerprint.coupled). */
  private coupled = new Set<string>();
  /**
   * The last answer (`print`), made of git's part as the watch keeps it (`git`, with each
   * path's record) and the known write places' part (`known`, read again when they change).
   */
  private current:
    | {
        git: TreeFingerprint;
        records: Map<string, string>;
        known: Map<string, string>;
        targets: Map<string, string>;
        print: TreeFingerprint;
      }
    | undefined;
  /** Tracked symlinks (index mode 120000): what they lead to outside the root is read each time. */
  private links = new Set<string>();
  /**
   * Files with more than one link, by root-relative path, with their stat when last looked
   * at: a write through another name (outside the root, or a name inside it) gives this
   * name no event, so each is looked at on every question.
   */
  private linked = new Map<string, string>();
  /** The known write places (addKnownWrites) changed, or cannot be watched: read them again. */
  private knownDirty = false;
  private knownUnwatched = false;
  /** Files of the known write places with more than one link: written through another name, no event comes. */
  private knownLinked = new Map<string, string>();
  private knownWatchers: fs.FSWatcher[] = [];
  private dirty = new Set<string>();
  /** Why the next answer must be a full fingerprint, once something said so. */
  private needFull: string | undefined;
  private events = 0;
  private readonly eventLimit: number;
  private queue: Promise<unknown> = Promise.resolve();
  /** Answers from the events (`updated`) and from a full fingerprint taken on arming (`armed`). */
  readonly counts = { updated: 0, armed: 0 };
  /** Why each full answer after the first was taken, by reason (tests and measurements). */
  readonly fallbacks = new Map<string, number>();

  constructor(
    private readonly root: string,
    private readonly env: NodeJS.ProcessEnv,
    eventLimit?: number,
  ) {
    let realRoot = root;
    try {
      realRoot = fs.realpathSync.native(root);
    } catch {
      // The fingerprint says why the root cannot be read.
    }
    this.realRoot = realRoot;
    // Node does not report an inotify queue overflow: past half the queue, assume one.
    this.eventLimit =
      eventLimit ?? Math.floor((readNumber('/proc/sys/fs/inotify/max_queued_events') ?? 16384) / 2);
  }

  status(): TreeWatchState | undefined {
    return this.state?.active ? { active: true, directories: this.directories.size } : this.state;
  }

  /** One question at a time: each answer starts from the one before. */
  fingerprint(): Promise<TreeFingerprint> {
    const answer = this.queue.then(() => this.answer());
    this.queue = answer.catch(() => {});
    return answer;
  }

  close(): void {
    this.closed = true;
    this.closeWatchers();
  }

  private closeWatchers(): void {
    for (const watcher of [...this.watchers, ...this.knownWatchers]) watcher.close();
    this.watchers = [];
    this.knownWatchers = [];
    this.directories = new Map();
    this.gone = new Set();
  }

  private async answer(): Promise<TreeFingerprint> {
    if (this.closed || this.state?.active === false) return fingerprintTree(this.root, this.env);
    await drainEvents();
    const started = Date.now();
    let reason = this.needFull;
    if (this.events > this.eventLimit) reason = 'more events than the limit';
    if (this.current && reason === undefined) {
      let next: TreeFingerprint | string;
      try {
        next = await this.update();
      } catch (error) {
        // Arming says whether the watch can go on (past the watch limit it cannot).
        next = `an error: ${(error as Error).message}`;
      }
      if (typeof next !== 'string') {
        this.counts.updated += 1;
        return { ...next, durationMs: Date.now() - started };
      }
      reason = next;
    }
    if (reason !== undefined) this.fallbacks.set(reason, (this.fallbacks.get(reason) ?? 0) + 1);
    try {
      return await this.arm();
    } catch (error) {
      this.closeWatchers();
      this.current = undefined;
      const reason =
        error instanceof Unwatchable
          ? error.message
          : `the watch failed: ${(error as Error).message}`;
      this.state = { active: false, reason };
      return fingerprintTree(this.root, this.env);
    }
  }

  /** The fingerprint after the events since the last one, or why only a full one will do. */
  private async update(): Promise<TreeFingerprint | string> {
    const current = this.current!;
    for (const [file, seen] of this.linked)
      if (statSignature(path.join(this.root, file)) !== seen) this.dirty.add(file);
    const changed = [...this.dirty];
    this.dirty.clear();
    this.events = 0;
    const gone = [...this.gone];
    this.gone.clear();
    for (const [file, seen] of this.knownLinked)
      if (statSignature(path.join(this.root, file)) !== seen) this.knownDirty = true;
    const knownChanged = this.knownDirty || this.knownUnwatched;
    this.knownDirty = false;
    const { targets, unseen } = outsideTargets(this.root, this.links);
    if (unseen)
      return 'a tracked symlink leads to a directory outside the root with more files than are read';
    const sameTargets =
      targets.size === current.targets.size &&
      [...targets].every(([link, target]) => current.targets.get(link) === target);
    if (changed.length === 0 && gone.length === 0 && !knownChanged && sameTargets)
      return current.print;
    let { git, records } = current;
    if (changed.length > 0 || gone.length > 0) {
      const next = await this.updateGit(changed, gone);
      if (typeof next === 'string') return next;
      ({ git, records } = next);
    }
    const known = knownChanged ? this.readKnownWrites() : current.known;
    const print = composed(git, known, targets);
    this.current = { git, records, known, targets, print };
    return print;
  }

  /**
   * Git's part after events on `changed` and the directories `gone` (whose watches are
   * dropped and whose files are looked at again), or why only a full fingerprint will do.
   */
  private async updateGit(
    changed: string[],
    gone: string[],
  ): Promise<{ git: TreeFingerprint; records: Map<string, string> } | string> {
    const current = this.current!;
    const entries = new Map(current.git.entries);
    const records = new Map(current.records);
    const queued = new Set(changed);
    // Only the outermost: a directory removed with its parent is covered by the parent's.
    const outermost = gone.filter(
      (directory) => !gone.some((other) => directory.startsWith(`${other}/`)),
    );
    for (const directory of outermost) {
      const prefix = `${directory}/`;
      for (const [watched, watcher] of this.directories)
        if (watched === directory || watched.startsWith(prefix)) {
          watcher.close();
          this.directories.delete(watched);
        }
      queued.add(directory);
      for (const file of this.index.keys()) if (file.startsWith(prefix)) queued.add(file);
      for (const file of records.keys()) if (file.startsWith(prefix)) queued.add(file);
    }
    const fresh: string[] = [];
    let pending = [...queued];
    while (pending.length > 0) {
      const freshDirectories: string[] = [];
      for (const file of pending) {
        if (this.coupled.has(file)) return 'a file with a coupled record';
        if (RULE_FILES.has(path.posix.basename(file)))
          return 'an ignore, attributes or modules file';
        const absolute = path.join(this.root, file);
        const stat = lstatOrUndefined(absolute);
        if (stat?.isDirectory()) {
          if (this.index.has(file) || records.has(file)) return 'a file became a directory';
          // Not watched: new, made again, or one git ignores (a build's output made again).
          if (!this.directories.has(file)) freshDirectories.push(file);
          continue;
        }
        // Gone without its own watch saying so: not expected, not vouched for.
        if (this.directories.has(file)) return 'a watched directory removed unseen';
        this.noteLinks(file, absolute, stat);
        let record: string | null | undefined;
        if (this.index.has(file)) record = this.trackedRecord(file, absolute, stat, records);
        else {
          const before = records.get(file);
          if (before === '?') record = stat ? '?' : null;
          else if (before !== undefined) return 'a file not plain';
          else if (stat) {
            fresh.push(file);
            continue;
          } else record = null;
        }
        if (record === undefined) return 'a file not plain';
        if (record === null) {
          entries.delete(file);
          records.delete(file);
        } else {
          entries.set(file, `${record}|${statSignature(absolute)}`);
          records.set(file, record);
        }
      }
      pending = [];
      if (freshDirectories.length > 0) {
        // Directories holding tracked files are watched whatever git ignores; others unless ignored.
        const untracked = freshDirectories.filter((file) => !this.trackedDirectories.has(file));
        const ignored = untracked.length > 0 ? await this.ignoredOf(untracked) : new Set();
        if (!ignored) return 'git check-ignore failed';
        const grown = freshDirectories.filter((directory) => !ignored.has(directory));
        const found = { attributes: [], files: [] as string[] };
        const reason = await this.watchTree(grown, found, true);
        if (reason !== undefined) return reason;
        // What the directories hold, watched before read, is looked at like any change.
        pending = found.files.filter((file) => !queued.has(file));
        for (const file of pending) queued.add(file);
      }
    }
    if (fresh.length > 0) {
      const ignored = await this.ignoredOf(fresh);
      if (!ignored) return 'git check-ignore failed';
      for (const file of fresh) {
        const signature = statSignature(path.join(this.root, file));
        // Gone since: its event is queued for the next question.
        if (ignored.has(file) || signature === 'absent') {
          this.linked.delete(file);
          continue;
        }
        entries.set(file, `?|${signature}`);
        records.set(file, '?');
      }
    }
    return { git: { ...current.git, entries }, records };
  }

  /**
   * The known write places (tools' caches, watched by the full fingerprint even where git
   * ignores them), read as addKnownWrites reads them, after watching them again: the way
   * from the root to each place (for the name that leads on) and every directory in it.
   * Past a bound on their directories they are read on every answer instead.
   */
  private readKnownWrites(): Map<string, string> {
    for (const watcher of this.knownWatchers) watcher.close();
    this.knownWatchers = [];
    const onChange = () => {
      this.knownDirty = true;
    };
    let directories = 0;
    try {
      for (const place of KNOWN_WRITES) {
        let directory = '';
        let reached = true;
        for (const name of place.split('/')) {
          const onName = (event: string | null) => {
            if (event === null || event === name) onChange();
          };
          this.watchDirectory(path.join(this.root, directory), onName, this.knownWatchers);
          directory = directory === '' ? name : `${directory}/${name}`;
          if (!lstatOrUndefined(path.join(this.root, directory))?.isDirectory()) {
            reached = false;
            break;
          }
        }
        const stack = reached ? [directory] : [];
        while (stack.length > 0) {
          const next = stack.pop()!;
          const absolute = path.join(this.root, next);
          if (!this.watchDirectory(absolute, onChange, this.knownWatchers)) continue;
          directories += 1;
          if (directories > KNOWN_WRITES_DIRECTORY_CAP) throw new Error('too many directories');
          for (const entry of fs.readdirSync(absolute, { withFileTypes: true }))
            if (entry.isDirectory()) stack.push(`${next}/${entry.name}`);
        }
      }
      this.knownUnwatched = false;
    } catch {
      // Not all watched (too many directories, the watch limit, a directory gone): read
      // on every answer, as the full fingerprint does.
      this.knownUnwatched = true;
    }
    const known = new Map<string, string>();
    addKnownWrites(this.root, known);
    this.knownLinked = new Map();
    for (const file of known.keys()) {
      const absolute = path.join(this.root, file);
      if ((lstatOrUndefined(absolute)?.nlink ?? 1) > 1)
        this.knownLinked.set(file, statSignature(absolute));
    }
    return known;
  }

  /**
   * The status record git gives a tracked file whose index entry is as listed at arming:
   * the HEAD side from its last record (none: HEAD equals the index), the worktree side
   * from lstat and the hash of its bytes. null: no record (clean); undefined: not plain.
   */
  private trackedRecord(
    file: string,
    absolute: string,
    stat: fs.Stats | undefined,
    records: Map<string, string>,
  ): string | null | undefined {
    const entry = this.index.get(file)!;
    if (entry === '!' || this.intentToAdd) return undefined;
    const [indexMode, indexObject] = entry.split(' ') as [string, string];
    let staged = '.';
    let headMode = indexMode;
    let headObject = indexObject;
    const before = records.get(file);
    if (before !== undefined) {
      const fields = before.split(' ');
      // `1 XY sub mH mI mW hH hI`: only an ordinary change record is recomputed here.
      if (fields[0] !== '1' || fields[2] !== 'N...') return undefined;
      if (fields[4] !== indexMode || fields[7] !== indexObject) return undefined;
      staged = fields[1]![0]!;
      headMode = fields[3]!;
      headObject = fields[6]!;
    }
    let worktree: string;
    let worktreeMode: string;
    if (!stat) {
      worktree = 'D';
      worktreeMode = '000000';
    } else if (stat.isFile() || stat.isSymbolicLink()) {
      const link = stat.isSymbolicLink();
      worktreeMode = link ? '120000' : stat.mode & 0o100 ? '100755' : '100644';
      if ((indexMode === '120000') !== link) worktree = 'T';
      else if (indexMode !== '120000' && indexMode !== '100644' && indexMode !== '100755')
        return undefined;
      else {
        const object = this.objectOf(absolute, link);
        if (object === undefined) return undefined;
        worktree = object === indexObject && worktreeMode === indexMode ? '.' : 'M';
      }
    } else return undefined;
    if (staged === '.' && worktree === '.') return null;
    return `1 ${staged}${worktree} N... ${headMode} ${indexMode} ${worktreeMode} ${headObject} ${indexObject}`;
  }

  /** Keeps `linked` current for a file just looked at. */
  private noteLinks(file: string, absolute: string, stat: fs.Stats | undefined): void {
    if (stat?.isFile() && stat.nlink > 1) this.linked.set(file, statSignature(absolute));
    else this.linked.delete(file);
  }

  /** The object name git would give the file's content, when its clean step cannot change it. */
  private objectOf(absolute: string, link: boolean): string | undefined {
    let content: Buffer;
    try {
      content = link
        ? fs.readlinkSync(absolute, { encoding: 'buffer' })
        : fs.readFileSync(absolute);
    } catch {
      return undefined;
    }
    if (!link && this.conversion !== 'none') {
      // Without CR, end-of-line conversion leaves the bytes as they are.
      if (this.conversion === 'unknown' || content.includes(13)) return undefined;
    }
    return crypto
      .createHash(this.hashAlgorithm)
      .update(`blob ${content.length}\0`)
      .update(content)
      .digest('hex');
  }

  /** Which of these untracked root-relative paths git ignores; undefined if git did not say. */
  private async ignoredOf(files: string[]): Promise<Set<string> | undefined> {
    // --no-index: the paths asked are untracked, and reading a large index costs ~90 ms.
    const run = await runGit(
      ['check-ignore', '--no-index', '-z', '--stdin'],
      this.root,
      this.env,
      files.join('\0'),
    );
    // Exit 1: none of them is ignored.
    if (!run.ok && !/exited 1:/.test(run.problem)) return undefined;
    return new Set(run.stdout.toString('utf8').split('\0').filter(Boolean));
  }

  private countEvent(): void {
    this.events += 1;
  }

  /** Watches one directory; `onName` gets each event's file name (null: none given). */
  private watchDirectory(
    absolute: string,
    onName: (name: string | null) => void,
    into: fs.FSWatcher[] = this.watchers,
  ): fs.FSWatcher | undefined {
    if (this.closed) return undefined;
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(absolute, { persistent: false }, (_event, name) => {
        this.countEvent();
        // A name that is not valid UTF-8 cannot be matched to git's paths.
        onName(name === null || name.includes('\uFFFD') ? null : name);
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      if (code === 'ENOSPC')
        throw new Unwatchable(
          `the inotify watch limit (fs.inotify.max_user_watches = ${readNumber('/proc/sys/fs/inotify/max_user_watches') ?? '?'}) was reached at ${this.directories.size} directories; raise it (sysctl fs.inotify.max_user_watches=524288) and restart the server`,
        );
      throw new Unwatchable(`cannot watch ${absolute}: ${(error as Error).message}`);
    }
    watcher.on('error', () => {
      this.needFull = 'a watcher failed';
    });
    into.push(watcher);
    return watcher;
  }

  /** Watches the nearest existing directory on the way to `file`, for the name that leads to it. */
  private watchPath(file: string): void {
    let child = path.resolve(file);
    for (let directory = path.dirname(child); ; directory = path.dirname(directory)) {
      const name = path.basename(child);
      const onName = (event: string | null) =>
        this.fullIf(event === null || event === name, 'a git file outside the tree');
      if (this.watchDirectory(directory, onName)) return;
      if (path.dirname(directory) === directory) return;
      child = directory;
    }
  }

  private fullIf(condition: boolean, reason: string): void {
    if (condition) this.needFull ??= reason;
  }

  private readonly full = (): void => this.fullIf(true, 'a change under .git');

  private async layout(): Promise<GitLayout> {
    const info = await runGit(
      ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir'],
      this.root,
      this.env,
    );
    // No git on PATH says nothing about the repository: name what is missing.
    if (info.missing)
      throw new Unwatchable(
        `git is not on the PATH (${info.problem}): fingerprints walk the tree; install git, or put it on the PATH the server gets, and restart the server to watch it`,
      );
    if (!info.ok)
      throw new Unwatchable(
        `no git repository (${info.problem}): fingerprints walk the tree; \`git init\` and restart the server to watch it`,
      );
    const [top, gitDir, common] = info.stdout.toString('utf8').trim().split('\n');
    const configRun = await runGit(['config', '-z', '--list'], this.root, this.env);
    if (!configRun.ok) throw new Unwatchable(`git config --list failed: ${configRun.problem}`);
    const config = new Map<string, string>();
    for (const item of configRun.stdout.toString('utf8').split('\0')) {
      const cut = item.indexOf('\n');
      if (cut > 0) config.set(item.slice(0, cut).toLowerCase(), item.slice(cut + 1));
    }
    return { top: top!, gitDir: gitDir!, commonDir: path.resolve(this.root, common!), config };
  }

  /** Refuses settings under which a record cannot be computed from lstat and the content hash. */
  private checkConfig(config: Map<string, string>): void {
    const setting = (key: string) => config.get(key)?.toLowerCase();
    const refusals: [string, string | undefined, boolean][] = [
      ['core.filemode', setting('core.filemode'), setting('core.filemode') === 'false'],
      ['core.symlinks', setting('core.symlinks'), setting('core.symlinks') === 'false'],
      ['core.ignorecase', setting('core.ignorecase'), setting('core.ignorecase') === 'true'],
      ['core.trustctime', setting('core.trustctime'), setting('core.trustctime') === 'false'],
      ['core.checkstat', setting('core.checkstat'), setting('core.checkstat') === 'minimal'],
    ];
    for (const [key, value, refused] of refusals)
      if (refused)
        throw new Unwatchable(
          `${key} = ${value}: git then decides file state in a way the watch does not reproduce; full fingerprints are used`,
        );
    this.hashAlgorithm = setting('extensions.objectformat') === 'sha256' ? 'sha256' : 'sha1';
    const autocrlf = setting('core.autocrlf');
    if ((autocrlf && autocrlf !== 'false') || config.has('core.eol')) this.conversion = 'crlf';
  }

  /**
   * Arms the watch and takes the baseline: git's files first, then every directory git
   * could report a file in (each watched before it is read), then the full fingerprint.
   * Anything that changes after its watch is armed is an event for the next question.
   */
  private async arm(): Promise<TreeFingerprint> {
    const started = Date.now();
    this.closeWatchers();
    this.current = undefined;
    this.dirty.clear();
    this.needFull = undefined;
    this.knownDirty = false;
    this.events = 0;
    this.conversion = 'none';
    this.intentToAdd = false;
    this.coupled = new Set();
    if (process.platform !== 'linux')
      throw new Unwatchable(
        `${process.platform} reports file changes late and cannot be flushed (the watch relies on Linux inotify): full fingerprints are used`,
      );
    let filesystem: number;
    try {
      filesystem = fs.statfsSync(this.root).type;
    } catch (error) {
      throw new Unwatchable(
        `cannot read the filesystem of ${this.root}: ${(error as Error).message}`,
      );
    }
    if (!INOTIFY_FILESYSTEMS.has(filesystem))
      throw new Unwatchable(
        `the filesystem (type 0x${filesystem.toString(16)}) is not one known to report every change through inotify (network and FUSE filesystems do not): full fingerprints are used`,
      );
    const layout = await this.layout();
    this.checkConfig(layout.config);
    const attributeTexts: string[] = [];
    this.watchGitDirectories(layout, attributeTexts);
    await this.listIndex();
    const unwatchable = await this.watchTree(
      [''],
      { attributes: attributeTexts, files: [] },
      false,
    );
    if (unwatchable !== undefined) throw new Unwatchable(unwatchable);
    if (attributeTexts.some((text) => CONVERTING_ATTRIBUTES.test(text)))
      this.conversion = 'unknown';
    else if (attributeTexts.some((text) => text.trim() !== '') && this.conversion === 'none')
      this.conversion = 'crlf';
    const git = await gitFingerprint(this.root, this.env);
    if (!git.entries || !git.records)
      throw new Unwatchable(`git status failed: ${git.problem ?? 'no answer'}`);
    for (const record of git.records.values()) {
      if (record.startsWith('1 ') && record[3] === 'A') this.intentToAdd = true;
    }
    this.coupled = git.coupled ?? new Set();
    // Files with more links: tracked ones and those git lists as untracked (the rest it ignores).
    this.linked = new Map();
    for (const file of [...this.index.keys(), ...git.records.keys()]) {
      const absolute = path.join(this.root, file);
      this.noteLinks(file, absolute, lstatOrUndefined(absolute));
    }
    const { targets, unseen } = outsideTargets(this.root, this.links);
    if (unseen)
      throw new Unwatchable(
        'a tracked symlink leads to a directory outside the root with more files than are read: full fingerprints are used',
      );
    const gitPart = gitPrint(git.entries, git.head, started);
    const known = this.readKnownWrites();
    const print = composed(gitPart, known, targets);
    print.durationMs = Date.now() - started;
    this.current = { git: gitPart, records: git.records, known, targets, print };
    this.state = { active: true, directories: this.directories.size };
    this.counts.armed += 1;
    return print;
  }

  /**
   * HEAD, the index, config, packed refs and info/ (a change there: full), the ref HEAD
   * names, the ignore and attributes files of the root's parents up to the top, and the
   * user's and system's git config, excludes and attributes files.
   */
  private watchGitDirectories(layout: GitLayout, attributeTexts: string[]): void {
    const onGitFile = (name: string | null) =>
      this.fullIf(name === null || !QUIET_GIT_FILES.test(name), 'a change under .git');
    for (const directory of new Set([layout.gitDir, layout.commonDir]))
      if (!this.watchDirectory(directory, onGitFile))
        throw new Unwatchable(`cannot watch the git directory ${directory}`);
    const info = path.join(layout.commonDir, 'info');
    if (!this.watchDirectory(info, this.full)) this.watchPath(info);
    attributeTexts.push(readText(path.join(info, 'attributes')));
    const reftable = path.join(layout.commonDir, 'reftable');
    if (fs.existsSync(reftable)) this.watchDirectory(reftable, this.full);
    const head = readText(path.join(layout.gitDir, 'HEAD')).trim();
    if (head.startsWith('ref: ')) this.watchPath(path.join(layout.commonDir, head.slice(5)));
    for (
      let directory = path.dirname(this.realRoot);
      directory.length >= layout.top.length && directory !== path.dirname(directory);
      directory = path.dirname(directory)
    ) {
      this.watchDirectory(directory, (name) =>
        this.fullIf(name === null || RULE_FILES.has(name), 'an ignore file above the root'),
      );
      attributeTexts.push(readText(path.join(directory, '.gitattributes')));
    }
    const home = os.homedir();
    const xdg = this.env.XDG_CONFIG_HOME || path.join(home, '.config');
    const userFiles = [
      path.join(home, '.gitconfig'),
      path.join(xdg, 'git', 'config'),
      path.join(xdg, 'git', 'ignore'),
      path.join(xdg, 'git', 'attributes'),
      '/etc/gitconfig',
      '/etc/gitattributes',
    ];
    for (const key of ['core.excludesfile', 'core.attributesfile']) {
      const value = layout.config.get(key);
      if (value) userFiles.push(path.resolve(layout.top, value.replace(/^~(?=\/|$)/, home)));
    }
    for (const file of userFiles) this.watchPath(file);
    for (const file of userFiles.filter((name) => /attributes$/.test(name)))
      attributeTexts.push(readText(file));
  }

  /** The index as git lists it: every entry's mode and object, and the directories holding them. */
  private async listIndex(): Promise<void> {
    const run = await runGit(['ls-files', '-z', '-s', '-v'], this.root, this.env);
    if (!run.ok) throw new Unwatchable(`git ls-files failed: ${run.problem}`);
    const index = new Map<string, string>();
    const tracked = new Set<string>(['']);
    const links = new Set<string>();
    for (const line of run.stdout.toString('utf8').split('\0')) {
      // `<tag> <mode> <object> <stage>\t<path>`
      const tab = line.indexOf('\t');
      if (tab === -1) continue;
      const [tag, mode, object, stage] = line.slice(0, tab).split(' ');
      const file = line.slice(tab + 1);
      if (mode === '120000') links.add(file);
      if (mode === '160000')
        throw new Unwatchable(
          `${file} is a submodule, whose changes the watch does not follow: full fingerprints are used`,
        );
      // Plain: cached (H), stage 0. Others (skip-worktree, assume-unchanged, conflicts) take the full way.
      index.set(file, tag === 'H' && stage === '0' && !index.has(file) ? `${mode} ${object}` : '!');
      for (let cut = file.lastIndexOf('/'); cut > 0; cut = file.lastIndexOf('/', cut - 1)) {
        const directory = file.slice(0, cut);
        if (tracked.has(directory)) break;
        tracked.add(directory);
      }
    }
    this.index = index;
    this.trackedDirectories = tracked;
    this.links = links;
  }

  /**
   * Watches every directory git could report a file in under `start`, breadth first: those
   * holding tracked files and those git does not ignore (asked of `git check-ignore` once
   * per depth, after the parents, whose ignore files decide it, are watched). Each is
   * watched before it is read, so a file made before is read and one made after is an
   * event. Growing (new directories found by events), its files are collected, and what
   * the watch cannot take in place (an ignore or attributes file, a nested repository) is
   * returned as the reason to take the full way.
   */
  private async watchTree(
    start: string[],
    found: { attributes: string[]; files: string[] },
    growing: boolean,
  ): Promise<string | undefined> {
    const limit = readNumber('/proc/sys/fs/inotify/max_user_watches') ?? 8192;
    let level = start;
    while (level.length > 0) {
      const next: string[] = [];
      const candidates: string[] = [];
      for (const directory of level) {
        const absolute = path.join(this.root, directory);
        const watcher = this.watchDirectory(absolute, this.onTreeEvent(directory, absolute));
        if (!watcher) continue;
        this.directories.set(directory, watcher);
        if (this.directories.size > limit / 2)
          throw new Unwatchable(
            `more than ${Math.floor(limit / 2)} directories to watch, half of fs.inotify.max_user_watches (${limit}); raise it (sysctl fs.inotify.max_user_watches=${limit * 4}) and restart the server`,
          );
        let names: fs.Dirent[];
        try {
          names = fs.readdirSync(absolute, { withFileTypes: true });
        } catch (error) {
          return `cannot read ${absolute}: ${(error as Error).message}`;
        }
        for (const entry of names) {
          if (entry.name === '.git') {
            if (directory === '') continue;
            return `${directory} is a nested repository, whose changes the watch does not follow: full fingerprints are used`;
          }
          if (growing && RULE_FILES.has(entry.name)) return 'an ignore, attributes or modules file';
          const child = directory === '' ? entry.name : `${directory}/${entry.name}`;
          if (entry.name === '.gitattributes')
            found.attributes.push(readText(path.join(this.root, child)));
          if (!entry.isDirectory()) {
            if (growing) found.files.push(child);
          } else if (this.trackedDirectories.has(child)) next.push(child);
          else candidates.push(child);
        }
      }
      if (candidates.length > 0) {
        const ignored = await this.ignoredOf(candidates);
        if (!ignored) return 'git check-ignore failed on the tree directories';
        for (const candidate of candidates) if (!ignored.has(candidate)) next.push(candidate);
      }
      level = next;
    }
    return undefined;
  }

  /** What an event in a watched tree directory means: that file is to be looked at again. */
  private onTreeEvent(directory: string, absolute: string): (name: string | null) => void {
    return (name) => {
      if (name === null) this.fullIf(true, 'an event without a name');
      else {
        this.dirty.add(directory === '' ? name : `${directory}/${name}`);
        // An event on the directory itself (deleted, moved, its mode changed) carries its
        // own name (libuv): its watch may follow it elsewhere, so it is read again. (A
        // child of the same name reads the directory again too.)
        if (name === path.basename(absolute)) {
          if (directory === '') this.fullIf(true, 'the root removed or moved');
          else this.gone.add(directory);
        }
      }
    };
  }
}

/** The tree watches of one server: one per directory gates run in, until `close`. */
export class TreeWatches {
  private readonly trees = new Map<string, WatchedTree>();
  private closed = false;

  /** `eventLimit`: events between two answers past which one is assumed lost (tests lower it). */
  constructor(private readonly options: { eventLimit?: number } = {}) {}

  /** The tree's fingerprint, equal to fingerprintTree's; the first call arms the watch. */
  fingerprint(root: string, env: NodeJS.ProcessEnv = process.env): Promise<TreeFingerprint> {
    if (this.closed) return fingerprintTree(root, env);
    let tree = this.trees.get(root);
    if (!tree) {
      tree = new WatchedTree(root, env, this.options.eventLimit);
      this.trees.set(root, tree);
    }
    return tree.fingerprint();
  }

  /** Whether the watch of `root` is active, and if not why; undefined before its first call. */
  status(root: string): TreeWatchState | undefined {
    return this.trees.get(root)?.status();
  }

  /** How many answers came from events and how many from arming (tests). */
  counts(root: string): { updated: number; armed: number } | undefined {
    const tree = this.trees.get(root);
    return tree ? { ...tree.counts } : undefined;
  }

  /** Why full answers were taken after the first, by reason (tests and measurements). */
  fallbacks(root: string): Record<string, number> {
    return Object.fromEntries(this.trees.get(root)?.fallbacks ?? []);
  }

  close(): void {
    this.closed = true;
    for (const tree of this.trees.values()) tree.close();
    this.trees.clear();
  }
}

/** Arms a watch on `root` as `serve` would, says whether it is active, and stops it (doctor). */
export async function probeTreeWatch(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<TreeWatchState> {
  const tree = new WatchedTree(root, env);
  try {
    await tree.fingerprint();
    return tree.status() ?? { active: false, reason: 'the watch did not start' };
  } finally {
    tree.close();
  }
}

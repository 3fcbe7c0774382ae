import { createRequire, syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as FsModule from 'node:fs';
import { signatureOf } from './input-fingerprint.js';

/**
 * What a tool asked of the filesystem during one warm call, and what the answers were.
 *
 * Why a repeat call may return the earlier result without running the tool: the result
 * of a call is a function of the code loaded (the worker's InputRecord restarts the
 * worker when any of it changes), the arguments and environment (the cache key and the
 * worker's identity), and what the tool read from the filesystem during the call. The
 * ledger records every such read with the answer signed BEFORE the tool got it (content
 * hash, stat fields, directory listing, link target), so when a later check finds every
 * answer unchanged, a rerun would read the same bytes through the same code and print the
 * same output. Cross-file rules are covered by construction: whatever file a rule reads,
 * through whichever fs API, is in the ledger. This is not ESLint's `--cache`, which keys
 * each file on its own content and misses what its rules read elsewhere.
 *
 * What the ledger cannot see makes the call's result not reusable: a child process, a
 * worker thread, a native addon loaded during the call, a write to the filesystem (or a
 * file opened for writing), fs.glob, a read through a file descriptor it did not see
 * opened during the call, or a read of the current time (Date.now(), new Date()).
 */

type Kind = 'content' | 'stat' | 'lstat' | 'list' | 'link';

const requireBuiltin = createRequire(import.meta.url);
const fs = requireBuiltin('node:fs') as typeof FsModule;
const childProcess = requireBuiltin('node:child_process') as Record<string, unknown>;
const workerThreads = requireBuiltin('node:worker_threads') as Record<string, unknown>;

/** The unwrapped functions the ledger itself signs with. */
const original = {
  statSync: fs.statSync,
  lstatSync: fs.lstatSync,
  readdirSync: fs.readdirSync,
  readlinkSync: fs.readlinkSync,
  realpathSync: fs.realpathSync,
};

function entryType(entry: FsModule.Dirent): string {
  if (entry.isFile()) return 'f';
  if (entry.isDirectory()) return 'd';
  if (entry.isSymbolicLink()) return 'l';
  return 'o';
}

function statAnswer(stat: FsModule.BigIntStats | undefined): string {
  if (!stat) return 'absent';
  const type = stat.isFile() ? 'f' : stat.isDirectory() ? 'd' : stat.isSymbolicLink() ? 'l' : 'o';
  return `${type}:${stat.size}:${stat.mtimeNs}:${stat.ino}:${stat.mode}`;
}

/** The answer a question gets now; the same function signs and re-checks. */
function answerOf(kind: Kind, file: string): string {
  try {
    switch (kind) {
      case 'content':
        return signatureOf(file);
      case 'stat':
        return statAnswer(original.statSync(file, { bigint: true, throwIfNoEntry: false }));
      case 'lstat':
        return statAnswer(original.lstatSync(file, { bigint: true, throwIfNoEntry: false }));
      case 'list':
        return original
          .readdirSync(file, { withFileTypes: true })
          .map((entry) => `${entry.name}/${entryType(entry)}`)
          .sort()
          .join('\n');
      case 'link': {
        let target = '';
        try {
          target = original.readlinkSync(file);
        } catch {
          // Not a link: the resolved path below still says where it leads.
        }
        return `${target}\0${original.realpathSync(file)}`;
      }
    }
  } catch (error) {
    return `error:${(error as NodeJS.ErrnoException).code ?? 'unknown'}`;
  }
}

/** The path a call names, absolute; undefined for a file descriptor or anything else. */
function pathArgument(value: unknown): string | undefined {
  if (typeof value === 'string') return path.resolve(value);
  if (value instanceof URL) return value.protocol === 'file:' ? fileURLToPath(value) : undefined;
  if (Buffer.isBuffer(value)) return path.resolve(value.toString('utf8'));
  return undefined;
}

/** Which question each wrapped fs function asks (callback, sync and promise forms alike). */
const QUESTIONS: Record<string, Kind> = {
  readFile: 'content',
  open: 'content',
  createReadStream: 'content',
  openAsBlob: 'content',
  stat: 'stat',
  exists: 'stat',
  access: 'stat',
  lstat: 'lstat',
  readdir: 'list',
  opendir: 'list',
  readlink: 'link',
  realpath: 'link',
};

/** Functions whose use means the call touched what the ledger cannot replay. */
const WRITES = [
  'writeFile',
  'appendFile',
  'mkdir',
  'mkdtemp',
  'rm',
  'rmdir',
  'unlink',
  'rename',
  'copyFile',
  'cp',
  'truncate',
  'symlink',
  'link',
  'chmod',
  'chown',
  'utimes',
  'createWriteStream',
  'write',
  'writev',
  // Lists directories without going through readdir: not recorded, so not replayable.
  'glob',
];

export class ReadLedger {
  private readonly answers = new Map<string, string>();
  private unseen: string | undefined;

  /** Records one question with its answer as it is now (the first time wins). */
  ask(kind: Kind, file: string): void {
    const key = `${kind}\0${file}`;
    if (!this.answers.has(key)) this.answers.set(key, answerOf(kind, file));
  }

  /** The call did something the ledger cannot replay; its result is never reused. */
  notReplayable(what: string): void {
    this.unseen ??= what;
  }

  /** Why this call's result may not be reused, or undefined when it may. */
  get notReusableBecause(): string | undefined {
    return this.unseen;
  }

  get size(): number {
    return this.answers.size;
  }

  /** The first question whose answer changed, or undefined when every one is as recorded. */
  firstChange(): string | undefined {
    for (const [key, answer] of this.answers) {
      const [kind, file] = key.split('\0') as [Kind, string];
      if (answerOf(kind, file) !== answer) return `${kind} ${file}`;
    }
    return undefined;
  }
}

let active: ReadLedger | undefined;
/** Set while the ledger signs, so its own fs calls are not recorded. */
let signing = false;
/**
 * Descriptors the tool opened during the active call: reads through them read what the
 * open recorded. A read through any other descriptor (one opened before the call) is not.
 */
const openedDuringCall = new Set<number>();

function seeDescriptor(fd: unknown): void {
  if (typeof fd === 'number') openedDuringCall.add(fd);
}

function readThroughDescriptor([fd]: unknown[]): void {
  if (typeof fd === 'number' && !openedDuringCall.has(fd))
    active?.notReplayable('a read through a file descriptor opened before the call');
}

/** Where `open` reports its descriptor: the callback's second argument, or the result. */
function seeOpenedDescriptors(name: string, args: unknown[]): void {
  const last = args.length - 1;
  const callback = args[last];
  if (name !== 'open' || typeof callback !== 'function') return;
  args[last] = (error: unknown, fd: unknown) => {
    if (!error) seeDescriptor(fd);
    (callback as (error: unknown, fd: unknown) => void)(error, fd);
  };
}
/** Directories holding the worker's own state (a tool's private cache): never recorded. */
const privateDirectories: string[] = [];

/** Leaves `directory` out of every ledger: reads and writes there are the worker's own. */
export function keepOutOfLedger(directory: string): void {
  privateDirectories.push(path.resolve(directory) + path.sep);
}

const isPrivate = (file: string | undefined) =>
  file !== undefined &&
  privateDirectories.some(
    (directory) => file.startsWith(directory) || file + path.sep === directory,
  );

function note(kind: Kind, value: unknown): void {
  const ledger = active;
  if (!ledger || signing) return;
  if (typeof value === 'number') return readThroughDescriptor([value]);
  const file = pathArgument(value);
  if (isPrivate(file)) return;
  signing = true;
  try {
    if (file === undefined) ledger.notReplayable(`a read of ${String(value)}`);
    else ledger.ask(kind, file);
  } finally {
    signing = false;
  }
}

/** Whether `open`'s flags ask for more than reading ('w', 'a+', 'r+', O_WRONLY, O_CREAT...). */
function opensForWriting(flags: unknown): boolean {
  if (flags === undefined || flags === null) return false;
  if (typeof flags === 'number') {
    const { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND } = fs.constants;
    return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)) !== 0;
  }
  return typeof flags === 'string' && flags !== 'r' && flags !== 'rs' && flags !== 'sr';
}

const MARKER = Symbol('mcp-gates read ledger');

/**
 * Replaces target[name] by a function that calls `before` with the arguments (it may
 * replace a callback among them) and `after` with the result, while a ledger records.
 */
function wrap(
  target: Record<string, unknown>,
  name: string,
  before: (args: unknown[]) => void,
  after?: (result: unknown) => void,
): void {
  const fn = target[name];
  if (typeof fn !== 'function' || MARKER in fn) return;
  const wrapped = function (this: unknown, ...args: unknown[]) {
    const recording = active !== undefined && !signing;
    if (recording) before(args);
    const result = (fn as (...a: unknown[]) => unknown).apply(this, args);
    if (recording && after) after(result);
    return result;
  };
  // realpath.native, promisify.custom and the like hang off the function itself.
  const {
    length: _length,
    name: _name,
    prototype: _prototype,
    ...own
  } = Object.getOwnPropertyDescriptors(fn);
  Object.defineProperties(wrapped, own);
  Object.defineProperty(wrapped, 'name', { value: (fn as { name: string }).name });
  Object.defineProperty(wrapped, MARKER, { value: true });
  target[name] = wrapped;
}

let installed = false;

/**
 * Wraps the fs, child_process and worker_threads functions once per process (before the
 * tool is loaded) so that, while a ledger is active, every question is recorded. With no
 * active ledger the wrappers only pass through.
 */
export function installReadRecording(): void {
  if (installed) return;
  installed = true;
  const promises = fs.promises as unknown as Record<string, unknown>;
  const callbackAndSync = fs as unknown as Record<string, unknown>;
  for (const [name, kind] of Object.entries(QUESTIONS)) {
    const record = (args: unknown[]) => {
      const [first, flags] = args;
      if (kind === 'content' && name === 'open' && opensForWriting(flags)) {
        if (!isPrivate(pathArgument(first)))
          active?.notReplayable(`a file opened for writing (${String(first)})`);
      } else note(kind, first);
      seeOpenedDescriptors(name, args);
    };
    const opened = name === 'open' ? seeDescriptor : undefined;
    wrap(callbackAndSync, name, record);
    wrap(callbackAndSync, `${name}Sync`, record, opened);
    wrap(
      promises,
      name,
      record,
      opened &&
        ((handle) =>
          void (handle as Promise<{ fd: number }>).then(
            (opened) => seeDescriptor(opened.fd),
            () => {},
          )),
    );
  }
  for (const name of ['read', 'readv', 'fstat']) {
    wrap(callbackAndSync, name, readThroughDescriptor);
    wrap(callbackAndSync, `${name}Sync`, readThroughDescriptor);
  }
  for (const base of ['realpath', 'realpathSync'] as const) {
    const fn = callbackAndSync[base] as Record<string, unknown>;
    wrap(fn, 'native', ([first]) => note('link', first));
  }
  const unseen =
    (what: string) =>
    ([first]: unknown[]) => {
      if (!isPrivate(pathArgument(first))) active?.notReplayable(what);
    };
  for (const name of WRITES) {
    wrap(callbackAndSync, name, unseen(`fs.${name}`));
    wrap(callbackAndSync, `${name}Sync`, unseen(`fs.${name}Sync`));
    wrap(promises, name, unseen(`fs.promises.${name}`));
  }
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'])
    wrap(childProcess, name, () => active?.notReplayable(`a child process (${name})`));
  const OriginalWorker = workerThreads.Worker as new (...args: unknown[]) => object;
  workerThreads.Worker = class extends OriginalWorker {
    constructor(...args: unknown[]) {
      active?.notReplayable('a worker thread');
      super(...args);
    }
  };
  // The clock is an input the filesystem does not show (a rule that flags expired TODO
  // dates): a run that read the current time is never reused.
  const RealDate = Date;
  const clockRead = () => {
    if (!signing) active?.notReplayable('the current time');
  };
  const now = function now() {
    clockRead();
    return RealDate.now();
  };
  const RecordingDate = new Proxy(RealDate, {
    apply(target, thisArgument, args) {
      clockRead();
      return Reflect.apply(target, thisArgument, args);
    },
    construct(target, args, newTarget) {
      if (args.length === 0) clockRead();
      return Reflect.construct(target, args, newTarget) as object;
    },
    get(target, property, receiver) {
      return property === 'now' ? now : (Reflect.get(target, property, receiver) as unknown);
    },
  });
  globalThis.Date = RecordingDate;
  // `new Date().constructor === Date` still holds.
  RealDate.prototype.constructor = RecordingDate;
  const dlopen = process.dlopen;
  process.dlopen = function (this: unknown, ...args: Parameters<typeof process.dlopen>) {
    active?.notReplayable('a native addon loaded during the call');
    return dlopen.apply(this, args);
  } as typeof process.dlopen;
  // ESM importers of node:fs (prettier's `import { statSync } from "fs"`) see the wrappers too.
  syncBuiltinESMExports();
}

/** Runs `work` with `ledger` recording every filesystem question asked meanwhile. */
export async function recordReads<T>(ledger: ReadLedger, work: () => Promise<T>): Promise<T> {
  active = ledger;
  openedDuringCall.clear();
  try {
    return await work();
  } finally {
    active = undefined;
    openedDuringCall.clear();
  }
}

import { createRequire, syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as FsModule from 'node:fs';
import {
  fileType,
  insideNodeModules,
  signatureOf,
  STAT_FIELDS,
  statFields,
  type StatFields,
} from './input-fingerprint.js';
import {
  answerNow,
  answerResolution,
  describeQuestion,
  isReplayableResolver,
  registerResolver,
  RESOLVING_METHODS,
  resolveQuestion,
  type ResolverClass,
  openResolutionPass,
  trackedCache,
} from './native-resolvers.js';
import {
  BINDING_DESCRIPTOR_READS,
  BINDING_DESCRIPTOR_WRITES,
  BINDING_HARMLESS,
  BINDING_PATH_READS,
  BINDING_PATH_WRITES,
  TWO_PATH_WRITES,
  CRYPTO_DETERMINISTIC,
  CRYPTO_RANDOM,
  type Kind,
  MODULES_NOT_REPLAYABLE,
  OS_FIXED,
  PERF_HOOKS_HARMLESS,
  PERFORMANCE_HARMLESS,
  PROCESS_CLOCKS,
  PROCESS_HARMLESS,
  PUBLIC_NOT_REPLAYABLE,
  PUBLIC_READS,
  PUBLIC_THROUGH_BINDING,
  SUBTLE_DETERMINISTIC,
  VM_HARMLESS,
  VM_NEW_REALM,
  VM_SCRIPT_HARMLESS,
} from './read-surface.js';

export type { Kind } from './read-surface.js';
export { clearNativeCaches, resolverCachesUsed } from './native-resolvers.js';

/**
 * What the code in a warm worker asked of the world, and what the answers were.
 *
 * Why a result may be reused, or a worker kept: a run's output is a function of the code
 * loaded, its arguments and environment (the worker's identity), and the answers to every
 * question it asked. The ledger records each question with the answer signed BEFORE the
 * code got it (content hash, stat fields, directory listing, link target), so when every
 * answer is still the same, a rerun would read the same bytes and print the same output.
 *
 * It records at the lowest layer JavaScript reaches: the fs binding underneath `fs`, so
 * every read path (public functions, streams, promises, recursive listings, Node's own
 * helpers) is seen without being listed. Module resolution, which probes the disk from
 * C++ bindings JavaScript cannot wrap, is recorded by worker-main.ts as the directory
 * listings the probes depend on. Everything else is default-deny (read-surface.ts): a
 * clock of any kind, randomness, varying `os` answers, the network, a new JavaScript
 * realm, child processes, threads, native addons, watchers, process.binding, writes, a
 * read through a descriptor opened before the call, and any function the tables do not
 * name make the run not replayable.
 */

const requireBuiltin = createRequire(import.meta.url);
const fs = requireBuiltin('node:fs') as typeof FsModule;

type AnyFunction = (...args: unknown[]) => unknown;
type Target = Record<PropertyKey, unknown>;

/** The binding Node's fs module calls: the same object, so wrapping it reaches every caller. */
const fsBinding = (process as unknown as { binding(name: string): Target }).binding('fs');

/** The unwrapped functions the ledger signs with (they run with recording off). */
const original = {
  readdirSync: fs.readdirSync,
  readlinkSync: fs.readlinkSync,
  // One realpath(3) call, where the JavaScript one stats every component of the path.
  realpathSync: fs.realpathSync.native,
};

function entryType(entry: FsModule.Dirent): string {
  if (entry.isFile()) return 'f';
  if (entry.isDirectory()) return 'd';
  if (entry.isSymbolicLink()) return 'l';
  return 'o';
}

/**
 * A stat answer. A directory's size and mtime move with every entry made in it (/tmp,
 * every second): they are left out, as no check decides on them, and a directory's
 * entries are their own question (list).
 */
function statAnswer(stat: StatFields | undefined): string {
  if (!stat) return 'absent';
  const { mode, ino, size, mtime } = STAT_FIELDS;
  const type = fileType(stat);
  if (type === 'd') return `d:${stat[ino]}:${stat[mode]}`;
  return `${type}:${stat[size]}:${stat[mtime]}.${stat[mtime + 1]}:${stat[ino]}:${stat[mode]}`;
}

/**
 * How long after a directory's mtime its listing is part of its `entries` answer (the same
 * clock tick may hold another change), with a millisecond more: the age is computed in
 * floating-point milliseconds, and a wider window only adds listings.
 */
const RACY_WINDOW_MS = 2_001;

/** The answer a question gets now; the same function signs and re-checks. */
export function answerOf(kind: Kind, file: string): string {
  return withoutRecording(() => {
    try {
      switch (kind) {
        case 'content':
          return signatureOf(file);
        case 'stat':
          return statAnswer(statFields(file));
        case 'lstat':
          return statAnswer(statFields(file, true));
        case 'list':
          return original
            .readdirSync(file, { withFileTypes: true })
            .map((entry) => `${entry.name}/${entryType(entry)}`)
            .sort()
            .join('\n');
        case 'entries': {
          // A directory's mtime moves with every entry added, removed or renamed; within
          // the racy window (the same clock tick) the listing itself is the answer.
          const stat = statFields(file);
          if (!stat) return 'absent';
          const { mtime, ino } = STAT_FIELDS;
          const directory = fileType(stat) === 'd';
          const stamp = `${stat[mtime]}.${stat[mtime + 1]}:${stat[ino]}`;
          const ageMs = Date.now() - (Number(stat[mtime]) * 1000 + Number(stat[mtime + 1]) / 1e6);
          const listing = ageMs < RACY_WINDOW_MS && directory ? answerOf('list', file) : '';
          return `${directory ? 'd' : 'o'}:${stamp}:${listing}`;
        }
        case 'link': {
          let target = '';
          try {
            target = original.readlinkSync(file);
          } catch {
            // Not a link: the resolved path below still says where it leads.
          }
          return `${target}\0${original.realpathSync(file)}`;
        }
        case 'resolve':
          // `file` is the question (native-resolvers.ts): asked again of the same resolver.
          return answerNow(file);
      }
    } catch (error) {
      return `error:${(error as NodeJS.ErrnoException).code ?? 'unknown'}`;
    }
  });
}

/**
 * Answers given in the check pass open now (openCheckPass), by `kind\0path`; undefined
 * outside one.
 */
let passAnswers: Map<string, string> | undefined;

/**
 * Opens a check pass: until it is closed, every check (stillAnswers, firstChange) asks each
 * question of the tree once, however many ledgers recorded it (a worker's lifetime, its
 * kept result, its kept parts and held answers share most of theirs: module files, the
 * directories resolution probed), and resolutions are re-asked once (native-resolvers.ts).
 * A check answered from the pass is the check as it would have run when the question was
 * first asked in it: a tree that changes later in the pass is seen by the first check of
 * the next pass, because every ledger keeps the answer it recorded, never the pass's.
 * Recording (ReadLedger.ask) never answers from the pass: a question asked by the tool is
 * signed as the tree is when it asks. Returns the close (idempotent); opened inside an open
 * pass, it joins that one and its close does nothing.
 */
export function openCheckPass(): () => void {
  const closeResolutions = openResolutionPass();
  if (passAnswers !== undefined) return closeResolutions;
  const answers = new Map<string, string>();
  passAnswers = answers;
  passAsked = 0;
  return () => {
    if (passAnswers === answers) passAnswers = undefined;
    closeResolutions();
  };
}

/** Runs `work` within a check pass (openCheckPass): the open one, or its own. */
export function withinCheckPass<T>(work: () => T): T {
  const close = openCheckPass();
  try {
    return work();
  } finally {
    close();
  }
}

/** Checks asked in the open pass, and the questions they asked of the tree (its answers). */
let passAsked = 0;
export const checkPassCounts = (): { asked: number; answered: number } => ({
  asked: passAsked,
  answered: passAnswers?.size ?? 0,
});

/** The answer `kind\0path` (`key`) gets in a check: once per check pass. */
function checkedAnswer(key: string, kind: Kind, file: string): string {
  passAsked++;
  let answer = passAnswers?.get(key);
  if (answer === undefined) {
    answer = answerOf(kind, file);
    passAnswers?.set(key, answer);
  }
  return answer;
}

/** The answer a question gets in a check: once per check pass (openCheckPass). */
export const currentAnswer = (kind: Kind, file: string): string =>
  checkedAnswer(`${kind}\0${file}`, kind, file);

/**
 * Whether a question still gets `recorded`. An `entries` answer signed within the racy
 * window carries the listing; it is compared by listing once the stat matches, so the
 * same directory does not read as changed merely because its mtime has since aged.
 */
export function stillAnswers(kind: Kind, file: string, recorded: string): boolean {
  return answersAsRecorded(`${kind}\0${file}`, kind, file, recorded);
}

function answersAsRecorded(key: string, kind: Kind, file: string, recorded: string): boolean {
  const now = checkedAnswer(key, kind, file);
  if (now === recorded) return true;
  if (kind !== 'entries') return false;
  const statPart = (answer: string) => answer.split(':').slice(0, 3).join(':');
  return (
    statPart(now) === statPart(recorded) &&
    recorded.slice(statPart(recorded).length + 1) === checkedAnswer(`list\0${file}`, 'list', file)
  );
}

/** A question as a reason names it. */
export const describe = (kind: Kind, file: string): string =>
  kind === 'resolve' ? describeQuestion(file) : `${kind} ${file}`;

/** The path a binding or public call names, absolute; undefined for a descriptor or anything else. */
function pathArgument(value: unknown): string | undefined {
  let text: string | undefined;
  if (typeof value === 'string') text = value;
  else if (value instanceof URL)
    text = value.protocol === 'file:' ? fileURLToPath(value) : undefined;
  else if (Buffer.isBuffer(value)) text = value.toString('utf8');
  if (text === undefined) return undefined;
  // Windows: the binding gets namespaced paths (\\?\C:\...).
  if (text.startsWith('\\\\?\\')) text = text.slice(4);
  return path.resolve(text);
}

const OWN_DIRECTORY = path.dirname(fileURLToPath(import.meta.url));
/**
 * Frames a caller lookup reads: the ledger's own wrappers take one or two, then the caller
 * (a first look at few frames is cheap; a deeper one only when those were all ours).
 */
const CALLER_FRAMES = [4, 16];

/**
 * The file of the first frame that is not the ledger's own code (a path, or a `node:`
 * module of Node's own), if any, from structured call sites of the nearest frames: asked
 * on every clock read (ESLint times each file it lints), so no whole stack is formatted.
 */
function nearestCaller(skipNode = false): string | undefined {
  for (const frames of CALLER_FRAMES) {
    const found = callerWithin(frames, skipNode);
    if (found !== null) return found;
  }
  return undefined;
}

/** The caller within the nearest `frames` frames; null when every one of them is the ledger's. */
function callerWithin(frames: number, skipNode: boolean): string | undefined | null {
  const names = stackFiles(frames, nearestCaller);
  if (names === undefined) return undefined;
  for (const name of names) {
    if (name === '') continue;
    const file = name.startsWith('file:') ? fileURLToPath(name) : name;
    if (!file.startsWith(OWN_DIRECTORY) && !(skipNode && file.startsWith('node:'))) return file;
  }
  // Fewer frames than asked: the stack ended, nothing deeper to find.
  return names.length < frames ? undefined : null;
}

/**
 * The file names of the nearest `frames` frames below `below` (which must be on the
 * stack), from structured call sites: no stack text is formatted.
 */
function stackFiles(frames: number, below: (...args: never[]) => unknown): string[] | undefined {
  return stackSites(frames, below, (site) => site.getFileName() ?? '');
}

/** Each of the nearest `frames` frames below `below`, as `describe` says it. */
function stackSites(
  frames: number,
  below: (...args: never[]) => unknown,
  describe: (site: NodeJS.CallSite) => string,
): string[] | undefined {
  return stackOf(frames, below, (sites) => sites.map(describe));
}

/** What `read` makes of the nearest `frames` frames below `below` (structured call sites). */
function stackOf<T>(
  frames: number,
  below: (...args: never[]) => unknown,
  read: (sites: NodeJS.CallSite[]) => T,
): T | undefined {
  const limit = Error.stackTraceLimit;
  const prepare = Error.prepareStackTrace;
  const holder: { stack?: unknown } = {};
  let made: unknown;
  try {
    Error.stackTraceLimit = frames;
    Error.prepareStackTrace = (_error, sites) => ({ made: read(sites) });
    Error.captureStackTrace(holder, below);
    // V8 formats the stack when it is first read: read it while prepareStackTrace is ours.
    made = holder.stack;
  } finally {
    Error.stackTraceLimit = limit;
    Error.prepareStackTrace = prepare;
  }
  return typeof made === 'object' && made !== null ? (made as { made: T }).made : undefined;
}

/**
 * Frames a reader's stack is read to: all of them. What tells two readers apart may be the
 * farthest frame (the rule below a resolver's pipeline: enhanced-resolve alone runs up to
 * 230 frames deep), and a stack cut short of it would make a rule that keeps what it read
 * and one that reads each time one reader, which asks again each time.
 */
const READER_FRAMES = Infinity;
const MAX_REMEMBERED_UNITS = 100_000;
/** A frame's file name -> its unit ('' for Node's own and the ledger's code). */
const units = new Map<string, string>();

/**
 * The code a frame's file belongs to: an installed package, by name (the part after its
 * last node_modules: a plugin, its resolver, the tool), or a file of the repository's own
 * (a config, a local plugin).
 */
function unitOf(name: string): string {
  let unit = units.get(name);
  if (unit !== undefined) return unit;
  const file = name.startsWith('file:') ? fileURLToPath(name) : name;
  if (file === '' || file.startsWith('node:') || file.startsWith(OWN_DIRECTORY)) unit = '';
  else {
    const parts = file.split(/[\\/]/);
    const at = parts.lastIndexOf('node_modules');
    const top = parts[at + 1];
    if (at < 0 || top === undefined) unit = file;
    else unit = top.startsWith('@') ? parts.slice(at + 1, at + 3).join('/') : top;
  }
  if (units.size >= MAX_REMEMBERED_UNITS) units.clear();
  units.set(name, unit);
  return unit;
}

/**
 * Frames a nearest reader is looked for in, a few first: the ledger's wrapper and Node's fs
 * come before it, and Node's module loader, a dozen frames deep, while a module loads.
 */
const NEAREST_FRAMES = [8, 32];

/**
 * Who asks a question ("a reader"): the call sites on the stack below `below`, nearest
 * first (each a line `unit<TAB>file:line:column`: unitOf), inside a kept part; the
 * nearest file alone outside. Inside a kept part (one file's lint: rules, parsers and
 * processors run there, synchronously, so a rule's read has the rule's code on the stack)
 * the whole stack is taken: two caches in one plugin, or one helper that reads for a
 * caching caller and for one that reads each time, are different readers. Outside one,
 * the code that runs is the tool's own (reading and listing what it lints, its configs)
 * and module code as it loads, which reads for itself: the nearest call site names it,
 * at a fraction of a whole stack's cost (ESLint reads every file it lints on every call).
 * A plugin that keeps what it read is a reader of its own, apart from ESLint reading the
 * same file to lint it.
 */
function readerOf(below: (...args: never[]) => unknown, chain: boolean): string {
  // Outside a part the file names the code: a frame's line and column cost V8 a parse of
  // its function the first time (a worker's first call, loading every module, asks thousands).
  if (!chain)
    for (const frames of NEAREST_FRAMES) {
      for (const name of stackFiles(frames, below) ?? []) {
        const unit = unitOf(name);
        if (unit !== '') return `${unit}\t${name}`;
      }
    }
  return stackOf(READER_FRAMES, below, readerAt) ?? '';
}

/**
 * A file a frame runs in, as readers know it: a number (readerAt's keys), its unit
 * (unitOf) and whether its closures call their callback once (callsOnceForAll).
 */
interface FrameFile {
  id: number;
  unit: string;
  once: boolean;
}
const frameFiles = new Map<string, FrameFile>();
/** The next file's number: never one given before, so no key of readerTree means two files. */
let nextFrameFile = 0;

function frameFileOf(name: string): FrameFile {
  let known = frameFiles.get(name);
  if (known === undefined) {
    if (frameFiles.size >= MAX_REMEMBERED_UNITS) frameFiles.clear();
    const file = name.startsWith('file:') ? fileURLToPath(name) : name;
    known = { id: nextFrameFile++, unit: unitOf(name), once: endsIn(onceCallers, file) };
    frameFiles.set(name, known);
  }
  return known;
}

/**
 * Readers seen, as a tree of their frames from the nearest (`parent\0file\0place` -> the
 * node: each frame's file by number, its place by position in the file), and each node
 * that ended a reader -> the reader, made once: a read costs a lookup per frame, and no
 * text (a whole stack is hundreds of frames under a resolver, read thousands of times a
 * call; vite: 6,578 of 19,600 reads in 180 files' lints were 200 to 675 frames deep).
 */
const readerTree = new Map<string, number>();
const readerTexts = new Map<number, string>();
/** Nodes of the tree kept at most (it is emptied past that, and grows again as read). */
const MAX_READER_NODES = 1_000_000;

/** The reader of these call sites (readerOf: the whole stack, nearest first). */
function readerAt(sites: NodeJS.CallSite[]): string {
  if (readerTree.size >= MAX_READER_NODES) {
    readerTree.clear();
    readerTexts.clear();
  }
  let node = 0;
  eachReaderFrame(sites, (site, file, helperCaller) => {
    const key = `${node}\0${file.id}\0${helperCaller ?? site.getPosition()}`;
    let next = readerTree.get(key);
    if (next === undefined) readerTree.set(key, (next = readerTree.size + 1));
    node = next;
  });
  let reader = readerTexts.get(node);
  if (reader === undefined) {
    reader = readerText(sites);
    readerTexts.set(node, reader);
  }
  return reader;
}

/** A reader as text: a line `unit<TAB>file:line:column` a frame, as readerAt tells them apart. */
function readerText(sites: NodeJS.CallSite[]): string {
  const lines: string[] = [];
  eachReaderFrame(sites, (site, file, helperCaller) => {
    const at = helperCaller ?? `${site.getLineNumber() ?? 0}:${site.getColumnNumber() ?? 0}`;
    lines.push(`${file.unit}\t${site.getFileName() ?? ''}:${at}`);
  });
  return lines.join('\n');
}

/**
 * Calls `frame` with each frame a reader is made of (of a unit: unitOf), nearest first,
 * and, for the caller of a once-calling helper in the file of the callback it called, the
 * helper's caller named by its function: every line of it that asks the helper is one
 * reader (callsOnceForAll).
 */
function eachReaderFrame(
  sites: NodeJS.CallSite[],
  frame: (site: NodeJS.CallSite, file: FrameFile, helperCaller: string | undefined) => void,
): void {
  let last: string | undefined;
  // The file of the frame a once-calling helper's frame called, until the helper's caller.
  let calledOnce: string | undefined;
  for (const site of sites) {
    const name = site.getFileName() ?? '';
    const file = frameFileOf(name);
    if (file.unit === '') continue;
    const helperCaller =
      calledOnce === name
        ? `function at ${site.getEnclosingLineNumber() ?? 0}:${site.getEnclosingColumnNumber() ?? 0}`
        : undefined;
    calledOnce = file.once ? last : undefined;
    last = name;
    frame(site, file, helperCaller);
  }
}

/** Ends of the paths (inside node_modules) of files whose closures call their callback once (see below). */
const onceCallers: string[] = [];

/**
 * Names a helper file, by the end of its path inside node_modules, whose closures call
 * the callback they were made with once, at their first call, and hand its result to every
 * later call, known by reading its code for the versions an adapter serves:
 * eslint-plugin-import-x's `lazy` (4.x lib/utils/lazy-value.js). What the callback reads
 * is read by the frame that first calls the closure: import-x's ExportMap.for makes
 * `stats = lazy(() => fs.statSync(file))` and calls it on one line to compare the kept
 * exports' mtime and on another to stamp exports it parsed again, so after an edit the
 * stamp gets the comparing line's read, and as two readers the stamping one "did not ask
 * again" and the worker was replaced after every edit of an imported module (every call
 * with import-x/named). A read inside such a callback, called from a frame of the
 * callback's own file, is that frame's function's reader, whatever its line: the lines of
 * one function that call a closure it made share one read, as they would share
 * `const stats = fs.statSync(file)` read on the closure's line, which is one reader. Read
 * for import-x 4.17: the closures that read (ExportMap.for's stat; parse's tsconfig, through
 * isEsModuleInteropTrue) are called only in the invocation that made them, and the one
 * made at module level (no-duplicates' TypeScript version) is one for ever;
 * `unambiguouslyESM`, also called from the `parseGoal` getter it escapes into, reads
 * nothing (it looks at the AST). A closure called from another file keeps its caller's line.
 */
export function callsOnceForAll(pathEnd: string): void {
  addPathEnd(onceCallers, pathEnd);
  // Files met before are known again, with the helper among them.
  frameFiles.clear();
}

/** The code units of a reader (readerOf), nearest first: packages by name, repository files by path. */
export const unitsOf = (reader: string): string[] =>
  reader === '' ? [] : reader.split('\n').map((line) => line.slice(0, line.indexOf('\t')));

/** The file of one stack line, if it names one. */
function stackLineFile(line: string): string | undefined {
  const match = /\(?(node:[^():]+|(?:file:\/\/)?\/[^():]+|[A-Za-z]:\\[^():]+):\d+:\d+\)?$/.exec(
    line.trim(),
  );
  if (!match) return undefined;
  return match[1]!.startsWith('file:') ? fileURLToPath(match[1]!) : match[1]!;
}

/**
 * The first line of a stack (split in lines) whose file is not the ledger's own code (a
 * path, or with `skipNode` a `node:` module of Node's own), if any: its file and index.
 */
function callerLine(
  lines: readonly string[],
  skipNode: boolean,
): { file: string; index: number } | undefined {
  for (let index = 1; index < lines.length; index++) {
    const file = stackLineFile(lines[index]!);
    if (file === undefined) continue;
    if (!file.startsWith(OWN_DIRECTORY) && !(skipNode && file.startsWith('node:')))
      return { file, index };
  }
  return undefined;
}

/**
 * Whether the caller runs as part of an installed package's initialisation: between it
 * and the nearest module evaluation below it (CommonJS: Module._compile; ES modules:
 * ModuleJob.run, which evaluates an imported graph) there is only code under
 * node_modules and Node's own. Read from the whole stack, not
 * Error.stackTraceLimit's first frames, where the ledger's own frames pushed it out
 * (unrs-resolver's native addon, loaded by its index.js's requireNative when
 * eslint-plugin-import-x first resolves in a call, was counted as the call's doing).
 */
function callerInitialising(lines: readonly string[], caller: { file: string; index: number }) {
  for (let index = caller.index + 1; index < lines.length; index++) {
    const line = lines[index]!;
    // brace-expansion 5 (minimatch's, imported with a config) draws its escape tokens
    // with Math.random at its top level.
    if (/\b(Module\._compile|ModuleJob\.run)\b/.test(line)) return true;
    const file = stackLineFile(line);
    if (file === undefined || file.startsWith('node:') || file.startsWith(OWN_DIRECTORY)) continue;
    if (!insideNodeModules(file)) return false;
  }
  return false;
}

const NO_READERS: ReadonlySet<string> = new Set();

export class ReadLedger {
  /** `kind\0path` -> the answer the first time it was asked. */
  private readonly answers = new Map<string, string>();
  private unseen: string | undefined;
  /** The listing of each directory asked as `entries`, when it was asked (unprobedChange). */
  private readonly listings = new Map<string, string>();
  /** `kind\0path` -> the readers (readerOf) that asked it in this run; not kept while loading. */
  private readonly askers = new Map<string, Set<string>>();

  /**
   * @param loading this ledger records the tool's loading (the background ledger): there,
   * a clock, randomness or machine reading made by code under node_modules (TypeScript's
   * performance hooks, a glob library sizing its pool by os.cpus(), a random placeholder
   * token) is part of the installed code, whose every file is an input of the worker, and
   * is not counted; made by the repository's own code (a config file), it counts.
   */
  constructor(private readonly loading = false) {}

  /** One file's lint (kept-parts.ts): its readers are taken as whole chains (readerOf). */
  part = false;

  /**
   * Records one question with its answer as it is now (the first time wins), and, in a
   * call, the code that asked it (`reader`): what each reader may keep in memory is its own.
   */
  ask(kind: Kind, file: string, reader?: string): void {
    const key = `${kind}\0${file}`;
    if (!this.answers.has(key)) {
      this.answers.set(key, answerOf(kind, file));
      if (kind === 'entries') this.listings.set(file, answerOf('list', file));
    }
    if (reader !== undefined) this.askedBy(key, reader);
  }

  /**
   * Records a question whose answer is what the code that asked got (a native resolution:
   * native-resolvers.ts), not one signed here. Asked again with another answer (the tree
   * moved during the call), the run read two states of it and is not replayable.
   */
  answered(kind: Kind, question: string, answer: string, reader?: string): void {
    const key = `${kind}\0${question}`;
    const known = this.answers.get(key);
    if (known === undefined) this.answers.set(key, answer);
    else if (known !== answer)
      this.notReplayable(`a ${kind} question answered two ways in one run`);
    if (reader !== undefined) this.askedBy(key, reader);
  }

  /** The reader of a question asked now, below `below` on the stack; none while loading. */
  readerBelow(below: (...args: never[]) => unknown): string | undefined {
    return this.loading ? undefined : readerOf(below, this.part);
  }

  private askedBy(key: string, reader: string): void {
    const readers = this.askers.get(key);
    if (readers) readers.add(reader);
    else this.askers.set(key, new Set([reader]));
  }

  /** The answer recorded for `key` (`kind\0path`), if it was asked. */
  answerTo(key: string): string | undefined {
    return this.answers.get(key);
  }

  /** The readers that asked `key` themselves in this run (none for a replayed answer). */
  readersOf(key: string): ReadonlySet<string> {
    return this.askers.get(key) ?? NO_READERS;
  }

  /** The run did something the ledger cannot replay; its result is never reused. */
  notReplayable(what: string): void {
    if (this.unseen !== undefined) return;
    // The stack is taken once per ledger, whole: the reason names the code that did it.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = Infinity;
    const lines = (new Error().stack ?? '').split('\n');
    Error.stackTraceLimit = limit;
    const caller = callerLine(lines, true);
    // An installed package initialising (while the call loads it lazily too: brace-expansion
    // draws random placeholder tokens) is loading, and loading's rule applies.
    const initialising =
      caller !== undefined && (this.loading || callerInitialising(lines, caller));
    if (initialising && insideNodeModules(caller.file)) return;
    this.unseen = caller ? `${what} in ${caller.file}` : what;
  }

  /** Why this run's result may not be reused, or undefined when it may. */
  get notReusableBecause(): string | undefined {
    return this.unseen;
  }

  get size(): number {
    return this.answers.size;
  }

  /** Every question, as `kind\0path`, with its answer. */
  questions(): IterableIterator<[string, string]> {
    return this.answers.entries();
  }

  /**
   * Takes in what `other` recorded (questions not asked here yet, with the answers `other`
   * got; its unreplayable reason if this ledger has none): a part recorded on its own, or
   * a part's answer replayed from a kept result, becomes part of this run.
   */
  absorb(other: ReadLedger, { replayed = false } = {}): void {
    for (const [key, answer] of other.answers) {
      if (!replayed) for (const reader of other.readersOf(key)) this.askedBy(key, reader);
      const known = this.answers.get(key);
      if (known === undefined) this.answers.set(key, answer);
      // Another part got another answer (the tree moved during the call): see answered.
      else if (known !== answer && key.startsWith('resolve\0'))
        this.unseen ??= 'a resolve question answered two ways in one run';
    }
    this.unseen ??= other.unseen;
  }

  /**
   * Adds a question asked before this run, with the answer it had then, unless this run
   * asked it: what the worker still holds in memory from an earlier call (a config's data
   * file read when prettier loaded it) is an input of every result computed from it.
   */
  holds(key: string, answer: string): void {
    if (!this.answers.has(key)) this.answers.set(key, answer);
  }

  /**
   * The first question whose answer changed, or undefined when every one is as recorded.
   * With `probed`, a directory asked as `entries` whose only changed names are ones no
   * module resolution could have probed (probed says false) still answers, and its new
   * answer is taken.
   */
  firstChange(probed?: (file: string) => boolean): string | undefined {
    return withinCheckPass(() => {
      // Resolutions last: asked again they cost the most, and an edited file's content,
      // checked first, answers most calls (a body edit) without them.
      const resolutions: [string, string][] = [];
      for (const [key, answer] of this.answers) {
        const cut = key.indexOf('\0');
        const kind = key.slice(0, cut) as Kind;
        const file = key.slice(cut + 1);
        if (kind === 'resolve') resolutions.push([key, answer]);
        else if (answersAsRecorded(key, kind, file, answer)) continue;
        else if (kind === 'entries' && probed && this.unprobedChange(file, answer, probed))
          continue;
        else return describe(kind, file);
      }
      const changed = resolutions.find(
        ([key, answer]) =>
          checkedAnswer(key, 'resolve', key.slice(key.indexOf('\0') + 1)) !== answer,
      );
      return changed && describe('resolve', changed[0].slice(changed[0].indexOf('\0') + 1));
    });
  }

  /**
   * Whether `directory` (asked as `entries`, answered `recorded`) is the same directory,
   * changed only in names `probed` says no resolution looked for (a tool's own state file
   * written beside a package: eslint_d's port file in node_modules/eslint). Then its new
   * answer and listing are recorded: every name that has changed since it was asked is
   * still one no resolution looked for.
   */
  private unprobedChange(
    directory: string,
    recorded: string,
    probed: (file: string) => boolean,
  ): boolean {
    const before = this.listings.get(directory);
    if (before === undefined) return false;
    const now = answerOf('entries', directory);
    // The type and inode: a directory replaced (a reinstall) is another directory.
    const identity = (answer: string) => {
      const [type, , inode] = answer.split(':');
      return `${type}:${inode}`;
    };
    if (!recorded.startsWith('d:') || identity(now) !== identity(recorded)) return false;
    const listing = answerOf('list', directory);
    const old = new Set(before.split('\n'));
    const current = new Set(listing.split('\n'));
    const changed = [
      ...[...old].filter((entry) => !current.has(entry)),
      ...[...current].filter((entry) => !old.has(entry)),
    ];
    // An entry is `name/type`: a name's type changing is a change of that name.
    if (
      changed.some((entry) => probed(path.join(directory, entry.slice(0, entry.lastIndexOf('/')))))
    )
      return false;
    this.answers.set(`entries\0${directory}`, now);
    this.listings.set(directory, listing);
    return true;
  }
}

/**
 * The ledger questions go to: a call's own while it runs, otherwise the worker's
 * background ledger (loading the tool, timers between calls), when one is set.
 */
let active: ReadLedger | undefined;
let background: ReadLedger | undefined;
/** Set while the worker does its own work (signing, checking), so that is not recorded. */
let signing = false;

/** Runs the worker's own fs work (signing, checks, sweeps) without recording it. */
export function withoutRecording<T>(work: () => T): T {
  if (signing) return work();
  signing = true;
  try {
    return work();
  } finally {
    signing = false;
  }
}

const recordingLedger = () => (signing ? undefined : active);

/**
 * Set from the moment the pool says the call's caller gave up on it (abandon) until the
 * next call starts: no gate's fingerprints surround what the tool does now, so a write,
 * a child process, a thread or a native addon (whatever could change the tree unseen) is
 * refused instead of done, and named here: the worker that refused one is not kept.
 */
let unwatched = false;
let refusedEffect: string | undefined;

/** The caller of the running call gave up on it: effects are refused from now on. */
export function callUnwatched(): void {
  unwatched = true;
}

/** A call starts, watched by its gate. Returns what the last unwatched stretch refused. */
export function callWatched(): string | undefined {
  const refused = refusedEffect;
  unwatched = false;
  refusedEffect = undefined;
  return refused;
}

/** What was refused since the call was abandoned, if anything. */
export const effectRefused = (): string | undefined => refusedEffect;

/** An effect the recorder cannot replay, which could change the tree: refused unwatched. */
function effect(ledger: ReadLedger, what: string): void {
  if (unwatched) {
    refusedEffect ??= what;
    throw new Error(
      `mcp-gates refused ${what}: its call was abandoned by its caller, and no check watches the tree now`,
    );
  }
  ledger.notReplayable(what);
}

/**
 * Descriptors opened during the active call: reads through them read what the open
 * recorded. A read through any other descriptor (opened before the call) is not.
 */
const openedDuringCall = new Set<number>();
/** Descriptors opened on the worker's private directory (or its own output): writes there are its own. */
const privateDescriptors = new Set<number>([1, 2]);

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

function note(ledger: ReadLedger, kind: Kind, value: unknown): void {
  const file = pathArgument(value);
  if (file === undefined) return ledger.notReplayable(`a read of ${String(value)}`);
  if (isPrivate(file)) return;
  const reader = ledger.readerBelow(note);
  withoutRecording(() => ledger.ask(kind, file, reader));
}

/** Whether numeric open flags ask for more than reading (O_WRONLY, O_RDWR, O_CREAT...). */
function opensForWriting(flags: unknown): boolean {
  if (typeof flags !== 'number') return typeof flags === 'string' && !/^(r|rs|sr)$/.test(flags);
  const { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND } = fs.constants;
  return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)) !== 0;
}

/** Files of a tool whose clock reads only time what it prints nowhere in a warm call (see below). */
const timingOnlyClockReaders = new Set<string>();

/**
 * Names a tool file whose reads of the clock are known, by reading its code for the
 * versions an adapter serves, to time work whose duration a warm (read-only) call never
 * prints: prettier's CLI stamps each file for the "(12ms)" it prints only with --write,
 * which never runs warm. A clock read from any other code still makes the call not reusable.
 */
export function clockReadsOnlyTime(file: string): void {
  timingOnlyClockReaders.add(path.resolve(file));
}

/** Ends of the paths (inside node_modules) of files whose clock reads only time (see below). */
const timingOnlyClockReaderEnds: string[] = [];

/**
 * clockReadsOnlyTime for a package a plugin brings, wherever it is installed, named by the
 * end of its path inside node_modules: graceful-fs (4.x) stamps each operation that failed
 * for want of file descriptors (EMFILE), to retry it later and give up after 60 seconds, and
 * reads the clock on every close to move those stamps. What an operation answers is
 * recorded when it is answered; when it is retried is no answer of the tree.
 */
export function clockReadsOnlyTimeIn(pathEnd: string): void {
  addPathEnd(timingOnlyClockReaderEnds, pathEnd);
}

const addPathEnd = (ends: string[], pathEnd: string) => {
  const end = path.join('node_modules', pathEnd);
  if (!ends.includes(end)) ends.push(end);
};

/** Whether `caller` is a file inside node_modules whose path ends in one of `ends`. */
const endsIn = (ends: string[], caller: string | undefined): boolean =>
  caller !== undefined && ends.some((end) => caller.endsWith(end) && caller.length > end.length);

/** Ends of the paths (inside node_modules) of files whose clock reads only age a memo (see below). */
const memoAgingClockReaders: string[] = [];

/**
 * Names a plugin file, by the end of its path inside node_modules, whose clock reads are
 * known, by reading its code for the versions an adapter serves, only to decide whether a
 * memo of what it read is still fresh:
 * - eslint-plugin-import-x's and eslint-module-utils' ModuleCache keep each module
 *   resolution for `settings['import/cache'].lifetime` seconds (30 by default), checked as
 *   `process.hrtime(lastSeen)[0] < lifetime`;
 * - eslint-plugin-n's Cache (18.x lib/util/cache.js) keeps each package.json lookup, file
 *   existence and .npmignore for 5 seconds after its last use, stamped and checked by
 *   `Date.now()`;
 * - enhanced-resolve's CachedInputFileSystem (5.x, which eslint-plugin-n resolves imports
 *   with) keeps stats, listings and files read, and drops them by age in `_runDecays`,
 *   which every synchronous read runs first (`_nextDecay <= Date.now()`). Its asynchronous
 *   reads are aged by a timer instead, but no file's lint makes one (rules run
 *   synchronously: eslint-plugin-n resolves with `create.sync`); one made while a config
 *   loads is a held answer (worker-main.ts).
 * Such a read answers by the memo clock: one instant for each stretch of work (a file's
 * lint, kept-parts.ts; the rest of a call; the time between calls), and for the next
 * stretch a time past every lifetime. An entry made in a file's lint is used again in the
 * same lint, from reads that lint recorded (its own question, asked once), but never in
 * another: there every entry made before has expired, and the question is asked again and
 * recorded in the file lint that needs it, which is what a fresh process, whose memo starts
 * empty, answers. Read as the time, it would make every file lint that met a memo one that
 * is never kept (vuejs/core: 82 of 525 files linted again on every call; vite: all 1,340);
 * aged on every read ("expired" within a lint too), every lookup read the disk again and
 * was recorded again (vite's utils.ts: 963 reads of 264 questions in one lint). A memo kept
 * for ever (an infinite lifetime) reads no time that matters: what it holds is held
 * answers (worker-main.ts), as any plugin memory is.
 */
export function clockAgesMemoOnly(pathEnd: string): void {
  addPathEnd(memoAgingClockReaders, pathEnd);
}

const agesMemoOnly = (caller: string | undefined): boolean => endsIn(memoAgingClockReaders, caller);

/**
 * The memo clock's stretch (clockAgesMemoOnly): a new one starts when a file's lint, a call,
 * or either's end does, so no memo entry outlives the stretch it was made in.
 */
let memoStretch = 0;
const nextMemoStretch = () => void memoStretch++;
/**
 * `Date.now()` of a memo-aging reader: a stretch's instant, each 2^30 ms (12 days) past the
 * last, above any real time. The Date.now memos named age entries by seconds (eslint-plugin-n:
 * 5 s; enhanced-resolve: its duration, 4 s for eslint-plugin-n): every one made in an
 * earlier stretch has expired. Past the integers a double holds exactly (a million
 * stretches), the far future: every entry, this stretch's too, has expired then.
 */
function memoNow(): number {
  const now = 2 ** 42 + memoStretch * 2 ** 30;
  return Number.isSafeInteger(now + 2 ** 30) ? now : Infinity;
}
/**
 * `process.hrtime()` of a memo-aging reader: the stretch's own stamp. `process.hrtime(stamp)`
 * answers no age for this stretch's stamp and, for any other (an earlier stretch's, a real
 * one), older than any lifetime (eslint-plugin-import-x's is a setting: any finite one).
 */
const memoStamp = (): [number, number] => [2 ** 42 + memoStretch, 0];
function memoAge(stamp: unknown): [number, number] {
  const [seconds, nanoseconds] = memoStamp();
  const same = Array.isArray(stamp) && stamp[0] === seconds && stamp[1] === nanoseconds;
  return same ? [0, 0] : [Number.MAX_SAFE_INTEGER, 0];
}

/** Files of a tool whose Math.random draws only make unique tokens (see below). */
const tokenOnlyRandomDrawers = new Set<string>();

/**
 * Names a tool file whose Math.random draws are known, by reading its code for the
 * versions an adapter serves, to only make placeholder tokens that never reach the output
 * (prettier's bundled brace-expansion escapes "\\," as "\0COMMA<random>\0" while it
 * expands a pattern). A draw from any other code still makes the call not reusable.
 */
export function randomOnlyForTokens(file: string): void {
  tokenOnlyRandomDrawers.add(path.resolve(file));
}

const MARKER = Symbol('mcp-gates read ledger');

/** Whether `fn` is one of the ledger's wrappers (the surface test asks). */
export function isRecorded(fn: unknown): boolean {
  return typeof fn === 'function' && MARKER in fn;
}

/** Marks a function the ledger made (a getter, a replacement) as one of its wrappers. */
function marked<F extends object>(fn: F): F {
  return Object.defineProperty(fn, MARKER, { value: true });
}

/**
 * Replaces target[name] by a function that calls `before` with the ledger and arguments
 * (it may replace a callback among them) and `after` with the result, while a ledger
 * records. Properties hanging off the function (realpath.native, hrtime.bigint,
 * promisify.custom) are kept, and those that are functions are wrapped with the same
 * `before`: process.memoryUsage.rss, os.uptime.withoutStackTrace and os.uptime's
 * Symbol.toPrimitive (`${os.uptime}`) read what their parent reads.
 */
function wrap(
  target: Target,
  name: PropertyKey,
  before: (ledger: ReadLedger, args: unknown[]) => void,
  after?: (result: unknown, args: unknown[]) => void,
): void {
  const fn = target[name];
  if (typeof fn !== 'function' || MARKER in fn) return;
  // A function met again (an alias, or a property naming its own function) gets the wrapper it already has.
  const known = wrappers.get(fn);
  if (known) return replace(target, name, known);
  const wrapped = function (this: unknown, ...args: unknown[]) {
    const ledger = recordingLedger();
    if (ledger) before(ledger, args);
    const result = new.target
      ? (Reflect.construct(fn, args, new.target) as unknown)
      : (fn as AnyFunction).apply(this, args);
    if (ledger && after) after(result, args);
    return result;
  };
  const { length: _l, name: _n, ...own } = Object.getOwnPropertyDescriptors(fn);
  // The hanging functions are replaced below, fixed ones too (exec's promisify.custom).
  for (const key of Reflect.ownKeys(own)) {
    const descriptor = own[key as string]!;
    if (typeof descriptor.value === 'function' && key !== 'prototype')
      Object.assign(descriptor, { writable: true, configurable: true });
  }
  Object.defineProperties(wrapped, own);
  Object.defineProperty(wrapped, 'name', { value: (fn as { name: string }).name });
  marked(wrapped);
  wrappers.set(fn, wrapped);
  for (const key of Reflect.ownKeys(own))
    if (key !== 'prototype' && typeof own[key as string]?.value === 'function')
      wrap(wrapped as unknown as Target, key, before);
  replace(target, name, wrapped);
}

/** Each wrapped function's wrapper. */
const wrappers = new WeakMap<object, AnyFunction>();

/** Sets target[name] to `wrapped`, unless the property cannot be changed. */
function replace(target: Target, name: PropertyKey, wrapped: AnyFunction): void {
  const descriptor = Object.getOwnPropertyDescriptor(target, name);
  if (descriptor && !descriptor.writable && !descriptor.set && !descriptor.configurable) return;
  Object.defineProperty(target, name, {
    value: wrapped,
    writable: true,
    configurable: true,
    enumerable: descriptor?.enumerable ?? true,
  });
}

/** Wraps `name` so that using it during a recorded run makes the run not replayable. */
function deny(target: Target, name: string, what: string): void {
  wrap(target, name, (ledger) => ledger.notReplayable(what));
}

/** This package's own directory (dist/gates/warm is three below it): its addon is its own. */
const OWN_PACKAGE = path.resolve(OWN_DIRECTORY, '..', '..', '..');

/**
 * Makes every function a native addon exports (and every method of a class it exports) not
 * replayable when called during a call: what it reads, the ledger cannot see, so a run that
 * asked it is never reused (its answer may depend on files no fingerprint covers). A native
 * resolver's resolutions are the exception: they become questions (replayResolverCalls).
 * Addons of this package are its own code, not a tool's.
 */
function denyNativeExports(module: { exports?: unknown }, filename: string): void {
  if (filename.startsWith(OWN_PACKAGE + path.sep)) return;
  const what = `a call into the native addon ${path.basename(filename)}, whose reads are not seen`;
  const exports = module.exports;
  if (typeof exports === 'function') deny(module as Target, 'exports', what);
  if ((typeof exports !== 'object' && typeof exports !== 'function') || exports === null) return;
  const names = allFunctionNames(exports);
  const resolver = names.find((name) => {
    const prototype = (exports as Target)[name] as { prototype?: unknown };
    return (
      typeof prototype.prototype === 'object' &&
      prototype.prototype !== null &&
      isReplayableResolver(name, prototype.prototype as Target)
    );
  });
  const resolverClass =
    resolver === undefined
      ? undefined
      : replayResolverCalls(exports as Target, resolver, `${filename}\0${resolver}`, what);
  for (const name of names) {
    if (name === resolver) continue;
    // The addon's own `sync`: a resolver with the default options made for the one call.
    if (name === 'sync' && resolverClass) {
      const made = resolverWithDefaults(resolverClass);
      replace(
        exports as Target,
        name,
        recordedResolution(name, (exports as Target)[name] as AnyFunction, made, what),
      );
      continue;
    }
    const fn = (exports as Target)[name] as { prototype?: unknown };
    const prototype = fn.prototype;
    if (typeof prototype === 'object' && prototype !== null) {
      if (typeof (prototype as Target).clearCache === 'function')
        trackNativeCaches(exports as Target, name, prototype as Target);
      for (const method of allFunctionNames(prototype))
        if (method !== 'constructor') deny(prototype as Target, method, what);
    }
    deny(exports as Target, name, what);
  }
}

/**
 * A native class with a `clearCache` method that is not a known resolver is tracked, its
 * instances from the constructor and from its methods (a clone): clearNativeCaches empties
 * them before every call, so what it answers in a call is read from the tree as it is, as
 * a fresh process's instance reads it.
 */
function trackNativeCaches(exports: Target, name: string, prototype: Target): void {
  const Original = exports[name] as new (...args: unknown[]) => object;
  const Tracking = function (this: unknown, ...args: unknown[]) {
    return trackedCache(Reflect.construct(Original, args));
  };
  Object.defineProperty(Tracking, 'prototype', { value: prototype });
  Object.defineProperty(Tracking, 'name', { value: Original.name });
  replace(exports, name, Tracking as unknown as AnyFunction);
  for (const method of allFunctionNames(prototype)) {
    if (method === 'constructor' || method === 'clearCache') continue;
    const call = prototype[method] as AnyFunction;
    replace(prototype, method, function (this: unknown, ...args: unknown[]) {
      return trackedCache(call.apply(this, args));
    });
  }
}

/**
 * A native resolver (unrs-resolver's or oxc-resolver's ResolverFactory, named
 * `exports[name]`): each instance is registered with its options as constructed or cloned
 * (native-resolvers.ts), so its synchronous resolutions are recorded as questions with the
 * result as answer. Making, cloning and emptying a resolver read nothing; every other
 * method (async resolutions, any method a later version adds) and static stays denied.
 */
function replayResolverCalls(
  exports: Target,
  name: string,
  label: string,
  what: string,
): ResolverClass {
  const Original = exports[name] as (new (...args: unknown[]) => object) & Target;
  const prototype = Original.prototype as Target;
  const methods: Record<string, AnyFunction> = {};
  for (const method of RESOLVING_METHODS)
    if (typeof prototype[method] === 'function') methods[method] = prototype[method] as AnyFunction;
  const resolverClass: ResolverClass = {
    name: label,
    make: (options) => Reflect.construct(Original, [options]),
    methods,
  };
  const Resolver = function (this: unknown, ...args: unknown[]) {
    const instance = Reflect.construct(Original, args);
    registerResolver(resolverClass, instance, args[0]);
    return instance;
  };
  Object.defineProperty(Resolver, 'prototype', { value: prototype });
  Object.defineProperty(Resolver, 'name', { value: Original.name });
  for (const member of allFunctionNames(Original)) {
    if (member === 'prototype') continue;
    const fn = Original[member] as AnyFunction;
    if (member === 'default')
      (Resolver as unknown as Target)[member] = marked(function () {
        const instance = fn.call(Original) as object;
        registerResolver(resolverClass, instance, undefined);
        return instance;
      });
    else {
      (Resolver as unknown as Target)[member] = fn.bind(Original);
      deny(Resolver as unknown as Target, member, what);
    }
  }
  replace(exports, name, Resolver as unknown as AnyFunction);
  for (const method of allFunctionNames(prototype)) {
    if (method === 'constructor' || method === 'clearCache') continue;
    const call = prototype[method] as AnyFunction;
    if (methods[method])
      replace(prototype, method, recordedResolution(method, call, undefined, what));
    else if (method === 'cloneWithOptions')
      replace(
        prototype,
        method,
        marked(function (this: unknown, ...args: unknown[]) {
          const instance = call.apply(this, args) as object;
          registerResolver(resolverClass, instance, args[0]);
          return instance;
        }),
      );
    else deny(prototype, method, what);
  }
  return resolverClass;
}

/** A resolver of `resolverClass` with the default options, made when first asked. */
function resolverWithDefaults(resolverClass: ResolverClass): () => object {
  let made: object | undefined;
  return () => {
    if (made === undefined) {
      made = resolverClass.make(undefined);
      registerResolver(resolverClass, made, undefined);
    }
    return made;
  };
}

/**
 * `resolve` (a resolving method, or with `asking` the addon's own function, which resolves
 * as a resolver from `asking` would on an empty cache) recorded in a call: the question it
 * asks with the answer the caller got. A resolver that cannot be named or asked again (its
 * options are not plain data, an argument is not a string, its result not plain data) is
 * not replayable, as any native call is.
 */
function recordedResolution(
  method: string,
  resolve: AnyFunction,
  asking: (() => object) | undefined,
  what: string,
): AnyFunction {
  const recorder = marked(function (this: object, ...args: unknown[]) {
    const ledger = recordingLedger();
    if (!ledger) return resolve.apply(this, args);
    const question = withoutRecording(() =>
      resolveQuestion(asking ? asking() : this, method, args),
    );
    if (question === undefined) {
      ledger.notReplayable(what);
      return resolve.apply(this, args);
    }
    const reader = ledger.readerBelow(recorder);
    const { answer, outcome } = answerResolution(() => resolve.apply(this, args));
    if (answer === undefined) ledger.notReplayable(what);
    else withoutRecording(() => ledger.answered('resolve', question, answer, reader));
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  });
  Object.defineProperty(recorder, 'name', { value: resolve.name });
  return recorder;
}

/** The functions of an object that are not classes (classes are named in capitals). */
const functionNames = (target: object) =>
  Object.keys(target).filter(
    (name) => typeof (target as Target)[name] === 'function' && !/^[A-Z]/.test(name),
  );

/**
 * Every function of an object, classes and non-enumerable ones included, as the surface
 * test enumerates them. Accessors are not called (a deprecated getter warns when read),
 * except those named in `getters`.
 */
function allFunctionNames(target: object, getters: readonly string[] = []): string[] {
  return Object.getOwnPropertyNames(target).filter((name) => {
    const descriptor = Object.getOwnPropertyDescriptor(target, name)!;
    if (descriptor.get && !getters.includes(name)) return false;
    return typeof (target as Target)[name] === 'function';
  });
}

/** Denies every function of `target` not named in `harmless`: the default for a module the ledger knows. */
function denyAllBut(
  target: object,
  harmless: readonly string[],
  what: (name: string) => string,
  getters: readonly string[] = [],
): void {
  for (const name of allFunctionNames(target, getters))
    if (!harmless.includes(name)) deny(target as Target, name, what(name));
}

/** Where an async binding call reports its descriptor: req.oncomplete, or a promise. */
function onDescriptor(result: unknown, args: unknown[], see: (fd: number) => void): void {
  if (typeof result === 'number') return see(result);
  if (result instanceof Promise) {
    void result.then(
      (value: unknown) => {
        const fd = typeof value === 'number' ? value : (value as { fd?: unknown })?.fd;
        if (typeof fd === 'number') see(fd);
      },
      () => {},
    );
    return;
  }
  const request = args[args.length - 1] as { oncomplete?: AnyFunction } | undefined;
  const complete = request?.oncomplete;
  if (request && typeof complete === 'function')
    request.oncomplete = function (this: unknown, error: unknown, fd: unknown) {
      if (!error && typeof fd === 'number') see(fd);
      return complete.call(this, error, fd);
    };
}

function installBindingRecording(): void {
  for (const name of allFunctionNames(fsBinding)) {
    const kind = BINDING_PATH_READS[name];
    if (kind !== undefined) {
      const opens = name === 'open' || name === 'openFileHandle';
      wrap(
        fsBinding,
        name,
        (ledger, args) => {
          const [first, flags] = args;
          if (typeof first === 'number') return descriptorRead(ledger, first);
          const file = pathArgument(first);
          if (opens && opensForWriting(flags)) {
            if (!isPrivate(file)) effect(ledger, `a file opened for writing (${file})`);
            return;
          }
          note(ledger, kind, first);
        },
        opens
          ? (result, args) => {
              const opened = isPrivate(pathArgument(args[0]))
                ? (fd: number) => privateDescriptors.add(fd)
                : (fd: number) => openedDuringCall.add(fd);
              onDescriptor(result, args, opened);
            }
          : undefined,
      );
    } else if (BINDING_DESCRIPTOR_READS.includes(name)) {
      wrap(fsBinding, name, (ledger, [fd]) => descriptorRead(ledger, fd));
    } else if (BINDING_DESCRIPTOR_WRITES.includes(name)) {
      wrap(fsBinding, name, (ledger, [fd]) => {
        if (typeof fd !== 'number' || !privateDescriptors.has(fd))
          effect(ledger, `a write (fs binding ${name})`);
      });
    } else if (BINDING_PATH_WRITES.includes(name)) {
      const pathCount = TWO_PATH_WRITES.includes(name) ? 2 : 1;
      wrap(fsBinding, name, (ledger, args) => {
        const [first] = args;
        // writeFileUtf8 also writes through a descriptor.
        if (typeof first === 'number' && privateDescriptors.has(first)) return;
        if (args.slice(0, pathCount).every((value) => isPrivate(pathArgument(value)))) return;
        // Removing what is not there changes nothing; the absence is the input (ESLint 8's
        // eslintrc engine removes a stale .eslintcache on every run without --cache).
        const target = pathArgument(first);
        if (
          DELETIONS.includes(name) &&
          target !== undefined &&
          !withoutRecording(() => exists(target))
        )
          return withoutRecording(() =>
            ledger.ask('lstat', target, ledger.readerBelow(installBindingRecording)),
          );
        effect(ledger, `a write (fs binding ${name} ${target ?? ''})`.trimEnd());
      });
    } else if (name === 'close') {
      wrap(fsBinding, name, (_ledger, [fd]) => {
        if (typeof fd === 'number') openedDuringCall.delete(fd);
      });
    } else if (!BINDING_HARMLESS.includes(name)) {
      deny(fsBinding, name, `fs binding ${name}, which the ledger does not record`);
    }
  }
}

const DELETIONS = ['unlink', 'rmdir'];

function exists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

function descriptorRead(ledger: ReadLedger, fd: unknown): void {
  // fds 0-2 are the worker's own stdio, fixed for its life (a tool asking whether stdout is a TTY).
  if (typeof fd === 'number' && (openedDuringCall.has(fd) || fd <= 2)) return;
  ledger.notReplayable('a read through a file descriptor opened before the call');
}

function installPublicFsRecording(): void {
  const surfaces: [Target, string][] = [
    [fs as unknown as Target, 'fs'],
    [fs.promises as unknown as Target, 'fs.promises'],
  ];
  for (const [target, label] of surfaces) {
    for (const name of allFunctionNames(target, PUBLIC_THROUGH_BINDING)) {
      const base = name.replace(/Sync$/, '');
      const kind = PUBLIC_READS[name] ?? PUBLIC_READS[base];
      if (kind !== undefined) wrap(target, name, (ledger, [first]) => note(ledger, kind, first));
      else if (PUBLIC_NOT_REPLAYABLE.includes(name) || !PUBLIC_THROUGH_BINDING.includes(base))
        deny(target, name, `${label}.${name}, which the ledger does not record`);
    }
  }
}

/** Clocks, randomness and realms: answers the filesystem does not show. */
function installClockRecording(): void {
  // Node's own bookkeeping (module compile timing) reads the clock for itself, not for
  // the tool: a read whose caller is a node: module is not the tool's.
  const clock = (what: string) => (ledger: ReadLedger) => {
    if (ledger.notReusableBecause !== undefined) return;
    const caller = nearestCaller();
    if (caller?.startsWith('node:') || (caller && timingOnlyClockReaders.has(caller))) return;
    if (endsIn(timingOnlyClockReaderEnds, caller)) return;
    // Its stamps (hrtime() with no argument) are the memo clock's (below).
    if (what === 'process.hrtime' && agesMemoOnly(caller)) return;
    ledger.notReplayable(`the current time (${what})`);
  };
  const RealDate = Date;
  const now = marked(function now() {
    const ledger = recordingLedger();
    if (ledger) {
      if (agesMemoOnly(nearestCaller())) return memoNow();
      clock('Date.now')(ledger);
    }
    return RealDate.now();
  });
  const RecordingDate = new Proxy(RealDate, {
    apply(target, thisArgument, args) {
      const ledger = recordingLedger();
      if (ledger) clock('Date()')(ledger);
      return Reflect.apply(target, thisArgument, args);
    },
    construct(target, args, newTarget) {
      const ledger = recordingLedger();
      if (ledger && args.length === 0) clock('new Date()')(ledger);
      return Reflect.construct(target, args, newTarget) as object;
    },
    get(target, property, receiver) {
      return property === 'now' ? now : (Reflect.get(target, property, receiver) as unknown);
    },
  });
  globalThis.Date = RecordingDate;
  // `new Date().constructor === Date` still holds.
  RealDate.prototype.constructor = RecordingDate;

  installPerformanceRecording(clock);
  // A memo's stamp and age asked by a reader clockAgesMemoOnly names: the memo clock's.
  const realHrtime = process.hrtime;
  const agingHrtime = Object.assign(
    function hrtime(this: unknown, ...args: unknown[]) {
      if (recordingLedger() && agesMemoOnly(nearestCaller()))
        return args[0] === undefined ? memoStamp() : memoAge(args[0]);
      return (realHrtime as AnyFunction).apply(this, args) as unknown;
    },
    { bigint: realHrtime.bigint },
  );
  process.hrtime = agingHrtime as unknown as typeof process.hrtime;
  // Clocks of process (hrtime.bigint with hrtime); every other function not known to be
  // harmless is denied, so a clock Node adds is not replayable before anyone lists it.
  for (const name of allFunctionNames(process)) {
    if (PROCESS_HARMLESS.includes(name)) continue;
    if (PROCESS_CLOCKS.includes(name))
      wrap(process as unknown as Target, name, clock(`process.${name}`));
    else deny(process as unknown as Target, name, `process.${name}`);
  }
  // The diagnostic report: resource usage, handles and the time (getReport), a file (writeReport).
  denyAllBut(process.report, [], (name) => `process.report.${name}`);

  // Intl formats the current time when given no date.
  const dateFormat = Intl.DateTimeFormat.prototype as unknown as Target;
  const formatDescriptor = Object.getOwnPropertyDescriptor(dateFormat, 'format');
  if (formatDescriptor?.get) {
    const get = formatDescriptor.get;
    Object.defineProperty(dateFormat, 'format', {
      configurable: true,
      get: marked(function (this: Intl.DateTimeFormat) {
        const format = get.call(this) as (date?: unknown) => string;
        return (date?: unknown) => {
          const ledger = recordingLedger();
          if (ledger && date === undefined) clock('Intl.DateTimeFormat().format()')(ledger);
          return format(date);
        };
      }),
    });
  }
  wrap(dateFormat, 'formatToParts', (ledger, [date]) => {
    if (date === undefined) clock('Intl.DateTimeFormat().formatToParts()')(ledger);
  });
  const temporalNow = (globalThis as { Temporal?: { Now?: Target } }).Temporal?.Now;
  if (temporalNow)
    for (const name of functionNames(temporalNow))
      wrap(temporalNow, name, clock(`Temporal.Now.${name}`));

  wrap(Math as unknown as Target, 'random', (ledger) => {
    if (ledger.notReusableBecause !== undefined) return;
    const caller = nearestCaller();
    if (caller && tokenOnlyRandomDrawers.has(caller)) return;
    ledger.notReplayable('randomness (Math.random)');
  });
  const crypto = requireBuiltin('node:crypto') as Target;
  for (const name of CRYPTO_RANDOM) deny(crypto, name, `randomness (crypto.${name})`);
  // Key pairs, signatures and public-key encryption draw fresh randomness too.
  denyAllBut(crypto, CRYPTO_DETERMINISTIC, (name) => `crypto.${name}, which may draw randomness`);
  const webCrypto = globalThis.crypto as unknown as Target | undefined;
  if (webCrypto)
    for (const name of ['getRandomValues', 'randomUUID']) {
      const fn = webCrypto[name];
      if (typeof fn !== 'function') continue;
      webCrypto[name] = (fn as AnyFunction).bind(webCrypto);
      deny(webCrypto, name, `randomness (crypto.${name})`);
    }
  const subtle = webCrypto?.subtle as object | undefined;
  if (subtle)
    denyAllBut(
      Object.getPrototypeOf(subtle) as object,
      SUBTLE_DETERMINISTIC,
      (name) => `randomness (crypto.subtle.${name})`,
    );
  const vm = requireBuiltin('node:vm') as Target & { Script: { prototype: object } };
  for (const name of VM_NEW_REALM) deny(vm, name, `a new JavaScript realm (vm.${name})`);
  denyAllBut(vm, VM_HARMLESS, (name) => `vm.${name}, which the ledger does not record`);
  for (
    let level = vm.Script.prototype;
    level !== Object.prototype;
    level = Object.getPrototypeOf(level) as object
  )
    denyAllBut(level, VM_SCRIPT_HARMLESS, (name) => `a JavaScript realm (vm.Script ${name})`);
}

type Clock = (what: string) => (ledger: ReadLedger) => void;

/**
 * `performance` and perf_hooks: every member not known to be harmless reads the clock.
 * Members live on prototypes; the recording ones are set on the instance (methods bound
 * to it), data and accessors (nodeTiming, timeOrigin) as recording getters.
 */
function installPerformanceRecording(clock: Clock): void {
  const performance = globalThis.performance as unknown as Target;
  const seen = new Set<PropertyKey>(PERFORMANCE_HARMLESS);
  for (
    let level = performance as object;
    level !== Object.prototype;
    level = Object.getPrototypeOf(level) as object
  ) {
    for (const name of Reflect.ownKeys(level)) {
      if (seen.has(name)) continue;
      seen.add(name);
      const descriptor = Object.getOwnPropertyDescriptor(level, name)!;
      const label = `performance.${String(name)}`;
      if (typeof descriptor.value === 'function') {
        performance[name] = (descriptor.value as AnyFunction).bind(performance);
        wrap(performance, name, clock(label));
        continue;
      }
      // Symbol-keyed data is EventTarget's own state (listeners, limits), read by its methods.
      if (typeof name === 'symbol') continue;
      const read = descriptor.get
        ? () => descriptor.get!.call(performance) as unknown
        : () => descriptor.value as unknown;
      Object.defineProperty(performance, name, {
        configurable: true,
        get: marked(function () {
          const ledger = recordingLedger();
          if (ledger) clock(label)(ledger);
          return read();
        }),
      });
    }
  }
  const perfHooks = requireBuiltin('node:perf_hooks') as Target;
  const globals = globalThis as unknown as Target;
  for (const name of allFunctionNames(perfHooks)) {
    if (PERF_HOOKS_HARMLESS.includes(name)) continue;
    const global = globals[name] === perfHooks[name];
    deny(perfHooks, name, `the current time (perf_hooks ${name})`);
    if (global) globals[name] = perfHooks[name];
  }
}

/** Processes, threads, native code, the network and the machine's varying state. */
function installOutsideRecording(): void {
  const childProcess = requireBuiltin('node:child_process') as Target;
  for (const name of allFunctionNames(childProcess))
    wrap(childProcess, name, (ledger) => effect(ledger, `a child process (${name})`));
  const workerThreads = requireBuiltin('node:worker_threads') as Target;
  const OriginalWorker = workerThreads.Worker as new (...args: unknown[]) => object;
  workerThreads.Worker = marked(
    class extends OriginalWorker {
      constructor(...args: unknown[]) {
        const ledger = recordingLedger();
        if (ledger) effect(ledger, 'a worker thread');
        super(...args);
      }
    },
  );
  wrap(process as unknown as Target, 'dlopen', (ledger) =>
    effect(ledger, 'a native addon loaded during the call'),
  );
  // An addon loaded when its package initialises (unrs-resolver's, for eslint-plugin-import-x
  // and eslint-import-resolver-typescript) is allowed, but what it does later is not seen:
  // its functions read the disk from C++ and keep their own caches across calls.
  const denied = process.dlopen;
  process.dlopen = marked(function dlopen(this: unknown, ...args: unknown[]) {
    const result = (denied as AnyFunction).apply(this, args);
    denyNativeExports(args[0] as { exports?: unknown }, String(args[1]));
    return result;
  }) as typeof process.dlopen;
  deny(process as unknown as Target, 'binding', 'process.binding');
  const os = requireBuiltin('node:os') as Target;
  denyAllBut(os, OS_FIXED, (name) => `os.${name}, which varies between runs`);
  for (const specifier of MODULES_NOT_REPLAYABLE) {
    const module = requireBuiltin(specifier) as Target;
    for (const name of functionNames(module))
      deny(module, name, `${specifier.slice(5)}.${name}, which reaches outside the filesystem`);
  }
  const socket = (requireBuiltin('node:net') as { Socket: { prototype: Target } }).Socket;
  deny(socket.prototype, 'connect', 'a network connection');
  if (typeof globalThis.fetch === 'function') {
    const target = globalThis as unknown as Target;
    deny(target, 'fetch', 'the network (fetch)');
  }
}

let installed = false;

/**
 * Wraps, once per process and before the tool is loaded, every function through which
 * the code a tool runs can ask the world something (read-surface.ts). With no ledger
 * active the wrappers only pass through.
 */
export function installReadRecording(): void {
  if (installed) return;
  installed = true;
  installBindingRecording();
  installPublicFsRecording();
  // Before the clocks, which deny the rest of process: dlopen and binding keep their names.
  installOutsideRecording();
  installClockRecording();
  // ESM importers of builtins (prettier's `import { statSync } from "fs"`) see the wrappers too.
  syncBuiltinESMExports();
}

/**
 * Sets the ledger that records what is asked outside any call (loading the tool, timers
 * between calls): the worker's own state depends on those answers.
 */
export function recordBackground(ledger: ReadLedger): void {
  background = ledger;
  active ??= ledger;
}

/**
 * Runs the synchronous `work` (one file's lint) with `ledger` recording what it asks
 * instead of the ledger recording now; the caller absorbs it into the run's ledger.
 */
export function recordPartSync<T>(ledger: ReadLedger, work: () => T): T {
  const outer = active;
  active = ledger;
  nextMemoStretch();
  try {
    return work();
  } finally {
    active = outer;
    nextMemoStretch();
  }
}

/** The ledger of the call running now, if any (not the background one). */
export function callLedger(): ReadLedger | undefined {
  return active !== background ? active : undefined;
}

/** Runs `work` with `ledger` recording every question asked meanwhile. */
export async function recordReads<T>(ledger: ReadLedger, work: () => Promise<T>): Promise<T> {
  active = ledger;
  openedDuringCall.clear();
  nextMemoStretch();
  try {
    return await work();
  } finally {
    active = background;
    openedDuringCall.clear();
    nextMemoStretch();
  }
}

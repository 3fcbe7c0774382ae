import Module from 'node:module';
import v8 from 'node:v8';
import vm from 'node:vm';
import { MessageChannel, Worker } from 'node:worker_threads';
import { loadEslintAdapter } from './eslint-adapter.js';
import { InputRecord } from './input-fingerprint.js';
import { loadPrettierAdapter } from './prettier-adapter.js';
import {
  callUnwatched,
  callWatched,
  checkPassCounts,
  clearNativeCaches,
  currentAnswer,
  describe,
  effectRefused,
  installReadRecording,
  type Kind,
  openCheckPass,
  ReadLedger,
  recordBackground,
  recordReads,
  resolverCachesUsed,
  stillAnswers,
  unitsOf,
  withinCheckPass,
  withoutRecording,
} from './read-ledger.js';
import { recordModuleResolution, resolutionMayProbe } from './resolution-record.js';
import { packageClosure, type ToolAdapter, type ToolOutput } from './tool-adapter.js';
import { loadTscAdapter } from './tsc-adapter.js';
import type {
  WarmAbandonedReply,
  WarmAbandonMessage,
  WarmReply,
  WarmRunMessage,
  WarmTool,
} from './warm-protocol.js';
import { startWorkerPhases, takeWorkerPhases, workerCount, workerTimed } from './worker-timing.js';

/**
 * Entry of a warm worker process: `node worker-main.js <root> <tool>`, cwd = root, spoken
 * to over its IPC channel only. It dies with its owner: when stdin or the IPC channel
 * closes, and (POSIX) when a watchdog on another thread sees its parent change, which also
 * works while a long check keeps this thread busy. The watchdog runs on the module loader's
 * thread (module-hooks.ts), which the worker has anyway: a thread of its own costs an
 * isolate, about 10 MB of RSS.
 */

const [root, tool] = process.argv.slice(2) as [string, WarmTool];

const exitNow = () => process.exit(0);
process.stdin.on('end', exitNow);
process.stdin.on('close', exitNow);
process.stdin.resume();
process.on('disconnect', exitNow);

/** What the watchdog watches: the parent it must outlive (POSIX only, see above). */
const watched =
  process.platform === 'win32' ? undefined : { parent: process.ppid, self: process.pid };
// module.register arrived in Node 20.6; without it loads cannot be recorded, so nothing runs warm.
const registerHooks = (Module as { register?: (...args: unknown[]) => void }).register;

if (watched && !registerHooks) {
  const watchdog = new Worker(
    `const { workerData } = require('node:worker_threads');
     setInterval(() => {
       if (process.ppid !== workerData.parent) process.kill(workerData.self, 'SIGKILL');
     }, 200);`,
    { eval: true, workerData: watched },
  );
  watchdog.unref();
}

/**
 * A full garbage collection, for this file alone: the tool's realm gets no `gc` global (the
 * flag is on only while a context of our own is made). Before the recorders: a new realm
 * made in a call is something the ledger cannot replay.
 */
function privateCollector(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return undefined; // Without it a worker keeps its heap as V8 leaves it.
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}
const collectGarbage = privateCollector();

// Before the tool loads, so everything it asks of the world goes through the recorders.
installReadRecording();
/**
 * What the worker's own state was built from: every question asked outside a call
 * (loading the tool, its config, plugins and parsers; timers between calls) and every
 * directory module resolution probed (the module caches keep what it found). Any change
 * restarts the worker: a fresh process loads what is there now.
 */
const lifetime = new ReadLedger(true);
recordBackground(lifetime);
const resolutionUnrecorded = recordModuleResolution((kind: Kind, file: string) =>
  withoutRecording(() => lifetime.ask(kind, file)),
);

const inputs = new InputRecord(root);
// Before anything is loaded: an edit during loading then shows on the next call.
withoutRecording(() => inputs.recordConfig());

interface LoaderReport {
  loaded?: string;
  signature?: string;
  /** Questions ESM resolution asked (directories probed, package.json files read). */
  probed?: [Kind, string][];
  synced?: number;
}

// Every module file loaded from now on joins the inputs, signed before it was read.
const channel = new MessageChannel();
let syncCounter = 0;
const syncWaiters = new Map<number, () => void>();
channel.port1.on('message', (message: LoaderReport) => {
  if (message.loaded !== undefined)
    withoutRecording(() => inputs.recordLoaded(message.loaded!, message.signature));
  if (message.probed !== undefined)
    for (const [kind, file] of message.probed) withoutRecording(() => lifetime.ask(kind, file));
  if (message.synced !== undefined) syncWaiters.get(message.synced)?.();
});
channel.port1.unref();
registerHooks?.('./module-hooks.js', import.meta.url, {
  data: { port: channel.port2, watched },
  transferList: [channel.port2],
});

/** Waits until the loader thread has delivered every report made so far. */
function loadedReportsSettled(): Promise<void> {
  const id = ++syncCounter;
  return new Promise((resolve) => {
    syncWaiters.set(id, () => {
      syncWaiters.delete(id);
      resolve();
    });
    channel.port1.postMessage({ sync: id });
  });
}

/** CommonJS modules (required, not imported) are signed after load: a narrow window. */
function recordRequiredModules(): void {
  const cache = (Module as unknown as { _cache: Record<string, unknown> })._cache;
  for (const file of Object.keys(cache)) inputs.recordLoaded(file);
}

async function loadAdapter(): Promise<ToolAdapter | string> {
  if (!registerHooks) return `warm gates need Node 20.6 or later (this is ${process.version})`;
  if (resolutionUnrecorded) return resolutionUnrecorded;
  const adapter =
    tool === 'eslint'
      ? await loadEslintAdapter(root)
      : tool === 'prettier'
        ? await loadPrettierAdapter(root)
        : tool === 'tsc'
          ? loadTscAdapter(
              root,
              // Timed as the call's own `collect` phase: one a call made while idle skips it.
              collectGarbage &&
                (() => workerTimed('collect', () => withoutRecording(collectGarbage))),
            )
          : `no warm worker for ${String(tool)}`;
  /**
   * V8 grows its old generation up to 4x what survived the last full collection before it
   * collects again, so a call that makes garbage file after file peaks far above what it
   * keeps. The factor only paces collections: no limit is lowered, nothing fails for it.
   */
  if (typeof adapter !== 'string' && adapter.heapGrowingPercent !== undefined)
    v8.setFlagsFromString(`--heap-growing-percent=${adapter.heapGrowingPercent}`);
  return adapter;
}

const send = (reply: WarmReply) => {
  // How many checks the call's pass served, and how many questions it asked the tree for them.
  const { asked, answered } = checkPassCounts();
  workerCount('pass.checks.count', asked);
  workerCount('pass.answers.count', answered);
  // The call's own phases go with its reply when timing is wanted (phase-timing.ts).
  const phases = takeWorkerPhases();
  const refused = effectRefused();
  // What the tool did after its caller gave up is not what a cold run does: this worker goes.
  if (refused !== undefined && reply.type !== 'stale')
    reply = { type: 'stale', id: reply.id, reason: `its abandoned call was refused ${refused}` };
  process.send?.(phases && reply.type === 'result' ? { ...reply, phases } : reply);
};

let adapterPromise: Promise<ToolAdapter | string> | undefined;
let queue: Promise<void> = Promise.resolve();

/** Results kept for reuse, by arguments; the oldest goes first past either bound. */
const MAX_KEPT_RESULTS = 32;
const MAX_KEPT_CHARACTERS = 32 * 1024 * 1024;
const keptResults = new Map<string, { ledger: ReadLedger; output: ToolOutput }>();
const sizeOf = (output: ToolOutput) => output.stdout.length + output.stderr.length;
let keptCharacters = 0;

function forgetResult(key: string): void {
  const kept = keptResults.get(key);
  if (!kept) return;
  keptCharacters -= sizeOf(kept.output);
  keptResults.delete(key);
}

/** Why the last run of each argument set may not be reused (shown to the pool). */
const notReusable = new Map<string, string>();

/**
 * The earlier result of these arguments when everything its run read is unchanged (see
 * read-ledger.ts for why that is the result a rerun would give), or why not.
 */
function reusableResult(key: string): { output: ToolOutput } | { why: string } {
  const kept = keptResults.get(key);
  if (!kept) return { why: notReusable.get(key) ?? 'no earlier run of these arguments' };
  workerCount('reuseCheck.questions.count', kept.ledger.size);
  const change = kept.ledger.firstChange();
  if (change !== undefined) {
    forgetResult(key);
    return { why: `changed since the last run: ${change}` };
  }
  // The most recently used goes last: eviction takes the oldest.
  keptResults.delete(key);
  keptResults.set(key, kept);
  return { output: kept.output };
}

function keepResult(key: string, ledger: ReadLedger, output: ToolOutput): void {
  const why = ledger.notReusableBecause;
  if (why !== undefined) {
    if (notReusable.size >= MAX_KEPT_RESULTS) notReusable.delete(notReusable.keys().next().value!);
    notReusable.set(key, `the last run used ${why}`);
    return;
  }
  notReusable.delete(key);
  forgetResult(key);
  if (sizeOf(output) > MAX_KEPT_CHARACTERS) return;
  while (
    keptResults.size >= MAX_KEPT_RESULTS ||
    keptCharacters + sizeOf(output) > MAX_KEPT_CHARACTERS
  )
    forgetResult(keptResults.keys().next().value!);
  // A reused answer reports no incremental work of its own.
  const { incremental: _incremental, ...kept } = output;
  keptResults.set(key, { ledger, output: kept });
  keptCharacters += sizeOf(output);
}

/**
 * Everything any call has asked, by the code that asked it (a reader: read-ledger.ts
 * readerOf), with the answer that code last got. A tool and its plugins keep some of what
 * they read in memory (ESLint its config and whatever the config read, TypeScript its
 * module resolutions, a plugin the exports of the files it parsed), so a call's answer is
 * only as fresh as the oldest answer the worker still holds. After each call
 * (staleAfterCall), an answer that changed and was not asked again by the code that
 * asked it before is one the worker may still hold: ESLint reading a file again to lint it
 * says nothing of a plugin that parsed it once and keeps its exports, and a plugin that
 * checks a file's mtime before using what it keeps does not read a same-size rewrite whose
 * mtime was set back. The worker is then replaced. Only the tool's own code (its package
 * and its dependencies: ownPackages) that has asked in more than one call is taken to ask
 * anew (a file it lints each time, now deleted or outside this call's paths).
 */
const heldAnswers = new Map<string, HeldAnswer>();

/**
 * One held answer, by `kind\0path\0holder id` (holderIdOf): its question (`kind\0path`) and
 * holder kept apart.
 */
interface HeldAnswer {
  question: string;
  kind: Kind;
  file: string;
  holder: string;
  holderId: number;
  answer: string;
  askedAgain: boolean;
}

/**
 * A number for each holder, which heldAnswers' keys carry: a holder is a reader's whole
 * stack (kilobytes), and a key made of it would be hashed afresh on every call.
 */
const holderIds = new Map<string, number>();
function holderIdOf(holder: string): number {
  let id = holderIds.get(holder);
  if (id === undefined) holderIds.set(holder, (id = holderIds.size));
  return id;
}

/** The packages of the tool's own code (the tool and its dependencies); set on the first call. */
let ownPackages: ReadonlySet<string> | undefined;

/** The package each tool is installed as. */
const TOOL_PACKAGES: Record<WarmTool, string> = {
  eslint: 'eslint',
  prettier: 'prettier',
  tsc: 'typescript',
};

/**
 * Who a reader is for held answers: the tool, when only the tool's own code is on its stack
 * (wherever in the tool it asked: the tool is one reader, as it reads what it lints anew on
 * each call), or the reader itself (a plugin's call site and stack).
 */
function holderOf(reader: string): string {
  let holder = holders.get(reader);
  if (holder === undefined) {
    ownPackages ??= packageClosure(root, TOOL_PACKAGES[tool]);
    const units = unitsOf(reader);
    holder = units.length > 0 && units.every((unit) => ownPackages!.has(unit)) ? TOOL : reader;
    if (holders.size >= MAX_HOLDERS) holders.clear();
    holders.set(reader, holder);
  }
  return holder;
}
const TOOL = 'the tool';
const holders = new Map<string, string>();
const MAX_HOLDERS = 10_000;

/** What a holder is called in a reason: the tool, or a reader's nearest call site. */
const holderName = (holder: string) =>
  holder === TOOL
    ? 'the tool, which asked it once,'
    : holder === ''
      ? 'code the worker could not name, which asked it before,'
      : `${holder.split('\n')[0]!.split('\t')[1]!}, which asked it before,`;

/** Why the worker may hold an answer that is no longer true, after `call` ran; undefined when none. */
function staleAfterCall(call: ReadLedger): string | undefined {
  // One pass (the call's: handle): a question many holders asked is asked again once.
  return withinCheckPass(() => heldStaleAfterCall(call));
}

function heldStaleAfterCall(call: ReadLedger): string | undefined {
  const asked = new Map<string, Map<number, string>>();
  for (const [key] of call.questions()) {
    const readers = call.readersOf(key);
    if (readers.size === 0) continue;
    const holders = new Map<number, string>();
    for (const reader of readers) {
      const holder = holderOf(reader);
      holders.set(holderIdOf(holder), holder);
    }
    asked.set(key, holders);
  }
  // The tool ran since the pass emptied the native resolvers' caches: a resolution
  // re-asked from here reads the tree as it is now.
  resolverCachesUsed();
  let checked = 0;
  for (const held of heldAnswers.values()) {
    if (asked.get(held.question)?.has(held.holderId)) continue;
    if (held.askedAgain && held.holder === TOOL) continue;
    checked++;
    if (!stillAnswers(held.kind, held.file, held.answer))
      return `${describe(held.kind, held.file)} changed and ${holderName(held.holder)} did not ask again: it may keep the old answer`;
  }
  workerCount('staleAfter.checked.count', checked);
  workerCount('staleAfter.held.count', heldAnswers.size);
  for (const [key, holders] of asked) {
    // A kept part's replayed answer has no readers: replaying is not the tool asking again.
    const answer = call.answerTo(key)!;
    const cut = key.indexOf('\0');
    const kind = key.slice(0, cut) as Kind;
    const file = key.slice(cut + 1);
    for (const [holderId, holder] of holders) {
      const heldKey = `${key}\0${holderId}`;
      const askedAgain = heldAnswers.has(heldKey);
      heldAnswers.set(heldKey, { question: key, kind, file, holder, holderId, answer, askedAgain });
    }
  }
  // What the worker holds from earlier calls fed this one: its result is reusable only
  // while those answers hold too (checked above: they do now).
  for (const held of heldAnswers.values())
    if (!(held.askedAgain && held.holder === TOOL)) call.holds(held.question, held.answer);
  return undefined;
}

/** Every path the worker has recorded: questions asked while loading and in calls, files loaded. */
function* recordedPaths(): Iterable<string> {
  // A resolve question names a resolution, not a path.
  for (const [key] of lifetime.questions())
    if (!key.startsWith('resolve\0')) yield key.slice(key.indexOf('\0') + 1);
  for (const held of heldAnswers.values()) if (held.kind !== 'resolve') yield held.file;
  yield* inputs.files();
}

/** Why the worker's loaded state may differ from a fresh load, or undefined. */
function staleBeforeCall(): string | undefined {
  return withoutRecording(() => {
    workerCount('staleBefore.inputs.count', inputs.size);
    workerCount('staleBefore.lifetime.count', lifetime.size);
    // A loaded module file is mostly a lifetime question too (its content, read as it
    // loaded): signed once for both in the call's check pass.
    const stale = workerTimed('staleBefore.inputs', () =>
      inputs.staleReason((file) => currentAnswer('content', file)),
    );
    if (stale) return stale;
    const change = workerTimed('staleBefore.lifetime', () =>
      lifetime.firstChange(resolutionMayProbe(recordedPaths)),
    );
    if (change !== undefined) return `changed since the worker loaded it: ${change}`;
    // The tool read what no ledger can replay while it loaded (a config that reads the
    // clock): the loaded state is not reproducible, so each call gets a fresh worker.
    if (lifetime.notReusableBecause !== undefined && callsServed > 0)
      return `the tool used ${lifetime.notReusableBecause} while it loaded`;
    return undefined;
  });
}

let callsServed = 0;

/**
 * A call's garbage, collected once its answer is sent (adapter.releaseAfterCall). V8 keeps
 * the pages a call grew its heap to, so a worker would hold its last call's high-water mark
 * between calls (prettier on vuejs/core: 160 MB of heap holding 30 MB alive, the worker
 * above the peak of the cold command it replaces); a full collection gives the free pages
 * back. It runs after a short idle (a call queued at once reuses the grown heap instead),
 * and it reads nothing: the ledgers see no question.
 */
const RELEASE_AFTER_MS = 200;
let release: NodeJS.Timeout | undefined;
/**
 * The adapter whose release has yet to run: a call cancels the timer as it starts, and one
 * that does not run the tool (a kept answer reused at once) sets it again as it ends.
 */
let releaseOwed: ToolAdapter | undefined;

function releaseSoon(adapter: ToolAdapter): void {
  if (!collectGarbage) return;
  clearTimeout(release);
  releaseOwed = adapter;
  release = setTimeout(
    () =>
      withoutRecording(() => {
        releaseOwed = undefined;
        adapter.beforeRelease?.();
        collectGarbage();
      }),
    RELEASE_AFTER_MS,
  );
  release.unref();
}

/**
 * Serves one call in one check pass (read-ledger.ts openCheckPass): the checks before the
 * run (the loaded state, the kept result, the kept parts at the run's start) and after it
 * (held answers) ask each question of the tree once, however many ledgers recorded it.
 *
 * Why the check after the run may take an answer given before it: an answer the pass gave
 * was true when the pass first asked it, before the tool ran, and the tool's own reads are
 * signed as they happen (never from the pass). So a held answer confirmed before the run
 * says what the worker's memory held was the tree's when the run began; a change while the
 * tool ran gives findings of either state, as a cold run's are when the tree moves under
 * it (the gate keeps no such run: report/last-run.ts). It is not lost: the held answer and
 * every ledger that recorded the question keep the answer recorded, never the pass's, so
 * the next call's checks see the change (and replace the worker, or rerun what read it).
 */
async function handle(message: WarmRunMessage): Promise<void> {
  const closeCheckPass = openCheckPass();
  try {
    await serve(message);
  } finally {
    closeCheckPass();
    if (releaseOwed) releaseSoon(releaseOwed);
  }
}

async function serve(message: WarmRunMessage): Promise<void> {
  clearTimeout(release);
  const rssBytes = () => withoutRecording(() => process.memoryUsage().rss);
  startWorkerPhases();
  running = message.id;
  const refused = callWatched();
  if (refused !== undefined) {
    send({ type: 'stale', id: message.id, reason: `it was refused ${refused} between calls` });
    return;
  }
  // Abandoned before it started here (it waited behind the last reply's sending).
  if (abandoned === message.id) callUnwatched();
  const stale = workerTimed('staleBefore', staleBeforeCall);
  if (stale) {
    // The pool stops this worker and starts a fresh one, which loads what is there now.
    send({ type: 'stale', id: message.id, reason: stale });
    return;
  }
  adapterPromise ??= loadAdapter();
  const adapter = await adapterPromise;
  if (typeof adapter === 'string') {
    send({ type: 'not-warmable', id: message.id, reason: adapter, rssBytes: rssBytes() });
    return;
  }
  const cold = adapter.coldBecause?.(message.args);
  if (cold) {
    send({ type: 'not-warmable', id: message.id, reason: cold, rssBytes: rssBytes() });
    return;
  }
  const key = JSON.stringify(message.args);
  const reusable = workerTimed('reuseCheck', () => withoutRecording(() => reusableResult(key)));
  if ('output' in reusable) {
    send({
      type: 'result',
      id: message.id,
      ...reusable.output,
      reused: true,
      rssBytes: rssBytes(),
    });
    return;
  }
  const retired = adapter.retireBecause?.();
  if (retired) {
    send({ type: 'stale', id: message.id, reason: retired });
    return;
  }
  // Recorded before the tool reads them: an edit from now on shows on the next call.
  withoutRecording(() => {
    for (const file of adapter.configFilesNamed(message.args)) inputs.recordLoaded(file);
    // A native resolver's memory of the tree is the earlier call's: emptied, it reads it anew.
    clearNativeCaches();
  });
  const ledger = new ReadLedger();
  callsServed++;
  const outcome = await workerTimed('run', () =>
    recordReads(ledger, () => adapter.run(message.args)),
  );
  // Before staleAfterCall adds what the worker held from earlier calls.
  workerCount('callQuestions.count', ledger.size);
  // Plugins and parsers load lazily (prettier's per language): record what this call loaded.
  await workerTimed('loadedSettled', loadedReportsSettled);
  const heldStale = workerTimed('staleAfter', () =>
    withoutRecording(() => {
      recordRequiredModules();
      return staleAfterCall(ledger);
    }),
  );
  if (heldStale !== undefined) {
    // This call may have answered from a kept copy: its output is dropped and a fresh
    // worker runs it (the pool retries once on a stale reply).
    send({ type: 'stale', id: message.id, reason: heldStale });
    return;
  }
  if ('notWarmable' in outcome) {
    send({
      type: 'not-warmable',
      id: message.id,
      reason: outcome.notWarmable,
      rssBytes: rssBytes(),
    });
    return;
  }
  workerTimed('keep', () => withoutRecording(() => keepResult(key, ledger, outcome)));
  send({
    type: 'result',
    id: message.id,
    ...outcome,
    reused: false,
    notReusedBecause: reusable.why,
    rssBytes: rssBytes(),
  });
  if (adapter.releaseAfterCall) releaseSoon(adapter);
}

/** The id of the call the worker runs or ran last, and of the last call abandoned. */
let running: number | undefined;
let abandoned: number | undefined;

process.on('message', (message: WarmRunMessage | WarmAbandonMessage) => {
  if (message?.type === 'abandon') {
    // Only the call the pool means: effects are refused until the next call starts.
    abandoned = message.id;
    if (message.id === running) callUnwatched();
    process.send?.({ type: 'abandoned', id: message.id } satisfies WarmAbandonedReply);
    return;
  }
  if (message?.type !== 'run') return;
  queue = queue.then(() =>
    handle(message).catch((error: unknown) => {
      send({
        type: 'not-warmable',
        id: message.id,
        reason: `warm ${tool} failed: ${(error as Error)?.message ?? String(error)}`,
        rssBytes: withoutRecording(() => process.memoryUsage().rss),
      });
    }),
  );
});

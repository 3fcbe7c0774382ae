import Module from 'node:module';
import { MessageChannel, Worker } from 'node:worker_threads';
import { loadEslintAdapter } from './eslint-adapter.js';
import { InputRecord } from './input-fingerprint.js';
import { loadPrettierAdapter } from './prettier-adapter.js';
import type { ToolAdapter } from './tool-adapter.js';
import { loadTscAdapter } from './tsc-adapter.js';
import type { WarmReply, WarmRunMessage, WarmTool } from './warm-protocol.js';

/**
 * Entry of a warm worker process: `node worker-main.js <root> <tool>`, cwd = root, spoken
 * to over its IPC channel only. It dies with its owner: when stdin or the IPC channel
 * closes, and (POSIX) when a watchdog thread sees its parent change, which also works
 * while a long check keeps this thread busy.
 */

const [root, tool] = process.argv.slice(2) as [string, WarmTool];

const exitNow = () => process.exit(0);
process.stdin.on('end', exitNow);
process.stdin.on('close', exitNow);
process.stdin.resume();
process.on('disconnect', exitNow);

if (process.platform !== 'win32') {
  const watchdog = new Worker(
    `const { workerData } = require('node:worker_threads');
     setInterval(() => {
       if (process.ppid !== workerData.parent) process.kill(workerData.self, 'SIGKILL');
     }, 200);`,
    { eval: true, workerData: { parent: process.ppid, self: process.pid } },
  );
  watchdog.unref();
}

const inputs = new InputRecord(root);
// Before anything is loaded: an edit during loading then shows on the next call.
inputs.recordConfig();

// Every module file loaded from now on joins the inputs, signed before it was read.
const channel = new MessageChannel();
let syncCounter = 0;
const syncWaiters = new Map<number, () => void>();
channel.port1.on('message', (message: { loaded?: string; signature?: string; synced?: number }) => {
  if (message.loaded !== undefined) inputs.recordLoaded(message.loaded, message.signature);
  if (message.synced !== undefined) syncWaiters.get(message.synced)?.();
});
channel.port1.unref();
// module.register arrived in Node 20.6; without it loads cannot be recorded, so nothing runs warm.
const registerHooks = (Module as { register?: (...args: unknown[]) => void }).register;
registerHooks?.('./module-hooks.js', import.meta.url, {
  data: { port: channel.port2 },
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
  if (tool === 'eslint') return loadEslintAdapter(root);
  if (tool === 'prettier') return loadPrettierAdapter(root);
  if (tool === 'tsc') return loadTscAdapter(root);
  return `no warm worker for ${String(tool)}`;
}

const send = (reply: WarmReply) => process.send?.(reply);

let adapterPromise: Promise<ToolAdapter | string> | undefined;
let queue: Promise<void> = Promise.resolve();

async function handle(message: WarmRunMessage): Promise<void> {
  const rssBytes = () => process.memoryUsage().rss;
  const stale = inputs.staleReason();
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
  // Recorded before the tool reads them: an edit from now on shows on the next call.
  for (const file of adapter.configFilesNamed(message.args)) inputs.recordLoaded(file);
  const outcome = await adapter.run(message.args);
  // Plugins and parsers load lazily (prettier's per language): record what this call loaded.
  await loadedReportsSettled();
  recordRequiredModules();
  if ('notWarmable' in outcome) {
    send({
      type: 'not-warmable',
      id: message.id,
      reason: outcome.notWarmable,
      rssBytes: rssBytes(),
    });
    return;
  }
  send({ type: 'result', id: message.id, ...outcome, rssBytes: rssBytes() });
}

process.on('message', (message: WarmRunMessage) => {
  if (message?.type !== 'run') return;
  queue = queue.then(() =>
    handle(message).catch((error: unknown) => {
      send({
        type: 'not-warmable',
        id: message.id,
        reason: `warm ${tool} failed: ${(error as Error)?.message ?? String(error)}`,
        rssBytes: process.memoryUsage().rss,
      });
    }),
  );
});

import { fileURLToPath } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import { signatureOf } from './input-fingerprint.js';
import type { Kind } from './read-surface.js';
import { esmResolutionQuestions } from './resolution-record.js';

/**
 * Module loader hooks of a warm worker (they run on Node's loader thread): every file
 * the worker imports is reported with its signature taken BEFORE it is read, so an edit
 * racing the load still shows as a change on the next call. A `sync` message is answered
 * after every earlier report (one port keeps order), so the worker can wait for them.
 */

let port: MessagePort | undefined;

export function initialize(data: {
  port: MessagePort;
  /** The worker's watchdog (worker-main.ts): this thread runs while a check blocks the worker's. */
  watched?: { parent: number; self: number };
}): void {
  port = data.port;
  port.on('message', (message: { sync: number }) => port?.postMessage({ synced: message.sync }));
  port.unref();
  const { watched } = data;
  if (watched)
    setInterval(() => {
      if (process.ppid !== watched.parent) process.kill(watched.self, 'SIGKILL');
    }, 200).unref();
}

interface LoadContext {
  format?: string | null;
}
type NextLoad = (url: string, context: LoadContext) => Promise<unknown>;

export async function load(url: string, context: LoadContext, nextLoad: NextLoad) {
  if (url.startsWith('file:')) {
    const file = fileURLToPath(url);
    port?.postMessage({ loaded: file, signature: signatureOf(file) });
  }
  return nextLoad(url, context);
}

interface ResolveContext {
  parentURL?: string;
}
type NextResolve = (specifier: string, context: ResolveContext) => Promise<{ url: string }>;

const pathOf = (url: string | undefined) =>
  url?.startsWith('file:') ? fileURLToPath(url) : undefined;

/** Reports what each resolution probed (resolution-record.ts), found or not. */
export async function resolve(
  specifier: string,
  context: ResolveContext,
  nextResolve: NextResolve,
) {
  let result: { url: string } | undefined;
  try {
    result = await nextResolve(specifier, context);
    return result;
  } finally {
    const probed: [Kind, string][] = [];
    esmResolutionQuestions(
      specifier,
      pathOf(context.parentURL),
      pathOf(result?.url),
      (kind, file) => probed.push([kind, file]),
    );
    if (probed.length > 0) port?.postMessage({ probed });
  }
}

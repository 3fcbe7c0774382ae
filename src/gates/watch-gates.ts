import fs from 'node:fs';
import { CONFIG_FILE } from './config.js';
import { loadGates, type ServedGates } from './load-gates.js';

/** The files whose edits can change what is served: the config and the scripts. */
const WATCHED = new Set([CONFIG_FILE, 'package.json']);
/** Editors write a file in several steps (truncate, write, rename): one reload after they settle. */
export const DEFAULT_DEBOUNCE_MS = 150;

export interface GateWatchOptions {
  /** Called with the new gates after a watched file changed what is served. */
  onChange: (served: ServedGates) => void;
  /** Called when a watched file changed into something that does not load (the last good gates stay). */
  onError: (error: Error) => void;
  debounceMs?: number;
}

export interface GateWatcher {
  close(): void;
}

/**
 * Watches `mcp-gates.json` and `package.json` in `root` (fs.watch on the directory, so a
 * file that is created, replaced by rename or deleted is seen too) and reloads the gates
 * after edits settle. Reports only real changes: a save that leaves the gates as they were
 * calls nothing. Holds no process open (the watcher is unref'd).
 */
export function watchGates(
  root: string,
  initial: ServedGates,
  options: GateWatchOptions,
): GateWatcher {
  const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  let last = JSON.stringify(initial.gates);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const reload = () => {
    timer = undefined;
    if (closed) return;
    let served: ServedGates;
    try {
      served = loadGates(root);
    } catch (error) {
      options.onError(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const next = JSON.stringify(served.gates);
    if (next === last) return;
    last = next;
    options.onChange(served);
  };
  let watcher: fs.FSWatcher;
  try {
    watcher = fs.watch(root, { persistent: false }, (_event, filename) => {
      // Some platforms give no file name: then any change may be ours.
      if (filename !== null && !WATCHED.has(filename.toString())) return;
      clearTimeout(timer);
      timer = setTimeout(reload, debounceMs);
      timer.unref();
    });
  } catch (error) {
    options.onError(
      new Error(
        `cannot watch ${root} for edits of ${CONFIG_FILE} and package.json (${(error as Error).message}); restart the server after editing them`,
      ),
    );
    return { close: () => {} };
  }
  watcher.on('error', (error) => {
    options.onError(
      new Error(
        `stopped watching ${root} (${error.message}); restart the server after editing ${CONFIG_FILE} or package.json`,
      ),
    );
    watcher.close();
  });
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      watcher.close();
    },
  };
}

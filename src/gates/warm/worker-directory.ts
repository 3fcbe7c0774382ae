import path from 'node:path';
import { removeDirectoriesOfProcess } from '../../capture/capture-file.js';

/**
 * A warm worker's private temp directory, `mcp-gates-warm-<pid>-<random>` (tool-adapter.ts
 * makes it): the pid tells a dead worker's leftovers from a live one's, and lets the pool
 * remove the directory of a worker it killed.
 */
export const WORKER_DIRECTORY_PREFIX = 'mcp-gates-warm-';
export const WORKER_DIRECTORY_NAME = /^mcp-gates-warm-(\d+)-[A-Za-z0-9]+$/;

/** A variable of `env`, by name; on Windows, whatever its case (the names are case-blind). */
function variable(env: NodeJS.ProcessEnv, name: string): string | undefined {
  if (process.platform !== 'win32') return env[name] || undefined;
  const key = Object.keys(env).find((candidate) => candidate.toUpperCase() === name);
  return (key && env[key]) || undefined;
}

/**
 * The directory os.tmpdir() gives a process started with `env` (node's own rule): a
 * worker's environment is the gate's, whose TMPDIR may differ from the server's.
 */
function tempDirectoryOf(env: NodeJS.ProcessEnv): string {
  if (process.platform === 'win32') {
    const temp =
      variable(env, 'TEMP') ??
      variable(env, 'TMP') ??
      `${variable(env, 'SYSTEMROOT') ?? variable(env, 'WINDIR') ?? ''}\\temp`;
    return temp.length > 1 && temp.endsWith('\\') && !temp.endsWith(':\\')
      ? temp.slice(0, -1)
      : temp;
  }
  const temp = variable(env, 'TMPDIR') ?? variable(env, 'TMP') ?? variable(env, 'TEMP') ?? '/tmp';
  return temp.length > 1 && temp.endsWith('/') ? temp.slice(0, -1) : temp;
}

/**
 * Removes the private directory of worker `pid` (started with `env`), which has just
 * exited or been killed: a worker killed outright cannot remove its own, and leaving it
 * for a later worker's sweep would leave it after this server's clean exit.
 */
export function removeWorkerDirectory(pid: number, env: NodeJS.ProcessEnv): void {
  removeDirectoriesOfProcess(path.resolve(tempDirectoryOf(env)), WORKER_DIRECTORY_NAME, pid);
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sweepDirectoriesOfDeadProcesses } from '../../capture/capture-file.js';

/**
 * A private (0700) directory for this process's full gate logs, made on first use and
 * removed at exit, unless keepFullLogs() was called (the CLI prints reports naming them).
 */
let directory: string | undefined;
let keep = false;

function remove(): void {
  if (directory === undefined || keep) return;
  fs.rmSync(directory, { recursive: true, force: true });
  directory = undefined;
}

/** A server's log directory: `mcp-gates-logs-<pid>-<random>`, swept once its process is gone. */
const SERVER_LOGS = /^mcp-gates-logs-(\d+)-[A-Za-z0-9]+$/;
/** A CLI run's (`run`, `check`): `mcp-gates-run-logs-<pid>-<random>`, the newest few kept. */
const RUN_LOGS = /^mcp-gates-run-logs-(\d+)-[A-Za-z0-9]+$/;
/**
 * CLI runs whose logs are kept: the report printed by one of the last few runs still
 * names a log that exists; older ones go when a new run makes its directory.
 */
export const KEPT_RUN_LOG_DIRECTORIES = 10;

export function fullLogDirectory(): string {
  if (directory === undefined) {
    // Logs a printed report names outlive the CLI run (`mcp-gates-run-logs-…`): the last
    // runs' stay, with this one; a server's go with it, and the next one removes what a
    // killed server left. A live process's directory is never touched.
    if (keep) sweepDirectoriesOfDeadProcesses(RUN_LOGS, KEPT_RUN_LOG_DIRECTORIES - 1);
    else sweepDirectoriesOfDeadProcesses(SERVER_LOGS);
    const prefix = keep ? 'mcp-gates-run-logs-' : 'mcp-gates-logs-';
    directory = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}${process.pid}-`));
    process.once('exit', remove);
  }
  return directory;
}

/** For a one-shot CLI run: the logs its printed report names outlive the process. */
export function keepFullLogs(): void {
  keep = true;
}

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

export function fullLogDirectory(): string {
  if (directory === undefined) {
    // Logs a printed report names are the user's (`mcp-gates-run-logs-…`, never swept);
    // a server's go with it, and the next one removes what a killed server left.
    if (!keep) sweepDirectoriesOfDeadProcesses(SERVER_LOGS);
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

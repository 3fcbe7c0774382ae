import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

export function fullLogDirectory(): string {
  if (directory === undefined) {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), `mcp-gates-logs-${process.pid}-`));
    process.once('exit', remove);
  }
  return directory;
}

/** For a one-shot CLI run: the logs its printed report names outlive the process. */
export function keepFullLogs(): void {
  keep = true;
}

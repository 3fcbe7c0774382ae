import { spawn } from 'node:child_process';
import { terminateProcessTree } from '../gates/run/process-tree.js';
import { childPathValue, resolveCommand } from '../gates/run/resolve-command.js';
import { toolOfProgram } from '../gates/tools/index.js';

/** How long a program may take to answer `--version` before doctor gives up on it. */
export const PROBE_TIMEOUT_MS = 10_000;
/** Programs probed at once (the machine may be small and busy). */
const PROBE_CONCURRENCY = 4;
/** Of each stream, what is kept to find its first line. */
const OUTPUT_KEEP_CHARS = 4096;

export interface ProbeResult {
  /** What was run (program as resolved, then the arguments). */
  argv: string[];
  /** `ok`: exited 0; `fails`: did not start or exited non-zero; `slow`: did not answer in time. */
  status: 'ok' | 'fails' | 'slow';
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The line of stdout with the version (ShellCheck's is its second), else its first. */
  versionLine: string | null;
  /** First non-empty line of stderr, or why the program did not start. */
  firstErrorLine: string | null;
}

/** The first non-empty line with a version number (1.2) in it, else the first non-empty line. */
function versionLine(text: string): string | null {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.find((line) => /\d+\.\d+/.test(line)) ?? lines[0] ?? null;
}

function firstLine(text: string): string | null {
  return (
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .find(Boolean) ?? null
  );
}

function probeEnvironment(root: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  const key = Object.keys(env).find((name) => name.toUpperCase() === 'PATH') ?? 'PATH';
  env[key] = childPathValue(root, process.env);
  return env;
}

/**
 * Runs `program --version` (or its equivalent) the way a gate would start: resolved by
 * the same lookup, no shell, stdin ignored, cwd = root, its process tree killed after
 * `timeoutMs`. Undefined when the program does not resolve (the lookup says why).
 */
export function probeProgram(
  program: string,
  root: string,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<ProbeResult> | undefined {
  const resolved = resolveCommand(
    [program, ...(toolOfProgram(program.toLowerCase())?.versionArgs ?? ['--version'])],
    root,
    process.env,
  );
  if (!resolved.ok) return undefined;
  const argv = [resolved.file, ...resolved.args];
  return new Promise((resolve) => {
    const child = spawn(resolved.file, resolved.args, {
      cwd: root,
      env: probeEnvironment(root),
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
      // POSIX: its own process group, so a timeout reaches whatever it started.
      detached: process.platform !== 'win32',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < OUTPUT_KEEP_CHARS) stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < OUTPUT_KEEP_CHARS) stderr += chunk.toString('utf8');
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void terminateProcessTree(child, 500);
    }, timeoutMs);
    let settled = false;
    const settle = (result: Omit<ProbeResult, 'argv'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ argv, ...result });
    };
    child.once('error', (error) =>
      settle({
        status: 'fails',
        exitCode: null,
        signal: null,
        versionLine: null,
        firstErrorLine: `could not start: ${error.message}`,
      }),
    );
    child.once('close', (exitCode, signal) =>
      settle({
        status: timedOut ? 'slow' : exitCode === 0 ? 'ok' : 'fails',
        exitCode,
        signal,
        versionLine: versionLine(stdout),
        firstErrorLine: timedOut
          ? `did not answer within ${timeoutMs / 1000} s`
          : (firstLine(stderr) ?? (exitCode === 0 ? null : firstLine(stdout))),
      }),
    );
  });
}

/** `task` over `items`, at most PROBE_CONCURRENCY at a time, results in input order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PROBE_CONCURRENCY, items.length) }, worker));
  return results;
}

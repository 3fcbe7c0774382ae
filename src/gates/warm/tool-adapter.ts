import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// The file, not the capture index: a worker needs the sweep, not the native capture.
import { sweepDirectoriesOfDeadProcesses } from '../../capture/capture-file.js';
import { keepOutOfLedger, withoutRecording } from './read-ledger.js';
import { nodeModulesPaths } from './resolution-record.js';
import { WORKER_DIRECTORY_NAME, WORKER_DIRECTORY_PREFIX } from './worker-directory.js';

/** What one warm call produced: the same bytes and exit code the cold command gives. */
export interface ToolOutput {
  exitCode: number;
  stdout: string;
  stderr: string;
  /**
   * The order the writes came in: runs of [stream, characters] (0 stdout, 1 stderr),
   * so the report interleaves the two streams as a cold run's pipes would deliver them.
   * Absent: all of stdout, then all of stderr.
   */
  order?: [0 | 1, number][];
  /**
   * An incremental run (ESLint): how many files' earlier results were kept because nothing
   * they read had changed, how many were checked again, and why every kept result was
   * dropped, if it was.
   */
  incremental?: Incremental;
}

/** What an incremental run kept and redid (see ToolOutput.incremental). */
export interface Incremental {
  kept: number;
  checked: number;
  droppedBecause?: string;
  /**
   * A sample of the parts this call ran that will run again next call, each as
   * `<part>: <why it was not kept>` (a clock read, a print, a result not plain data).
   */
  relintedBecause?: string[];
}

/** Either the output, or why this invocation must run cold. */
export type ToolOutcome = ToolOutput | { notWarmable: string };

/** One tool loaded in a warm worker, kept for the worker's life. */
export interface ToolAdapter {
  run(args: string[]): Promise<ToolOutcome>;
  /** Files these arguments name that the tool reads as config (any name, any place). */
  configFilesNamed(args: string[]): string[];
  /**
   * Why this worker must not run another call, or undefined. Tools print some things once
   * per process (typescript-eslint's unsupported-TypeScript banner, prettier's deprecated
   * option warning), keeping that in module state no call can reset: a worker that has
   * printed one would leave it out of later answers, so a fresh worker answers instead.
   */
  retireBecause?(): string | undefined;
  /**
   * Why these arguments run cold now, asked before a kept answer is reused: a condition of
   * the machine rather than the tree that decides whether a warm answer is the cold one
   * (ESLint's --concurrency auto lints in threads on 4 CPUs or more).
   */
  coldBecause?(args: string[]): string | undefined;
  /**
   * What a call allocates is garbage once its answer is sent (nothing of it is kept for the
   * next call but the loaded tool): the worker collects it after the call (worker-main.ts).
   */
  releaseAfterCall?: boolean;
  /**
   * Drops, once a call's answer is sent and no call waits, what the tool keeps for the next
   * call that the next call can do without; the release collection follows in the same
   * task (worker-main.ts), so nothing runs between them. It reads nothing.
   */
  beforeRelease?(): void;
  /**
   * How far V8 may grow the heap past what survived its last full collection before it
   * collects again, in percent (V8's --heap-growing-percent), set once the tool is loaded.
   * Unset, V8 grows it up to 4x on a machine with memory to spare (worker-main.ts).
   */
  heapGrowingPercent?: number;
}

/**
 * The values of `options` in `args` (`--config x`, `--config=x`), resolved from root:
 * a config named on the command line is an input whatever it is called.
 */
export function optionValues(root: string, args: string[], options: readonly string[]): string[] {
  const values: string[] = [];
  args.forEach((argument, index) => {
    for (const option of options) {
      if (argument === option && index + 1 < args.length) values.push(args[index + 1] as string);
      else if (argument.startsWith(`${option}=`)) values.push(argument.slice(option.length + 1));
    }
  });
  return values.map((value) => path.resolve(root, value));
}

/** The repository's own installed package: its directory and version, or why not. */
export interface InstalledPackage {
  directory: string;
  version: string;
  major: number;
}

/**
 * Resolves `name` the way the repository's own scripts would (from root/package.json),
 * never this package's copy: a warm result must come from the version a cold run uses.
 */
export function resolveInstalledPackage(root: string, name: string): InstalledPackage | string {
  const requireFromRoot = createRequire(path.join(root, 'package.json'));
  let entry: string;
  try {
    entry = requireFromRoot.resolve(`${name}/package.json`);
  } catch {
    try {
      // Packages whose exports map hides package.json: walk up from the main entry.
      let directory = path.dirname(requireFromRoot.resolve(name));
      while (!existsSync(path.join(directory, 'package.json'))) {
        const parent = path.dirname(directory);
        if (parent === directory) throw new Error('no package.json');
        directory = parent;
      }
      entry = path.join(directory, 'package.json');
    } catch {
      return `${name} is not installed in ${root} (run the package manager's install)`;
    }
  }
  const manifest = JSON.parse(readFileSync(entry, 'utf8')) as { version?: string };
  const version = manifest.version ?? '0.0.0';
  return { directory: path.dirname(entry), version, major: Number.parseInt(version, 10) };
}

/**
 * The names of `name`'s package (installed for root) and of every package it depends on,
 * found the way Node resolves them from each package's real directory: the tool's own
 * code, as opposed to plugins and configs it loads. Read without recording.
 */
export function packageClosure(root: string, name: string): Set<string> {
  const names = new Set<string>([name]);
  const installed = resolveInstalledPackage(root, name);
  if (typeof installed === 'string') return names;
  const seen = new Set<string>();
  const pending = [installed.directory];
  withoutRecording(() => {
    for (let directory = pending.pop(); directory !== undefined; directory = pending.pop()) {
      let real: string;
      let manifest: { dependencies?: object; optionalDependencies?: object };
      try {
        real = realpathSync(directory);
        if (seen.has(real)) continue;
        seen.add(real);
        manifest = JSON.parse(readFileSync(path.join(real, 'package.json'), 'utf8')) as object;
      } catch {
        continue;
      }
      for (const dependency of Object.keys({
        ...manifest.dependencies,
        ...manifest.optionalDependencies,
      })) {
        names.add(dependency);
        const found = nodeModulesPaths(real)
          .map((modules) => path.join(modules, dependency))
          .find((candidate) => existsSync(path.join(candidate, 'package.json')));
        if (found) pending.push(found);
      }
    }
  });
  return names;
}

/**
 * Starts watching for Node process warnings (`process.emitWarning`, deprecations) and
 * returns why the tool cannot run warm once one has been seen, if it has. The cold run
 * prints each as "(node:<pid>) ..." on stderr, naming its own process, and most print once
 * per process: a worker can reproduce neither. Call before loading the tool (a warning at
 * load time is one every cold run prints). Nothing prints them when warnings are off.
 */
export function watchProcessWarnings(tool: string): () => string | undefined {
  let seen: Error | undefined;
  process.on('warning', (warning) => {
    seen ??= warning;
  });
  const silenced = () =>
    process.env.NODE_NO_WARNINGS === '1' ||
    /(^|\s)--no-warnings(\s|$)/.test(process.env.NODE_OPTIONS ?? '');
  return () =>
    seen && !silenced()
      ? `${tool} printed a Node warning ("(node:<pid>) ${seen.name}: ${seen.message.split('\n')[0]}"), which names the cold process and prints once per process: it runs cold`
      : undefined;
}

/** Lets warnings emitted during a run (Node delivers them on a later tick) reach the watcher. */
export const warningsDelivered = () => new Promise<void>((resolve) => setImmediate(resolve));

type Write = typeof process.stdout.write;

/**
 * Runs `work` with everything written to process.stdout and process.stderr (console.*
 * included: it writes through the same stream objects) kept instead of written, the
 * way a cold run's pipes would receive it. The worker's real fds carry nothing.
 */
let writesCaptured = 0;

/** How many writes captureProcessOutput has taken so far: a part that wrote cannot be replayed silently. */
export function capturedWrites(): number {
  return writesCaptured;
}

export async function captureProcessOutput<T>(
  work: () => Promise<T>,
): Promise<{ value: T; stdout: string; stderr: string; order: [0 | 1, number][] }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const order: [0 | 1, number][] = [];
  const originalOut = process.stdout.write;
  const originalErr = process.stderr.write;
  const keep = (into: string[], stream: 0 | 1): Write =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      into.push(text);
      writesCaptured++;
      const last = order[order.length - 1];
      if (last && last[0] === stream) last[1] += text.length;
      else if (text.length > 0) order.push([stream, text.length]);
      const callback = rest.find((item) => typeof item === 'function') as (() => void) | undefined;
      if (callback) process.nextTick(callback);
      return true;
    }) as Write;
  process.stdout.write = keep(stdout, 0);
  process.stderr.write = keep(stderr, 1);
  try {
    const value = await work();
    return { value, stdout: stdout.join(''), stderr: stderr.join(''), order };
  } finally {
    process.stdout.write = originalOut;
    process.stderr.write = originalErr;
  }
}

let privateDirectory: string | undefined;

/**
 * This worker's private (0700) temp directory, made on first use and removed when the
 * worker exits (by the pool, when it killed the worker); directories that neither removed
 * (a server killed outright) are swept first. What a tool keeps there is the worker's
 * own state, not an input: it is left out of the read ledger, and dies with the worker,
 * so a restarted worker (after a config, plugin or version change) starts without it.
 */
export function workerPrivateDirectory(): string {
  // The worker's own housekeeping (sweeping /tmp, making its directory) is not the tool's reading.
  privateDirectory ??= withoutRecording(() => {
    sweepDirectoriesOfDeadProcesses(WORKER_DIRECTORY_NAME);
    const made = mkdtempSync(path.join(os.tmpdir(), `${WORKER_DIRECTORY_PREFIX}${process.pid}-`));
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    keepOutOfLedger(made);
    return made;
  });
  return privateDirectory;
}

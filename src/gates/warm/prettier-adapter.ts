import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  captureProcessOutput,
  capturedWrites,
  optionValues,
  type ToolAdapter,
  type ToolOutcome,
  warningsDelivered,
  watchProcessWarnings,
  workerPrivateDirectory,
} from './tool-adapter.js';
import { clockReadsOnlyTime, randomOnlyForTokens } from './read-ledger.js';
import { prettierEntry } from './warm-entry.js';

/**
 * Prettier kept warm: the repository's own prettier CLI module (2.8: cli.js; 3.0 to 3.5:
 * internal/cli.mjs; 3.6 on: internal/legacy-cli.mjs, which bin/prettier runs unless asked
 * for the experimental CLI), loaded once and run in process for each call. The CLI itself expands files, directories and globs, reads
 * .prettierignore/.gitignore and resolves each file's config, so the file set and the
 * messages are the cold command's by construction; what stays warm is the loaded
 * prettier and its plugins. Only read-only invocations are served: --check,
 * --list-different, and files printed formatted to stdout (how a check's finding is
 * pointed at its first changed line); anything that writes runs cold.
 */

interface PrettierCli {
  run(rawArguments: string[]): Promise<void>;
}

/** Prettier warns of a deprecated option once per process (its normalizer's module state). */
const ONCE_PER_PROCESS_WARNING = / is deprecated/;

/** Arguments that write files, read stdin or answer something other than a check. */
const COLD_ONLY_ARGUMENT =
  /^(--write|-w|--cache.*|--stdin-filepath.*|--find-config-path.*|--file-info.*|--support-info|--help|-h|--version|-v|--experimental-cli|--debug-.*)$/;

/**
 * Prettier's check is a stream of garbage (each file's AST, doc and output) over 20-30 MB it
 * keeps; V8's default growth lets the heap reach about 4x that between full collections.
 * Growing it 2x at most: cold `prettier --check .` on vuejs/core peaks at 186 MB instead of
 * 247-253 MB, with 28 full collections instead of 11 (bench/RESULTS.md), so the worker,
 * which keeps a little more (its ledgers, the module-load thread), stays below the cold
 * command it replaces.
 */
const PRETTIER_HEAP_GROWING_PERCENT = 100;

type Normalize = (options: unknown, optionInfos: unknown, settings?: unknown) => unknown;

/**
 * Prettier's CLI normalizes each file's options twice, building every option schema anew
 * each time: a third of a warm check after a one-file edit on 640 files. Normalizing is a
 * function of its arguments and of what it prints, so within a call an answer that printed
 * nothing is kept for the same arguments (the options by value, with plugins and functions
 * by identity; the option infos and settings by identity) and each file gets a copy. The
 * kept answers go at the start of every call. `holders` are where the CLI finds the
 * functions: prettier 3 takes them from its index's __internal when its CLI module loads,
 * prettier 2 looks them up on __internal.optionsNormalizer at each use.
 */
function keepNormalizedOptions(holders: { object: Record<string, unknown>; name: string }[]): {
  startCall(): void;
} {
  const identities = new WeakMap<object, number>();
  let identitiesGiven = 0;
  const identity = (value: unknown): unknown => {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return value;
    let id = identities.get(value);
    if (id === undefined) identities.set(value, (id = ++identitiesGiven));
    return `#${id}`;
  };
  const keyOf = (options: unknown, optionInfos: unknown, settings: unknown): string =>
    JSON.stringify(
      [
        options,
        identity(optionInfos),
        settings && typeof settings === 'object'
          ? Object.entries(settings).map(([name, value]) => [name, identity(value)])
          : settings,
      ],
      (name, value: unknown) =>
        typeof value === 'function'
          ? identity(value)
          : name === 'plugins' && Array.isArray(value)
            ? value.map(identity)
            : value,
    );
  let kept = new Map<string, unknown>();
  const copy = (value: unknown) =>
    value && typeof value === 'object' ? { ...(value as object) } : value;
  for (const { object, name } of holders) {
    const normalize = object[name];
    if (typeof normalize !== 'function') continue;
    object[name] = function (this: unknown, ...args: Parameters<Normalize>) {
      let key: string;
      try {
        key = `${name}\0${keyOf(...args)}`;
      } catch {
        return (normalize as Normalize).apply(this, args); // not plain data: always normalized
      }
      if (kept.has(key)) return copy(kept.get(key));
      const writesBefore = capturedWrites();
      const normalized = (normalize as Normalize).apply(this, args);
      if (capturedWrites() === writesBefore) kept.set(key, normalized);
      return copy(normalized);
    };
  }
  return {
    startCall: () => {
      kept = new Map();
    },
  };
}

/** Where this prettier's CLI finds its option normalizers (see keepNormalizedOptions). */
async function optionNormalizers(
  entry: Exclude<ReturnType<typeof prettierEntry>, string>,
): Promise<{ object: Record<string, unknown>; name: string }[]> {
  // Beside the CLI module, as it names them: the same module instances it uses.
  try {
    if (entry.installed.major === 2) {
      const internal = (
        createRequire(entry.cliFile)('./index.js') as {
          __internal?: { optionsNormalizer?: Record<string, unknown> };
        }
      ).__internal?.optionsNormalizer;
      return internal
        ? ['normalizeApiOptions', 'normalizeCliOptions'].map((name) => ({ object: internal, name }))
        : [];
    }
    const index = (await import(new URL('../index.mjs', pathToFileURL(entry.cliFile)).href)) as {
      __internal?: Record<string, unknown>;
    };
    return index.__internal ? [{ object: index.__internal, name: 'normalizeOptions' }] : [];
  } catch {
    return []; // Laid out otherwise: every file is normalized, as the CLI does.
  }
}

export async function loadPrettierAdapter(root: string): Promise<ToolAdapter | string> {
  const entry = prettierEntry(root, process.env);
  if (typeof entry === 'string') return entry;
  const warning = watchProcessWarnings(`prettier ${entry.installed.version}`);
  // Before the CLI module loads: prettier 3's takes the normalizer when it is evaluated.
  const normalized = keepNormalizedOptions(await optionNormalizers(entry));
  const cli = (
    entry.format === 'esm'
      ? await import(pathToFileURL(entry.cliFile).href)
      : createRequire(entry.cliFile)(entry.cliFile)
  ) as Partial<PrettierCli>;
  if (typeof cli.run !== 'function')
    return `prettier ${entry.installed.version}: ${entry.cliFile} has no run() to call`;
  const runCli = cli.run;
  // The CLI stamps each file for the "(12ms)" shown only with --write, and its result
  // cache checks expiry only with --cache; both run cold.
  clockReadsOnlyTime(entry.cliFile);
  // Prettier 2 and 3.0-3.5 bundle brace-expansion (random escape tokens) into the CLI;
  // prettier 2's parsers bundle core-js's Symbol polyfill (a random key suffix). Not
  // prettier 2's index.js: postcss's nanoid names an input in its messages.
  randomOnlyForTokens(entry.cliFile);
  if (entry.installed.major === 2)
    for (const file of readdirSync(entry.installed.directory))
      if (/^parser-.*\.js$/.test(file))
        randomOnlyForTokens(path.join(entry.installed.directory, file));
  /**
   * Prettier's own result cache, keyed by each file's content and resolved options
   * (`--cache-strategy content`): prettier formats every file on its own, so a file whose
   * text and options are unchanged gets the same answer, and only files prettier found
   * formatted are cached. It lives in the worker's private directory, so it dies with the
   * worker: a restarted worker (config, plugin or version change) starts without it.
   */
  const cacheArgs = [
    '--cache',
    '--cache-strategy',
    'content',
    '--cache-location',
    path.join(workerPrivateDirectory(), 'prettier-cache'),
  ];

  let warnedOnce = false;

  const run = async (args: string[]): Promise<ToolOutcome> => {
    const coldOnly = args.find((argument) => COLD_ONLY_ARGUMENT.test(argument));
    if (coldOnly) return { notWarmable: `prettier ${coldOnly} runs cold` };
    process.exitCode = undefined;
    normalized.startCall();
    const captured = await captureProcessOutput(() => runCli([...args, ...cacheArgs]));
    const exitCode = Number(process.exitCode ?? 0);
    process.exitCode = undefined;
    await warningsDelivered();
    const printed = warning();
    if (printed) return { notWarmable: printed };
    // This answer has the warning (it is the first); the next ones would not.
    warnedOnce = ONCE_PER_PROCESS_WARNING.test(captured.stdout + captured.stderr);
    return { exitCode, stdout: captured.stdout, stderr: captured.stderr, order: captured.order };
  };
  const configFilesNamed = (args: string[]) =>
    optionValues(root, args, ['--config', '--ignore-path']);
  const retireBecause = () =>
    warnedOnce
      ? 'prettier warned of a deprecated option, which it does once per process: a fresh worker answers, with the warning'
      : undefined;
  // Between calls prettier keeps its loaded modules and plugins; each file's AST and
  // printed text are the call's garbage.
  return {
    run,
    configFilesNamed,
    retireBecause,
    releaseAfterCall: true,
    heapGrowingPercent: PRETTIER_HEAP_GROWING_PERCENT,
  };
}

import { createHash } from 'node:crypto';
import fs, { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import {
  capturedWrites,
  captureProcessOutput,
  optionValues,
  type ToolAdapter,
  type ToolOutcome,
  warningsDelivered,
  watchProcessWarnings,
} from './tool-adapter.js';
import { KeptParts } from './kept-parts.js';
import { contentSignature } from './input-fingerprint.js';
import {
  answerOf,
  callLedger,
  callsOnceForAll,
  clockAgesMemoOnly,
  clockReadsOnlyTime,
  clockReadsOnlyTimeIn,
  withoutRecording,
} from './read-ledger.js';
import { eslintEntry } from './warm-entry.js';

/**
 * ESLint kept warm (8.57 to 10, flat config and 8.57's eslintrc): each call runs the
 * repository's own lib/cli.js `execute`, what bin/eslint.js runs, so option parsing and
 * translation, file expansion, formatting, messages and exit code are the command's own
 * code in every version. What stays warm is the loaded eslint, its config and plugins:
 * the engine classes cli.js constructs are wrapped so that one engine per option set is
 * made once and reused. No result cache (cross-file and type-aware rules make it unsound).
 * Anything that writes, reads stdin or leaves the single process runs cold.
 */

interface ParsedOptions {
  _: string[];
  [option: string]: unknown;
}

interface LintResult {
  filePath: string;
}

interface Engine {
  lintFiles(patterns: string[]): Promise<LintResult[]>;
  calculateConfigForFile(filePath: string): Promise<
    | {
        languageOptions?: { parserOptions?: Record<string, unknown> };
        parserOptions?: Record<string, unknown>;
      }
    | undefined
  >;
}

type EngineClass = new (options: object) => Engine;

interface EslintCli {
  execute(args: string[], text: string | null, allowFlatConfig?: boolean): Promise<number>;
}

/** Options whose cold behaviour writes files, reads stdin or leaves the single process. */
const COLD_ONLY_OPTIONS: readonly string[] = [
  'help',
  'version',
  'envInfo',
  'printConfig',
  'inspectConfig',
  'init',
  'mcp',
  'fix',
  'fixDryRun',
  'fixType',
  'stdin',
  'stdinFilename',
  // --cache-file/--cache-location/--cache-strategy carry defaults and act only with --cache.
  'cache',
  'outputFile',
  'suppressAll',
  'suppressRule',
  'suppressionsLocation',
  'pruneSuppressions',
  'passOnUnprunedSuppressions',
  'stats',
  // Timestamped debug lines on stderr.
  'debug',
  // eslintrc: rule files are listed once, when the engine is made; a new one would be missed.
  'rulesdir',
];

const SUPPRESSIONS_FILE = 'eslint-suppressions.json';
/** Engines kept per option set; paths vary per call, options rarely. */
const MAX_ENGINES = 8;
const ENGINE_CLASSES = ['ESLint', 'FlatESLint', 'LegacyESLint'];

/** What the wrapped engine classes saw during the current call. */
interface CallState {
  key: string;
  engine?: Engine;
  results?: LintResult[];
}

/**
 * Replaces the engine classes in `modules`' exports (before cli.js takes them) with
 * proxies that return the engine kept for the current call's option set, and record the
 * engine and its lint results for the type-information check. Static methods
 * (getErrorResults, outputFixes) pass through, but for fromOptionsModule, through which
 * cli.js (9.34 and later) makes its engine when --concurrency is on: its engine is kept
 * as a constructed one is.
 */
function keepEngines(
  requireFromEslint: NodeJS.Require,
  modules: readonly string[],
  current: () => CallState | undefined,
  printedWhileLinting: () => void,
): Map<string, Engine> {
  const engines = new Map<string, Engine>();
  const proxies = new WeakSet<object>();
  /** The engine kept under `maker`'s name for the current call, else the one `make` makes. */
  function kept(maker: string, make: () => Engine): Engine;
  function kept(maker: string, make: () => Promise<Engine>): Promise<Engine>;
  function kept(maker: string, make: () => Engine | Promise<Engine>): Engine | Promise<Engine> {
    const call = current();
    const key = `${maker}\0${call?.key ?? ''}`;
    const found = call ? engines.get(key) : undefined;
    if (found) return (call!.engine = found);
    // Anything printed while the engine loads its config or lints is not the CLI's report
    // (that comes after lintFiles).
    const writesBefore = capturedWrites();
    const keep = (engine: Engine) => {
      if (capturedWrites() !== writesBefore) printedWhileLinting();
      const lintFiles = engine.lintFiles;
      engine.lintFiles = async function (patterns) {
        const lintWritesBefore = capturedWrites();
        const results = await lintFiles.call(engine, patterns);
        if (capturedWrites() !== lintWritesBefore) printedWhileLinting();
        const state = current();
        if (state) state.results = results;
        return results;
      };
      if (call) {
        if (engines.size >= MAX_ENGINES) engines.delete(engines.keys().next().value!);
        engines.set(key, engine);
        call.engine = engine;
      }
      return engine;
    };
    const made = make();
    return made instanceof Promise ? made.then(keep) : keep(made);
  }
  for (const file of modules) {
    const exported = requireFromEslint(file) as Record<string, unknown>;
    for (const name of ENGINE_CLASSES) {
      const original = exported[name];
      if (typeof original !== 'function' || proxies.has(original)) continue;
      const proxy = new Proxy(original as EngineClass, {
        construct: (target, args: [object]) =>
          kept(name, () => Reflect.construct(target, args) as Engine),
        get(target, property, receiver) {
          const value = Reflect.get(target, property, receiver) as unknown;
          if (property !== 'fromOptionsModule' || typeof value !== 'function') return value;
          return (url: unknown) =>
            kept(`${name}.fromOptionsModule`, () =>
              (value as (url: unknown) => Promise<Engine>).call(target, url),
            );
        },
      });
      proxies.add(proxy);
      exported[name] = proxy;
    }
  }
  return engines;
}

/** What one file's lint gave: verifyAndFix's answer and the suppressed messages beside it. */
interface FileLint {
  result: unknown;
  suppressedMessages: unknown;
}

/** Files whose lint results are kept (a 3,000-file repository with room for edits). */
const MAX_KEPT_FILE_LINTS = 20000;

/**
 * Per-file incremental lint: Linter.prototype.verifyAndFix (what every ESLint 8.57-10
 * engine calls once per file, synchronously) answers from a kept result when the file's
 * text, its config (the very config object the engine holds: a config edit restarts the
 * worker or makes a new engine) and the lint options are the same and nothing any kept
 * file's lint read has changed (kept-parts.ts). File expansion, reading, formatting and the
 * exit code stay the CLI's own, so the output is the cold command's by construction.
 * Undefined when this ESLint's Linter is not the one expected (then every file is linted).
 */
function keepFileLints(
  requireFromEslint: NodeJS.Require,
  directory: string,
): KeptParts<FileLint> | undefined {
  let linter: { prototype: Record<string, unknown> } | undefined;
  try {
    ({ Linter: linter } = requireFromEslint(path.join(directory, 'lib/api.js')) as {
      Linter?: { prototype: Record<string, unknown> };
    });
  } catch {
    return undefined;
  }
  const prototype = linter?.prototype;
  if (!prototype) return undefined;
  const verifyAndFix = prototype.verifyAndFix;
  const getSuppressedMessages = prototype.getSuppressedMessages;
  if (typeof verifyAndFix !== 'function' || typeof getSuppressedMessages !== 'function')
    return undefined;
  const kept = new KeptParts<FileLint>(MAX_KEPT_FILE_LINTS);
  /** Linters whose last file was answered from a kept result: its suppressed messages. */
  const replayed = new WeakMap<object, unknown>();
  const identities = new WeakMap<object, number>();
  let identitiesGiven = 0;
  const identity = (value: object): number => {
    let id = identities.get(value);
    if (id === undefined) identities.set(value, (id = ++identitiesGiven));
    return id;
  };
  prototype.verifyAndFix = function (
    this: object,
    text: unknown,
    config: unknown,
    options: unknown,
  ) {
    const key = fileLintKey(text, config, options, identity);
    replayed.delete(this);
    if (key === undefined) return verifyAndFix.call(this, text, config, options) as unknown;
    const hit = kept.reuse(key);
    if (hit) {
      replayed.set(this, hit.suppressedMessages);
      return structuredClone(hit.result);
    }
    const writesBefore = capturedWrites();
    return kept.run(
      key,
      () => fileLabel(options),
      () => verifyAndFix.call(this, text, config, options) as unknown,
      (result) => {
        // A rule that printed: a kept answer would not print it again.
        if (capturedWrites() !== writesBefore) return 'a rule or plugin printed while linting it';
        try {
          return structuredClone({
            result,
            suppressedMessages: getSuppressedMessages.call(this) as unknown,
          });
        } catch {
          // Not plain data (a plugin's message with a function): not kept.
          return 'its result is not plain data';
        }
      },
    );
  };
  prototype.getSuppressedMessages = function (this: object) {
    return replayed.has(this)
      ? structuredClone(replayed.get(this))
      : (getSuppressedMessages.call(this) as unknown);
  };
  return kept;
}

/** Characters of file texts kept for ESLint's next read (vite's 1,340 files: about 10 MB). */
const MAX_KEPT_TEXT_CHARACTERS = 64 * 1024 * 1024;

/**
 * ESLint's read of each file it lints (9.x and 10 call `fs.promises.readFile(file,
 * { encoding: 'utf8', signal })` once per file per call) answered, during a call, from the
 * text of an earlier read when the file's bytes are still that text's: the ledger's
 * signature of the file now (signatureOf: its content hash, or the hash taken under a stat,
 * ctime included, that no write since leaves as it was) equals the signature of the bytes
 * the text was decoded from. The read records the question it would have recorded (the
 * file's content, signed before it is read, by the same reader: the code below, ESLint's),
 * so whole-call reuse and held answers see what they saw. What it saves: opening, reading,
 * decoding and closing every kept file on every call. Any other read goes through as it was.
 */
function keepFileTexts(inCall: () => boolean): void {
  const promises = fs.promises as unknown as Record<string, unknown>;
  const readFile = promises.readFile as (file: unknown, options?: unknown) => Promise<unknown>;
  const texts = new Map<string, { signature: string; text: string }>();
  let characters = 0;
  const forget = (file: string) => {
    characters -= texts.get(file)?.text.length ?? 0;
    texts.delete(file);
  };
  promises.readFile = function keptRead(this: unknown, ...args: unknown[]) {
    const [file, options] = args;
    const ledger = inCall() ? callLedger() : undefined;
    const given = options as { encoding?: unknown; signal?: AbortSignal } | undefined;
    if (
      !ledger ||
      ledger.part ||
      typeof file !== 'string' ||
      typeof given !== 'object' ||
      given === null ||
      given.encoding !== 'utf8' ||
      given.signal?.aborted ||
      Object.keys(given).some((key) => key !== 'encoding' && key !== 'signal')
    )
      return readFile.apply(this, args as [unknown, unknown]);
    const absolute = path.resolve(file);
    const kept = texts.get(absolute);
    if (kept) {
      const reader = ledger.readerBelow(keptRead);
      const signature = withoutRecording(() => answerOf('content', absolute));
      if (signature === kept.signature) {
        withoutRecording(() => ledger.answered('content', absolute, signature, reader));
        // The most recently read goes last: eviction takes the oldest.
        texts.delete(absolute);
        texts.set(absolute, kept);
        return Promise.resolve(kept.text);
      }
      forget(absolute);
    }
    // Read as bytes (recorded as any read is) and decoded as readFile decodes UTF-8.
    return readFile
      .call(this, file, given.signal ? { signal: given.signal } : undefined)
      .then((bytes) => {
        const text = (bytes as Buffer).toString('utf8');
        const signature = withoutRecording(() => contentSignature(bytes as Buffer));
        forget(absolute);
        if (text.length <= MAX_KEPT_TEXT_CHARACTERS) {
          while (characters + text.length > MAX_KEPT_TEXT_CHARACTERS)
            forget(texts.keys().next().value!);
          texts.set(absolute, { signature, text });
          characters += text.length;
        }
        return text;
      });
  };
}

/** The file a verifyAndFix call lints, as its options name it (relative to the working directory). */
function fileLabel(options: unknown): string {
  const filename = (options as { filename?: unknown }).filename;
  return typeof filename === 'string'
    ? path.relative(process.cwd(), filename) || filename
    : 'a file';
}

/**
 * Everything verifyAndFix's answer depends on besides what the lint reads: the text, the
 * config object and the options; undefined for a call that is not one file's plain lint
 * (fixing, timing, or text given as a parsed SourceCode).
 */
function fileLintKey(
  text: unknown,
  config: unknown,
  options: unknown,
  identity: (value: object) => number,
): string | undefined {
  if (typeof text !== 'string' || typeof config !== 'object' || config === null) return undefined;
  if (typeof options !== 'object' || options === null) return undefined;
  const given = options as Record<string, unknown>;
  if (given.fix || given.stats) return undefined;
  const optionsKey = JSON.stringify(given, (name, value: unknown) => {
    // Rebuilt for each file from the engine's config (in the key) and its extensions.
    if (name === 'filterCodeBlock') return 'filterCodeBlock';
    return typeof value === 'function' ? `function#${identity(value)}` : value;
  });
  const digest = createHash('sha256').update(text).digest('base64');
  return `${identity(config)}\0${optionsKey}\0${text.length}:${digest}`;
}

/**
 * Why this --concurrency may lint in worker threads, or undefined when ESLint (9.34 and
 * later) lints in the main thread whatever the files: "auto" starts
 * `ceil(files / 50)` threads capped at half the CPUs (`os.availableParallelism() >> 1`) and
 * never just one, so none below 4 CPUs; a number n starts `min(n, files)` and never just
 * one, so none for 1. Threads run cold: their lints are out of the ledger's sight, and
 * after them ESLint warns "You may disable concurrency ... to improve performance"
 * (ESLintPoorConcurrencyWarning) when a thread spent under 70% of its time linting, which
 * depends on timing: no worker can give that output by construction. The CPUs are asked
 * on every call, before a kept answer is reused: the worker and the cold command are
 * children of one server, with its CPUs.
 */
function threadsBecause(concurrency: unknown, threadCountAnswered: boolean): string | undefined {
  if (concurrency === undefined || concurrency === 'off') return undefined;
  const cold =
    'runs cold: ESLint lints in worker threads there and may print a timing-dependent warning';
  if (!threadCountAnswered) return `eslint --concurrency ${String(concurrency)} ${cold}`;
  if (concurrency === 'auto') {
    const cpus = withoutRecording(() => os.availableParallelism());
    return cpus >> 1 <= 1 ? undefined : `eslint --concurrency auto on ${cpus} CPUs ${cold}`;
  }
  return Number(concurrency) === 1
    ? undefined
    : `eslint --concurrency ${String(concurrency)} ${cold}`;
}

export function loadEslintAdapter(root: string): ToolAdapter | string {
  const entry = eslintEntry(root, process.env);
  if (typeof entry === 'string') return entry;
  const { installed } = entry;
  const warning = watchProcessWarnings(`eslint ${installed.version}`);
  const requireFromEslint = createRequire(path.join(installed.directory, 'package.json'));
  let call: CallState | undefined;
  /**
   * A config, plugin, parser or rule printed while linting (the CLI's own report comes
   * after): it may do so once per process, as typescript-eslint's banner for an
   * unsupported TypeScript does, so a fresh worker answers the next call.
   */
  let printed = false;
  const engines = keepEngines(
    requireFromEslint,
    entry.engineModules,
    () => call,
    () => (printed = true),
  );
  // A run goes on only when its --concurrency cannot start a thread (threadsBecause), so
  // ESLint's thread count, which it reads from the machine's CPUs within the call, is 0
  // there: answered without the read. ESLint looks it up on its exports for its tests.
  let threadCountAnswered = false;
  for (const file of entry.engineModules) {
    const engineModule = requireFromEslint(file) as { calculateWorkerCount?: unknown };
    if (typeof engineModule.calculateWorkerCount !== 'function') continue;
    engineModule.calculateWorkerCount = () => 0;
    threadCountAnswered = true;
  }
  const cli = requireFromEslint(entry.cliFile) as EslintCli;
  const fileLints = keepFileLints(requireFromEslint, installed.directory);
  keepFileTexts(() => call !== undefined);
  // The engines time their own work for the DEBUG log only (--stats, whose times are
  // output, runs cold, and TIMING's table stays unregistered, so it is never reused).
  for (const file of [
    ...entry.engineModules,
    'lib/eslint/eslint-helpers.js',
    'lib/eslint/worker.js',
    'lib/cli-engine/cli-engine.js',
  ])
    clockReadsOnlyTime(path.resolve(installed.directory, file));
  // eslint-plugin-import-x (4.x) and eslint-plugin-import (through eslint-module-utils
  // 2.x) keep module resolutions for a lifetime read from the clock; eslint-plugin-n (18.x)
  // its package.json and file lookups, and enhanced-resolve (5.x) the reads it resolves by.
  clockAgesMemoOnly(path.join('eslint-plugin-import-x', 'lib', 'utils', 'module-cache.js'));
  clockAgesMemoOnly(path.join('eslint-module-utils', 'ModuleCache.js'));
  clockAgesMemoOnly(path.join('eslint-plugin-n', 'lib', 'util', 'cache.js'));
  clockAgesMemoOnly(path.join('enhanced-resolve', 'lib', 'CachedInputFileSystem.js'));
  clockReadsOnlyTimeIn(path.join('graceful-fs', 'graceful-fs.js'));
  // eslint-plugin-import-x (4.x) reads a module's stat once per ExportMap.for, for two lines.
  callsOnceForAll(path.join('eslint-plugin-import-x', 'lib', 'utils', 'lazy-value.js'));
  // eslintrc (8.57) times each plugin load for its DEBUG log.
  try {
    clockReadsOnlyTime(requireFromEslint.resolve('@eslint/eslintrc'));
  } catch {
    // ESLint 10 has no eslintrc.
  }
  const createCliOptions = requireFromEslint(path.join(installed.directory, 'lib/options.js')) as (
    usingFlatConfig?: boolean,
  ) => { parse(argv: string[]): ParsedOptions };
  // cli.js's own choice of config format: ESLINT_USE_FLAT_CONFIG, else (8.57) whether a
  // flat config file exists; ESLint 10 knows flat config only.
  const shouldUseFlatConfig = entry.engineModules
    .map(
      (file) =>
        (requireFromEslint(file) as { shouldUseFlatConfig?: () => unknown }).shouldUseFlatConfig,
    )
    .find((found) => typeof found === 'function');

  const run = async (args: string[]): Promise<ToolOutcome> => {
    const loadWarning = warning();
    if (loadWarning) return { notWarmable: loadWarning };
    const usingFlatConfig = shouldUseFlatConfig ? Boolean(await shouldUseFlatConfig()) : true;
    let options: ParsedOptions;
    try {
      options = createCliOptions(usingFlatConfig).parse(['node', 'eslint', ...args]);
    } catch (error) {
      return { notWarmable: `eslint rejects these arguments: ${(error as Error).message}` };
    }
    const coldOnly = COLD_ONLY_OPTIONS.find(
      (option) => options[option] !== undefined && options[option] !== false,
    );
    if (coldOnly) return { notWarmable: `eslint option --${coldOnly} runs cold` };
    const threads = threadsBecause(options.concurrency, threadCountAnswered);
    if (threads) return { notWarmable: threads };
    if (args.includes('--init') || args.includes('--mcp')) {
      return { notWarmable: 'eslint --init/--mcp runs cold' };
    }
    // A suppressions file changes results and exit code: kept cold, as its options are.
    if (existsSync(path.join(root, SUPPRESSIONS_FILE))) {
      return { notWarmable: `${SUPPRESSIONS_FILE} is present: eslint runs cold` };
    }

    // Paths vary per call, options rarely: engines are kept per option set.
    const engineOptions: Record<string, unknown> = { ...options, _: undefined };
    const state: CallState = { key: JSON.stringify([usingFlatConfig, engineOptions]) };
    call = state;
    fileLints?.startCall();
    try {
      // Linting inside the capture too: what rules and plugins print is the command's output.
      const captured = await captureProcessOutput(() =>
        cli.execute(['node', 'eslint', ...args], null, true),
      );
      await warningsDelivered();
      const runWarning = warning();
      if (runWarning) return { notWarmable: runWarning };
      if (state.engine && !state.results) {
        return { notWarmable: `eslint ${installed.version} linted outside lintFiles` };
      }
      if (!state.engine && captured.value !== 2) {
        // An answer without a wrapped engine: cli.js took its class from elsewhere, and
        // the type-information check below could not see what it linted.
        return {
          notWarmable: `eslint ${installed.version}: cli.js built its engine from a module warm gates do not wrap`,
        };
      }
      const typeAware = state.engine && (await typeAwareFile(state.engine, state.results ?? []));
      if (typeAware) {
        return {
          notWarmable: `${typeAware} is linted with type information: TypeScript programs kept across calls can miss edits to other files, so it runs cold`,
        };
      }
      const parts = fileLints?.summary();
      return {
        exitCode: captured.value,
        stdout: captured.stdout,
        stderr: captured.stderr,
        order: captured.order,
        ...(parts && parts.kept + parts.checked > 0 ? { incremental: parts } : {}),
      };
    } catch (error) {
      // The cold CLI turns a thrown error into its "Oops!" report and exit 2; that text
      // is the cold command's to write, so the call runs cold.
      for (const [key, engine] of engines) if (engine === state.engine) engines.delete(key);
      return { notWarmable: `eslint failed: ${(error as Error).message.split('\n')[0]}` };
    } finally {
      call = undefined;
    }
  };
  // eslintrc (8.57) also reads the file --ignore-path names.
  const configFilesNamed = (args: string[]) =>
    optionValues(root, args, ['--config', '-c', '--ignore-path']);
  const retireBecause = () =>
    printed
      ? 'a config, plugin, parser or rule printed while linting, which some do once per process: a fresh worker answers'
      : undefined;
  // A kept answer of --concurrency auto was decided on the CPUs of its call: asked again.
  const coldBecause = (args: string[]) => {
    try {
      const options = createCliOptions(true).parse(['node', 'eslint', ...args]);
      return threadsBecause(options.concurrency, threadCountAnswered);
    } catch {
      return undefined; // run() reports the arguments ESLint rejects
    }
  };
  return { run, configFilesNamed, retireBecause, coldBecause };
}

/**
 * The first linted file whose config asks for type information (typescript-eslint's
 * `project` or `projectService`), if any. Those parsers keep whole TypeScript programs
 * in memory; a cold run is the only sound answer for them.
 */
async function typeAwareFile(engine: Engine, results: LintResult[]): Promise<string | undefined> {
  for (const result of results) {
    const config = await engine.calculateConfigForFile(result.filePath);
    // Flat config nests parser options under languageOptions; eslintrc does not.
    const parserOptions = config?.languageOptions?.parserOptions ?? config?.parserOptions ?? {};
    if (parserOptions.project || parserOptions.projectService || parserOptions.programs) {
      return result.filePath;
    }
  }
  return undefined;
}

import { clockReadsOnlyTime } from './read-ledger.js';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { format } from 'node:util';
import {
  captureProcessOutput,
  optionValues,
  resolveInstalledPackage,
  type ToolAdapter,
  type ToolOutcome,
} from './tool-adapter.js';

/**
 * ESLint kept warm: the repository's own eslint, its own CLI option parser and option
 * translation (lib/options.js, lib/shared/translate-cli-options.js), so the arguments
 * mean exactly what they mean to `eslint`; one ESLint instance per option set, reused
 * (config and plugins loaded once); no result cache (cross-file and type-aware rules make
 * it unsound). Output and exit code follow lib/cli.js for the options accepted here;
 * anything else (fixing, stdin, suppressions, cache, output files, worker threads) runs cold.
 */

interface ParsedOptions {
  _: string[];
  [option: string]: unknown;
}

interface LintResult {
  filePath: string;
  errorCount: number;
  fatalErrorCount: number;
  warningCount: number;
}

interface ESLintInstance {
  lintFiles(patterns: string[]): Promise<LintResult[]>;
  calculateConfigForFile(
    filePath: string,
  ): Promise<{ languageOptions?: { parserOptions?: Record<string, unknown> } } | undefined>;
  loadFormatter(name?: string): Promise<{
    format(results: LintResult[], meta: object): string | Promise<string>;
  }>;
}

interface ESLintClass {
  new (options: object): ESLintInstance;
  getErrorResults(results: LintResult[]): LintResult[];
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
];

const SUPPRESSIONS_FILE = 'eslint-suppressions.json';

export function loadEslintAdapter(root: string): ToolAdapter | string {
  const installed = resolveInstalledPackage(root, 'eslint');
  if (typeof installed === 'string') return installed;
  if (installed.major < 9) {
    return `eslint ${installed.version} predates flat config; warm gates need eslint 9 or later`;
  }
  // ESLint 9 can still run an .eslintrc config when told so; the worker speaks flat config.
  if (installed.major === 9 && process.env.ESLINT_USE_FLAT_CONFIG === 'false') {
    return 'ESLINT_USE_FLAT_CONFIG=false (eslintrc) runs cold';
  }
  const requireFromEslint = createRequire(path.join(installed.directory, 'package.json'));
  let createCliOptions: (usingFlatConfig?: boolean) => { parse(argv: string[]): ParsedOptions };
  let translateOptions: (options: ParsedOptions, configType?: 'flat') => Promise<object>;
  let ESLint: ESLintClass;
  try {
    createCliOptions = requireFromEslint(path.join(installed.directory, 'lib/options.js'));
    translateOptions = requireFromEslint(
      path.join(installed.directory, 'lib/shared/translate-cli-options.js'),
    );
    ({ ESLint } = requireFromEslint(path.join(installed.directory, 'lib/api.js')) as {
      ESLint: ESLintClass;
    });
  } catch (error) {
    return `eslint ${installed.version} does not have the internals warm gates use (${(error as Error).message})`;
  }
  // ESLint 9's option set depends on the config format (its --concurrency, default "off",
  // exists only for flat config); ESLint 10 knows flat config only and ignores the argument.
  const cliOptions = createCliOptions(true);
  // ESLint times its own work for --stats (cold only) and its DEBUG log: not for findings.
  for (const file of [
    'lib/eslint/eslint.js',
    'lib/eslint/eslint-helpers.js',
    'lib/eslint/worker.js',
  ])
    clockReadsOnlyTime(path.join(installed.directory, file));
  const instances = new Map<string, ESLintInstance>();

  const run = async (args: string[]): Promise<ToolOutcome> => {
    let options: ParsedOptions;
    try {
      options = cliOptions.parse(['node', 'eslint', ...args]);
    } catch (error) {
      return { notWarmable: `eslint rejects these arguments: ${(error as Error).message}` };
    }
    const coldOnly = COLD_ONLY_OPTIONS.find(
      (option) => options[option] !== undefined && options[option] !== false,
    );
    if (coldOnly) return { notWarmable: `eslint option --${coldOnly} runs cold` };
    if (options.concurrency !== 'off') {
      return { notWarmable: 'eslint --concurrency (worker threads) runs cold' };
    }
    if (args.includes('--init') || args.includes('--mcp')) {
      return { notWarmable: 'eslint --init/--mcp runs cold' };
    }
    // A suppressions file changes results and exit code through code not reproduced here.
    if (existsSync(path.join(root, SUPPRESSIONS_FILE))) {
      return { notWarmable: `${SUPPRESSIONS_FILE} is present: eslint runs cold` };
    }

    const { _: patterns, ...engineOptions } = options;
    const key = JSON.stringify(engineOptions);
    let engine = instances.get(key);
    if (!engine) {
      // ESLint 9 translates for eslintrc unless told "flat"; ESLint 10 takes one argument.
      engine = new ESLint(await translateOptions(options, 'flat'));
      instances.set(key, engine);
    }
    const lintEngine = engine;

    try {
      // Linting inside the capture too: what rules and plugins print is the command's output.
      const captured = await captureProcessOutput(async () => {
        const results = await lintEngine.lintFiles(patterns);
        const typeAware = await typeAwareFile(lintEngine, results);
        if (typeAware) return typeAware;
        return lintExit(ESLint, lintEngine, options, results);
      });
      if (typeof captured.value === 'string') {
        return {
          notWarmable: `${captured.value} is linted with type information: TypeScript programs kept across calls can miss edits to other files, so it runs cold`,
        };
      }
      return {
        exitCode: captured.value,
        stdout: captured.stdout,
        stderr: captured.stderr,
        order: captured.order,
      };
    } catch (error) {
      // The cold CLI turns a thrown error into its "Oops!" report and exit 2; that text
      // is the cold command's to write, so the call runs cold.
      instances.delete(key);
      return { notWarmable: `eslint failed: ${(error as Error).message.split('\n')[0]}` };
    }
  };
  const configFilesNamed = (args: string[]) => optionValues(root, args, ['--config', '-c']);
  return { run, configFilesNamed };
}

/**
 * The first linted file whose config asks for type information (typescript-eslint's
 * `project` or `projectService`), if any. Those parsers keep whole TypeScript programs
 * in memory; a cold run is the only sound answer for them.
 */
async function typeAwareFile(
  engine: ESLintInstance,
  results: LintResult[],
): Promise<string | undefined> {
  for (const result of results) {
    const config = await engine.calculateConfigForFile(result.filePath);
    const parserOptions = config?.languageOptions?.parserOptions ?? {};
    if (parserOptions.project || parserOptions.projectService || parserOptions.programs) {
      return result.filePath;
    }
  }
  return undefined;
}

/** lib/cli.js after linting: quiet filter, max-warnings, formatter, exit code. */
async function lintExit(
  ESLint: ESLintClass,
  engine: ESLintInstance,
  options: ParsedOptions,
  results: LintResult[],
): Promise<number> {
  const resultsToPrint = options.quiet ? ESLint.getErrorResults(results) : results;
  let errorCount = 0;
  let fatalErrorCount = 0;
  let warningCount = 0;
  for (const result of results) {
    errorCount += result.errorCount;
    fatalErrorCount += result.fatalErrorCount;
    warningCount += result.warningCount;
  }
  const maxWarnings = options.maxWarnings as number;
  const tooManyWarnings = maxWarnings >= 0 && warningCount > maxWarnings;
  const resultsMeta: Record<string, unknown> = {};
  if (options.color !== undefined) resultsMeta.color = options.color;
  if (tooManyWarnings) {
    resultsMeta.maxWarningsExceeded = { maxWarnings, foundWarnings: warningCount };
  }
  let formatter;
  try {
    formatter = await engine.loadFormatter(options.format as string);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const output = await formatter.format(resultsToPrint, resultsMeta);
  // Runs in the warm worker process, never the server: its console is recorded as the
  // cold command's stdout would be (see the worker's output recording).
  if (output) console.log(output);
  if (!errorCount && tooManyWarnings) {
    console.error(format('ESLint found too many warnings (maximum: %s).', maxWarnings));
  }
  if (options.exitOnFatalError && fatalErrorCount > 0) return 2;
  return errorCount || tooManyWarnings ? 1 : 0;
}

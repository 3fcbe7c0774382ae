import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToolContext, ToolResult } from '../../server/tool.js';
import { commandWithPaths, fixToolName, type GateSpec } from '../gate-spec.js';
import { GatesError } from '../gates-error.js';
import type { ParseResult } from '../parsers/index.js';
import type { Finding } from '../report/finding.js';
import {
  BaselineError,
  baselinePath,
  createBaseline,
  readBaseline,
  rootFileAccess,
  splitNew,
  writeBaseline,
  type Baseline,
} from '../report/baseline.js';
import { MIN_MAX_CHARS } from '../report/budget.js';
import { fileMatcher } from '../report/file-filter.js';
import {
  buildGateResult,
  failureResult,
  nothingChangedResult,
  type GateRunData,
  type ResultView,
} from '../report/gate-result.js';
import { ChangedFilesError, listChangedFiles } from './changed-files.js';
import { checkedExtensions, filesTheToolChecks } from './changed-scope.js';
import { confinePaths } from './confine-paths.js';
import { missingFiles, removeCreatedFiles } from './derived-files.js';
import { LOCATE_TIMEOUT_MS, locatePrettierFindings } from './locate-format.js';
import { parseOutcome, rebaseFindings, runSteps } from './run-steps.js';
import { type RunOutcome, type RunRequest } from './runner.js';
import { combineWarmHints, formattedWarm, runMaybeWarm, type WarmHint } from './run-warm.js';
import type { WarmPool } from '../warm/warm-pool.js';
import {
  compareTrees,
  fingerprintTree,
  type TreeFingerprint,
  type TreeWatch,
} from './tree-fingerprint.js';
import { planTscBuild, planTscNoEmit, TscPlanError } from './tsc-build.js';

/** Parsers whose raw output is a machine format: the report lists their findings as text. */
export const MACHINE_FORMAT_PARSERS = new Set([
  'eslint-json',
  'biome-json',
  'oxlint-json',
  'cargo-json',
  'ruff-json',
]);

export interface GateToolOptions {
  root: string;
  /** The environment gates run with (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /**
   * Output only through this run's own transcript, never the active capture: for gates
   * that run in parallel inside one dispatch (the `check` tool), whose outputs must not
   * interleave into one capture.
   */
  ownTranscript?: boolean;
  /** Where `baseline: true` writes (the CLI's `baseline --write-file`); default: see baselineFileOf. */
  baselineFile?: string;
  /** Warm workers (`serve` only): checks of eslint, prettier and tsc answer from them. */
  warm?: WarmPool;
}

/** The committed baseline of a gate, inside the repository (`baseline --write-file`). */
export function committedBaselinePath(root: string, gate: string): string {
  return path.join(root, '.mcp-gates', `baseline-${gate}.json`);
}

/**
 * Where a gate's baseline is: the committed file when the repository has one, else the
 * per-root cache outside the repository.
 */
function baselineFileOf(root: string, gate: string, env: NodeJS.ProcessEnv): string {
  const committed = committedBaselinePath(root, gate);
  // baselinePath checks the gate name whichever file is used.
  const cached = baselinePath(root, gate, { env });
  return fs.existsSync(committed) ? committed : cached;
}

/** The OS refused the command line (argv plus environment) as too long (E2BIG). */
class ArgumentListTooLong extends Error {}

function argumentListTooLong(pathCount: number): string {
  const cause =
    pathCount > 0
      ? `its command with ${pathCount} path(s) is longer than the operating system allows`
      : 'its command line and environment are longer than the operating system allows';
  return `the gate did not start: ${cause} (E2BIG)\n  fix: call without paths to check the whole project, or in smaller batches; a huge environment variable counts too`;
}

/** One call of a gate, once its arguments are checked. */
interface GateCall {
  gate: GateSpec;
  fixing: boolean;
  toolName: string;
  /** The check's argv (paths applied, prepared), and the fix's (paths applied). */
  checkArgv: string[];
  fixArgv: string[];
  notes: readonly string[];
  /** Where the gate runs: the root, or the workspace root for a package's workspace gates. */
  runDir: string;
  pathCount: number;
  context: ToolContext;
  options: GateToolOptions;
  /** What each command of the call said about warm (see run-warm.ts). */
  warmHints: WarmHint[];
}

/** What one command (or a gate's steps) gave: enough to build a result. */
interface CommandRun {
  argv: string[];
  outcome: RunOutcome;
  parsed: ParseResult;
  listFindings: boolean;
  stdoutInReport: boolean;
}

/** A call's arguments, checked. */
export interface CallArguments {
  paths: string[];
  maxChars?: number;
  /** Paging: a path or glob the listed findings are filtered to. */
  file?: string;
  offset?: number;
  /** Changed scope: `base` null compares with HEAD. */
  changed?: { base: string | null };
  newOnly: boolean;
  recordBaseline: boolean;
}

const CHECK_ARGUMENTS = ['paths', 'maxChars', 'file', 'offset', 'scope', 'base', 'new', 'baseline'];
const FIX_ARGUMENTS = ['paths', 'maxChars', 'scope', 'base'];

/** The argument names a gate's tool takes (paths only when the gate takes paths). */
export function argumentNames(gate: GateSpec, fixing: boolean): string[] {
  const names = fixing ? FIX_ARGUMENTS : CHECK_ARGUMENTS;
  return gate.paths === 'append' ? names : names.filter((name) => name !== 'paths');
}

/** Checks a call's arguments: the confined paths and options, or the failure result to return. */
export function parseCallArguments(
  gate: GateSpec,
  fixing: boolean,
  toolName: string,
  base: readonly string[],
  args: Record<string, unknown>,
  root: string,
): CallArguments | ToolResult {
  const fail = (message: string) => failureResult(toolName, base, message);
  const allowed = fixing ? FIX_ARGUMENTS : CHECK_ARGUMENTS;
  const unknown = Object.keys(args).filter((key) => !allowed.includes(key));
  if (unknown.length > 0)
    return fail(
      `unknown argument ${unknown.map((key) => `"${key}"`).join(', ')}; this tool takes ${argumentNames(
        gate,
        fixing,
      )
        .map((key) => `"${key}"`)
        .join(', ')}`,
    );
  const parsed: CallArguments = { paths: [], newOnly: false, recordBaseline: false };
  if (args.maxChars !== undefined) {
    if (!Number.isSafeInteger(args.maxChars) || (args.maxChars as number) < MIN_MAX_CHARS)
      return fail(`"maxChars" is a whole number of characters, at least ${MIN_MAX_CHARS}`);
    parsed.maxChars = args.maxChars as number;
  }
  if (args.file !== undefined) {
    if (typeof args.file !== 'string' || args.file.trim() === '')
      return fail(
        '"file" is a path or glob relative to the project root, e.g. "src/a.ts" or "src/**/*.ts"',
      );
    parsed.file = args.file;
  }
  if (args.offset !== undefined) {
    if (!Number.isSafeInteger(args.offset) || (args.offset as number) < 0)
      return fail('"offset" is a whole number of findings to skip, 0 or more');
    parsed.offset = args.offset as number;
  }
  for (const flag of ['new', 'baseline'] as const) {
    if (args[flag] !== undefined && typeof args[flag] !== 'boolean')
      return fail(`"${flag}" is true or false`);
  }
  parsed.newOnly = args.new === true;
  parsed.recordBaseline = args.baseline === true;
  if (parsed.newOnly && parsed.recordBaseline)
    return fail(
      '"new" and "baseline" do not go together: "baseline" records the findings, "new" compares with them',
    );
  if (args.scope !== undefined && args.scope !== 'changed' && args.scope !== 'all')
    return fail(
      '"scope" is "changed" (the files changed against HEAD, or against "base") or "all"',
    );
  if (args.base !== undefined && (typeof args.base !== 'string' || args.base === ''))
    return fail('"base" is a git ref, e.g. "main"');
  if (args.base !== undefined && args.scope !== 'changed')
    return fail('"base" goes with "scope": "changed"');
  if (args.scope === 'changed')
    parsed.changed = { base: (args.base as string | undefined) ?? null };
  const partial =
    parsed.changed !== undefined ||
    parsed.file !== undefined ||
    parsed.offset !== undefined ||
    (Array.isArray(args.paths) && args.paths.length > 0);
  if (parsed.recordBaseline && partial)
    return fail(
      '"baseline" records the findings of a whole run: it goes without "paths", "scope", "file" and "offset"',
    );
  if (args.paths === undefined) return parsed;
  if (!Array.isArray(args.paths))
    return fail(`"paths" is an array of strings (got ${typeof args.paths})`);
  if (gate.paths !== 'append' && args.paths.length > 0) {
    return fail(
      `this gate always runs on the whole project and takes no paths (set "paths": "append" for gate "${gate.name}" in mcp-gates.json to change that)`,
    );
  }
  if (parsed.changed && args.paths.length > 0)
    return fail(
      '"paths" and "scope": "changed" do not go together: the changed scope picks the paths',
    );
  try {
    parsed.paths = confinePaths(root, args.paths);
    return parsed;
  } catch (error) {
    if (error instanceof GatesError) return fail(error.message);
    throw error;
  }
}

/** The last run of each tool, for paging calls (`file`, `offset`) on an unchanged tree. */
interface LastRun {
  data: GateRunData;
  after: TreeFingerprint;
  scope?: ResultView['scope'];
}
const lastRuns = new Map<string, LastRun>();

/** Whether the tree is as the last run left it (so its findings still hold). */
async function unchangedSince(last: LastRun, runDir: string, env: NodeJS.ProcessEnv) {
  const now = await fingerprintTree(runDir, env);
  const watch = compareTrees(last.after, now);
  return watch.changedFiles.length === 0 && !watch.capped;
}

/** The files changed in scope, or the failure result. */
async function changedScope(
  gate: GateSpec,
  toolName: string,
  base: readonly string[],
  changed: { base: string | null },
  context: ToolContext,
  options: GateToolOptions,
): Promise<(NonNullable<ResultView['scope']> & { paths: string[] }) | ToolResult> {
  let files: string[];
  try {
    files = await listChangedFiles(options.root, {
      ...(changed.base ? { base: changed.base } : {}),
      signal: context.signal,
      ...(options.env ? { env: options.env } : {}),
    });
  } catch (error) {
    if (error instanceof ChangedFilesError) return failureResult(toolName, base, error.message);
    throw error;
  }
  if (gate.paths !== 'append')
    return { base: changed.base, changedFiles: files, checkedFiles: null, paths: [] };
  const paths = filesTheToolChecks(gate, files);
  return { base: changed.base, changedFiles: files, checkedFiles: paths.length, paths };
}

function lastRunKey(root: string, toolName: string): string {
  return `${root}\0${toolName}`;
}

/** Every finding of the last run of a tool in `root` (the `check` tool combines them). */
export function lastRunFindings(root: string, toolName: string): readonly Finding[] | undefined {
  return lastRuns.get(lastRunKey(root, toolName))?.data.parsed.findings;
}

/**
 * Runs a gate's check, or its fix followed by the check, for one tool call; the CLI's
 * `run` uses it too. Steps: arguments, the directory the gate runs in, the typecheck's
 * private outputs (run/tsc-build.ts), then the watched run.
 */
export async function runGate(
  gate: GateSpec,
  fixing: boolean,
  args: Record<string, unknown>,
  context: ToolContext,
  options: GateToolOptions,
): Promise<ToolResult> {
  const toolName = fixing ? fixToolName(gate.name) : gate.name;
  const base = fixing ? gate.fix! : gate.command;
  const parsed = parseCallArguments(gate, fixing, toolName, base, args, options.root);
  if (!('newOnly' in parsed)) return parsed;
  const env = options.env ?? process.env;
  const runDirOf = gate.cwd ? path.resolve(options.root, gate.cwd) : options.root;

  let baseline: Baseline | null = null;
  let baselineFile: string | undefined;
  if (parsed.newOnly || parsed.recordBaseline) {
    try {
      baselineFile =
        parsed.recordBaseline && options.baselineFile
          ? options.baselineFile
          : baselineFileOf(options.root, gate.name, env);
      if (parsed.newOnly) baseline = readBaseline(baselineFile, gate.name);
    } catch (error) {
      if (error instanceof BaselineError) return failureResult(toolName, base, error.message);
      throw error;
    }
    if (parsed.newOnly && baseline === null)
      return failureResult(
        toolName,
        base,
        `no baseline is recorded for gate "${gate.name}" (none at ${baselineFile}); \`mcp-gates baseline ${gate.name}\` or a call with "baseline": true records one`,
      );
  }
  const page =
    parsed.file !== undefined || parsed.offset !== undefined
      ? {
          file: parsed.file ?? null,
          offset: parsed.offset ?? 0,
          ...(parsed.file !== undefined ? { matches: fileMatcher(parsed.file) } : {}),
        }
      : undefined;
  const viewOf = (
    data: GateRunData,
    scope: ResultView['scope'],
    source: 'ran' | 'reused',
  ): ResultView => {
    const view: ResultView = { source, noLog: context.signal.aborted };
    if (parsed.maxChars !== undefined || gate.maxChars !== undefined)
      view.maxChars = parsed.maxChars ?? gate.maxChars!;
    if (page) view.page = page;
    if (scope) view.scope = scope;
    if (baseline && baselineFile) {
      const access = rootFileAccess(options.root);
      const split = splitNew(baseline, data.parsed.findings, access.readLines, access.fileHash);
      view.split = { path: baselineFile, ...split };
    }
    return view;
  };

  const key = lastRunKey(options.root, toolName);
  if (page && !fixing) {
    const last = lastRuns.get(key);
    if (last && (await unchangedSince(last, runDirOf, env)))
      return buildGateResult(last.data, viewOf(last.data, last.scope, 'reused'));
  }

  let given = parsed.paths;
  let scope: ResultView['scope'];
  if (parsed.changed) {
    const found = await changedScope(gate, toolName, base, parsed.changed, context, options);
    if (!('changedFiles' in found)) return found;
    const { paths: checked, ...rest } = found;
    scope = rest;
    // Nothing changed: nothing to say about the changes, whether or not the gate takes paths.
    if (gate.paths === 'append' || found.changedFiles.length === 0) {
      if (checked.length === 0) {
        const extensions = checkedExtensions(gate);
        const why =
          found.changedFiles.length === 0
            ? `no files changed against ${parsed.changed.base ? `the merge-base with ${parsed.changed.base}` : 'HEAD'}`
            : `none of the ${found.changedFiles.length} changed files is one the tool checks (${extensions ? extensions.map((ext) => `.${ext}`).join(' ') : 'any'})`;
        return nothingChangedResult(toolName, base, { ...scope, checkedFiles: 0 }, why);
      }
      given = checked;
    }
  }
  let paths = given;
  // A gate with a cwd (the workspace root's, served from a package) runs there; the call's
  // paths and the findings stay relative to the served root.
  const runDir = runDirOf;
  if (runDir !== options.root) {
    paths = paths.map((file) => path.relative(runDir, path.resolve(options.root, file)));
    const outside = paths.find((file) => file === '..' || file.startsWith(`..${path.sep}`));
    if (outside !== undefined)
      return failureResult(
        toolName,
        base,
        `the path ${outside} is outside ${gate.cwd}, where this gate runs`,
      );
  }
  let checkArgv = commandWithPaths(gate.command, paths);
  let cleanup = () => {};
  let notes: string[] = [];
  if (gate.prepare) {
    try {
      const plan =
        gate.prepare === 'tsc-build'
          ? planTscBuild(runDir, gate.command[0]!, gate.command[2] ?? 'tsconfig.json')
          : planTscNoEmit(checkArgv);
      checkArgv = plan.argv;
      cleanup = plan.cleanup;
      notes = plan.notes;
    } catch (error) {
      if (error instanceof TscPlanError) return failureResult(toolName, base, error.message);
      return failureResult(
        toolName,
        base,
        `could not prepare the typecheck's private output directory: ${(error as Error).message}; check that the temporary directory (${os.tmpdir()}) is writable`,
      );
    }
  }
  const call: GateCall = {
    gate,
    fixing,
    toolName,
    checkArgv,
    fixArgv: fixing ? commandWithPaths(base, paths) : [],
    notes,
    runDir,
    pathCount: paths.length,
    context,
    options,
    warmHints: [],
  };
  // Tolerant of a hand-made context without log (direct runGate callers predate it).
  const log: ToolContext['log'] = context.log ?? (() => {});
  const shown = fixing ? call.fixArgv : checkArgv;
  log('info', `${toolName}: started: ${shown.join(' ')}`, 'mcp-gates');
  try {
    const run = await runWatched(call);
    if (parsed.recordBaseline && baselineFile) {
      const finished = run.data.outcome.end === 'exited' && !run.data.parsed.unparsed;
      let note = `baseline not recorded: the check did not finish`;
      if (finished) {
        const access = rootFileAccess(options.root);
        try {
          writeBaseline(
            baselineFile,
            createBaseline(gate.name, run.data.parsed.findings, access.readLines, access.fileHash),
          );
          note = `baseline recorded: ${run.data.parsed.findings.length} findings in ${baselineFile}`;
        } catch (error) {
          if (!(error instanceof BaselineError)) throw error;
          note = `baseline not recorded: ${error.message}`;
        }
      }
      run.data.notes = [...(run.data.notes ?? []), note];
    }
    if (!fixing && run.after) {
      // The raw streams (up to 8 MiB each) are not kept between calls: a reused result's
      // log has the findings and the shown output.
      const outcome = { ...run.data.outcome, stdout: '', stderr: '' };
      lastRuns.set(key, { data: { ...run.data, outcome }, after: run.after, scope });
    }
    const result = withWarmHint(call, buildGateResult(run.data, viewOf(run.data, scope, 'ran')));
    const status = (result.structuredContent as { status: string }).status;
    log(result.isError ? 'warning' : 'info', `${toolName}: ${status}`, 'mcp-gates');
    return result;
  } catch (error) {
    if (error instanceof ArgumentListTooLong)
      return failureResult(
        toolName,
        fixing ? call.fixArgv : checkArgv,
        argumentListTooLong(paths.length),
      );
    throw error;
  } finally {
    cleanup();
  }
}

/**
 * Runs the call between two fingerprints of the directory it runs in: a check that
 * changes the tree fails, a fix lists what it changed. A fix's own output says what it
 * did, not what is left (`oxlint --fix` prints "Found 1 warning" as text; `ruff check
 * --fix` lists only what it could not fix): the check runs again afterwards, read by the
 * gate's own parser, and its findings are the fix tool's result.
 */
async function runWatched(
  call: GateCall,
): Promise<{ data: GateRunData; after: TreeFingerprint | undefined }> {
  const { gate, fixing, toolName, runDir, options } = call;
  let notes = call.notes;
  const env = options.env ?? process.env;
  // A by-product the tool writes when missing (cargo's Cargo.lock) is removed after a check.
  const derived = fixing ? [] : missingFiles(runDir, gate.derivedFiles);
  const before = await fingerprintTree(runDir, env);
  let afterPrint: TreeFingerprint | undefined;
  const treeAfter = async (run: CommandRun): Promise<TreeWatch | undefined> => {
    const removed = removeCreatedFiles(runDir, derived);
    if (removed.length > 0)
      notes = [
        ...notes,
        `removed ${removed.join(', ')}, which the tool generated during the check (the tree is left as it was found)`,
      ];
    const end = run.outcome.end;
    if (end === 'not-found' || end === 'spawn-failed') return undefined;
    afterPrint = await fingerprintTree(runDir, env);
    return compareTrees(before, afterPrint);
  };
  const result = async (run: CommandRun, parsed = run.parsed, durationMs?: number) => {
    const tree = await treeAfter(run);
    const data: GateRunData = {
      toolName,
      argv: fixing ? call.fixArgv : run.argv,
      outcome: durationMs === undefined ? run.outcome : { ...run.outcome, durationMs },
      parsed,
      listFindings: run.listFindings,
      stdoutInReport: run.stdoutInReport,
      fixing,
      notes,
      ...(tree ? { tree } : {}),
    };
    return { data, after: afterPrint };
  };

  if (!fixing) return result(await runCheck(call));
  const fix = await runCommand(call, call.fixArgv, 'generic');
  if (fix.outcome.end !== 'exited') return result(fix);
  const check = await runCheck(call);
  const remaining = check.parsed.findings.length;
  const after =
    check.outcome.end !== 'exited'
      ? 'the check afterwards did not finish, so what remains is unknown'
      : remaining === 0
        ? check.parsed.passed
          ? 'the check afterwards finds nothing left'
          : 'the check afterwards still fails'
        : `${remaining} finding${remaining === 1 ? ' remains' : 's remain'} (from the check afterwards)`;
  const fixEnd = fix.outcome.signal
    ? `killed by ${fix.outcome.signal}`
    : `exit ${fix.outcome.exitCode}`;
  const note = [
    `fixed with \`${fix.argv.join(' ')}\` (${fixEnd}, ${(fix.outcome.durationMs / 1000).toFixed(1)} s), then checked with \`${check.argv.join(' ')}\`: ${after}`,
    check.parsed.note,
  ]
    .filter(Boolean)
    .join('; ');
  return result(
    { ...check, listFindings: true },
    { ...check.parsed, note },
    fix.outcome.durationMs + check.outcome.durationMs,
  );
}

/** The gate's check, with whole-file format findings pointed at their first changed line. */
async function runCheck(call: GateCall): Promise<CommandRun> {
  const run = await runCheckCommands(call);
  if (run.outcome.end !== 'exited') return run;
  const env = call.options.env ?? process.env;
  const locate = { runDir: call.runDir, env, signal: call.context.signal };
  const pool = call.options.warm;
  await locatePrettierFindings(run.parsed.findings, {
    ...locate,
    root: call.options.root,
    ...(pool
      ? {
          warmFormatted: (absolute: string) =>
            formattedWarm({ pool, gate: call.gate }, absolute, {
              ...locate,
              timeoutMs: LOCATE_TIMEOUT_MS,
            }),
        }
      : {}),
  });
  return run;
}

/** The gate's check: its steps (a split package.json chain) or its one command. */
async function runCheckCommands(call: GateCall): Promise<CommandRun> {
  const { gate } = call;
  if (!gate.steps || gate.steps.length === 0) {
    const run = await runCommand(call, call.checkArgv, gate.parser);
    return {
      ...run,
      listFindings: run.listFindings || (gate.parser === 'go-vet' && run.argv.includes('-json')),
    };
  }
  const steps = await runSteps({
    ...commonRequest(call),
    root: call.options.root,
    runDir: call.runDir,
    steps: gate.steps,
    isMachineFormat: (parser) => MACHINE_FORMAT_PARSERS.has(parser),
    runCommand: async (request) => (await runOneCommand(call, request, true)).outcome,
  });
  return {
    argv: steps.argv,
    outcome: steps.outcome,
    parsed: steps.parsed,
    listFindings: gate.steps.some((step) => MACHINE_FORMAT_PARSERS.has(step.parser)),
    stdoutInReport: true,
  };
}

/** Timeout, cancellation, environment and progress: the same for every command of a call. */
function commonRequest(call: GateCall) {
  const { gate, toolName, context, options } = call;
  const onProgress = context.wantsProgress
    ? (elapsedMs: number, bytes: number) =>
        context.progress({
          progress: Math.round(elapsedMs / 1000),
          message: `${toolName}: ${Math.round(elapsedMs / 1000)} s, ${bytes} bytes of output`,
        })
    : undefined;
  return {
    timeoutMs: gate.timeoutMs,
    signal: context.signal,
    ...(options.env ? { env: options.env } : {}),
    ...(options.ownTranscript ? { ownTranscript: true } : {}),
    ...(onProgress ? { onProgress } : {}),
  };
}

/** Runs one command where the gate runs and reads its output with `parserName`. */
async function runCommand(call: GateCall, argv: string[], parserName: string): Promise<CommandRun> {
  const machineFormat = MACHINE_FORMAT_PARSERS.has(parserName);
  let outcome: RunOutcome;
  try {
    // A fix rewrites files: it always runs cold (no worker serves --fix or --write).
    const isCheck = !(call.fixing && argv === call.fixArgv);
    ({ outcome } = await runOneCommand(
      call,
      { ...commonRequest(call), root: call.runDir, argv, stdoutInReport: !machineFormat },
      isCheck,
    ));
  } catch (error) {
    // spawn throws E2BIG synchronously (nothing was started): a result, not a crash.
    if ((error as NodeJS.ErrnoException).code === 'E2BIG') throw new ArgumentListTooLong();
    throw error;
  }
  if (outcome.end === 'spawn-failed' && /\bE2BIG\b/.test(outcome.problem ?? ''))
    throw new ArgumentListTooLong();
  const read = await parseOutcome(parserName, outcome, call.runDir, call.context.signal);
  read.parsed.findings = rebaseFindings(read.parsed.findings, call.runDir, call.options.root);
  return {
    argv,
    outcome: read.outcome,
    parsed: read.parsed,
    listFindings: machineFormat,
    stdoutInReport: !machineFormat,
  };
}

/** One command of a call, in the server's warm pool when there is one and it may. */
async function runOneCommand(call: GateCall, request: RunRequest, isCheck: boolean) {
  const pool = call.options.warm;
  const run = await runMaybeWarm(request, pool && isCheck ? { pool, gate: call.gate } : undefined);
  if (run.hint) call.warmHints.push(run.hint);
  return run;
}

/** The result with `warm` in its structured content when any command asked the pool. */
function withWarmHint(call: GateCall, result: ToolResult): ToolResult {
  const hint = combineWarmHints(call.warmHints);
  if (!hint || !result.structuredContent) return result;
  return { ...result, structuredContent: { ...result.structuredContent, warm: hint } };
}

import os from 'node:os';
import path from 'node:path';
import type { ToolContext, ToolResult } from '../../server/tool.js';
import { fixToolName, gateOnFiles, type GateSpec } from '../gate-spec.js';
import type { ParseResult } from '../parsers/index.js';
import {
  BaselineError,
  baselineFileOf,
  readBaseline,
  recordRunBaseline,
  rootFileAccess,
  splitNew,
  type Baseline,
} from '../report/baseline.js';
import {
  buildGateResult,
  failureResult,
  shellLine,
  type GateRunData,
  type ResultView,
} from '../report/gate-result.js';
import { lastRunToReuse, pageOf, rememberRun } from '../report/last-run.js';
import { parseCallArguments, type CallArguments } from './call-arguments.js';
import { changedScope } from './changed-scope.js';
import { missingFiles, removeCreatedFiles } from './derived-files.js';
import { LOCATE_TIMEOUT_MS, locateFormatFindings } from './locate-format.js';
import { parseOutcome, rebaseParsed, runSteps } from './run-steps.js';
import { type RunOutcome, type RunRequest } from './runner.js';
import { combineWarmHints, runMaybeWarm, warmFormatter, type WarmHint } from './run-warm.js';
import type { WarmPool } from '../warm/warm-pool.js';
import {
  compareTrees,
  fingerprintTree,
  type TreeFingerprint,
  type TreeWatch,
} from './tree-fingerprint.js';
import type { TreeWatches } from './tree-watch.js';
import { planTscBuild, planTscNoEmit, TscPlanError } from './tsc-build.js';
import { runsNativeTypescript, type BuildInfoStore } from './tsc-incremental.js';
import { runIdentity } from './run-identity.js';
import { runTimeFiles } from './run-time-files.js';
import { commandForPaths, MACHINE_FORMAT_PARSERS } from '../tools/index.js';
import { timed } from '../phase-timing.js';

export { MACHINE_FORMAT_PARSERS };

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
  /** Tree watches (`serve` only): the fingerprints around a call cost the changes, not the tree. */
  trees?: TreeWatches;
  /**
   * The root's files (root-relative) where the root is no git work tree: the session's start
   * tree, written from a commit. A gate that lists its files with git is given these.
   */
  projectFiles?: readonly string[];
}

/** The fingerprint of the tree where a gate runs: through the server's watch when it has one. */
function fingerprintOf(options: GateToolOptions, runDir: string, env: NodeJS.ProcessEnv) {
  return options.trees ? options.trees.fingerprint(runDir, env) : fingerprintTree(runDir, env);
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
  /** The call's paths, relative to runDir, as appended to the check's argv. */
  runPaths: string[];
  /** The run's identity (run-identity.ts), under which it is kept for paging calls. */
  identity: string;
  pathCount: number;
  context: ToolContext;
  options: GateToolOptions;
  /** What each command of the call said about warm (see run-warm.ts). */
  warmHints: WarmHint[];
}

/** What one command (or a gate's steps) gave: enough to build a result. */
interface CommandRun {
  argv: string[];
  /** A split chain's commands, as they ran one after another. */
  steps?: string[][];
  outcome: RunOutcome;
  parsed: ParseResult;
  listFindings: boolean;
  stdoutInReport: boolean;
}

/**
 * Runs a gate's check, or its fix followed by the check, for one tool call; the CLI's
 * `run` uses it too. See runGateCall.
 */
export async function runGate(
  gate: GateSpec,
  fixing: boolean,
  args: Record<string, unknown>,
  context: ToolContext,
  options: GateToolOptions,
): Promise<ToolResult> {
  return (await runGateCall(gate, fixing, args, context, options)).result;
}

/** A call's result, and the run it shows (none when the gate did not run). */
export interface GateCallOutcome {
  result: ToolResult;
  run?: GateRunData;
}

/**
 * One call of a gate, with the run behind its result: `check` combines every finding of
 * each gate's own run, not of whatever run of that gate came last. Steps: arguments, the
 * baseline, the run's identity and a reused last run for a paging call, the changed
 * scope, the paths and the typecheck's private outputs (run/tsc-build.ts) where the gate
 * runs, then the watched run.
 */
export async function runGateCall(
  served: GateSpec,
  fixing: boolean,
  args: Record<string, unknown>,
  context: ToolContext,
  options: GateToolOptions,
): Promise<GateCallOutcome> {
  const toolName = fixing ? fixToolName(served.name) : served.name;
  const parsed = parseCallArguments(
    served,
    fixing,
    toolName,
    fixing ? served.fix! : served.command,
    args,
    options.root,
  );
  if (!('newOnly' in parsed)) return { result: parsed };
  // A check on given files runs the gate's tool on them (gateOnFiles), not the whole check.
  const gate =
    !fixing && (parsed.paths.length > 0 || parsed.changed !== undefined)
      ? gateOnFiles(served)
      : served;
  const base = fixing ? gate.fix! : gate.command;
  const fail = (message: string) => ({ result: failureResult(toolName, base, message) });
  const env = options.env ?? process.env;
  const runDir = gate.cwd ? path.resolve(options.root, gate.cwd) : options.root;

  const baseline = openBaseline(gate, parsed, options, env);
  if (typeof baseline === 'string') return fail(baseline);
  const shared: SharedView = { parsed, gate, page: pageOf(parsed), baseline, options, context };
  const paging = shared.page !== undefined;
  const identity = await timed('identity', () =>
    runIdentity({
      root: options.root,
      runDir,
      toolName,
      fixing,
      gate,
      args: parsed,
      env,
      ...(options.baselineFile !== undefined ? { baselineFile: options.baselineFile } : {}),
      warm: options.warm !== undefined,
      signal: context.signal,
    }),
  );
  const owner = { root: options.root, toolName, fixing, identity };
  const fingerprint = () => fingerprintOf(options, runDir, env);
  const last = await timed('lastRun', () => lastRunToReuse({ ...owner, paging, fingerprint }));
  if (last) {
    const view = viewOf(shared, last.data, last.scope, 'reused');
    return { result: buildGateResult(last.data, view), run: last.data };
  }

  const target = parsed.changed
    ? await changedScope(gate, toolName, base, parsed.changed, context, options)
    : { scope: undefined, paths: parsed.paths };
  if (!('paths' in target)) return { result: target };
  const { scope } = target;
  const files = await timed('runTimeFiles', () =>
    runTimeFiles(gate, target.paths, {
      root: options.root,
      runDir,
      env,
      signal: context.signal,
      ...(options.projectFiles ? { projectFiles: options.projectFiles } : {}),
    }),
  );
  if ('error' in files) return fail(files.error);
  if ('nothing' in files)
    return {
      result: failureResult(toolName, base, `nothing checked: ${files.nothing}`, 'nothing-checked'),
    };
  const where = { gate, fixing, toolName, runDir, identity, context, options };
  const prepared = prepareCall(where, base, files.paths, files.listed);
  if (typeof prepared === 'string') return fail(prepared);
  try {
    const record = parsed.recordBaseline ? baseline : undefined;
    const view = (data: GateRunData) => viewOf(shared, data, scope, 'ran');
    return await runAndReport(prepared.call, record, scope, view);
  } finally {
    prepared.cleanup();
  }
}

/** The baseline file a call records into (`baseline`) or compares with (`new`). */
interface CallBaseline {
  file: string;
  /** For `new`: the findings recorded before. */
  recorded: Baseline | null;
}

/** The call's baseline (undefined when it uses none), or why it cannot be used. */
function openBaseline(
  gate: GateSpec,
  parsed: CallArguments,
  options: GateToolOptions,
  env: NodeJS.ProcessEnv,
): CallBaseline | undefined | string {
  if (!parsed.newOnly && !parsed.recordBaseline) return undefined;
  let file: string;
  let recorded: Baseline | null = null;
  try {
    file =
      parsed.recordBaseline && options.baselineFile
        ? options.baselineFile
        : baselineFileOf(options.root, gate.name, env);
    if (parsed.newOnly) recorded = readBaseline(file, gate.name);
  } catch (error) {
    if (error instanceof BaselineError) return error.message;
    throw error;
  }
  if (parsed.newOnly && recorded === null)
    return `no baseline is recorded for gate "${gate.name}" (none at ${file}); \`mcp-gates baseline ${gate.name}\` or a call with "baseline": true records one`;
  return { file, recorded };
}

/** What shapes every result of a call, whichever run it shows. */
interface SharedView {
  parsed: CallArguments;
  gate: GateSpec;
  page: ResultView['page'];
  baseline: CallBaseline | undefined;
  options: GateToolOptions;
  context: ToolContext;
}

/** How the result shows a run: its budget, page, scope and split against the baseline. */
function viewOf(
  shared: SharedView,
  data: GateRunData,
  scope: ResultView['scope'],
  source: 'ran' | 'reused',
): ResultView {
  const { parsed, gate, page, baseline, options, context } = shared;
  const view: ResultView = { source, noLog: context.signal.aborted };
  if (parsed.maxChars !== undefined || gate.maxChars !== undefined)
    view.maxChars = parsed.maxChars ?? gate.maxChars!;
  if (page) view.page = page;
  if (scope) view.scope = scope;
  if (baseline?.recorded) {
    const access = rootFileAccess(options.root);
    const split = splitNew(
      baseline.recorded,
      data.parsed.findings,
      access.readLines,
      access.fileHash,
    );
    view.split = { path: baseline.file, ...split };
  }
  return view;
}

/**
 * The call's paths relative to where the gate runs, or which one is outside it. A gate
 * with a cwd (the workspace root's, served from a package) runs there; the call's paths
 * and the findings stay relative to the served root.
 */
function pathsFromRunDir(
  gate: GateSpec,
  root: string,
  runDir: string,
  paths: string[],
): string[] | string {
  if (runDir === root) return paths;
  const moved = paths.map((file) => path.relative(runDir, path.resolve(root, file)));
  const outside = moved.find((file) => file === '..' || file.startsWith(`..${path.sep}`));
  if (outside !== undefined)
    return `the path ${outside} is outside ${gate.cwd}, where this gate runs`;
  return moved;
}

/**
 * The check's argv, with the typecheck's private output directory when the gate asks for
 * one (`prepare`), the cleanup that removes it, and notes; or why it could not be prepared.
 */
function prepareCheck(
  gate: GateSpec,
  runDir: string,
  checkArgv: string[],
  buildInfo: BuildInfoStore | undefined,
): { argv: string[]; cleanup: () => void; notes: string[] } | string {
  if (!gate.prepare) return { argv: checkArgv, cleanup: () => {}, notes: [] };
  try {
    const plan =
      gate.prepare === 'tsc-build'
        ? planTscBuild(runDir, gate.command[0]!, gate.command[2] ?? 'tsconfig.json')
        : planTscNoEmit(
            checkArgv,
            buildInfo && gate.warm !== false && runsNativeTypescript(checkArgv, runDir)
              ? { store: buildInfo, runDir }
              : undefined,
          );
    return { argv: plan.argv, cleanup: plan.cleanup, notes: plan.notes };
  } catch (error) {
    if (error instanceof TscPlanError) return error.message;
    return `could not prepare the typecheck's private output directory: ${(error as Error).message}; check that the temporary directory (${os.tmpdir()}) is writable`;
  }
}

/**
 * The call as it runs where the gate runs: its paths relative to there, the typecheck's
 * private outputs prepared (and the cleanup that removes them); or why it cannot run.
 */
function prepareCall(
  where: Pick<
    GateCall,
    'gate' | 'fixing' | 'toolName' | 'runDir' | 'identity' | 'context' | 'options'
  >,
  base: readonly string[],
  paths: string[],
  listed?: string,
): { call: GateCall; cleanup: () => void } | string {
  const { gate, fixing, runDir, options } = where;
  const runPaths = pathsFromRunDir(gate, options.root, runDir, paths);
  if (typeof runPaths === 'string') return runPaths;
  const prepared = prepareCheck(
    gate,
    runDir,
    commandForPaths(gate.command, runPaths),
    options.warm?.buildInfo,
  );
  if (typeof prepared === 'string') return prepared;
  const call: GateCall = {
    ...where,
    checkArgv: prepared.argv,
    fixArgv: fixing ? commandForPaths(base, runPaths) : [],
    runPaths,
    notes: listed === undefined ? prepared.notes : [listed, ...prepared.notes],
    pathCount: runPaths.length,
    warmHints: [],
  };
  return { call, cleanup: prepared.cleanup };
}

/**
 * Runs the call watched, records the baseline when asked, keeps the run for paging calls,
 * and shapes the result; a command line the OS refuses as too long is a failure result.
 */
async function runAndReport(
  call: GateCall,
  record: CallBaseline | undefined,
  scope: ResultView['scope'],
  view: (data: GateRunData) => ResultView,
): Promise<GateCallOutcome> {
  const { gate, fixing, toolName, identity, context, options } = call;
  // Tolerant of a hand-made context without log (direct runGate callers predate it).
  const log: ToolContext['log'] = context.log ?? (() => {});
  const shown = fixing ? call.fixArgv : call.checkArgv;
  log('info', `${toolName}: started: ${shown.join(' ')}`, 'mcp-gates');
  try {
    const run = await runWatched(call);
    if (record) {
      const finished = run.data.outcome.end === 'exited' && !run.data.parsed.unparsed;
      const { findings } = run.data.parsed;
      const note = recordRunBaseline(options.root, record.file, gate.name, findings, finished);
      run.data.notes = [...(run.data.notes ?? []), note];
    }
    rememberRun({ root: options.root, toolName, fixing, identity }, run, scope);
    const result = withWarmHint(call, buildGateResult(run.data, view(run.data)));
    const status = (result.structuredContent as { status: string }).status;
    log(result.isError ? 'warning' : 'info', `${toolName}: ${status}`, 'mcp-gates');
    return { result, run: run.data };
  } catch (error) {
    if (error instanceof ArgumentListTooLong)
      return { result: failureResult(toolName, shown, argumentListTooLong(call.pathCount)) };
    throw error;
  }
}

/**
 * Runs the call between two fingerprints of the directory it runs in: a check that
 * changes the tree fails, a fix lists what it changed. A fix's own output says what it
 * did, not what is left (`oxlint --fix` prints "Found 1 warning" as text; a linter's
 * --fix may list only what it could not fix): the check runs again afterwards, read by the
 * gate's own parser, and its findings are the fix tool's result.
 */
async function runWatched(
  call: GateCall,
): Promise<{ data: GateRunData; before: TreeFingerprint; after: TreeFingerprint | undefined }> {
  const { gate, fixing, toolName, runDir, options } = call;
  let notes = call.notes;
  const env = options.env ?? process.env;
  // A by-product the tool writes when missing (cargo's Cargo.lock) is removed after a check.
  const derived = fixing ? [] : missingFiles(runDir, gate.derivedFiles);
  const before = await timed('fingerprint', () => fingerprintOf(options, runDir, env));
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
    afterPrint = await timed('fingerprint', () => fingerprintOf(options, runDir, env));
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
      ...(!fixing && run.steps ? { steps: run.steps } : {}),
    };
    return { data, before, after: afterPrint };
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
    `fixed with \`${shellLine([fix.argv])}\` (${fixEnd}, ${(fix.outcome.durationMs / 1000).toFixed(1)} s), then checked with \`${shellLine(check.steps ?? [check.argv])}\`: ${after}`,
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
  await timed('locateFormat', () =>
    locateFormatFindings(run.parsed.findings, {
      ...locate,
      root: call.options.root,
      ...(pool
        ? {
            warmFormatted: warmFormatter(
              { pool, gate: call.gate },
              { ...locate, timeoutMs: LOCATE_TIMEOUT_MS },
            ),
          }
        : {}),
    }),
  );
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
    steps: gate.steps.map((step) => step.command),
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
  const read = await timed('parse', () =>
    parseOutcome(parserName, outcome, call.runDir, call.context.signal, {
      argv,
      paths: call.runPaths,
    }),
  );
  return {
    argv,
    outcome: read.outcome,
    parsed: rebaseParsed(read.parsed, call.runDir, call.options.root),
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

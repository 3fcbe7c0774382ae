import os from 'node:os';
import path from 'node:path';
import type { ToolContext, ToolResult } from '../../server/tool.js';
import { commandWithPaths, fixToolName, type GateSpec } from '../gate-spec.js';
import { GatesError } from '../gates-error.js';
import type { ParseResult } from '../parsers/index.js';
import { buildGateResult, failureResult } from '../report/gate-result.js';
import { confinePaths } from './confine-paths.js';
import { missingFiles, removeCreatedFiles } from './derived-files.js';
import { parseOutcome, rebaseFindings, runSteps } from './run-steps.js';
import { type RunOutcome, type RunRequest } from './runner.js';
import { combineWarmHints, runMaybeWarm, type WarmHint } from './run-warm.js';
import type { WarmPool } from '../warm/warm-pool.js';
import { compareTrees, fingerprintTree, type TreeWatch } from './tree-fingerprint.js';
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
  /** Warm workers (`serve` only): checks of eslint, prettier and tsc answer from them. */
  warm?: WarmPool;
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

/** Checks a call's arguments: the confined paths, or the failure result to return. */
function callPaths(
  gate: GateSpec,
  toolName: string,
  base: readonly string[],
  args: Record<string, unknown>,
  root: string,
): string[] | ToolResult {
  const unknown = Object.keys(args).filter((key) => key !== 'paths');
  if (unknown.length > 0)
    return failureResult(
      toolName,
      base,
      `unknown argument ${unknown.map((key) => `"${key}"`).join(', ')}; this tool takes only "paths"`,
    );
  if (args.paths === undefined) return [];
  if (!Array.isArray(args.paths))
    return failureResult(toolName, base, '"paths" must be an array of strings');
  if (gate.paths !== 'append' && args.paths.length > 0) {
    return failureResult(
      toolName,
      base,
      `this gate always runs on the whole project and takes no paths (set "paths": "append" for gate "${gate.name}" in mcp-gates.json to change that)`,
    );
  }
  try {
    return confinePaths(root, args.paths);
  } catch (error) {
    if (error instanceof GatesError) return failureResult(toolName, base, error.message);
    throw error;
  }
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
  const given = callPaths(gate, toolName, base, args, options.root);
  if (!Array.isArray(given)) return given;
  let paths = given;
  // A gate with a cwd (the workspace root's, served from a package) runs there; the call's
  // paths and the findings stay relative to the served root.
  const runDir = gate.cwd ? path.resolve(options.root, gate.cwd) : options.root;
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
    const result = await runWatched(call);
    log(
      result.isError ? 'warning' : 'info',
      `${toolName}: ${result.isError ? 'failed' : 'passed'}`,
      'mcp-gates',
    );
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
async function runWatched(call: GateCall): Promise<ToolResult> {
  const { gate, fixing, toolName, runDir, options } = call;
  let notes = call.notes;
  const env = options.env ?? process.env;
  // A by-product the tool writes when missing (cargo's Cargo.lock) is removed after a check.
  const derived = fixing ? [] : missingFiles(runDir, gate.derivedFiles);
  const before = await fingerprintTree(runDir, env);
  const treeAfter = async (run: CommandRun): Promise<TreeWatch | undefined> => {
    const removed = removeCreatedFiles(runDir, derived);
    if (removed.length > 0)
      notes = [
        ...notes,
        `removed ${removed.join(', ')}, which the tool generated during the check (the tree is left as it was found)`,
      ];
    const end = run.outcome.end;
    return end === 'not-found' || end === 'spawn-failed'
      ? undefined
      : compareTrees(before, await fingerprintTree(runDir, env));
  };
  const result = async (run: CommandRun, parsed = run.parsed, durationMs?: number) => {
    const tree = await treeAfter(run);
    return withWarmHint(
      call,
      buildGateResult({
        toolName,
        argv: fixing ? call.fixArgv : run.argv,
        outcome: durationMs === undefined ? run.outcome : { ...run.outcome, durationMs },
        parsed,
        listFindings: run.listFindings,
        stdoutInReport: run.stdoutInReport,
        fixing,
        notes,
        ...(tree ? { tree } : {}),
      }),
    );
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

/** The gate's check: its steps (a split package.json chain) or its one command. */
async function runCheck(call: GateCall): Promise<CommandRun> {
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

import os from 'node:os';
import type { JsonSchema, Tool, ToolContext, ToolResult } from '../server/tool.js';
import { confinePaths } from './run/confine-paths.js';
import { GATE_OUTPUT_SCHEMA, buildGateResult } from './report/gate-result.js';
import { commandWithPaths, fixToolName, type GateSpec } from './gate-spec.js';
import { GatesError } from './gates-error.js';
import path from 'node:path';
import { parseOutcome, rebaseFindings, runSteps } from './run/run-steps.js';
import { runGateCommand } from './run/runner.js';
import { missingFiles, removeCreatedFiles } from './run/derived-files.js';
import { compareTrees, fingerprintTree } from './run/tree-fingerprint.js';
import { planTscBuild, planTscNoEmit, TscPlanError } from './run/tsc-build.js';

/** Parsers whose raw output is a machine format: the report lists their findings as text. */
const MACHINE_FORMAT_PARSERS = new Set([
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
}

function inputSchema(gate: GateSpec, fixing: boolean): JsonSchema {
  if (gate.paths !== 'append')
    return { type: 'object', properties: {}, additionalProperties: false };
  return {
    type: 'object',
    properties: {
      paths: {
        type: 'array',
        items: { type: 'string' },
        description: fixing
          ? 'Files or directories to fix, relative to the project root. Omit to fix the whole project.'
          : 'Files or directories to check, relative to the project root. Omit to check the whole project.',
      },
    },
    additionalProperties: false,
  };
}

function failure(toolName: string, argv: readonly string[], message: string): ToolResult {
  const report = `${toolName}: failed (not run)\n${message}`;
  return {
    text: report,
    isError: true,
    structuredContent: {
      gate: toolName,
      passed: false,
      exitCode: null,
      signal: null,
      durationMs: 0,
      command: [...argv],
      findings: [],
      findingCount: 0,
      truncated: false,
      logPath: null,
      report,
      changedFiles: null,
      treeWatch: null,
    },
  };
}

/** E2BIG: the OS refused the command line (argv plus environment) as too long. */
function argumentListTooLong(pathCount: number): string {
  const cause =
    pathCount > 0
      ? `its command with ${pathCount} path(s) is longer than the operating system allows`
      : 'its command line and environment are longer than the operating system allows';
  return `the gate did not start: ${cause} (E2BIG)\n  fix: call without paths to check the whole project, or in smaller batches; a huge environment variable counts too`;
}

const ARGUMENT_LIST_TOO_LONG = Symbol('E2BIG');

/** spawn throws E2BIG synchronously (nothing was started): a result, not a crash. */
function spawnRefusedArgumentList(error: unknown): typeof ARGUMENT_LIST_TOO_LONG {
  if ((error as NodeJS.ErrnoException).code === 'E2BIG') return ARGUMENT_LIST_TOO_LONG;
  throw error;
}

/** Runs a gate's check or fix command for one tool call; the CLI's `run` uses it too. */
export async function runGate(
  gate: GateSpec,
  fixing: boolean,
  args: Record<string, unknown>,
  context: ToolContext,
  options: GateToolOptions,
): Promise<ToolResult> {
  const toolName = fixing ? fixToolName(gate.name) : gate.name;
  const base = fixing ? gate.fix! : gate.command;
  const unknown = Object.keys(args).filter((key) => key !== 'paths');
  if (unknown.length > 0)
    return failure(
      toolName,
      base,
      `unknown argument ${unknown.map((key) => `"${key}"`).join(', ')}; this tool takes only "paths"`,
    );
  let paths: string[] = [];
  if (args.paths !== undefined) {
    if (!Array.isArray(args.paths))
      return failure(toolName, base, '"paths" must be an array of strings');
    if (gate.paths !== 'append' && args.paths.length > 0) {
      return failure(
        toolName,
        base,
        `this gate always runs on the whole project and takes no paths (set "paths": "append" for gate "${gate.name}" in mcp-gates.json to change that)`,
      );
    }
    try {
      paths = confinePaths(options.root, args.paths);
    } catch (error) {
      if (error instanceof GatesError) return failure(toolName, base, `${error.message}`);
      throw error;
    }
  }
  // A gate with a cwd (the workspace root's, served from a package) runs there; the call's
  // paths and the findings stay relative to the served root.
  const runDir = gate.cwd ? path.resolve(options.root, gate.cwd) : options.root;
  if (runDir !== options.root) {
    paths = paths.map((given) => path.relative(runDir, path.resolve(options.root, given)));
    const outside = paths.find((given) => given === '..' || given.startsWith(`..${path.sep}`));
    if (outside !== undefined)
      return failure(
        toolName,
        base,
        `the path ${outside} is outside ${gate.cwd}, where this gate runs`,
      );
  }
  let argv = commandWithPaths(base, paths);
  let cleanup = () => {};
  let notes: string[] = [];
  if (gate.prepare && !fixing) {
    try {
      const plan =
        gate.prepare === 'tsc-build'
          ? planTscBuild(runDir, base[0]!, base[2] ?? 'tsconfig.json')
          : planTscNoEmit(argv);
      argv = plan.argv;
      cleanup = plan.cleanup;
      notes = plan.notes;
    } catch (error) {
      if (error instanceof TscPlanError) return failure(toolName, base, error.message);
      return failure(
        toolName,
        base,
        `could not prepare the typecheck's private output directory: ${(error as Error).message}; check that the temporary directory (${os.tmpdir()}) is writable`,
      );
    }
  }
  // Tolerant of a hand-made context without log (direct runGate callers predate it).
  const log: ToolContext['log'] = context.log ?? (() => {});
  log('info', `${toolName}: started: ${argv.join(' ')}`, 'mcp-gates');
  try {
    const result = await runChecked({
      gate,
      fixing,
      toolName,
      argv,
      notes,
      runDir,
      paths,
      context,
      options,
    });
    log(
      result.isError ? 'warning' : 'info',
      `${toolName}: ${result.isError ? 'failed' : 'passed'}`,
      'mcp-gates',
    );
    return result;
  } finally {
    cleanup();
  }
}

interface CheckedRun {
  gate: GateSpec;
  fixing: boolean;
  toolName: string;
  argv: string[];
  notes: readonly string[];
  /** Where the gate runs: the root, or the workspace root for a package's workspace gates. */
  runDir: string;
  paths: readonly string[];
  context: ToolContext;
  options: GateToolOptions;
}

/**
 * Runs the gate (one command, or its steps) between two fingerprints of the directory it
 * runs in: a check that changes the tree fails, a fix lists what it changed.
 */
async function runChecked(run: CheckedRun): Promise<ToolResult> {
  const { gate, fixing, toolName, argv, runDir, context, options } = run;
  let notes = run.notes;
  const onProgress = context.wantsProgress
    ? (elapsedMs: number, bytes: number) =>
        context.progress({
          progress: Math.round(elapsedMs / 1000),
          message: `${toolName}: ${Math.round(elapsedMs / 1000)} s, ${bytes} bytes of output`,
        })
    : undefined;
  const common = {
    timeoutMs: gate.timeoutMs,
    signal: context.signal,
    ...(options.env ? { env: options.env } : {}),
    ...(onProgress ? { onProgress } : {}),
  };
  const env = options.env ?? process.env;
  // A by-product the tool writes when missing (cargo's Cargo.lock) is removed after a check.
  const derived = fixing ? [] : missingFiles(runDir, gate.derivedFiles);
  const before = await fingerprintTree(runDir, env);
  const treeAfter = async (end: string) => {
    const removed = removeCreatedFiles(runDir, derived);
    if (removed.length > 0)
      notes = [
        ...notes,
        `removed ${removed.join(', ')}, which the tool generated during the check (the tree is left as it was found)`,
      ];
    return end === 'not-found' || end === 'spawn-failed'
      ? undefined
      : compareTrees(before, await fingerprintTree(runDir, env));
  };

  if (!fixing && gate.steps && gate.steps.length > 0) {
    const steps = await runSteps({
      ...common,
      root: options.root,
      runDir,
      steps: gate.steps,
      isMachineFormat: (parser) => MACHINE_FORMAT_PARSERS.has(parser),
    });
    const tree = await treeAfter(steps.outcome.end);
    return buildGateResult({
      toolName,
      argv: steps.argv,
      outcome: steps.outcome,
      parsed: steps.parsed,
      listFindings: gate.steps.some((step) => MACHINE_FORMAT_PARSERS.has(step.parser)),
      stdoutInReport: true,
      fixing,
      notes,
      ...(tree ? { tree } : {}),
    });
  }
  // A fix command prints text (e.g. `eslint --fix` prints stylish): the generic parser reads it.
  const parserName = fixing ? 'generic' : gate.parser;
  const machineFormat = MACHINE_FORMAT_PARSERS.has(parserName);
  const outcome = await runGateCommand({
    ...common,
    root: runDir,
    argv,
    stdoutInReport: !machineFormat,
  }).catch(spawnRefusedArgumentList);
  if (
    outcome === ARGUMENT_LIST_TOO_LONG ||
    (outcome.end === 'spawn-failed' && /\bE2BIG\b/.test(outcome.problem ?? ''))
  )
    return failure(toolName, argv, argumentListTooLong(run.paths.length));
  const tree = await treeAfter(outcome.end);
  const parsed = parseOutcome(parserName, outcome, runDir);
  parsed.findings = rebaseFindings(parsed.findings, runDir, options.root);
  return buildGateResult({
    toolName,
    argv,
    outcome,
    parsed,
    listFindings: machineFormat || (parserName === 'go-vet' && argv.includes('-json')),
    stdoutInReport: !machineFormat,
    fixing,
    notes,
    ...(tree ? { tree } : {}),
  });
}

function describe(gate: GateSpec, fixing: boolean): string {
  const command =
    !fixing && gate.steps
      ? gate.steps.map((step) => step.command.join(' ')).join(' && ')
      : (fixing ? gate.fix! : gate.command).join(' ');
  if (fixing) {
    return `Apply the automatic fixes of the "${gate.name}" gate: runs \`${command}\` in the project root, which rewrites files in place; the result lists the files it changed. Call "${gate.name}" afterwards to see what is left.`;
  }
  const runs = gate.description.includes(command)
    ? ''
    : ` Runs \`${command}\` in the project root.`;
  const fix = gate.fix ? ` "${fixToolName(gate.name)}" applies its automatic fixes.` : '';
  return `${gate.description}.${runs} Returns the report and structured findings; isError is true when the gate fails, or when the check changed any file.${fix}`;
}

/**
 * One MCP tool per gate, plus `<gate>_fix` for gates with a fix command. A check is
 * read-only and idempotent; a fix rewrites files (destructive, not read-only).
 */
export function createGateTools(gates: readonly GateSpec[], options: GateToolOptions): Tool[] {
  const tools: Tool[] = [];
  for (const gate of gates) {
    tools.push({
      name: gate.name,
      title: `Gate: ${gate.name}`,
      description: describe(gate, false),
      inputSchema: inputSchema(gate, false),
      outputSchema: GATE_OUTPUT_SCHEMA,
      annotations: {
        title: `Gate: ${gate.name}`,
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      run: (args, context) => runGate(gate, false, args, context, options),
    });
    if (gate.fix) {
      tools.push({
        name: fixToolName(gate.name),
        title: `Fix: ${gate.name}`,
        description: describe(gate, true),
        inputSchema: inputSchema(gate, true),
        outputSchema: GATE_OUTPUT_SCHEMA,
        annotations: {
          title: `Fix: ${gate.name}`,
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: false,
          openWorldHint: false,
        },
        run: (args, context) => runGate(gate, true, args, context, options),
      });
    }
  }
  return tools;
}

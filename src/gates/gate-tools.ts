import fs from 'node:fs';
import os from 'node:os';
import type { JsonSchema, Tool, ToolContext, ToolResult } from '../server/tool.js';
import { confinePaths } from './run/confine-paths.js';
import { GATE_OUTPUT_SCHEMA, buildGateResult } from './report/gate-result.js';
import { commandWithPaths, fixToolName, type GateSpec } from './gate-spec.js';
import { GatesError } from './gates-error.js';
import { findParser, type ParseResult } from './parsers/index.js';
import { runGateCommand, type RunOutcome } from './run/runner.js';
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

function parseOutcome(parserName: string, outcome: RunOutcome, root: string): ParseResult {
  if (outcome.end !== 'exited') return { findings: [], passed: false };
  const parser = findParser(parserName);
  if (!parser) return { findings: [], passed: false, note: `unknown parser "${parserName}"` };
  return parser.parse({
    stdout: outcome.stdout,
    stderr: outcome.stderr,
    exitCode: outcome.exitCode,
    truncated: outcome.parseTruncated,
    root,
  });
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
  let argv = commandWithPaths(base, paths);
  let privateDirectory: string | undefined;
  let notes: string[] = [];
  if (gate.prepare && !fixing) {
    try {
      const plan =
        gate.prepare === 'tsc-build'
          ? planTscBuild(options.root, base[0]!, base[2] ?? 'tsconfig.json')
          : planTscNoEmit(argv);
      argv = plan.argv;
      privateDirectory = plan.cacheDirectory;
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
  try {
    return await runChecked(gate, fixing, toolName, argv, notes, context, options);
  } finally {
    if (privateDirectory) fs.rmSync(privateDirectory, { recursive: true, force: true });
  }
}

/** Runs argv between two tree fingerprints and builds the result. */
async function runChecked(
  gate: GateSpec,
  fixing: boolean,
  toolName: string,
  argv: string[],
  notes: readonly string[],
  context: ToolContext,
  options: GateToolOptions,
): Promise<ToolResult> {
  // A fix command prints text (e.g. `eslint --fix` prints stylish): the generic parser reads it.
  const parserName = fixing ? 'generic' : gate.parser;
  const machineFormat = MACHINE_FORMAT_PARSERS.has(parserName);
  // Fingerprints around the run: a check that changes the tree fails, a fix lists what it changed.
  const env = options.env ?? process.env;
  const before = await fingerprintTree(options.root, env);
  const outcome = await runGateCommand({
    root: options.root,
    argv,
    timeoutMs: gate.timeoutMs,
    signal: context.signal,
    stdoutInReport: !machineFormat,
    ...(options.env ? { env: options.env } : {}),
    ...(context.wantsProgress
      ? {
          onProgress: (elapsedMs: number, bytes: number) =>
            context.progress({
              progress: Math.round(elapsedMs / 1000),
              message: `${toolName}: ${Math.round(elapsedMs / 1000)} s, ${bytes} bytes of output`,
            }),
        }
      : {}),
  });
  const started = outcome.end !== 'not-found' && outcome.end !== 'spawn-failed';
  const tree = started ? compareTrees(before, await fingerprintTree(options.root, env)) : undefined;
  return buildGateResult({
    toolName,
    argv,
    outcome,
    parsed: parseOutcome(parserName, outcome, options.root),
    listFindings: machineFormat || (parserName === 'go-vet' && argv.includes('-json')),
    stdoutInReport: !machineFormat,
    fixing,
    notes,
    ...(tree ? { tree } : {}),
  });
}

function describe(gate: GateSpec, fixing: boolean): string {
  const command = (fixing ? gate.fix! : gate.command).join(' ');
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

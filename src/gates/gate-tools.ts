import type { JsonSchema, Tool, ToolContext, ToolResult } from '../server/tool.js';
import { confinePaths } from './run/confine-paths.js';
import { GATE_OUTPUT_SCHEMA, buildGateResult } from './report/gate-result.js';
import { commandWithPaths, fixToolName, type GateSpec } from './gate-spec.js';
import { GatesError } from './gates-error.js';
import type { ParseResult } from './parsers/index.js';
import { parseGateOutput } from './parsers/parse-off-loop.js';
import { runGateCommand, type RunOutcome } from './run/runner.js';

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
    },
  };
}

/**
 * The parse step: ANSI stripping and the parser, off the event loop for large outputs
 * (parsers/parse-off-loop.ts). The outcome's stdout comes back stripped when the report
 * shows it (an unparsed machine format); otherwise the report does not read it.
 */
async function parseOutcome(
  parserName: string,
  outcome: RunOutcome,
  root: string,
  signal: AbortSignal,
): Promise<{ outcome: RunOutcome; parsed: ParseResult }> {
  const step = await parseGateOutput(
    {
      parser: parserName,
      stdout: outcome.stdout,
      stderr: outcome.stderr,
      exitCode: outcome.exitCode,
      truncated: outcome.parseTruncated,
      root,
    },
    signal,
  );
  const stripped = step.stdout === undefined ? outcome : { ...outcome, stdout: step.stdout };
  // A gate that did not run to its end has no verdict to parse.
  if (outcome.end !== 'exited')
    return { outcome: stripped, parsed: { findings: [], passed: false } };
  return { outcome: stripped, parsed: step.parsed };
}

interface GateRun {
  argv: string[];
  outcome: RunOutcome;
  parsed: ParseResult;
  machineFormat: boolean;
}

/** Runs one command of a gate and parses its output with `parserName`. */
async function runAndParse(
  argv: string[],
  parserName: string,
  gate: GateSpec,
  toolName: string,
  context: ToolContext,
  options: GateToolOptions,
): Promise<GateRun> {
  const machineFormat = MACHINE_FORMAT_PARSERS.has(parserName);
  const run = await runGateCommand({
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
  const { outcome, parsed } = await parseOutcome(parserName, run, options.root, context.signal);
  return { argv, outcome, parsed, machineFormat };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
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
  const checkArgv = commandWithPaths(gate.command, paths);
  if (!fixing) {
    const check = await runAndParse(checkArgv, gate.parser, gate, toolName, context, options);
    return buildGateResult({
      toolName,
      argv: check.argv,
      outcome: check.outcome,
      parsed: check.parsed,
      listFindings:
        check.machineFormat || (gate.parser === 'go-vet' && checkArgv.includes('-json')),
      stdoutInReport: !check.machineFormat,
    });
  }
  // A fix command's own output says what it did, not what is left (`oxlint --fix` prints
  // "Found 1 warning" as text; `ruff check --fix` lists only what it could not fix, in
  // whatever format): the check runs again afterwards, read by the gate's own parser,
  // and its findings are the fix tool's result.
  const fix = await runAndParse(
    commandWithPaths(base, paths),
    'generic',
    gate,
    toolName,
    context,
    options,
  );
  if (fix.outcome.end !== 'exited') {
    return buildGateResult({
      toolName,
      argv: fix.argv,
      outcome: fix.outcome,
      parsed: fix.parsed,
      listFindings: false,
      stdoutInReport: true,
    });
  }
  const check = await runAndParse(checkArgv, gate.parser, gate, toolName, context, options);
  const fixEnd = fix.outcome.signal
    ? `killed by ${fix.outcome.signal}`
    : `exit ${fix.outcome.exitCode}`;
  const remaining = check.parsed.findings.length;
  const after =
    check.outcome.end !== 'exited'
      ? 'the check afterwards did not finish, so what remains is unknown'
      : remaining === 0
        ? check.parsed.passed
          ? 'the check afterwards finds nothing left'
          : 'the check afterwards still fails'
        : `${plural(remaining, 'finding')} remain${remaining === 1 ? 's' : ''} (from the check afterwards)`;
  const note = [
    `fixed with \`${fix.argv.join(' ')}\` (${fixEnd}, ${(fix.outcome.durationMs / 1000).toFixed(1)} s), then checked with \`${checkArgv.join(' ')}\`: ${after}`,
    check.parsed.note,
  ]
    .filter(Boolean)
    .join('; ');
  return buildGateResult({
    toolName,
    argv: fix.argv,
    outcome: { ...check.outcome, durationMs: fix.outcome.durationMs + check.outcome.durationMs },
    // The note is shown only for a check that ran to its end; say the same otherwise.
    parsed: { ...check.parsed, note },
    listFindings: true,
    stdoutInReport: !check.machineFormat,
  });
}

function describe(gate: GateSpec, fixing: boolean): string {
  const command = (fixing ? gate.fix! : gate.command).join(' ');
  if (fixing) {
    return `Apply the automatic fixes of the "${gate.name}" gate: runs \`${command}\` in the project root, which rewrites files in place, then runs the check again: the result lists the findings that remain and fails when the check still fails.`;
  }
  const runs = gate.description.includes(command)
    ? ''
    : ` Runs \`${command}\` in the project root.`;
  const fix = gate.fix ? ` "${fixToolName(gate.name)}" applies its automatic fixes.` : '';
  return `${gate.description}.${runs} Returns the report and structured findings; isError is true when the gate fails.${fix}`;
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

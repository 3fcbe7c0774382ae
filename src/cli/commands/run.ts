import path from 'node:path';
import { keepCaptureLogs, withCapture } from '../../capture/index.js';
import { closestName } from '../../gates/closest-name.js';
import { CONFIG_FILE } from '../../gates/config.js';
import { confinePaths } from '../../gates/run/confine-paths.js';
import { createCheckTool } from '../../gates/check-tool.js';
import { createGateTools } from '../../gates/gate-tools.js';
import { keepFullLogs } from '../../gates/report/log-directory.js';
import { committedBaselinePath } from '../../gates/report/baseline.js';
import { fixToolName, takesPaths } from '../../gates/gate-spec.js';
import { GatesError } from '../../gates/gates-error.js';
import { loadGates } from '../../gates/load-gates.js';
import type { Tool, ToolContext, ToolResult } from '../../server/tool.js';
import type { CliArguments } from '../cli-arguments.js';
import type { CliOutput } from '../cli-output.js';
import { resolveProjectRoot } from '../project-root.js';
import { TerminalProgress } from '../terminal-progress.js';

const INTERRUPTED_EXIT_CODE = 130;

/**
 * Where a gate's settings are edited: the config, or (detected gates) a config that
 * `init` has yet to write. A fix that names a missing file helps no one.
 */
function editHint(origin: 'config' | 'detection', gate: string, change: string): string {
  return origin === 'config'
    ? `${change} gates.${gate} in ${CONFIG_FILE}`
    : `write ${CONFIG_FILE} with \`mcp-gates init\` (the gates are detected now), then ${change} gates.${gate} in it`;
}

/**
 * Command-line paths, relative to where the user stands, confined to the root. The
 * confinement's own fixes speak to MCP callers, whose paths are relative to the root.
 */
function confineCliPaths(root: string, cwd: string, given: readonly string[]): string[] {
  try {
    return confinePaths(
      root,
      given.map((entry) => path.resolve(cwd, entry)),
    );
  } catch (error) {
    if (!(error instanceof GatesError) || error.code !== 'EGATES_PATH' || !error.fix) throw error;
    const fix = error.fix
      .replace('relative to the project root', `relative to the working directory (${cwd})`)
      .replace(
        '(relative paths are resolved against it)',
        `${root} (relative paths are resolved against the working directory, ${cwd})`,
      );
    throw new GatesError('EGATES_PATH', error.message.split('\n')[0]!, { fix });
  }
}

/** `mcp-gates run <gate>`: the MCP tool's own code path (capture wrapper included), in a terminal. */
export async function runCommand(args: CliArguments, output: CliOutput): Promise<number> {
  const [requested, ...rawPaths] = args.positionals;
  if (!requested) {
    throw new GatesError('EGATES_USAGE', 'run needs a gate name', {
      fix: 'see the gates with `mcp-gates list`, then `mcp-gates run <gate>`',
    });
  }
  const root = resolveProjectRoot({ root: args.root, env: process.env, cwd: process.cwd() });
  const { gates, origin } = loadGates(root);
  const gate = gates.find(
    (candidate) =>
      candidate.name === requested || (candidate.fix && fixToolName(candidate.name) === requested),
  );
  if (!gate) {
    const names = gates.flatMap((candidate) =>
      candidate.fix ? [candidate.name, fixToolName(candidate.name)] : [candidate.name],
    );
    const close = closestName(requested, names);
    const list = names.join(', ') || '(none)';
    throw new GatesError('EGATES_UNKNOWN_GATE', `no gate named "${requested}" in ${root}`, {
      fix: close ? `did you mean "${close}"? Gates: ${list}` : `use one of: ${list}`,
    });
  }
  const fixing = args.fix || requested !== gate.name;
  if (fixing && !gate.fix) {
    throw new GatesError('EGATES_USAGE', `gate "${gate.name}" has no fix command`, {
      fix: `${editHint(origin, gate.name, 'add "fix" to')}; or run without --fix`,
    });
  }
  if (rawPaths.length > 0 && !(fixing ? gate.paths === 'append' : takesPaths(gate))) {
    throw new GatesError(
      'EGATES_USAGE',
      `gate "${gate.name}" always runs on the whole project and takes no paths`,
      {
        fix: `run it without paths, or ${editHint(origin, gate.name, 'set "paths": "append" for')}`,
      },
    );
  }
  const paths = confineCliPaths(root, process.cwd(), rawPaths);
  const toolName = fixing ? fixToolName(gate.name) : gate.name;
  const tool = createGateTools([gate], { root }).find((candidate) => candidate.name === toolName)!;
  const toolArgs: Record<string, unknown> = {};
  if (paths.length > 0) toolArgs.paths = paths;
  if (args.changed) toolArgs.scope = 'changed';
  if (args.base !== undefined) toolArgs.base = args.base;
  if (args.newOnly) toolArgs.new = true;
  if (args.maxChars !== undefined) toolArgs.maxChars = args.maxChars;
  const { result, interrupted } = await runInTerminal(tool, toolArgs);
  output.out(
    args.json ? JSON.stringify(result.structuredContent ?? {}, null, 2) : (result.text ?? ''),
  );
  if (interrupted) return INTERRUPTED_EXIT_CODE;
  return exitCodeOf(result);
}

/** A gate that checked nothing is no pass, for a script reading the exit code either. */
export const NOTHING_CHECKED_EXIT_CODE = 3;

/** 1 when the gate failed, 3 when it checked nothing (`nothing-checked`), else 0. */
function exitCodeOf(result: { isError?: boolean; structuredContent?: unknown }): number {
  if (result.isError) return 1;
  const status = (result.structuredContent as { status?: unknown } | undefined)?.status;
  return status === 'nothing-checked' ? NOTHING_CHECKED_EXIT_CODE : 0;
}

/**
 * Runs one tool as the MCP server would (capture wrapper included), with Ctrl-C as
 * cancellation and a live progress line on a terminal.
 */
async function runInTerminal(
  tool: Tool,
  toolArgs: Record<string, unknown>,
): Promise<{ result: ToolResult; interrupted: boolean }> {
  // The report is printed even when interrupted, so the full logs it names must stay.
  keepCaptureLogs();
  keepFullLogs();
  const controller = new AbortController();
  const interrupt = () => {
    if (controller.signal.aborted) process.exit(INTERRUPTED_EXIT_CODE);
    controller.abort(new Error('interrupted'));
  };
  process.on('SIGINT', interrupt);
  const progressLine = TerminalProgress.open();
  const context: ToolContext = {
    signal: controller.signal,
    progress: (update) => progressLine?.update(`… ${update.message ?? `${update.progress} s`}`),
    wantsProgress: progressLine !== null,
    revision: '2025-11-25',
    // The terminal shows the report itself; the gates' start/end log lines are for MCP clients.
    log: () => {},
    meta: {},
  };
  progressLine?.update(`… ${tool.name}: starting`);
  try {
    const result = await withCapture(() => Promise.resolve(tool.run(toolArgs, context)), {
      toolName: tool.name,
      signal: controller.signal,
    });
    progressLine?.close();
    return { result, interrupted: controller.signal.aborted };
  } finally {
    progressLine?.close();
    process.off('SIGINT', interrupt);
  }
}

/** `mcp-gates check`: every gate in parallel, one combined report. */
export async function checkCommand(args: CliArguments, output: CliOutput): Promise<number> {
  const root = resolveProjectRoot({ root: args.root, env: process.env, cwd: process.cwd() });
  const { gates } = loadGates(root);
  if (gates.length === 0)
    throw new GatesError('EGATES_USAGE', `no gates in ${root}`, {
      fix: 'see what detection finds with `mcp-gates list`, or write mcp-gates.json',
    });
  const tool = createCheckTool(gates, { root });
  const toolArgs = args.maxChars !== undefined ? { maxChars: args.maxChars } : {};
  const { result, interrupted } = await runInTerminal(tool, toolArgs);
  output.out(
    args.json ? JSON.stringify(result.structuredContent ?? {}, null, 2) : (result.text ?? ''),
  );
  if (interrupted) return INTERRUPTED_EXIT_CODE;
  return exitCodeOf(result);
}

/** `mcp-gates baseline [gate...]`: records each gate's current findings. */
export async function baselineCommand(args: CliArguments, output: CliOutput): Promise<number> {
  const root = resolveProjectRoot({ root: args.root, env: process.env, cwd: process.cwd() });
  const { gates } = loadGates(root);
  const names = gates.map((gate) => gate.name);
  for (const requested of args.positionals) {
    if (!names.includes(requested)) {
      const close = closestName(requested, names);
      throw new GatesError('EGATES_UNKNOWN_GATE', `no gate named "${requested}" in ${root}`, {
        fix: close
          ? `did you mean "${close}"? Gates: ${names.join(', ')}`
          : `use one of: ${names.join(', ') || '(none)'}`,
      });
    }
  }
  const chosen =
    args.positionals.length > 0
      ? gates.filter((gate) => args.positionals.includes(gate.name))
      : gates;
  let failures = 0;
  for (const gate of chosen) {
    const tool = createGateTools([gate], {
      root,
      ...(args.writeFile ? { baselineFile: committedBaselinePath(root, gate.name) } : {}),
    }).find((candidate) => candidate.name === gate.name)!;
    const { result, interrupted } = await runInTerminal(tool, { baseline: true });
    if (interrupted) return INTERRUPTED_EXIT_CODE;
    const text = result.text ?? '';
    const recorded = /^note: baseline recorded: .*$/m.exec(text);
    if (recorded) {
      output.out(`${gate.name}: ${recorded[0].slice('note: '.length)}`);
    } else {
      failures += 1;
      const why = /^note: baseline not recorded: .*$/m.exec(text);
      output.out(`${gate.name}: ${why ? why[0].slice('note: '.length) : text.split('\n')[0]}`);
    }
  }
  return failures > 0 ? 1 : 0;
}

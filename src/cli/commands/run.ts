import path from 'node:path';
import { keepCaptureLogs, withCapture } from '../../capture/index.js';
import { closestName } from '../../gates/closest-name.js';
import { CONFIG_FILE } from '../../gates/config.js';
import { confinePaths } from '../../gates/run/confine-paths.js';
import { createGateTools } from '../../gates/gate-tools.js';
import { fixToolName } from '../../gates/gate-spec.js';
import { GatesError } from '../../gates/gates-error.js';
import { loadGates } from '../../gates/load-gates.js';
import type { ToolContext } from '../../server/tool.js';
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
  if (rawPaths.length > 0 && gate.paths !== 'append') {
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

  // The report is printed even when interrupted, so the full log it names must stay.
  keepCaptureLogs();
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
  progressLine?.update(`… ${toolName}: starting`);
  try {
    const result = await withCapture(
      () => Promise.resolve(tool.run(paths.length > 0 ? { paths } : {}, context)),
      {
        toolName,
        signal: controller.signal,
      },
    );
    progressLine?.close();
    output.out(
      args.json
        ? JSON.stringify(result.structuredContent ?? { report: result.text }, null, 2)
        : (result.text ?? ''),
    );
    if (controller.signal.aborted) return INTERRUPTED_EXIT_CODE;
    return result.isError ? 1 : 0;
  } finally {
    progressLine?.close();
    process.off('SIGINT', interrupt);
  }
}

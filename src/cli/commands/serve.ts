import { createGateTools } from '../../gates/gate-tools.js';
import { listenForHooks, type ChannelRequest } from '../../gates/hooks/hook-channel.js';
import { HookSession } from '../../gates/hooks/hook-session.js';
import { hookContext, runHookEvent } from '../../gates/hooks/run-hooks.js';
import { createHookTools } from '../../gates/hooks/hook-tools.js';
import type { GateSpec } from '../../gates/gate-spec.js';
import type { GateToolOptions } from '../../gates/run/run-gate.js';
import { loadGates } from '../../gates/load-gates.js';
import { gateLifelineMode } from '../../gates/run/gate-lifeline.js';
import { TreeWatches } from '../../gates/run/tree-watch.js';
import { persistentBuildInfoDirectory } from '../../gates/run/tsc-incremental.js';
import { watchGates } from '../../gates/watch-gates.js';
import { WarmPool } from '../../gates/warm/index.js';
import type { Tool } from '../../server/tool.js';
import { serveStdio } from '../../serve-stdio.js';
import { McpServer } from '../../server/server.js';
import type { CliArguments } from '../cli-arguments.js';
import { packageVersion } from '../package-version.js';
import { resolveProjectRoot } from '../project-root.js';
import { hookToolsCaller } from '../hook-config.js';

/** Command hooks' sessions by the host's session id; the oldest goes past this many. */
const MAX_CHANNEL_SESSIONS = 64;

/**
 * Answers `mcp-gates hook` requests that reach this server through the local channel,
 * with its warm gates; each host session keeps its own baseline.
 */
function channelHandler(current: () => readonly GateSpec[], options: GateToolOptions) {
  const sessions = new Map<string, HookSession>();
  return async (request: ChannelRequest, signal: AbortSignal) => {
    let session = sessions.get(request.sessionId);
    if (session === undefined) {
      session = new HookSession();
      if (sessions.size >= MAX_CHANNEL_SESSIONS) sessions.delete(sessions.keys().next().value!);
      sessions.set(request.sessionId, session);
    }
    const hook = {
      gates: current(),
      context: hookContext(signal, 'hook-channel'),
      options,
      session,
      ...(request.budgetMs !== undefined ? { budgetMs: request.budgetMs } : {}),
    };
    const outcome = await runHookEvent(request.event, hook, request);
    return { verdict: outcome.verdict, cancelled: outcome.cancelled };
  };
}

/**
 * A gate tool for each gate, and, where hooks call them, the hook tools over them (one
 * session for the server's life).
 */
function servedTools(
  gates: readonly GateSpec[],
  options: GateToolOptions,
  session: HookSession,
  hookTools: boolean,
): Tool[] {
  const tools = createGateTools(gates, options);
  if (gates.length === 0 || !hookTools) return tools;
  const hooks = createHookTools(gates, options, session);
  return [...tools, ...hooks.filter((hook) => !tools.some((tool) => tool.name === hook.name))];
}

function instructions(root: string, names: string[], hookTools: boolean): string {
  if (names.length === 0) {
    return `No gates were found in ${root}. The user can add package.json scripts or tool configs, or write mcp-gates.json (\`npx mcp-gates init\`).`;
  }
  return [
    `These tools run the project's own quality gates in ${root}: ${names.join(', ')}.`,
    'Call a gate to check the project (or some paths, where the tool takes them); the result has the report and structured findings, and isError is true when the gate fails.',
    'A <gate>_fix tool applies the automatic fixes; run the gate again afterwards to see what is left.',
    ...(hookTools
      ? [
          "session_start, after_edit and before_stop are called by the host's hooks, not by the agent: they answer in a hook decision format, with only the findings new since the session began.",
        ]
      : []),
  ].join(' ');
}

/** Whether to serve the hook tools: asked for, or a project hooks file calls them. */
function wantsHookTools(args: CliArguments, root: string): boolean {
  return args.hookTools || hookToolsCaller(root) !== undefined;
}

/**
 * Replaces the served tools with `next`: all unregistered, then registered again, in one
 * tick (the server sends one `notifications/tools/list_changed` for the lot).
 */
function replaceTools(server: McpServer, current: readonly Tool[], next: readonly Tool[]): void {
  for (const tool of current) server.unregister(tool.name);
  for (const tool of next) server.register(tool);
}

/**
 * `mcp-gates serve`: the stdio MCP server. Any config error stops it before it serves
 * (exit 2); once serving, an edit of mcp-gates.json or package.json updates the tools,
 * and an edit that breaks the config keeps the last good tools and logs why.
 */
export async function serveCommand(args: CliArguments): Promise<number> {
  const root = resolveProjectRoot({ root: args.root, env: process.env, cwd: process.cwd() });
  const served = loadGates(root);
  // Workers start on a gate's first call and live at most as long as this server; TypeScript
  // 7's build info outlives it, in the user's cache, so a first call after a start is
  // incremental as `tsgo --incremental` is.
  const warm = args.warm
    ? new WarmPool({ buildInfoDirectory: persistentBuildInfoDirectory() })
    : undefined;
  // Each directory gates run in is watched from its first call until the server closes.
  const trees = new TreeWatches();
  const gateOptions = { root, trees, ...(warm ? { warm } : {}) };
  // The hook tools' session: the findings it began with, kept across gate reloads.
  const session = new HookSession();
  let hookTools = wantsHookTools(args, root);
  const tools = servedTools(served.gates, gateOptions, session, hookTools);
  if (served.gates.length === 0) {
    process.stderr.write(
      `mcp-gates: no gates found in ${root}; serving no tools (run \`mcp-gates doctor --root ${root}\`)\n`,
    );
  }
  const lifeline = gateLifelineMode();
  if (served.gates.length > 0 && lifeline.mode === 'degraded') {
    process.stderr.write(`mcp-gates: gate lifeline degraded: ${lifeline.reason}\n`);
  }
  if (process.stdin.isTTY) {
    process.stderr.write(
      'mcp-gates: serving MCP on stdin/stdout, for an MCP host to start. In a terminal, try `mcp-gates list` or `mcp-gates --help`.\n',
    );
  }
  const server = new McpServer({
    name: 'mcp-gates',
    version: packageVersion(),
    title: 'mcp-gates',
    description: "The repository's own lint, format and typecheck gates as tools",
    instructions: instructions(
      root,
      tools.map((tool) => tool.name),
      hookTools,
    ),
    tools,
    log: (line) => void process.stderr.write(`${line}\n`),
  });
  let current = tools;
  let currentGates = served.gates;
  // Command hooks of hosts without MCP tool hooks reach these warm gates through it.
  const channel =
    served.gates.length > 0
      ? await listenForHooks(
          root,
          channelHandler(() => currentGates, gateOptions),
        )
      : undefined;
  if (channel && 'why' in channel)
    process.stderr.write(`mcp-gates: no hook channel (command hooks run cold): ${channel.why}\n`);
  else if (channel?.waiting)
    process.stderr.write(
      `mcp-gates: hook channel: ${channel.waiting}; this one takes over if it goes\n`,
    );
  const watcher = watchGates(root, served, {
    onChange: (next) => {
      currentGates = next.gates;
      hookTools = wantsHookTools(args, root);
      const nextTools = servedTools(next.gates, gateOptions, session, hookTools);
      replaceTools(server, current, nextTools);
      current = nextTools;
      const names = nextTools.map((tool) => tool.name).join(', ') || 'none';
      process.stderr.write(`mcp-gates: gates reloaded; tools: ${names}\n`);
      server.notifyLog('info', `gates reloaded; tools: ${names}`, 'mcp-gates');
    },
    onError: (error) => {
      const why = `kept the last good gates: ${error.message}`;
      process.stderr.write(`mcp-gates: ${why}\n`);
      server.notifyLog('error', why, 'mcp-gates');
    },
  });
  try {
    await serveStdio(server);
  } finally {
    watcher.close();
    if (channel && 'close' in channel) channel.close();
    trees.close();
    // Before exiting: each worker goes with its tree and removes its private directory.
    await warm?.close();
  }
  // Exit now, as a CLI should once its conversation is over: a gate child that ignored its
  // kill or a stuck write to a client that stopped reading must not hold the process.
  process.exit(0);
}

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The MCP host configurations `mcp-gates init --host` prints or writes, and docs/hosts.md's
 * host snippets are (a test compares them). A project file (`.mcp.json`, `.cursor/mcp.json`,
 * ...) is committed and read on other machines, so it names no path of this one: `node`
 * from PATH and the package installed in the project, by a path that starts from the
 * project (`${workspaceFolder}` where the host expands it, else relative to the directory
 * the host starts the server in). Claude Desktop has only a user config and starts servers
 * in `/`, so its config keeps absolute paths (node, the script, `--root`), as does any
 * config printed for a project without node_modules/mcp-gates (nothing there to point at).
 * `npx mcp-gates` is not used: from `/` it looks for the package in `/`, and npm's shim is
 * slow to start and needs a shell on Windows.
 */

export const HOSTS = [
  'claude-code',
  'claude-desktop',
  'cursor',
  'vscode',
  'codex',
  'gemini',
] as const;
export type HostName = (typeof HOSTS)[number];

/** The server's name in every host's list. */
export const SERVER_NAME = 'gates';

export interface ServerLaunch {
  /** Absolute path of node. */
  node: string;
  /** Absolute path of mcp-gates' dist/cli/main.js. */
  main: string;
  /** Absolute project root. */
  root: string;
  /** Whether `main` is the copy installed in the project (node_modules/mcp-gates). */
  installed: boolean;
}

interface HostFormat {
  title: string;
  /** The project file `--write` writes, relative to the root; none: the host has no project file. */
  projectFile?: string;
  /** Where the user puts it by hand (printed with the snippet). */
  where: string;
  /** The JSON key that holds the servers (JSON hosts), or none for Codex's TOML. */
  serversKey?: 'mcpServers' | 'servers';
  /** Fields before command and args (VS Code's required `type`). */
  leading?: Record<string, string>;
  /**
   * How the project file names the project directory: a variable the host expands in
   * `args`, or none (paths relative to the directory the host starts the server in).
   */
  projectDirectory?: string;
  /** Why the project file's paths resolve, for `init` to say. */
  resolves?: string;
}

/**
 * Each format as its host documents it:
 * - Claude Code: `.mcp.json` at the project root, `{"mcpServers": {name: {command, args}}}`
 *   (https://docs.anthropic.com/en/docs/claude-code/mcp, "Project scope"). It starts a
 *   stdio server in the directory it was launched in (anthropics/claude-code#17565: even a
 *   `cwd` field is ignored) and, since 2.1.141, passes it CLAUDE_PROJECT_DIR, which
 *   `serve` takes as the root; `${VAR}` expansion in args needs a variable set in Claude
 *   Code's own environment, which the project directory is not, so paths are relative.
 * - Claude Desktop: `claude_desktop_config.json`, the same `mcpServers` shape; servers
 *   start in `/` (https://modelcontextprotocol.io/quickstart/user).
 * - Cursor: `.cursor/mcp.json` in the project or `~/.cursor/mcp.json`, `mcpServers`
 *   (https://cursor.com/docs/mcp); its config interpolation fills in `${workspaceFolder}`
 *   (and `${userHome}`, `${env:NAME}`) in command and args.
 * - VS Code: `.vscode/mcp.json`, `{"servers": {name: {"type": "stdio", command, args}}}`,
 *   `type` required, read as JSONC (comments, trailing commas); predefined variables such as
 *   `${workspaceFolder}` are expanded in the server configuration
 *   (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration).
 * - Codex: `~/.codex/config.toml`, or `.codex/config.toml` in a trusted project,
 *   `[mcp_servers.<name>]` with `command`, `args` and `startup_timeout_sec` (10 s by
 *   default) (https://developers.openai.com/codex/mcp); no variables are expanded, and a
 *   stdio server without `cwd` inherits Codex's working directory (codex-rs mcp-client,
 *   `new_stdio_client(program, args, env)` sets none), so paths are relative.
 * - Gemini CLI: `.gemini/settings.json` in the project or `~/.gemini/settings.json`,
 *   `mcpServers` (https://geminicli.com/docs/tools/mcp-server/); project settings apply when
 *   Gemini runs from the project's directory (https://geminicli.com/docs/cli/configuration),
 *   and a server without `cwd` starts there; its `$VAR` expansion in settings names no
 *   project directory, so paths are relative.
 */
const FORMATS: Record<HostName, HostFormat> = {
  'claude-code': {
    title: 'Claude Code',
    projectFile: '.mcp.json',
    where: '.mcp.json at the project root',
    serversKey: 'mcpServers',
    resolves:
      'Claude Code starts the server in the directory it runs in: start it at the project root',
  },
  'claude-desktop': {
    title: 'Claude Desktop',
    where:
      'claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\, Linux: ~/.config/Claude/), then restart Claude Desktop',
    serversKey: 'mcpServers',
  },
  cursor: {
    title: 'Cursor',
    projectFile: path.join('.cursor', 'mcp.json'),
    where: '.cursor/mcp.json in the project (or ~/.cursor/mcp.json for every project)',
    serversKey: 'mcpServers',
    projectDirectory: '${workspaceFolder}',
    resolves: 'Cursor fills in ${workspaceFolder} with the folder it has open',
  },
  vscode: {
    title: 'VS Code',
    projectFile: path.join('.vscode', 'mcp.json'),
    where: '.vscode/mcp.json in the project',
    serversKey: 'servers',
    leading: { type: 'stdio' },
    projectDirectory: '${workspaceFolder}',
    resolves: 'VS Code fills in ${workspaceFolder} with the folder it has open',
  },
  codex: {
    title: 'Codex',
    projectFile: path.join('.codex', 'config.toml'),
    where: '~/.codex/config.toml, or .codex/config.toml in a trusted project',
    resolves: 'Codex starts the server in the directory it runs in: start it at the project root',
  },
  gemini: {
    title: 'Gemini CLI',
    projectFile: path.join('.gemini', 'settings.json'),
    where: '.gemini/settings.json in the project (or ~/.gemini/settings.json)',
    serversKey: 'mcpServers',
    resolves:
      'Gemini CLI starts the server in the directory it runs in: start it at the project root',
  },
};

/** Codex gives a server 10 s to start by default; a cold first start can take longer. */
const CODEX_STARTUP_TIMEOUT_SEC = 30;

export function hostTitle(host: HostName): string {
  return FORMATS[host].title;
}

export function hostWhere(host: HostName): string {
  return FORMATS[host].where;
}

export function hostProjectFile(host: HostName): string | undefined {
  return FORMATS[host].projectFile;
}

/** The installed CLI script, relative to the project root, with `/` on every platform. */
export const INSTALLED_MAIN = 'node_modules/mcp-gates/dist/cli/main.js';

/** Whether the host's config names no path of this machine (see the top of this file). */
export function isPortable(host: HostName, launch: ServerLaunch): boolean {
  return launch.installed && FORMATS[host].resolves !== undefined;
}

/** command and args that start the server for a host. */
function commandLine(host: HostName, launch: ServerLaunch): { command: string; args: string[] } {
  if (!isPortable(host, launch))
    return { command: launch.node, args: [launch.main, 'serve', '--root', launch.root] };
  const directory = FORMATS[host].projectDirectory;
  if (directory === undefined) return { command: 'node', args: [INSTALLED_MAIN, 'serve'] };
  return {
    command: 'node',
    args: [`${directory}/${INSTALLED_MAIN}`, 'serve', '--root', directory],
  };
}

/** The server's entry for a JSON host: `{type?, command, args}`. */
export function serverEntry(host: HostName, launch: ServerLaunch): Record<string, unknown> {
  return { ...FORMATS[host].leading, ...commandLine(host, launch) };
}

/**
 * What `init --host` says about the paths it wrote, and why: relative to the project (and
 * what makes them resolve), or absolute (and what would make them portable).
 */
export function pathsNote(host: HostName, launch: ServerLaunch): string {
  if (isPortable(host, launch))
    return `It names no path of this machine, so it can be committed: node from PATH and ${INSTALLED_MAIN} in the project (${FORMATS[host].resolves}). If ${hostTitle(host)} finds no node on its PATH, put node's absolute path in "command" in your own copy.`;
  if (!launch.installed)
    return `It names this machine's paths (node ${launch.node}, ${launch.main}, the root ${launch.root}): ${launch.root} has no node_modules/mcp-gates, so this names the mcp-gates that ran now. Install it in the project (npm install --save-dev mcp-gates) and run this again for a config without them.`;
  return `It names this machine's paths (node, the script, --root): ${hostTitle(host)} has no project file and starts servers in /. Run this again after moving the project or upgrading node to another path.`;
}

/** The key of a JSON host's server map (`mcpServers`, `servers`), or undefined for Codex. */
export function serversKey(host: HostName): string | undefined {
  return FORMATS[host].serversKey;
}

/** A TOML basic string: JSON's escapes are TOML's for the characters a path can hold. */
function tomlString(text: string): string {
  return JSON.stringify(text);
}

/** Codex's `[mcp_servers.gates]` table. */
export function codexTable(launch: ServerLaunch): string {
  const { command, args } = commandLine('codex', launch);
  return [
    `[mcp_servers.${SERVER_NAME}]`,
    `command = ${tomlString(command)}`,
    `args = [${args.map(tomlString).join(', ')}]`,
    `startup_timeout_sec = ${CODEX_STARTUP_TIMEOUT_SEC}`,
    '',
  ].join('\n');
}

/**
 * The whole snippet for a host, formatted by `formatJson` (init's Prettier-compatible
 * JSON) for JSON hosts.
 */
export function hostSnippet(
  host: HostName,
  launch: ServerLaunch,
  formatJson: (document: unknown) => string,
): string {
  const key = serversKey(host);
  if (key === undefined) return codexTable(launch);
  return formatJson({ [key]: { [SERVER_NAME]: serverEntry(host, launch) } });
}

/**
 * How this package's server is started for `root`: the copy installed in the project
 * (a path that survives reinstalls), else this CLI's own script (e.g. in a clone).
 */
export function serverLaunch(root: string): ServerLaunch {
  const installed = path.join(root, 'node_modules', 'mcp-gates', 'dist', 'cli', 'main.js');
  if (fs.existsSync(installed)) {
    return { node: process.execPath, main: installed, root, installed: true };
  }
  const own = fileURLToPath(new URL('./main.js', import.meta.url));
  return { node: process.execPath, main: own, root, installed: false };
}

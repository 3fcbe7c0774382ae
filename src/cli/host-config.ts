import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The MCP host configurations `mcp-gates init --host` prints or writes, and the README's
 * host snippets are (a test compares them). Every one starts the server the same way,
 * from any working directory and with a host's minimal environment: the absolute node
 * that runs this CLI, the absolute path of the installed CLI script, and `--root` given
 * explicitly. `npx mcp-gates` from `/` (Claude Desktop's working directory) looks for the
 * package in `/` and fails, and a GUI host's PATH may have no node at all.
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
}

/**
 * Each format as its host documents it:
 * - Claude Code: `.mcp.json` at the project root, `{"mcpServers": {name: {command, args}}}`
 *   (https://docs.anthropic.com/en/docs/claude-code/mcp, "Project scope").
 * - Claude Desktop: `claude_desktop_config.json`, the same `mcpServers` shape; servers
 *   start in `/` (https://modelcontextprotocol.io/quickstart/user).
 * - Cursor: `.cursor/mcp.json` in the project or `~/.cursor/mcp.json`, `mcpServers`
 *   (https://cursor.com/docs/mcp).
 * - VS Code: `.vscode/mcp.json`, `{"servers": {name: {"type": "stdio", command, args}}}`,
 *   `type` required (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration).
 * - Codex: `~/.codex/config.toml`, or `.codex/config.toml` in a trusted project,
 *   `[mcp_servers.<name>]` with `command`, `args` and `startup_timeout_sec` (10 s by
 *   default) (https://developers.openai.com/codex/mcp).
 * - Gemini CLI: `.gemini/settings.json` in the project or `~/.gemini/settings.json`,
 *   `mcpServers` (https://geminicli.com/docs/tools/mcp-server/).
 */
const FORMATS: Record<HostName, HostFormat> = {
  'claude-code': {
    title: 'Claude Code',
    projectFile: '.mcp.json',
    where: '.mcp.json at the project root',
    serversKey: 'mcpServers',
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
  },
  vscode: {
    title: 'VS Code',
    projectFile: path.join('.vscode', 'mcp.json'),
    where: '.vscode/mcp.json in the project',
    serversKey: 'servers',
    leading: { type: 'stdio' },
  },
  codex: {
    title: 'Codex',
    projectFile: path.join('.codex', 'config.toml'),
    where: '~/.codex/config.toml, or .codex/config.toml in a trusted project',
  },
  gemini: {
    title: 'Gemini CLI',
    projectFile: path.join('.gemini', 'settings.json'),
    where: '.gemini/settings.json in the project (or ~/.gemini/settings.json)',
    serversKey: 'mcpServers',
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

/** The server's entry for a JSON host: `{type?, command, args}`. */
export function serverEntry(host: HostName, launch: ServerLaunch): Record<string, unknown> {
  return {
    ...FORMATS[host].leading,
    command: launch.node,
    args: [launch.main, 'serve', '--root', launch.root],
  };
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
  const args = serverEntry('codex', launch).args as string[];
  return [
    `[mcp_servers.${SERVER_NAME}]`,
    `command = ${tomlString(launch.node)}`,
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
export function serverLaunch(root: string): ServerLaunch & { installed: boolean } {
  const installed = path.join(root, 'node_modules', 'mcp-gates', 'dist', 'cli', 'main.js');
  if (fs.existsSync(installed)) {
    return { node: process.execPath, main: installed, root, installed: true };
  }
  const own = fileURLToPath(new URL('./main.js', import.meta.url));
  return { node: process.execPath, main: own, root, installed: false };
}

import fs from 'node:fs';
import path from 'node:path';
import {
  EDIT_TOOL_MATCHERS,
  HOOK_EVENTS,
  HOST_EVENT_NAMES,
  type HookEvent,
  type HookHost,
} from '../gates/hooks/hook-hosts.js';
import {
  AFTER_EDIT_TOOL,
  BEFORE_STOP_TOOL,
  SESSION_START_TOOL,
} from '../gates/hooks/hook-tools.js';
import { INSTALLED_MAIN, SERVER_NAME, type ServerLaunch } from './host-config.js';

/**
 * The hook configurations `mcp-gates init --hooks` writes, one per host, each next to the
 * host's server configuration (sources for every format: gates/hooks/hook-hosts.ts):
 * - Claude Code: `.claude/settings.json`, `"type": "mcp_tool"` hooks calling the served
 *   `session_start` (UserPromptSubmit), `after_edit` (PostToolUse on Edit|Write|MultiEdit,
 *   `${tool_input.file_path}` substituted) and `before_stop` (Stop); `timeout` in seconds.
 * - Codex: `.codex/hooks.json`, command hooks (UserPromptSubmit, PostToolUse on
 *   `^apply_patch$`, Stop); `timeout` in seconds.
 * - Cursor: `.cursor/hooks.json`, `{"version": 1, "hooks": {afterFileEdit, stop}}` (its
 *   prompt hook decides whether the prompt goes on, so no session start there).
 * - Gemini CLI: `.gemini/settings.json`, command hooks (BeforeAgent, AfterTool on
 *   write_file|replace, AfterAgent); `timeout` in milliseconds.
 *
 * The files are committed, so a command hook names the package installed in the project
 * by a path that starts from the project where the host says where that is: Codex runs a
 * hook in the session's working directory (codex-rs/hooks/src/engine/command_runner.rs,
 * `current_dir(cwd)`), so the path is relative; Gemini CLI replaces `$GEMINI_PROJECT_DIR`
 * in the command with the project directory, quoted for the shell, before running it
 * (packages/core/src/hooks/hookRunner.ts, `expandCommand`). Cursor documents neither a
 * working directory nor a variable for a project hook that we could verify, so its hooks
 * keep this machine's absolute paths, and `init` says so. No hook passes `--root`: the
 * hook takes the root from the host's hook input (`cwd`, Cursor's `workspace_roots`).
 */

/** Each hook's own budget, and the host's timeout a little above it (the hook answers first). */
const BUDGET_MS: Record<HookEvent, number> = {
  'session-start': 300_000,
  'after-edit': 30_000,
  'before-stop': 240_000,
};
const HOST_TIMEOUT_MS: Record<HookEvent, number> = {
  // The session's baseline is taken in the background: the prompt hook answers at once.
  'session-start': 30_000,
  'after-edit': 60_000,
  'before-stop': 300_000,
};

const HOOK_TOOLS: Record<HookEvent, string> = {
  'session-start': SESSION_START_TOOL,
  'after-edit': AFTER_EDIT_TOOL,
  'before-stop': BEFORE_STOP_TOOL,
};

export interface HookSettings {
  /** The file, relative to the project root. */
  file: string;
  /** Top-level keys the file needs besides `hooks` (Cursor's version). */
  leading: Record<string, unknown>;
  /** The matcher groups to add, by the host's event name. */
  groups: Record<string, Record<string, unknown>>;
}

/** A POSIX shell word: hosts run a command hook's string through a shell. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * How a host's command hook names the installed script (see the top of this file), or
 * undefined where only an absolute path is known to work.
 */
const PROJECT_SCRIPT: Partial<Record<HookHost, string>> = {
  codex: INSTALLED_MAIN,
  gemini: `$GEMINI_PROJECT_DIR/${INSTALLED_MAIN}`,
};

/** Whether a host's hooks name no path of this machine. */
export function hooksPortable(host: HookHost, launch: ServerLaunch): boolean {
  return host === 'claude-code' || (launch.installed && PROJECT_SCRIPT[host] !== undefined);
}

/** The command line of `mcp-gates hook` for a host's command hook. */
export function hookCommandLine(host: HookHost, event: HookEvent, launch: ServerLaunch): string {
  const tail = ['hook', event, '--host', host, '--budget-ms', String(BUDGET_MS[event])];
  const script = PROJECT_SCRIPT[host];
  if (launch.installed && script !== undefined)
    // The script word is left unquoted: the host expands or resolves it (see above).
    return ['node', script, ...tail.map(shellWord)].join(' ');
  return [launch.node, launch.main, ...tail, '--root', launch.root].map(shellWord).join(' ');
}

/** The one hook of an event, as the host's settings hold it. */
function handler(host: HookHost, event: HookEvent, launch: ServerLaunch): Record<string, unknown> {
  const seconds = HOST_TIMEOUT_MS[event] / 1000;
  switch (host) {
    case 'claude-code':
      return {
        type: 'mcp_tool',
        server: SERVER_NAME,
        tool: HOOK_TOOLS[event],
        input:
          event === 'after-edit'
            ? { path: '${tool_input.file_path}', budgetMs: BUDGET_MS[event] }
            : { budgetMs: BUDGET_MS[event] },
        timeout: seconds,
      };
    case 'codex':
      return { type: 'command', command: hookCommandLine(host, event, launch), timeout: seconds };
    case 'cursor':
      return { command: hookCommandLine(host, event, launch) };
    case 'gemini':
      return {
        type: 'command',
        name: `mcp-gates ${event}`,
        command: hookCommandLine(host, event, launch),
        timeout: HOST_TIMEOUT_MS[event],
      };
  }
}

const FILES: Record<HookHost, string> = {
  'claude-code': path.join('.claude', 'settings.json'),
  codex: path.join('.codex', 'hooks.json'),
  cursor: path.join('.cursor', 'hooks.json'),
  gemini: path.join('.gemini', 'settings.json'),
};

export function hookSettings(host: HookHost, launch: ServerLaunch): HookSettings {
  const groups: Record<string, Record<string, unknown>> = {};
  for (const event of HOOK_EVENTS) {
    const name = HOST_EVENT_NAMES[host][event];
    if (name === undefined) continue;
    const hook = handler(host, event, launch);
    const matcher = event === 'after-edit' ? EDIT_TOOL_MATCHERS[host] : undefined;
    // Cursor's events list the hooks themselves; the others group them under a matcher.
    groups[name] = host === 'cursor' ? hook : { ...(matcher ? { matcher } : {}), hooks: [hook] };
  }
  return { file: FILES[host], leading: host === 'cursor' ? { version: 1 } : {}, groups };
}

/** Whether a hook entry (a group or a Cursor hook) is one `init --hooks` wrote. */
export function isOwnHook(entry: unknown): boolean {
  const text = JSON.stringify(entry);
  return (
    Object.values(HOOK_TOOLS).some((tool) => text.includes(`"tool":"${tool}"`)) ||
    / hook (session-start|after-edit|before-stop) --host /.test(text)
  );
}

/** Claude Code's project settings, where `init --hooks claude-code` writes its hooks. */
const CLAUDE_SETTINGS = [
  path.join('.claude', 'settings.json'),
  path.join('.claude', 'settings.local.json'),
];

/**
 * The project file whose hooks call the served hook tools (a Claude Code `mcp_tool` hook
 * naming session_start, after_edit or before_stop), or undefined. `serve` lists the hook
 * tools only then (or with --hook-tools): elsewhere a model would see three tools that
 * only a hook should call.
 */
export function hookToolsCaller(root: string): string | undefined {
  const tools = Object.values(HOOK_TOOLS).join('|');
  const calls = new RegExp(`"tool"\\s*:\\s*"(${tools})"`);
  for (const file of CLAUDE_SETTINGS) {
    let text: string;
    try {
      text = fs.readFileSync(path.join(root, file), 'utf8');
    } catch {
      continue;
    }
    if (text.includes('"mcp_tool"') && calls.test(text)) return file;
  }
  return undefined;
}

/**
 * Every host's hook format in one place: what its hook JSON on stdin says (the edited
 * files, the loop flag of a stop hook, the session), and how an answer is written (the
 * decision JSON on stdout and the exit code). The hook tools and `mcp-gates hook` both
 * answer through it.
 *
 * Sources, as read when this was written:
 * - Claude Code: https://code.claude.com/docs/en/hooks (PostToolUse and Stop read
 *   `{"decision": "block", "reason"}` from stdout with exit 0; Stop input has
 *   `stop_hook_active`; `systemMessage` is shown to the user; since 2.1.118 a
 *   `"type": "mcp_tool"` hook's text goes through the same parser).
 * - Codex: https://developers.openai.com/codex/hooks and the schemas in openai/codex
 *   codex-rs/hooks/schema/generated (post-tool-use and stop outputs take `decision:
 *   "block"`, `reason`, `systemMessage`, and no other key; apply_patch's patch is in
 *   `tool_input.command`; Stop input has `stop_hook_active`). Codex has command hooks only.
 * - Cursor: https://cursor.com/docs/agent/hooks (`stop` input has `loop_count`, its output
 *   `followup_message` is sent as the next user message; `afterFileEdit` input has
 *   `file_path`). What `afterFileEdit` may answer is not in the part of the page we could
 *   read; third-party references call it observe-only, one says it reads
 *   `additional_context`: the report is put there, and the stop hook carries it for sure.
 * - Gemini CLI: https://geminicli.com/docs/hooks/reference (AfterTool may add
 *   `hookSpecificOutput.additionalContext` to the tool result; AfterAgent `decision:
 *   "deny"` with `reason` makes the agent retry with the reason as its prompt, and its
 *   input has `stop_hook_active`; exit 0 with JSON on stdout).
 */

export const HOOK_HOSTS = ['claude-code', 'codex', 'cursor', 'gemini'] as const;
export type HookHost = (typeof HOOK_HOSTS)[number];

/** session-start: the session's baseline, taken before the agent's first edit (on the first prompt). */
export const HOOK_EVENTS = ['session-start', 'after-edit', 'before-stop'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** What a hook call decided, whatever the host. */
export interface HookVerdict {
  /** Stop the agent and show it `reason` (after an edit: new errors; before a stop: they remain). */
  block: boolean;
  /** For the model: new findings, which gates ran, which did not finish. */
  reason: string;
  /** For the user when nothing blocks: what ran, and what could not. */
  note: string;
  /**
   * Something the hook was to check was not (a gate that could not run, ran out of its
   * budget or checked nothing; input it could not read): `note` says what, and hosts that
   * show no message to the user carry it to the model instead.
   */
  unchecked?: boolean;
}

/** What a host's hook JSON says, for the hook. */
export interface HookInput {
  /** Files the edit touched, as the host gives them (absolute or relative). */
  paths: string[];
  /** The host says this stop follows a stop it already held back. */
  loopFlag: boolean;
  /** The host's session or conversation id, when it sends one. */
  sessionId: string | undefined;
  /** The directory the host ran in (its project), when it says. */
  cwd: string | undefined;
}

/** A host's native names: the events and the edit tools its settings match on. */
export const HOST_EVENT_NAMES: Record<HookHost, Partial<Record<HookEvent, string>>> = {
  'claude-code': {
    'session-start': 'UserPromptSubmit',
    'after-edit': 'PostToolUse',
    'before-stop': 'Stop',
  },
  codex: {
    'session-start': 'UserPromptSubmit',
    'after-edit': 'PostToolUse',
    'before-stop': 'Stop',
  },
  // Cursor's prompt hook answers whether the prompt may go on: not configured for this.
  cursor: { 'after-edit': 'afterFileEdit', 'before-stop': 'stop' },
  gemini: {
    'session-start': 'BeforeAgent',
    'after-edit': 'AfterTool',
    'before-stop': 'AfterAgent',
  },
};

/** The matcher of the after-edit hook: the host's file-editing tools (Cursor's event is edits only). */
export const EDIT_TOOL_MATCHERS: Record<HookHost, string | undefined> = {
  'claude-code': 'Edit|Write|MultiEdit',
  codex: '^apply_patch$',
  cursor: undefined,
  gemini: 'write_file|replace',
};

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The files of a Codex apply_patch envelope: added, updated, and where a file moved to. */
export function patchFiles(patch: string): string[] {
  const files: string[] = [];
  for (const line of patch.split(/\r?\n/)) {
    const match = /^\*\*\* (?:Add File|Update File|Move to): (.+)$/.exec(line);
    if (match) files.push(match[1]!.trim());
  }
  return [...new Set(files)];
}

/** Reads a host's hook JSON (already parsed) for the hook. */
export function readHookInput(host: HookHost, input: unknown): HookInput {
  const data = record(input);
  const toolInput = record(data.tool_input);
  const paths: string[] = [];
  const add = (value: unknown) => {
    const file = text(value);
    if (file !== undefined) paths.push(file);
  };
  switch (host) {
    case 'claude-code':
    case 'gemini':
      add(toolInput.file_path);
      break;
    case 'codex':
      add(toolInput.file_path);
      if (typeof toolInput.command === 'string') paths.push(...patchFiles(toolInput.command));
      break;
    case 'cursor':
      add(data.file_path);
      break;
  }
  const workspace = Array.isArray(data.workspace_roots) ? data.workspace_roots[0] : undefined;
  return {
    paths,
    loopFlag:
      host === 'cursor'
        ? typeof data.loop_count === 'number' && data.loop_count > 0
        : data.stop_hook_active === true,
    sessionId: text(data.session_id) ?? text(data.conversation_id),
    cwd: text(data.cwd) ?? text(workspace),
  };
}

/** A hook's answer as the host reads it: stdout and the exit code. */
export interface HookAnswer {
  stdout: string;
  exitCode: number;
}

/**
 * The decision document for a host and event (what the hook prints, and what the
 * `after_edit`/`before_stop` tools return as text, in Claude Code's format). Every host
 * here reads JSON on stdout with exit 0; a blocking exit code (2) would make some hosts
 * drop the JSON and read stderr instead.
 */
export function hookDecision(
  host: HookHost,
  event: HookEvent,
  verdict: HookVerdict,
): Record<string, unknown> {
  // A prompt hook's answer is added to the prompt on some hosts: it says nothing.
  if (event === 'session-start') return {};
  const note = verdict.note === '' ? {} : { systemMessage: verdict.note };
  switch (host) {
    case 'claude-code':
    case 'codex':
      return verdict.block ? { decision: 'block', reason: verdict.reason } : note;
    case 'cursor': {
      // Cursor shows the user no hook message: what was not checked goes to the model,
      // never a silent pass.
      const told = verdict.block
        ? verdict.reason
        : verdict.unchecked && verdict.note !== ''
          ? event === 'before-stop'
            ? `${verdict.note}. Check what was not checked yourself, or tell the user it was not.`
            : verdict.note
          : '';
      if (told === '') return {};
      return event === 'before-stop' ? { followup_message: told } : { additional_context: told };
    }
    case 'gemini':
      if (!verdict.block) return note;
      return event === 'before-stop'
        ? { decision: 'deny', reason: verdict.reason }
        : {
            hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: verdict.reason },
          };
  }
}

export function hookAnswer(host: HookHost, event: HookEvent, verdict: HookVerdict): HookAnswer {
  return { stdout: `${JSON.stringify(hookDecision(host, event, verdict))}\n`, exitCode: 0 };
}

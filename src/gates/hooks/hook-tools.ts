import type { JsonSchema, Tool, ToolContext, ToolResult } from '../../server/tool.js';
import type { GateSpec } from '../gate-spec.js';
import { TIMING_SCHEMA, withPhaseTimes, withTiming } from '../phase-timing.js';
import type { GateToolOptions } from '../run/run-gate.js';
import { HOOK_HOSTS, hookDecision, type HookEvent, type HookHost } from './hook-hosts.js';
import { HookSession } from './hook-session.js';
import { budgetProblem, DEFAULT_BUDGET_MS, MAX_BUDGET_MS, MIN_BUDGET_MS } from './hook-budget.js';
import { runAfterEdit, runBeforeStop, runHookEvent, type HookOutcome } from './run-hooks.js';

export const SESSION_START_TOOL = 'session_start';
export const AFTER_EDIT_TOOL = 'after_edit';
export const BEFORE_STOP_TOOL = 'before_stop';

const HOOK_OUTPUT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    decision: { enum: ['block', 'allow', 'cancelled'] },
    reason: { type: 'string' },
    note: { type: 'string' },
    timing: TIMING_SCHEMA,
    gates: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          gate: { type: 'string' },
          status: { type: 'string' },
          overBudget: { type: 'boolean' },
          newFindings: { type: 'integer' },
          newErrors: { type: 'integer' },
          newFailure: { type: 'boolean' },
          unread: { type: 'boolean' },
          wrote: { type: 'array', items: { type: 'string' } },
          verdict: { type: 'string' },
        },
        required: [
          'gate',
          'status',
          'overBudget',
          'newFindings',
          'newErrors',
          'newFailure',
          'unread',
          'wrote',
          'verdict',
        ],
        additionalProperties: false,
      },
    },
  },
  required: ['decision', 'reason', 'note', 'gates'],
  additionalProperties: false,
};

const COMMON_PROPERTIES: Record<string, JsonSchema> = {
  host: {
    enum: [...HOOK_HOSTS],
    description:
      "The host whose hook decision format the text answer is in (default claude-code, whose mcp_tool hooks read it as a command hook's output).",
  },
  budgetMs: {
    type: 'integer',
    minimum: MIN_BUDGET_MS,
    // The longest delay a timer holds: a longer one would fire at once.
    maximum: MAX_BUDGET_MS,
    description:
      'How long the hook waits for its gates, in ms; the answer names the gates that did not finish in time.',
  },
};

/**
 * Hosts pass substituted values as strings: "true" is true; any other string (a
 * placeholder a host left unsubstituted) is false, and the session's memory decides.
 */
function flag(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === undefined || typeof value === 'string') return false;
  return undefined;
}

function failure(message: string): ToolResult {
  return { text: `${message}`, isError: true };
}

function answer(host: HookHost, event: HookEvent, outcome: HookOutcome): ToolResult {
  const { verdict } = outcome;
  const decision = outcome.cancelled ? 'cancelled' : verdict.block ? 'block' : 'allow';
  return {
    text: JSON.stringify(hookDecision(host, event, verdict)),
    structuredContent: {
      decision,
      reason: verdict.reason,
      note: verdict.note,
      gates: outcome.rows,
    },
    // A decision is the hook's answer, not a failure: a host reads isError as a broken hook.
    isError: outcome.cancelled,
  };
}

/**
 * A hook tool's run: its arguments checked (only `allowed`, a known host, a budget), then
 * `go` with the host and the budget, answered in the host's format.
 */
function hookRun(
  event: HookEvent,
  allowed: readonly string[],
  defaultBudget: number,
  go: (
    input: Record<string, unknown>,
    budgetMs: number,
    context: ToolContext,
  ) => Promise<HookOutcome | string>,
): Tool['run'] {
  return async (args, context) => {
    const input = args as Record<string, unknown>;
    const common = commonArguments(input, allowed, defaultBudget);
    if (typeof common === 'string') return failure(common);
    const { value: outcome, phases } = await withPhaseTimes(() =>
      go(input, common.budgetMs, context),
    );
    if (typeof outcome === 'string') return failure(outcome);
    // Where the call's time went, when MCP_GATES_TIMING=1 (the bench's --phases).
    return withTiming(answer(common.host, event, outcome), phases);
  };
}

/** The common arguments, checked: the host and the budget, or why they are wrong. */
function commonArguments(
  args: Record<string, unknown>,
  allowed: readonly string[],
  defaultBudget: number,
): { host: HookHost; budgetMs: number } | string {
  const unknown = Object.keys(args).filter((key) => !allowed.includes(key));
  if (unknown.length > 0)
    return `unknown argument "${unknown[0]}"; this tool takes ${allowed.map((key) => `"${key}"`).join(', ')}`;
  const host = (args.host ?? 'claude-code') as HookHost;
  if (!HOOK_HOSTS.includes(host)) return `"host" is one of ${HOOK_HOSTS.join(', ')}`;
  const budget = args.budgetMs ?? defaultBudget;
  const problem = budgetProblem(budget);
  if (problem !== undefined) return problem;
  return { host, budgetMs: budget as number };
}

/**
 * The hook tools, for a host's hooks to call (Claude Code's `"type": "mcp_tool"`):
 * `session_start`, `after_edit` and `before_stop`; `serve` lists them only where such hooks
 * are configured or asked for (cli/hook-config.ts, hookToolsCaller), and their descriptions
 * tell a model they are not its to call. Their text is the host's hook decision JSON; their
 * structured content says which gates ran and how. Read-only, like every check.
 */
export function createHookTools(
  gates: readonly GateSpec[],
  options: GateToolOptions,
  session: HookSession = new HookSession(),
): Tool[] {
  const annotations = (title: string) => ({
    title,
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  });
  const sessionStart: Tool = {
    name: SESSION_START_TOOL,
    title: 'Hook: the session begins',
    description:
      "Called by the host's prompt hook (Claude Code's UserPromptSubmit), not by the agent: takes the session's baseline in the background, before the agent's first edit (every gate on the whole project), and answers at once with nothing to block. Later hook calls wait for it within their budget. Once per session; it also starts the warm workers.",
    inputSchema: {
      type: 'object',
      properties: { ...COMMON_PROPERTIES },
      additionalProperties: false,
    },
    outputSchema: HOOK_OUTPUT_SCHEMA,
    annotations: annotations('Hook: the session begins'),
    run: hookRun(
      'session-start',
      ['host', 'budgetMs'],
      DEFAULT_BUDGET_MS.sessionStart,
      (_input, budgetMs, context) =>
        runHookEvent(
          'session-start',
          { gates, context, options, session, budgetMs },
          { paths: [], loopFlag: false },
        ),
    ),
  };
  const afterEdit: Tool = {
    name: AFTER_EDIT_TOOL,
    title: 'Hook: after an edit',
    description:
      "Called by the host's after-edit hook, not by the agent (call the gate tools to check files): runs the gates the edited file concerns (lint and format of the file, the typecheck of the program, any gate whose tools read such files), warm, and answers in the host's hook decision JSON: a block listing what the edit introduced that fails a gate (new errors, and new warnings that make their gate fail, e.g. under --max-warnings 0; file:line, rule, message; those first), or nothing to block. Only findings new since the session began count.",
    inputSchema: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: 'The edited file (absolute, or relative to the project root).',
        },
        paths: { type: 'array', items: { type: 'string' }, description: 'Several edited files.' },
        ...COMMON_PROPERTIES,
      },
      additionalProperties: false,
    },
    outputSchema: HOOK_OUTPUT_SCHEMA,
    annotations: annotations('Hook: after an edit'),
    run: hookRun(
      'after-edit',
      ['path', 'paths', 'host', 'budgetMs'],
      DEFAULT_BUDGET_MS.afterEdit,
      async (input, budgetMs, context) => {
        const paths: string[] = [];
        if (typeof input.path === 'string' && input.path !== '') paths.push(input.path);
        if (Array.isArray(input.paths))
          paths.push(...input.paths.filter((p): p is string => typeof p === 'string'));
        // None named (a host that substituted nothing): the answer says so, and blocks nothing.
        return runAfterEdit({ gates, context, options, session, budgetMs }, paths);
      },
    ),
  };
  const beforeStop: Tool = {
    name: BEFORE_STOP_TOOL,
    title: 'Hook: before the agent stops',
    description:
      'Called by the host\'s stop hook, not by the agent (call the gate tools to check files): runs every gate on what changed since the session began and against the merge base with "base" (default: the first of origin/HEAD, main and master that exists), commits and deletions included, and answers in the host\'s hook decision JSON: a block while errors new since the session began remain (or new warnings that make their gate fail), never twice in a row on the same findings, so the agent is never trapped.',
    inputSchema: {
      type: 'object',
      properties: {
        base: {
          type: 'string',
          description:
            'A ref whose merge base with HEAD the changed files are taken against, e.g. main.',
        },
        stopHookActive: {
          type: ['boolean', 'string'],
          description:
            "The host's loop flag (Claude Code's stop_hook_active): this stop follows one a hook held back.",
        },
        ...COMMON_PROPERTIES,
      },
      additionalProperties: false,
    },
    outputSchema: HOOK_OUTPUT_SCHEMA,
    annotations: annotations('Hook: before the agent stops'),
    run: hookRun(
      'before-stop',
      ['base', 'stopHookActive', 'host', 'budgetMs'],
      DEFAULT_BUDGET_MS.beforeStop,
      async (input, budgetMs, context) => {
        const loopFlag = flag(input.stopHookActive);
        if (loopFlag === undefined) return '"stopHookActive" is true or false';
        if (input.base !== undefined && (typeof input.base !== 'string' || input.base === ''))
          return '"base" is a git ref, e.g. "main"';
        const base = input.base as string | undefined;
        return runBeforeStop(
          { gates, context, options, session, budgetMs },
          { ...(base ? { base } : {}), loopFlag },
        );
      },
    ),
  };
  return [sessionStart, afterEdit, beforeStop].filter(
    (tool) => !gates.some((gate) => gate.name === tool.name),
  );
}

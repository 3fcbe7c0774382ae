import type { JsonSchema, Tool } from '../server/tool.js';
import { GATE_OUTPUT_SCHEMA } from './report/gate-result.js';
import { MIN_MAX_CHARS } from './report/budget.js';
import { fixToolName, type GateSpec } from './gate-spec.js';
import { argumentNames } from './run/call-arguments.js';
import { runGate, type GateToolOptions } from './run/run-gate.js';
import { createCheckTool } from './check-tool.js';
import { underPhase, withPhaseTimes, withTiming } from './phase-timing.js';
import type { ToolContext, ToolResult } from '../server/tool.js';

export { runGate, type GateToolOptions };

const ARGUMENT_SCHEMAS: Record<string, (fixing: boolean) => JsonSchema> = {
  paths: (fixing) => ({
    type: 'array',
    items: { type: 'string' },
    description: fixing
      ? 'Files or directories to fix, relative to the project root. Omit to fix the whole project.'
      : 'Files or directories to check, relative to the project root. Omit to check the whole project.',
  }),
  maxChars: () => ({
    type: 'integer',
    minimum: MIN_MAX_CHARS,
    description: 'The result budget in characters (default 12000, or the gate\'s "maxChars").',
  }),
  file: () => ({
    type: 'string',
    description:
      "Lists only findings in this file, directory or glob (e.g. src/**/*.ts). When the gate's last run had this call's other arguments (all but file, offset, maxChars) and the tree, HEAD and config are unchanged since, its findings are reused without running again.",
  }),
  offset: () => ({
    type: 'integer',
    minimum: 0,
    description:
      "Skips this many findings in listing order (paging). When the gate's last run had this call's other arguments (all but file, offset, maxChars) and the tree, HEAD and config are unchanged since, its findings are reused without running again.",
  }),
  scope: (fixing) => ({
    enum: ['changed', 'all'],
    description: fixing
      ? 'changed: fixes only the files changed against HEAD (or against "base").'
      : 'changed: checks only the files changed against HEAD (or the merge-base with "base"); a gate that takes no paths runs whole and lists findings in changed files.',
  }),
  base: () => ({ type: 'string', description: 'With scope "changed": a ref, e.g. main.' }),
  new: () => ({
    type: 'boolean',
    description: 'Lists only findings not in the recorded baseline; fails only on new errors.',
  }),
  baseline: () => ({
    type: 'boolean',
    description:
      "Records this run's findings as the gate's baseline (kept outside the repository).",
  }),
};

/** A gate's run, its phases (`lint.warm.call`...) in its result when MCP_GATES_TIMING=1. */
async function timedGate(
  gate: GateSpec,
  fixing: boolean,
  args: Record<string, unknown>,
  context: ToolContext,
  options: GateToolOptions,
): Promise<ToolResult> {
  const { value, phases } = await withPhaseTimes(() =>
    underPhase(gate.name, () => runGate(gate, fixing, args, context, options)),
  );
  return withTiming(value, phases);
}

function inputSchema(gate: GateSpec, fixing: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const name of argumentNames(gate, fixing))
    properties[name] = ARGUMENT_SCHEMAS[name]!(fixing);
  return { type: 'object', properties, additionalProperties: false };
}

function describe(gate: GateSpec, fixing: boolean): string {
  const command =
    !fixing && gate.steps
      ? gate.steps.map((step) => step.command.join(' ')).join(' && ')
      : (fixing ? gate.fix! : gate.command).join(' ');
  if (fixing) {
    return `Applies the automatic fixes of the "${gate.name}" gate: runs \`${command}\` in the project root, which rewrites files in place, then runs the check again: the result lists the files the fix changed and the findings that remain, and fails when the check still fails.`;
  }
  const runs = gate.description.includes(command)
    ? ''
    : ` Runs \`${command}\` in the project root.`;
  const fix = gate.fix ? ` "${fixToolName(gate.name)}" applies its automatic fixes.` : '';
  return `${gate.description}.${runs} Returns a status (passed, failed, error, timed-out, cancelled, not-installed), counts per file and rule, and the findings within a size budget; the full log is named when any is left out. isError is true unless the status is passed.${fix}`;
}

/**
 * One MCP tool per gate, plus `<gate>_fix` for gates with a fix command, plus `check`
 * (every gate at once) when there is more than one gate and no gate is named check.
 * A check is read-only and idempotent; a fix rewrites files (destructive, not read-only).
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
      run: (args, context) => timedGate(gate, false, args, context, options),
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
        run: (args, context) => timedGate(gate, true, args, context, options),
      });
    }
  }
  if (gates.length > 1 && !tools.some((tool) => tool.name === 'check'))
    tools.push(createCheckTool(gates, options));
  return tools;
}

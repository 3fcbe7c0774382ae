import type { JsonSchema, Tool } from '../server/tool.js';
import { GATE_OUTPUT_SCHEMA } from './report/gate-result.js';
import { fixToolName, type GateSpec } from './gate-spec.js';
import { runGate, type GateToolOptions } from './run/run-gate.js';

export { runGate, type GateToolOptions };

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

function describe(gate: GateSpec, fixing: boolean): string {
  const command =
    !fixing && gate.steps
      ? gate.steps.map((step) => step.command.join(' ')).join(' && ')
      : (fixing ? gate.fix! : gate.command).join(' ');
  if (fixing) {
    return `Apply the automatic fixes of the "${gate.name}" gate: runs \`${command}\` in the project root, which rewrites files in place, then runs the check again: the result lists the files the fix changed and the findings that remain, and fails when the check still fails.`;
  }
  const runs = gate.description.includes(command)
    ? ''
    : ` Runs \`${command}\` in the project root.`;
  const fix = gate.fix ? ` "${fixToolName(gate.name)}" applies its automatic fixes.` : '';
  return `${gate.description}.${runs} Returns the report and structured findings; isError is true when the gate fails, or when the check changed any file.${fix}`;
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

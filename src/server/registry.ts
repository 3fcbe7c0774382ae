import type { ValidateFunction } from 'ajv';
import { LocalError } from '../protocol/errors.js';
import { compileSchema } from './schema-validator.js';
import type { Tool } from './tool.js';

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export interface RegisteredTool {
  tool: Tool;
  validateInput: ValidateFunction;
  validateOutput: ValidateFunction | undefined;
}

/** Tools by name; the last registration of a name wins; listed in sorted name order. */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  private sorted: RegisteredTool[] | undefined;

  register(tool: Tool): void {
    if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
      throw new LocalError(
        'EINVALID_TOOL_NAME',
        `Tool name ${JSON.stringify(tool.name)} is invalid: use 1-128 characters of A-Z a-z 0-9 _ - .`,
      );
    }
    if (typeof tool.run !== 'function') {
      throw new LocalError(
        'EINVALID_TOOL',
        `Tool "${tool.name}" needs a run(args, context) function`,
      );
    }
    const schema = tool.inputSchema as Record<string, unknown> | undefined;
    if (typeof schema !== 'object' || schema === null || schema.type !== 'object') {
      throw new LocalError(
        'EINVALID_SCHEMA',
        `Tool "${tool.name}": inputSchema must be an object schema with "type": "object" at its root`,
      );
    }
    this.tools.set(tool.name, {
      tool,
      validateInput: compileSchema(schema, `Tool "${tool.name}" inputSchema`),
      validateOutput: tool.outputSchema
        ? compileSchema(tool.outputSchema, `Tool "${tool.name}" outputSchema`)
        : undefined,
    });
    this.sorted = undefined;
  }

  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  list(): readonly RegisteredTool[] {
    this.sorted ??= [...this.tools.values()].sort((a, b) =>
      a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0,
    );
    return this.sorted;
  }
}

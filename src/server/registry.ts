import type { ValidateFunction } from 'ajv';
import { LocalError } from '../protocol/errors.js';
import { compileSchema, schemaDialect } from './schema-validator.js';
import type { Tool } from './tool.js';

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * A tool and its validators, compiled on first use (compiling loads ajv). A schema
 * that is not valid JSON Schema therefore surfaces at the tool's first call, as an
 * internal error naming the tool; the cheap checks run at registration.
 */
export class RegisteredTool {
  private input: ValidateFunction | undefined;
  private output: ValidateFunction | undefined;

  constructor(readonly tool: Tool) {}

  get validateInput(): ValidateFunction {
    return (this.input ??= compileSchema(
      this.tool.inputSchema,
      `Tool "${this.tool.name}" inputSchema`,
    ));
  }

  get validateOutput(): ValidateFunction | undefined {
    const schema = this.tool.outputSchema;
    if (schema === undefined) return undefined;
    return (this.output ??= compileSchema(schema, `Tool "${this.tool.name}" outputSchema`));
  }
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
    schemaDialect(schema, `Tool "${tool.name}" inputSchema`);
    const outputSchema = tool.outputSchema as Record<string, unknown> | undefined;
    if (outputSchema !== undefined) {
      if (
        typeof outputSchema !== 'object' ||
        outputSchema === null ||
        Array.isArray(outputSchema)
      ) {
        throw new LocalError(
          'EINVALID_SCHEMA',
          `Tool "${tool.name}": outputSchema must be an object`,
        );
      }
      schemaDialect(outputSchema, `Tool "${tool.name}" outputSchema`);
    }
    this.tools.set(tool.name, new RegisteredTool(tool));
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

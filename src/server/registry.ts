import type { ValidateFunction } from 'ajv';
import { LocalError } from '../protocol/errors.js';
import { checkSchema } from './schema-check.js';
import { ajvLoaded, compileSchema, schemaDialect } from './schema-validator.js';
import type { JsonSchema, StandardSchema, Tool, ToolSchema } from './tool.js';

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * A tool as served: its schemas as JSON Schema, checked when it was registered and
 * compiled by ajv on first use (loading ajv is most of a server's cold start; a server
 * that is only listed never needs it), or at once when ajv is loaded already.
 */
export class RegisteredTool {
  private input: ValidateFunction | undefined;
  private output: ValidateFunction | undefined;

  constructor(
    readonly tool: Tool,
    readonly inputSchema: JsonSchema,
    readonly outputSchema: JsonSchema | undefined,
    /** The Standard Schema whose own `validate` makes the arguments `run` receives. */
    readonly parseInput: StandardSchema['~standard'] | undefined,
  ) {
    // Once ajv is loaded, compiling costs little and reports what ajv refuses at once.
    if (ajvLoaded()) this.compileAll();
  }

  private compileAll(): void {
    this.input = this.validateInput;
    this.output = this.validateOutput;
  }

  get validateInput(): ValidateFunction {
    return (this.input ??= compileSchema(this.inputSchema, `Tool "${this.tool.name}" inputSchema`));
  }

  get validateOutput(): ValidateFunction | undefined {
    if (this.outputSchema === undefined) return undefined;
    return (this.output ??= compileSchema(
      this.outputSchema,
      `Tool "${this.tool.name}" outputSchema`,
    ));
  }
}

function isStandardSchema(schema: unknown): schema is StandardSchema {
  const standard = (schema as { '~standard'?: { version?: unknown } } | null)?.['~standard'];
  return typeof standard === 'object' && standard !== null && standard.version === 1;
}

/**
 * The JSON Schema of a tool schema: itself, or a Standard Schema's conversion (Standard
 * JSON Schema's `jsonSchema.input/output`, else a `toJSONSchema()` method).
 */
function toJsonSchema(schema: ToolSchema, side: 'input' | 'output', where: string): JsonSchema {
  if (!isStandardSchema(schema)) return schema;
  let converted: unknown;
  try {
    const standard = schema['~standard'];
    if (typeof standard.jsonSchema?.[side] === 'function') {
      converted = standard.jsonSchema[side]({ target: 'draft-2020-12' });
    } else if (typeof schema.toJSONSchema === 'function') {
      converted = (schema.toJSONSchema as () => unknown)();
    } else if (typeof schema.toJsonSchema === 'function') {
      converted = (schema.toJsonSchema as () => unknown)();
    } else {
      throw new LocalError(
        'EINVALID_SCHEMA',
        `${where} is a Standard Schema (${standard.vendor}) with no JSON Schema conversion: pass one as { '~standard': schema['~standard'], toJSONSchema: () => <its JSON Schema> }, or pass JSON Schema`,
      );
    }
  } catch (error) {
    if (error instanceof LocalError) throw error;
    throw new LocalError(
      'EINVALID_SCHEMA',
      `${where}: its library could not convert it to JSON Schema: ${(error as Error).message}`,
    );
  }
  if (typeof converted !== 'object' || converted === null || Array.isArray(converted)) {
    throw new LocalError('EINVALID_SCHEMA', `${where}: its JSON Schema conversion gave no object`);
  }
  return converted as JsonSchema;
}

/** Checks a tool and compiles its schemas; anything wrong throws, naming the tool. */
function prepare(tool: Tool): RegisteredTool {
  if (typeof tool?.name !== 'string' || !TOOL_NAME.test(tool.name)) {
    throw new LocalError(
      'EINVALID_TOOL_NAME',
      `Tool name ${JSON.stringify(tool?.name)} is invalid: use 1-128 characters of A-Z a-z 0-9 _ - .`,
    );
  }
  if (typeof tool.run !== 'function') {
    throw new LocalError(
      'EINVALID_TOOL',
      `Tool "${tool.name}" needs a run(args, context) function`,
    );
  }
  const where = `Tool "${tool.name}"`;
  const raw = tool.inputSchema as unknown;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new LocalError(
      'EINVALID_SCHEMA',
      `${where}: inputSchema must be a JSON Schema object or a Standard Schema (Zod, Valibot, ArkType)`,
    );
  }
  const inputSchema = toJsonSchema(tool.inputSchema, 'input', `${where} inputSchema`);
  if (inputSchema.type !== 'object') {
    // Arguments are always a JSON object on the wire (tools/call "arguments").
    throw new LocalError(
      'EINVALID_SCHEMA',
      `${where}: inputSchema must have "type": "object" at its root (got ${inputSchema.type === undefined ? 'no "type"' : `"type": ${JSON.stringify(inputSchema.type)}`}): ` +
        'describe the arguments as { type: "object", properties: { ... } } (with Zod, z.object({ ... }))',
    );
  }
  schemaDialect(inputSchema, `${where} inputSchema`);
  checkSchema(inputSchema, `${where} inputSchema`);
  let outputSchema: JsonSchema | undefined;
  if (tool.outputSchema !== undefined) {
    const rawOutput = tool.outputSchema as unknown;
    if (typeof rawOutput !== 'object' || rawOutput === null || Array.isArray(rawOutput)) {
      throw new LocalError(
        'EINVALID_SCHEMA',
        `${where}: outputSchema must be a JSON Schema object or a Standard Schema (got ${Array.isArray(rawOutput) ? 'an array' : typeof rawOutput}): ` +
          'describe structuredContent as { type: "object", properties: { ... } }, or leave outputSchema out',
      );
    }
    outputSchema = toJsonSchema(tool.outputSchema, 'output', `${where} outputSchema`);
    schemaDialect(outputSchema, `${where} outputSchema`);
    checkSchema(outputSchema, `${where} outputSchema`);
  }
  const parseInput = isStandardSchema(tool.inputSchema) ? tool.inputSchema['~standard'] : undefined;
  return new RegisteredTool(tool, inputSchema, outputSchema, parseInput);
}

/** Tools by name, each name registered once (as the official SDK); listed in sorted name order. */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  private sorted: RegisteredTool[] | undefined;

  register(tool: Tool): void {
    const prepared = prepare(tool);
    // A second tool of the same name silently replacing the first hides a bug in the caller.
    if (this.tools.has(tool.name)) {
      throw new LocalError(
        'EDUPLICATE_TOOL',
        `Tool "${tool.name}" is already registered: give the new tool another name, or call unregister("${tool.name}") first to replace it`,
      );
    }
    this.tools.set(tool.name, prepared);
    this.sorted = undefined;
  }

  /** Removes a tool; false when there was none of that name. */
  unregister(name: string): boolean {
    const removed = this.tools.delete(name);
    if (removed) this.sorted = undefined;
    return removed;
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

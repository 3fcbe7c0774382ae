import type { JsonObject } from '../protocol/message.js';
import { isModernRevision, revisionAtLeast, type Revision } from '../protocol/revisions.js';
import type { JsonSchema, Tool, ToolResult } from './tool.js';

export interface ServerIdentity {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
}

/** `Implementation` with only the fields the revision defines (PROTOCOL.md 2.6). */
export function shapeIdentity(identity: ServerIdentity, revision: Revision): JsonObject {
  const shaped: JsonObject = { name: identity.name, version: identity.version };
  if (identity.title !== undefined && revisionAtLeast(revision, '2025-06-18')) {
    shaped.title = identity.title;
  }
  if (revisionAtLeast(revision, '2025-11-25')) {
    if (identity.description !== undefined) shaped.description = identity.description;
    if (identity.websiteUrl !== undefined) shaped.websiteUrl = identity.websiteUrl;
  }
  return shaped;
}

function isObjectRooted(schema: JsonSchema): boolean {
  return schema.type === 'object';
}

/**
 * Legacy revisions allow only object structured output; a non-object schema is wrapped
 * as `{result: <schema>}`, its definitions hoisted so `#/$defs/...` refs still resolve.
 */
function wrapOutputSchema(schema: JsonSchema): JsonSchema {
  const { $defs, definitions, $schema, ...inner } = schema;
  const wrapped: JsonSchema = {
    type: 'object',
    properties: { result: inner },
    required: ['result'],
  };
  if ($schema !== undefined) wrapped.$schema = $schema;
  if ($defs !== undefined) wrapped.$defs = $defs;
  if (definitions !== undefined) wrapped.definitions = definitions;
  return wrapped;
}

/** A `Tool` entry of `tools/list` with only the fields the revision defines. */
export function shapeToolDescriptor(tool: Tool, revision: Revision): JsonObject {
  const shaped: JsonObject = { name: tool.name };
  if (tool.title !== undefined && revisionAtLeast(revision, '2025-06-18'))
    shaped.title = tool.title;
  if (tool.description !== undefined) shaped.description = tool.description;
  shaped.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined && revisionAtLeast(revision, '2025-06-18')) {
    shaped.outputSchema =
      isModernRevision(revision) || isObjectRooted(tool.outputSchema)
        ? tool.outputSchema
        : wrapOutputSchema(tool.outputSchema);
  }
  if (tool.annotations !== undefined && revisionAtLeast(revision, '2025-03-26')) {
    shaped.annotations = tool.annotations;
  }
  return shaped;
}

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A `CallToolResult` for the revision: the report as a text block, structured output where known. */
export function shapeToolResult(tool: Tool, result: ToolResult, revision: Revision): JsonObject {
  const shaped: JsonObject = {
    content: [{ type: 'text', text: result.text }],
    isError: result.isError === true,
  };
  const structured = result.structuredContent;
  if (structured !== undefined && revisionAtLeast(revision, '2025-06-18')) {
    if (isModernRevision(revision) || isPlainObject(structured)) {
      shaped.structuredContent = structured;
    } else if (tool.outputSchema === undefined || !isObjectRooted(tool.outputSchema)) {
      shaped.structuredContent = { result: structured };
    }
  }
  return shaped;
}

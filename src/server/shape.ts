import type { JsonObject } from '../protocol/message.js';
import { isModernRevision, revisionAtLeast, type Revision } from '../protocol/revisions.js';
import type { ContentAnnotations, ContentBlock, JsonSchema, Tool, ToolResult } from './tool.js';

export interface ServerIdentity {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
}

/** `Implementation` with only the fields the revision defines (docs/PROTOCOL.md section 6). */
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
export function shapeToolDescriptor(
  entry: { tool: Tool; inputSchema: JsonSchema; outputSchema: JsonSchema | undefined },
  revision: Revision,
): JsonObject {
  const { tool, inputSchema, outputSchema } = entry;
  const shaped: JsonObject = { name: tool.name };
  if (tool.title !== undefined && revisionAtLeast(revision, '2025-06-18'))
    shaped.title = tool.title;
  if (tool.description !== undefined) shaped.description = tool.description;
  shaped.inputSchema = inputSchema;
  if (outputSchema !== undefined && revisionAtLeast(revision, '2025-06-18')) {
    shaped.outputSchema =
      isModernRevision(revision) || isObjectRooted(outputSchema)
        ? outputSchema
        : wrapOutputSchema(outputSchema);
  }
  if (tool.annotations !== undefined && revisionAtLeast(revision, '2025-03-26')) {
    shaped.annotations = tool.annotations;
  }
  if (tool._meta !== undefined && revisionAtLeast(revision, '2025-06-18')) {
    shaped._meta = tool._meta;
  }
  return shaped;
}

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeBytes(base64: string): string {
  const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} bytes`;
}

/** Annotations with only the fields the revision defines (`lastModified`: 2025-06-18). */
function shapeAnnotations(annotations: ContentAnnotations, revision: Revision): JsonObject {
  const { lastModified, ...rest } = annotations;
  const shaped: JsonObject = { ...rest };
  if (lastModified !== undefined && revisionAtLeast(revision, '2025-06-18')) {
    shaped.lastModified = lastModified;
  }
  return shaped;
}

/**
 * One content block for the revision. A block the revision lacks degrades to a text
 * block that says what it was (docs/PROTOCOL.md, "Content per revision"): audio before
 * 2025-03-26 names its type and size; a resource link before 2025-06-18 names its URI.
 */
export function shapeContentBlock(block: ContentBlock, revision: Revision): JsonObject {
  if (block.type === 'audio' && !revisionAtLeast(revision, '2025-03-26')) {
    return {
      type: 'text',
      text: `[audio (${block.mimeType}, ${describeBytes(block.data)}) left out: protocol ${revision} has no audio content]`,
    };
  }
  if (block.type === 'resource_link' && !revisionAtLeast(revision, '2025-06-18')) {
    const label = block.title ?? block.name;
    const parts = [`Resource: ${label} <${block.uri}>`];
    if (block.mimeType !== undefined) parts.push(`(${block.mimeType})`);
    if (block.description !== undefined) parts.push(`- ${block.description}`);
    return { type: 'text', text: parts.join(' ') };
  }
  const metaKnown = revisionAtLeast(revision, '2025-06-18');
  const { annotations, _meta, ...fields } = block as ContentBlock & JsonObject;
  const shaped: JsonObject = { ...fields };
  if (block.type === 'resource' && !metaKnown) {
    const { _meta: resourceMeta, ...contents } = block.resource as JsonObject;
    void resourceMeta;
    shaped.resource = contents;
  }
  if (annotations !== undefined) shaped.annotations = shapeAnnotations(annotations, revision);
  if (_meta !== undefined && metaKnown) shaped._meta = _meta;
  return shaped;
}

/** A `CallToolResult` for the revision: the text shorthand first, then the content blocks. */
export function shapeToolResult(
  entry: { outputSchema: JsonSchema | undefined },
  result: ToolResult,
  revision: Revision,
): JsonObject {
  const content: JsonObject[] = [];
  if (result.text !== undefined) content.push({ type: 'text', text: result.text });
  for (const block of result.content ?? []) content.push(shapeContentBlock(block, revision));
  const shaped: JsonObject = { content, isError: result.isError === true };
  const structured = result.structuredContent;
  if (structured !== undefined && revisionAtLeast(revision, '2025-06-18')) {
    if (isModernRevision(revision) || isPlainObject(structured)) {
      shaped.structuredContent = structured;
    } else if (entry.outputSchema === undefined || !isObjectRooted(entry.outputSchema)) {
      shaped.structuredContent = { result: structured };
    }
  }
  if (result._meta !== undefined) shaped._meta = result._meta;
  return shaped;
}

// The published JSON Schema of mcp-gates.json (schema/mcp-gates.schema.json), compiled once.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { parseConfig } from '../../dist/gates/config.js';

export const CONFIG_SCHEMA = JSON.parse(
  readFileSync(new URL('../../schema/mcp-gates.schema.json', import.meta.url), 'utf8'),
);
let validate;

/** Errors of `document` against the schema, as text; null when it is valid. */
export function configSchemaErrors(document) {
  validate ??= new Ajv({ strict: true, allErrors: true }).compile(CONFIG_SCHEMA);
  return validate(document) ? null : new Ajv().errorsText(validate.errors);
}

/**
 * Throws when the loader accepts a config that the schema refuses: the schema must never
 * flag in an editor what mcp-gates runs. (The loader refuses more than a schema can say:
 * shell command lines, a <gate>_fix clash, duplicate keys.) Called by makeRepo for every
 * mcp-gates.json a test writes.
 */
export function assertSchemaAcceptsLoadable(text) {
  let document;
  try {
    document = JSON.parse(text.replace(/^\uFEFF/, ''));
    parseConfig(document, 'mcp-gates.json');
  } catch {
    return; // the loader refuses it: nothing the schema must accept
  }
  const errors = configSchemaErrors(document);
  if (errors) {
    throw new Error(
      `schema/mcp-gates.schema.json refuses a config the loader accepts (${errors}): ${text.slice(0, 300)}`,
    );
  }
}

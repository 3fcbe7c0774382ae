import { createRequire } from 'node:module';
import type { Ajv, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { LocalError } from '../protocol/errors.js';
import type { JsonSchema } from './tool.js';

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

export type SchemaDialect = 'draft-07' | '2020-12';

// strict: false lets schemas carry annotation keywords validators do not know (x-..., examples).
// No loadSchema: a network $ref is never fetched (spec: MUST NOT by default).
// validateSchema: false skips checking each schema against the meta-schema, which costs
// more than all the rest of a first compile; ajv still refuses keyword values of the
// wrong type, and checkSchema (at registration) covers the structure and the $refs.
const options = {
  allErrors: true,
  strict: false,
  validateFormats: false,
  validateSchema: false,
} as const;
let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

// ajv is loaded on the first compile, not at start-up: it is most of a server's cold
// start and idle memory, and a server that is only listed never needs it.
const require = createRequire(import.meta.url);

/** Whether ajv is loaded already (then compiling a schema costs about a millisecond). */
export function ajvLoaded(): boolean {
  return draft2020 !== undefined || draft07 !== undefined;
}

/** The dialect of a tool schema: draft-07 when `$schema` says so, else 2020-12. */
export function schemaDialect(schema: JsonSchema, where: string): SchemaDialect {
  const dialect = schema.$schema;
  if (dialect === undefined || (typeof dialect === 'string' && DRAFT_2020_12.test(dialect))) {
    return '2020-12';
  }
  if (typeof dialect === 'string' && DRAFT_07.test(dialect)) return 'draft-07';
  throw new LocalError(
    'EUNSUPPORTED_SCHEMA_DIALECT',
    `${where}: unsupported JSON Schema dialect ${JSON.stringify(dialect)}; use draft-07 or 2020-12 (or omit $schema for 2020-12)`,
  );
}

/** Compiles a tool schema; a schema that is not valid JSON Schema throws EINVALID_SCHEMA. */
export function compileSchema(schema: JsonSchema, where: string): ValidateFunction {
  let validator: Ajv | Ajv2020;
  if (schemaDialect(schema, where) === '2020-12') {
    draft2020 ??= new (require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020(
      options,
    );
    validator = draft2020;
  } else {
    draft07 ??= new (require('ajv') as typeof import('ajv')).Ajv(options);
    validator = draft07;
  }
  try {
    return validator.compile(schema);
  } catch (error) {
    throw new LocalError(
      'EINVALID_SCHEMA',
      `${where} is not a valid JSON Schema: ${(error as Error).message}`,
    );
  }
}

/** One line per violation, e.g. `/city: must be string`. */
export function describeErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .map((error) => `${error.instancePath || '(root)'}: ${error.message ?? 'is invalid'}`)
    .join('\n');
}

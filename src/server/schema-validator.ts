import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { LocalError } from '../protocol/errors.js';
import type { JsonSchema } from './tool.js';

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

// strict: false lets schemas carry annotation keywords validators do not know (x-..., examples).
// No loadSchema: a network $ref is never fetched (spec: MUST NOT by default).
const options = { allErrors: true, strict: false, validateFormats: false } as const;
let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

/** Compiles a tool schema in its dialect: draft-07 when `$schema` says so, else 2020-12. */
export function compileSchema(schema: JsonSchema, where: string): ValidateFunction {
  const dialect = schema.$schema;
  let validator: Ajv | Ajv2020;
  if (dialect === undefined || (typeof dialect === 'string' && DRAFT_2020_12.test(dialect))) {
    validator = draft2020 ??= new Ajv2020(options);
  } else if (typeof dialect === 'string' && DRAFT_07.test(dialect)) {
    validator = draft07 ??= new Ajv(options);
  } else {
    throw new LocalError(
      'EUNSUPPORTED_SCHEMA_DIALECT',
      `${where}: unsupported JSON Schema dialect ${JSON.stringify(dialect)}; use draft-07 or 2020-12 (or omit $schema for 2020-12)`,
    );
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

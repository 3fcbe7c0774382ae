import { LocalError } from '../protocol/errors.js';
import type { JsonSchema } from './tool.js';

/**
 * A tool schema's checks at registration, without ajv (loading and warming ajv would
 * more than double a server's cold start): every subschema is a schema, the keywords
 * ajv refuses to compile have values of the right type, patterns are valid regular
 * expressions (as ajv builds them, with the `u` flag), and every `$ref` resolves inside
 * the schema (remote ones are never fetched). ajv compiles the schema on first use.
 */

const SUBSCHEMA = [
  'additionalProperties',
  'additionalItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
] as const;
const SUBSCHEMA_MAPS = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
] as const;
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const NUMBERS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
] as const;
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'array', 'object']);

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkPattern(pattern: unknown, at: string): void {
  if (typeof pattern !== 'string') throw new Error(`${at} must be a string`);
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    throw new Error(`${at} is not a valid regular expression: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Every subschema with its JSON pointer, checked for shape; refs and ids collected. */
function walk(
  value: unknown,
  pointer: string,
  found: { refs: Array<[string, string]>; anchors: Set<string>; ids: Set<string> },
): void {
  if (typeof value === 'boolean') return;
  if (!isNode(value))
    throw new Error(`${pointer || '(root)'} must be a schema (an object or a boolean)`);
  const at = (key: string) => `${pointer}/${key}`;
  if (value.type !== undefined) {
    const types = Array.isArray(value.type) ? value.type : [value.type];
    for (const type of types) {
      if (typeof type !== 'string' || !TYPES.has(type)) {
        throw new Error(`${at('type')}: ${JSON.stringify(type)} is not a JSON Schema type`);
      }
    }
  }
  if (
    value.required !== undefined &&
    !(Array.isArray(value.required) && value.required.every((key) => typeof key === 'string'))
  ) {
    throw new Error(`${at('required')} must be an array of property names`);
  }
  if (value.enum !== undefined && !Array.isArray(value.enum)) {
    throw new Error(`${at('enum')} must be an array`);
  }
  for (const key of NUMBERS) {
    if (
      value[key] !== undefined &&
      typeof value[key] !== 'number' &&
      typeof value[key] !== 'boolean'
    ) {
      throw new Error(`${at(key)} must be a number`);
    }
  }
  if (value.pattern !== undefined) checkPattern(value.pattern, at('pattern'));
  if (typeof value.$anchor === 'string') found.anchors.add(value.$anchor);
  if (typeof value.$id === 'string') {
    if (value.$id.startsWith('#')) found.anchors.add(value.$id.slice(1));
    else found.ids.add(value.$id.replace(/#$/, ''));
  }
  if (value.$ref !== undefined) {
    if (typeof value.$ref !== 'string') throw new Error(`${at('$ref')} must be a string`);
    found.refs.push([value.$ref, at('$ref')]);
  }
  for (const key of SUBSCHEMA) if (value[key] !== undefined) walk(value[key], at(key), found);
  for (const key of SUBSCHEMA_MAPS) {
    const map = value[key];
    if (map === undefined) continue;
    if (!isNode(map)) throw new Error(`${at(key)} must be an object of schemas`);
    for (const [name, schema] of Object.entries(map)) {
      if (key === 'patternProperties') checkPattern(name, `${at(key)} key ${JSON.stringify(name)}`);
      walk(schema, `${at(key)}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, found);
    }
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = value[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new Error(`${at(key)} must be an array of schemas`);
    list.forEach((schema, index) => walk(schema, `${at(key)}/${index}`, found));
  }
  if (Array.isArray(value.items)) {
    value.items.forEach((schema, index) => walk(schema, `${at('items')}/${index}`, found));
  } else if (value.items !== undefined) {
    walk(value.items, at('items'), found);
  }
  if (isNode(value.dependencies)) {
    for (const [name, dependency] of Object.entries(value.dependencies)) {
      if (!Array.isArray(dependency)) walk(dependency, `${at('dependencies')}/${name}`, found);
    }
  }
}

/** Follows a JSON pointer fragment (`/a/b~1c`) from the root; undefined when it leads nowhere. */
function follow(root: unknown, fragment: string): unknown {
  let node = root;
  for (const raw of fragment.split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isNode(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/** `ref` made absolute against the root's `$id` when it has one (relative refs are URI references). */
function absolute(ref: string, rootId: string): string {
  if (rootId === '') return ref;
  try {
    return new URL(ref, rootId).href;
  } catch {
    return ref;
  }
}

function resolves(
  root: JsonSchema,
  ref: string,
  found: { anchors: Set<string>; ids: Set<string> },
): boolean {
  const rootId = typeof root.$id === 'string' ? root.$id.replace(/#$/, '') : '';
  const target = ref.startsWith('#') ? ref : absolute(ref, rootId);
  const hash = target.indexOf('#');
  const base = hash === -1 ? target : target.slice(0, hash);
  const fragment = hash === -1 ? '' : target.slice(hash + 1);
  const ids = new Set([...found.ids].map((id) => absolute(id, rootId)));
  // Only the schema itself and the ids it declares can be resolved: nothing is fetched.
  if (base !== '' && base !== rootId) {
    return ids.has(base);
  }
  if (fragment === '') return true;
  if (fragment.startsWith('/')) return follow(root, fragment) !== undefined;
  return found.anchors.has(fragment);
}

/** Throws EINVALID_SCHEMA, naming `where` and the place in the schema, when a check fails. */
export function checkSchema(schema: JsonSchema, where: string): void {
  const found = {
    refs: [] as Array<[string, string]>,
    anchors: new Set<string>(),
    ids: new Set<string>(),
  };
  try {
    walk(schema, '', found);
    for (const [ref, at] of found.refs) {
      if (!resolves(schema, ref, found)) {
        throw new Error(
          `${at}: "${ref}" does not resolve inside the schema (remote $refs are never fetched: inline them under $defs)`,
        );
      }
    }
  } catch (error) {
    throw new LocalError(
      'EINVALID_SCHEMA',
      `${where} is not a valid JSON Schema: ${(error as Error).message}`,
    );
  }
}

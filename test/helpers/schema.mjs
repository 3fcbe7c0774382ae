// Validates frames the server writes against the official schema of a revision.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
const schemas = new Map();

function schemaFor(revision) {
  let entry = schemas.get(revision);
  if (entry) return entry;
  if (!REVISIONS.includes(revision)) throw new Error(`no vendored schema for ${revision}`);
  const document = JSON.parse(
    readFileSync(
      new URL(`../fixtures/mcp-schema/${revision}/schema.json`, import.meta.url),
      'utf8',
    ),
  );
  const draft07 = document.$schema.includes('draft-07');
  const ajv = draft07
    ? new Ajv({ strict: false, allErrors: true, logger: false })
    : new Ajv2020({ strict: false, allErrors: true, logger: false });
  ajv.addSchema(document, 'mcp');
  const defs = draft07 ? 'definitions' : '$defs';
  entry = { ajv, ref: (name) => `mcp#/${defs}/${name}`, has: (name) => name in document[defs] };
  schemas.set(revision, entry);
  return entry;
}

function check(revision, name, value) {
  const { ajv, ref, has } = schemaFor(revision);
  if (!has(name)) throw new Error(`schema ${revision} has no ${name}`);
  const validate = ajv.getSchema(ref(name));
  if (!validate(value)) {
    return `${revision} ${name}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(value).slice(0, 400)}`;
  }
  return null;
}

const RESULT_TYPES = {
  initialize: 'InitializeResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'server/discover': 'DiscoverResult',
  ping: 'EmptyResult',
  'subscriptions/listen': 'SubscriptionsListenResult',
};

/**
 * Returns a list of violations (empty when valid) for one outbound frame.
 * `method` is the request's method when the frame answers a known request.
 * An error with `"id": null` is JSON-RPC-correct but no MCP schema admits it
 * (PROTOCOL.md 1.5): it is checked with the id replaced by 0.
 */
export function frameViolations(frame, revision, method) {
  const problems = [];
  const add = (problem) => problem && problems.push(problem);
  if (Array.isArray(frame)) {
    if (revision !== '2025-03-26') return [`batch response outside 2025-03-26 (${revision})`];
    // Elements answering an undeterminable id carry id null, as on single lines.
    const elements = frame.map((item) =>
      item?.id === null && 'error' in item ? { ...item, id: 0 } : item,
    );
    add(check(revision, 'JSONRPCBatchResponse', elements));
    return problems;
  }
  const value = frame.id === null && 'error' in frame ? { ...frame, id: 0 } : frame;
  add(check(revision, 'JSONRPCMessage', value));
  if ('error' in frame) {
    add(check(revision, revision >= '2025-11-25' ? 'JSONRPCErrorResponse' : 'JSONRPCError', value));
    if (frame.result !== undefined) problems.push('a frame with both result and error');
  } else if ('result' in frame) {
    add(
      check(
        revision,
        revision >= '2025-11-25' ? 'JSONRPCResultResponse' : 'JSONRPCResponse',
        frame,
      ),
    );
    const resultType = RESULT_TYPES[method];
    if (resultType) add(check(revision, resultType, frame.result));
  } else if ('method' in frame) {
    add(check(revision, 'JSONRPCNotification', frame));
    add(check(revision, 'ServerNotification', frame));
    if ('id' in frame) problems.push('the server sent a request; a tools-only server never does');
  }
  return problems;
}

export { REVISIONS };

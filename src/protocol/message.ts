import { ErrorCode, ProtocolError } from './errors.js';
import { RawIntegerId, findNumberLexeme, isValidIdValue, type RequestId } from './request-id.js';

export type JsonObject = Record<string, unknown>;

export interface RequestMessage {
  kind: 'request';
  id: RequestId;
  method: string;
  params: JsonObject | undefined;
}

export interface NotificationMessage {
  kind: 'notification';
  method: string;
  params: JsonObject | undefined;
  /** True when the frame carried `"id": null` (absorbed as a notification, docs/PROTOCOL.md section 2). */
  nullId: boolean;
}

export interface ResponseMessage {
  kind: 'response';
}

/** A frame that must be answered with an error; `id` is null when it could not be determined. */
export interface InvalidMessage {
  kind: 'invalid';
  id: RequestId | null;
  error: ProtocolError;
}

export type InboundMessage =
  RequestMessage | NotificationMessage | ResponseMessage | InvalidMessage;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses one line. An array comes back as `{batch}` for the caller to decide on. */
export function parseLine(
  line: string,
): { batch: unknown[]; text: string } | { message: InboundMessage } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return {
      message: {
        kind: 'invalid',
        id: null,
        error: new ProtocolError(ErrorCode.ParseError, 'Parse error: the line is not valid JSON'),
      },
    };
  }
  if (Array.isArray(value)) return { batch: value, text: line };
  return { message: classify(value, line) };
}

/** Classifies one decoded value (docs/PROTOCOL.md section 2). `text` is its source, for exact big ids. */
export function classify(value: unknown, text?: string): InboundMessage {
  const invalid = (
    id: RequestId | null,
    message: string,
    code: number = ErrorCode.InvalidRequest,
  ) => ({
    kind: 'invalid' as const,
    id,
    error: new ProtocolError(code as typeof ErrorCode.InvalidRequest, message),
  });
  if (!isJsonObject(value))
    return invalid(null, 'Invalid Request: a message must be a JSON object');

  const hasId = Object.hasOwn(value, 'id') && value.id !== null;
  let id: RequestId | null = null;
  if (hasId) {
    if (!isValidIdValue(value.id)) {
      return invalid(null, 'Invalid Request: id must be a string or an integer');
    }
    id = value.id;
    if (typeof id === 'number' && !Number.isSafeInteger(id)) {
      const lexeme = text === undefined ? undefined : findNumberLexeme(text, ['id']);
      if (lexeme === undefined) {
        return invalid(null, 'Invalid Request: id is an integer too large to echo exactly');
      }
      id = new RawIntegerId(lexeme);
    }
  }

  if (!Object.hasOwn(value, 'method')) {
    if (hasId && (Object.hasOwn(value, 'result') || Object.hasOwn(value, 'error'))) {
      return { kind: 'response' };
    }
    return invalid(id, 'Invalid Request: a request needs a "method" member');
  }
  if (value.jsonrpc !== '2.0') return invalid(id, 'Invalid Request: "jsonrpc" must be "2.0"');
  if (typeof value.method !== 'string') {
    return invalid(id, 'Invalid Request: "method" must be a string');
  }

  const params = value.params;
  if (params !== undefined && !isJsonObject(params)) {
    if (!hasId) {
      return { kind: 'notification', method: value.method, params: undefined, nullId: false };
    }
    return Array.isArray(params)
      ? invalid(
          id,
          'Invalid params: "params" must be an object, not an array',
          ErrorCode.InvalidParams,
        )
      : invalid(id, 'Invalid Request: "params" must be an object');
  }
  if (!hasId) {
    return {
      kind: 'notification',
      method: value.method,
      params: params && text !== undefined ? withExactRequestId(params, text) : params,
      nullId: Object.hasOwn(value, 'id'),
    };
  }
  return { kind: 'request', id: id!, method: value.method, params };
}

/** A cancellation must name a big id exactly as its request did (docs/PROTOCOL.md section 2). */
function withExactRequestId(params: JsonObject, text: string): JsonObject {
  const requestId = params.requestId;
  if (
    typeof requestId !== 'number' ||
    !Number.isInteger(requestId) ||
    Number.isSafeInteger(requestId)
  ) {
    return params;
  }
  const lexeme = findNumberLexeme(text, ['params', 'requestId']);
  return lexeme === undefined ? params : { ...params, requestId: new RawIntegerId(lexeme) };
}

// A per-process token that user data cannot guess, standing in for raw big-integer ids.
const RAW_ID_TOKEN = `__mcp_raw_integer_${Math.random().toString(36).slice(2)}_`;
const RAW_ID_PATTERN = new RegExp(`"${RAW_ID_TOKEN}(-?[0-9][0-9eE+.-]*)"`, 'g');

/**
 * Where a raw id can sit in an outbound frame: the response id, and a listen stream's
 * subscription id in `_meta`. Checked first so ordinary frames skip the slow replacer.
 */
function mayHoldRawId(message: JsonObject): boolean {
  if (message.id instanceof RawIntegerId) return true;
  const body = (message.result ?? message.params) as JsonObject | undefined;
  const meta = body?._meta as JsonObject | undefined;
  return meta !== undefined && Object.values(meta).some((value) => value instanceof RawIntegerId);
}

/** Serializes one outbound frame (no newline); big ids are written back verbatim. */
export function encodeFrame(message: JsonObject): string {
  if (!mayHoldRawId(message)) return JSON.stringify(message);
  const text = JSON.stringify(message, (_key, value: unknown) =>
    value instanceof RawIntegerId ? RAW_ID_TOKEN + value.lexeme : value,
  );
  return text.replace(RAW_ID_PATTERN, '$1');
}

export function resultFrame(id: RequestId, result: JsonObject): JsonObject {
  return { jsonrpc: '2.0', id, result };
}

export function errorFrame(id: RequestId | null, error: ProtocolError): JsonObject {
  const body: JsonObject = { code: error.code, message: error.message };
  if (error.data !== undefined) body.data = error.data;
  return { jsonrpc: '2.0', id, error: body };
}

export function notificationFrame(method: string, params: JsonObject): JsonObject {
  return { jsonrpc: '2.0', method, params };
}

/** JSON-RPC and MCP error codes this server puts on the wire (docs/PROTOCOL.md section 2). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  UnsupportedProtocolVersion: -32022,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** An error that goes on the wire as a JSON-RPC error response (numeric code). */
export class ProtocolError extends Error {
  constructor(
    readonly code: ErrorCodeValue,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** An error of the library's own API (string code); never put on the wire. */
export class LocalError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'LocalError';
  }
}

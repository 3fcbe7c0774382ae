export {
  McpServer,
  DEFAULT_MAX_CONCURRENT_CALLS,
  DEFAULT_MAX_QUEUED_CALLS,
  type ServerOptions,
} from './server/server.js';
export type { ServerIdentity } from './server/shape.js';
export type { FromSchema } from './server/from-schema.js';
export { defineTool } from './server/tool.js';
export type {
  ArgsOf,
  AudioContent,
  ContentAnnotations,
  ContentBlock,
  DispatchWrapper,
  EmbeddedResource,
  ImageContent,
  JsonSchema,
  LogLevel,
  ProgressUpdate,
  ResourceContents,
  ResourceLink,
  StandardResult,
  StandardSchema,
  TextContent,
  Tool,
  ToolAnnotations,
  ToolContext,
  ToolDescriptor,
  ToolResult,
  ToolSchema,
} from './server/tool.js';
export type { InboundLine, Transport } from './transport/transport.js';
export { StdioTransport, type StdioTransportOptions } from './transport/stdio.js';
export { ReplayTransport } from './transport/replay.js';
export { LineSplitter, DEFAULT_MAX_LINE_BYTES } from './transport/line-splitter.js';
export { ErrorCode, LocalError, ProtocolError } from './protocol/errors.js';
export {
  LEGACY_REVISIONS,
  MODERN_REVISIONS,
  type LegacyRevision,
  type ModernRevision,
  type Revision,
} from './protocol/revisions.js';
export { EXIT_DEADLINE_MS, serveStdio, type ServeStdioOptions } from './serve-stdio.js';
export {
  activeCapture,
  captureMode,
  childStdio,
  createCaptureWrapper,
  takeCapture,
  withCapture,
  CaptureError,
  CaptureStorageError,
  type ActiveCapture,
  type CaptureErrorCode,
  type CaptureModeInfo,
  type CapturedReport,
} from './capture/index.js';

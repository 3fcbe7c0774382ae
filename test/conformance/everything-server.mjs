#!/usr/bin/env node
// The "everything" fixture for the official MCP conformance suite
// (@modelcontextprotocol/conformance), served over stdio with the public API only.
// scripts/conformance.sh runs it behind test/conformance/http-bridge.mjs, because the
// suite speaks only HTTP. Tool names, arguments and payloads are the ones the suite's
// scenarios call (src/scenarios/server/tools.ts and json-schema-2020-12.ts upstream).
//
// Features the library may not offer yet are used behind runtime checks, so the same
// file passes more scenarios as soon as the library grows them (see EXPECTED.md):
//   - content arrays in tool results (image, audio, embedded resource): probed below
//   - context.log(level, data) for notifications/message (logging)
//   - server.unregister(name) for notifications/tools/list_changed
import { McpServer, ReplayTransport, serveStdio } from '../../dist/index.js';
import { IMAGE_BLOCK, JSON_SCHEMA_2020_12, TOOL_CONTENT, legacyInitialize } from './payloads.mjs';

const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false };
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Whether a tool result's `content` array reaches the wire: asked of a throwaway server
 * over a scripted conversation, since a type cannot be seen at run time. Until the
 * library carries content arrays, the content tools answer with their text only (and
 * their scenarios fail honestly).
 */
async function contentArraysSupported() {
  const probe = new McpServer({ name: 'probe', version: '0' });
  probe.register({
    name: 'probe',
    description: 'probe',
    inputSchema: NO_ARGUMENTS,
    run: () => ({
      text: 'probe',
      content: [IMAGE_BLOCK],
    }),
  });
  const lines = [
    legacyInitialize('probe'),
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'probe', arguments: {} } },
  ];
  const transport = new ReplayTransport(lines.map((line) => JSON.stringify(line)));
  const serving = probe.serve(transport);
  try {
    for (;;) {
      const frame = await transport.next(2000);
      if (frame.id !== 2) continue;
      const content = frame.result?.content;
      return Array.isArray(content) && content.some((block) => block.type === 'image');
    }
  } catch {
    return false;
  } finally {
    transport.end();
    await serving.catch(() => {});
  }
}

const contentArrays = await contentArraysSupported();

/** A result whose first text block is `text`, with `content` blocks where the library carries them. */
function withContent(text, content) {
  return contentArrays ? { text, content } : { text };
}

/** Logs through context.log where the library offers it; says so once on stderr otherwise. */
let loggingMissingSaid = false;
function log(context, level, data) {
  if (typeof context.log === 'function') return context.log(level, data);
  if (!loggingMissingSaid) {
    process.stderr.write('everything-server: context.log is not offered; no log messages\n');
    loggingMissingSaid = true;
  }
}

const server = new McpServer({ name: 'mcp-gates-everything', version: '1.0.0' });

server.register({
  name: 'test_simple_text',
  description: 'Returns a simple text response',
  inputSchema: NO_ARGUMENTS,
  run: () => ({ text: 'This is a simple text response for testing.' }),
});

server.register({
  name: 'test_image_content',
  description: 'Returns image content',
  inputSchema: NO_ARGUMENTS,
  run: () => withContent('An image:', TOOL_CONTENT.test_image_content),
});

server.register({
  name: 'test_audio_content',
  description: 'Returns audio content',
  inputSchema: NO_ARGUMENTS,
  run: () => withContent('An audio clip:', TOOL_CONTENT.test_audio_content),
});

server.register({
  name: 'test_embedded_resource',
  description: 'Returns embedded resource content',
  inputSchema: NO_ARGUMENTS,
  run: () => withContent('An embedded resource:', TOOL_CONTENT.test_embedded_resource),
});

server.register({
  name: 'test_multiple_content_types',
  description: 'Returns multiple content types (text, image, resource)',
  inputSchema: NO_ARGUMENTS,
  run: () => withContent('Multiple content types test:', TOOL_CONTENT.test_multiple_content_types),
});

server.register({
  name: 'test_tool_with_logging',
  description: 'Sends log messages during execution',
  inputSchema: NO_ARGUMENTS,
  run: async (_args, context) => {
    await log(context, 'info', 'Tool execution started');
    await pause(50);
    await log(context, 'info', 'Tool processing data');
    await pause(50);
    await log(context, 'info', 'Tool execution completed');
    return { text: 'Tool with logging executed successfully' };
  },
});

server.register({
  name: 'test_tool_with_progress',
  description: 'Reports progress notifications',
  inputSchema: NO_ARGUMENTS,
  run: async (_args, { progress }) => {
    progress({ progress: 0, total: 100, message: 'Starting' });
    await pause(50);
    progress({ progress: 50, total: 100, message: 'Halfway' });
    await pause(50);
    progress({ progress: 100, total: 100, message: 'Done' });
    return { text: 'Progress test completed' };
  },
});

server.register({
  name: 'test_error_handling',
  description: 'Always fails, as a tool result with isError',
  inputSchema: NO_ARGUMENTS,
  run: () => ({ text: 'This tool intentionally returns an error for testing', isError: true }),
});

server.register({
  name: 'json_schema_2020_12_tool',
  description: 'Tool with JSON Schema 2020-12 features',
  inputSchema: JSON_SCHEMA_2020_12,
  run: (args) => ({ text: `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}` }),
});

// 2026-07-28 diagnostic (server-stateless): logs, so the library can show that it sends
// no notifications/message to a request that set no logLevel.
server.register({
  name: 'test_logging_tool',
  description: 'Tries to log; the log level of the request decides what is sent',
  inputSchema: NO_ARGUMENTS,
  run: async (_args, context) => {
    await log(context, 'info', 'test_logging_tool ran');
    return { text: 'logged' };
  },
});

// notifications/tools/list_changed: a tool that removes itself, where the library can.
if (typeof server.unregister === 'function') {
  server.register({
    name: 'test_unregister_self',
    description: 'Removes itself from the tool list (sends notifications/tools/list_changed)',
    inputSchema: NO_ARGUMENTS,
    run: () => {
      server.unregister('test_unregister_self');
      return { text: 'unregistered' };
    },
  });
}

await serveStdio(server);

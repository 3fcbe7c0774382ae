#!/usr/bin/env node
// The same everything fixture on the official TypeScript SDK, for the comparison figures
// of scripts/conformance.mjs --compare (never gating):
//   node sdk-everything-server.mjs v1   @modelcontextprotocol/sdk, low-level Server (legacy era)
//   node sdk-everything-server.mjs v2   @modelcontextprotocol/server, McpServer (both eras)
// Each tool returns what the suite expects, with each SDK's own logging and progress.
import { JSON_SCHEMA_2020_12, TOOL_CONTENT } from './payloads.mjs';

const NO_ARGUMENTS = { type: 'object', properties: {} };
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (value) => ({ type: 'text', text: value });

/** Tools as plain data; `run(args, io)` gets `io.log(level, data)` and `io.progress(p, total)`. */
const TOOLS = [
  [
    'test_simple_text',
    'Returns a simple text response',
    NO_ARGUMENTS,
    () => ({
      content: [text('This is a simple text response for testing.')],
    }),
  ],
  [
    'test_image_content',
    'Returns image content',
    NO_ARGUMENTS,
    () => ({ content: TOOL_CONTENT.test_image_content }),
  ],
  [
    'test_audio_content',
    'Returns audio content',
    NO_ARGUMENTS,
    () => ({ content: TOOL_CONTENT.test_audio_content }),
  ],
  [
    'test_embedded_resource',
    'Returns embedded resource content',
    NO_ARGUMENTS,
    () => ({
      content: TOOL_CONTENT.test_embedded_resource,
    }),
  ],
  [
    'test_multiple_content_types',
    'Returns text, image and resource',
    NO_ARGUMENTS,
    () => ({
      content: [text('Multiple content types test:'), ...TOOL_CONTENT.test_multiple_content_types],
    }),
  ],
  [
    'test_tool_with_logging',
    'Sends log messages during execution',
    NO_ARGUMENTS,
    async (_args, io) => {
      for (const message of [
        'Tool execution started',
        'Tool processing data',
        'Tool execution completed',
      ]) {
        await io.log('info', message);
        await pause(50);
      }
      return { content: [text('Tool with logging executed successfully')] };
    },
  ],
  [
    'test_tool_with_progress',
    'Reports progress notifications',
    NO_ARGUMENTS,
    async (_args, io) => {
      for (const progress of [0, 50, 100]) {
        await io.progress(progress, 100);
        await pause(50);
      }
      return { content: [text('Progress test completed')] };
    },
  ],
  [
    'test_error_handling',
    'Always fails, as a tool result with isError',
    NO_ARGUMENTS,
    () => ({
      content: [text('This tool intentionally returns an error for testing')],
      isError: true,
    }),
  ],
  [
    'json_schema_2020_12_tool',
    'Tool with JSON Schema 2020-12 features',
    JSON_SCHEMA_2020_12,
    (args) => ({
      content: [text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`)],
    }),
  ],
];

const identity = { name: 'sdk-everything', version: '1.0.0' };
const capabilities = { tools: {}, logging: {} };

if (process.argv[2] === 'v1') {
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const types = await import('@modelcontextprotocol/sdk/types.js');
  const server = new Server(identity, { capabilities });
  server.setRequestHandler(types.ListToolsRequestSchema, () => ({
    tools: TOOLS.map(([name, description, inputSchema]) => ({ name, description, inputSchema })),
  }));
  server.setRequestHandler(types.CallToolRequestSchema, (request, extra) => {
    const tool = TOOLS.find(([name]) => name === request.params.name);
    if (!tool) throw new Error(`Unknown tool: ${request.params.name}`);
    const token = request.params._meta?.progressToken;
    return tool[3](request.params.arguments ?? {}, {
      log: (level, data) => server.sendLoggingMessage({ level, data }, extra.sessionId),
      progress: (progress, total) =>
        token === undefined
          ? undefined
          : extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken: token, progress, total },
            }),
    });
  });
  await server.connect(new StdioServerTransport());
} else if (process.argv[2] === 'v2') {
  const { McpServer, fromJsonSchema } = await import('@modelcontextprotocol/server');
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  serveStdio(() => {
    const server = new McpServer(identity, { capabilities });
    for (const [name, description, schema, run] of TOOLS) {
      server.registerTool(
        name,
        { description, inputSchema: fromJsonSchema(schema) },
        (args, ctx) => {
          const token = ctx.mcpReq._meta?.progressToken;
          return run(args ?? {}, {
            log: (level, data) => ctx.mcpReq.log(level, data),
            progress: (progress, total) =>
              token === undefined
                ? undefined
                : ctx.mcpReq.notify({
                    method: 'notifications/progress',
                    params: { progressToken: token, progress, total },
                  }),
          });
        },
      );
    }
    return server;
  });
} else {
  process.stderr.write('usage: sdk-everything-server.mjs v1|v2\n');
  process.exit(2);
}

// The official TypeScript SDK v1 (@modelcontextprotocol/sdk) with one `echo` tool.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'bench-echo', version: '1.0.0' });
server.registerTool(
  'echo',
  { description: 'Returns the text it is given.', inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);

await server.connect(new StdioServerTransport());

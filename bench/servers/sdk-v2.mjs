// The official v2 server (@modelcontextprotocol/server) with one `echo` tool; its
// serveStdio entry serves a legacy or a 2026-07-28 connection from the same factory.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

serveStdio(() => {
  const server = new McpServer({ name: 'bench-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Returns the text it is given.',
      inputSchema: z.object({ text: z.string() }),
    },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
});

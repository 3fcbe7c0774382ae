// Our server with one `echo` tool; `--no-capture` serves it with capture off.
import { McpServer, serveStdio } from '../../dist/index.js';

const server = new McpServer({ name: 'bench-echo', version: '1.0.0' });
server.register({
  name: 'echo',
  description: 'Returns the text it is given.',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
    additionalProperties: false,
  },
  run: ({ text }) => ({ text }),
});

await serveStdio(server, { capture: !process.argv.includes('--no-capture') });

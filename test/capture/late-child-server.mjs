// A stdio MCP server (library use, serveStdio) for test/capture-lifecycle.test.mjs:
// `spawn_late` starts a child with childStdio() that writes a marker 300 ms later and
// returns at once, printing nothing itself; `wait` is quiet and takes `ms`.
import { spawn } from 'node:child_process';
import { McpServer, childStdio, serveStdio } from '../../dist/index.js';

const server = new McpServer({ name: 'late-child-server', version: '1.0.0' });

server.register({
  name: 'spawn_late',
  description: 'Starts a child that writes LATE-CHILD-TEXT after 300 ms; returns at once.',
  inputSchema: { type: 'object' },
  run: () => {
    const child = spawn(
      process.execPath,
      ['-e', "setTimeout(() => process.stderr.write('LATE-CHILD-TEXT\\n'), 300)"],
      { stdio: childStdio() },
    );
    child.unref();
    return { text: `spawned ${child.pid}` };
  },
});

server.register({
  name: 'wait',
  description: 'Writes nothing and returns after `ms` milliseconds.',
  inputSchema: { type: 'object', properties: { ms: { type: 'integer', minimum: 0 } } },
  run: ({ ms = 0 }) => new Promise((resolve) => setTimeout(() => resolve({ text: 'waited' }), ms)),
});

await serveStdio(server);

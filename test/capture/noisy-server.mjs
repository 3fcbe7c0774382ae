// A stdio MCP server for the serveStdio tests: tools that write every way they can,
// including a child with inherited stdio that prints a forged protocol frame.
import { spawn } from 'node:child_process';
import { McpServer, childStdio, serveStdio } from '../../dist/index.js';

const FORGED_FRAME =
  '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"forged"}]}}';

const server = new McpServer({ name: 'noisy-server', version: '1.0.0' });
const noInput = { type: 'object', additionalProperties: false };

function waitForClose(child) {
  return new Promise((resolve, reject) => child.on('close', resolve).on('error', reject));
}

server.register({
  name: 'noisy',
  inputSchema: noInput,
  run: async () => {
    console.log('S-console-log');
    console.error('S-console-error');
    process.stdout.write('S-stdout-write\n');
    const script = `process.stdout.write('S-child-stdout\\n'); process.stderr.write('S-child-stderr\\n')`;
    await waitForClose(spawn(process.execPath, ['-e', script], { stdio: childStdio() }));
    return { text: 'done' };
  },
});

server.register({
  name: 'forger',
  inputSchema: noInput,
  run: async () => {
    // 'inherit' everywhere: only the stdio guard keeps this child off the channel.
    const script = `process.stdout.write(${JSON.stringify(FORGED_FRAME + '\n')})`;
    await waitForClose(spawn(process.execPath, ['-e', script], { stdio: 'inherit' }));
    return { text: 'forger done' };
  },
});

server.register({
  name: 'hang',
  inputSchema: noInput,
  run: () => {
    process.stderr.write('S-hang-started\n');
    return new Promise(() => {});
  },
});

// Stray output once serving (output before the guard is the caller's to avoid):
// it must reach stderr, never the channel.
setImmediate(() => console.log('stray console.log'));
await serveStdio(server);

#!/usr/bin/env node
// A complete MCP server over stdio: `node examples/echo-server.mjs`.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpServer, childStdio, serveStdio } from 'mcp-gates';

const server = new McpServer({ name: 'echo-server', version: '1.0.0' });

server.register({
  name: 'echo',
  description: 'Returns the text it is given.',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: ({ text }) => ({ text }),
});

server.register({
  name: 'fail',
  description: 'Always fails, to show what a failed tool looks like.',
  inputSchema: { type: 'object', additionalProperties: false },
  annotations: { readOnlyHint: true },
  run: () => ({ text: 'fail: this tool failed on purpose', isError: true }),
});

server.register({
  name: 'slow',
  description: 'Waits `ms` milliseconds, reporting progress; stops when cancelled.',
  inputSchema: {
    type: 'object',
    properties: { ms: { type: 'integer', minimum: 0, maximum: 600000 } },
    required: ['ms'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
  run: ({ ms }, { signal, progress }) =>
    new Promise((resolve) => {
      const started = Date.now();
      const ticker = setInterval(() => {
        const elapsed = Date.now() - started;
        progress({ progress: elapsed, total: ms, message: `${elapsed} of ${ms} ms` });
      }, 100);
      const finish = (text) => {
        clearInterval(ticker);
        clearTimeout(timer);
        resolve({ text });
      };
      const timer = setTimeout(() => finish(`waited ${ms} ms`), ms);
      signal.addEventListener('abort', () => finish(`cancelled after ${Date.now() - started} ms`));
    }),
});

server.register({
  name: 'noisy',
  description: 'Writes markers every way a tool can, to show that all of it is captured.',
  inputSchema: { type: 'object', additionalProperties: false },
  annotations: { readOnlyHint: true },
  run: async () => {
    console.log('marker: console.log');
    console.error('marker: console.error');
    process.stdout.write('marker: process.stdout.write\n');
    const script =
      "process.stdout.write('marker: child stdout\\n'); process.stderr.write('marker: child stderr\\n')";
    const child = spawn(process.execPath, ['-e', script], { stdio: childStdio() });
    // 'close', not 'exit': the child's output is complete only once its pipes close.
    await new Promise((resolve, reject) => child.on('close', resolve).on('error', reject));
    return { text: 'done' };
  },
});

// Run by hand in a terminal, a stdio server shows nothing until a client speaks: say so
// once, on stderr (stdout is the protocol channel).
if (process.stdin.isTTY) {
  const script = path.relative(process.cwd(), fileURLToPath(import.meta.url));
  process.stderr.write(
    `echo-server: serving MCP on stdin/stdout, for an MCP client to start. Try it with the MCP Inspector: npx @modelcontextprotocol/inspector node ${script}\n`,
  );
}
await serveStdio(server);

// Spawns the example server as a real process and speaks raw JSON-RPC lines to it.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { scaled } from './machine-speed.mjs';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const ECHO_SERVER = fileURLToPath(
  new URL('../../examples/echo-server.mjs', import.meta.url),
);

const running = new Set();

/** A spawned server: stdout split into raw lines, stderr kept as text, the exit awaited. */
export class ServerProcess {
  constructor(args = [ECHO_SERVER], options = {}) {
    this.child = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
      ...options,
    });
    running.add(this);
    this.lines = [];
    this.frames = [];
    this.stderr = '';
    this.stdoutBytes = Buffer.alloc(0);
    this.waiters = [];
    this.stdinError = undefined;
    this.exit = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        running.delete(this);
        this.exitedAt = Date.now();
        resolve({ code, signal });
      });
    });
    // Writing after the server is gone is a test scenario, not a test crash.
    this.child.stdin.on('error', (error) => (this.stdinError = error));
    this.child.stdout.on('data', (chunk) => this.onStdout(chunk));
    this.child.stderr.on('data', (chunk) => (this.stderr += chunk.toString('utf8')));
  }

  get pid() {
    return this.child.pid;
  }

  onStdout(chunk) {
    this.stdoutBytes = Buffer.concat([this.stdoutBytes, chunk]);
    let newline;
    while ((newline = this.stdoutBytes.indexOf(0x0a)) !== -1) {
      const line = this.stdoutBytes.subarray(0, newline).toString('utf8');
      this.stdoutBytes = this.stdoutBytes.subarray(newline + 1);
      this.lines.push(line);
      let frame;
      try {
        frame = JSON.parse(line);
      } catch {
        frame = { notJson: line };
      }
      this.frames.push(frame);
      for (const waiter of [...this.waiters]) {
        if (waiter.predicate(frame, line)) {
          clearTimeout(waiter.timer);
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(frame);
        }
      }
    }
  }

  /** Writes raw bytes or text exactly as given. */
  write(data) {
    return new Promise((resolve) => this.child.stdin.write(data, () => resolve()));
  }

  /** Sends one message (object or raw text) followed by `\n`. */
  send(message) {
    return this.write((typeof message === 'string' ? message : JSON.stringify(message)) + '\n');
  }

  /** Resolves with the first frame, already read or future, that matches. */
  waitFor(predicate, timeoutMs = scaled(5000)) {
    const index = this.frames.findIndex((frame, i) => predicate(frame, this.lines[i]));
    if (index !== -1) return Promise.resolve(this.frames[index]);
    return new Promise((resolve, reject) => {
      const waiter = { predicate, resolve };
      waiter.timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(
          new Error(
            `no matching frame within ${timeoutMs} ms; stdout so far:\n${this.lines.join('\n').slice(-2000)}\nstderr:\n${this.stderr.slice(-2000)}`,
          ),
        );
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Resolves with the response to request `id` (compared with its JSON type). */
  response(id, timeoutMs) {
    return this.waitFor(
      (frame) =>
        frame !== null &&
        typeof frame === 'object' &&
        !Array.isArray(frame) &&
        !('method' in frame) &&
        'id' in frame &&
        frame.id === id,
      timeoutMs,
    );
  }

  async request(id, method, params, timeoutMs) {
    const message = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message.params = params;
    await this.send(message);
    return this.response(id, timeoutMs);
  }

  async initialize(protocolVersion = '2025-11-25', id = 'init') {
    const reply = await this.request(id, 'initialize', {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'raw-wire-test', version: '0.0.1' },
    });
    await this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return reply;
  }

  /** Resolves with the exit, or rejects when it takes longer than `timeoutMs`. */
  exitWithin(timeoutMs) {
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(
        () =>
          reject(new Error(`server still running after ${timeoutMs} ms; stderr:\n${this.stderr}`)),
        timeoutMs,
      );
    });
    return Promise.race([this.exit, late]).finally(() => clearTimeout(timer));
  }

  /** Peak and current resident memory in bytes, from /proc (Linux only). */
  memory() {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)[1]);
    return { peak: kib('VmHWM') * 1024, resident: kib('VmRSS') * 1024 };
  }

  kill() {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** Kills every server still running (for afterEach). */
export function killAllServers() {
  for (const server of running) server.kill();
}

/** Modern `_meta` for raw requests. */
export function modernMeta() {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
}

/** Kills a pid if it is still alive (for processes a client library spawned). */
export function killPid(pid) {
  if (!pid) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch (error) {
    if (error.code !== 'ESRCH') throw error;
  }
}

export const MARKERS = [
  'marker: console.log',
  'marker: console.error',
  'marker: process.stdout.write',
  'marker: child stdout',
  'marker: child stderr',
];

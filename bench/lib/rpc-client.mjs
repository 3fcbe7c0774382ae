// A raw JSON-RPC client over child_process pipes: the same few lines of client cost
// for every server measured, and no SDK in the measured path.
import { spawn } from 'node:child_process';
import fs from 'node:fs';

const STDERR_TAIL_BYTES = 4096;

/** Reads `VmRSS` / `VmHWM` (bytes) of a live process from /proc. */
export function readMemory(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!match) throw new Error(`/proc/${pid}/status has no ${name}: this bench needs Linux`);
    return Number(match[1]) * 1024;
  };
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

export class RpcClient {
  /** Spawns `node [nodeArgs] <script> ...args` and starts reading its frames. */
  constructor(script, args = [], options = {}) {
    this.startedAt = process.hrtime.bigint();
    this.child = spawn(process.execPath, [...(options.nodeArgs ?? []), script, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      cwd: options.cwd,
      env: options.env ?? process.env,
    });
    this.pending = new Map();
    this.nextId = 1;
    this.stderrTail = '';
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    this.child.on('exit', () => this.failAll('the server exited'));
    this.child.stdin.on('error', () => {}); // EPIPE when the server dies: reported via exit
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text) => {
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_BYTES);
    });
    let partial = '';
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (text) => {
      const lines = (partial + text).split('\n');
      partial = lines.pop();
      for (const line of lines) if (line !== '') this.receive(line);
    });
  }

  get pid() {
    return this.child.pid;
  }

  receive(line) {
    const receivedAt = process.hrtime.bigint();
    let frame;
    try {
      frame = JSON.parse(line);
    } catch {
      this.failAll(`the server wrote a line that is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    if (frame.id === undefined || frame.method !== undefined) return; // a notification
    const waiter = this.pending.get(frame.id);
    if (!waiter) return;
    this.pending.delete(frame.id);
    if (frame.error)
      waiter.reject(new Error(`${waiter.method} failed: ${JSON.stringify(frame.error)}`));
    else waiter.resolve({ result: frame.result, receivedAt });
  }

  failAll(why) {
    const error = new Error(`${why}; stderr: ${this.stderrTail.trim() || '(empty)'}`);
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }

  /** The line for one request, and the promise of its answer `{result, receivedAt}`. */
  prepare(method, params) {
    const id = this.nextId++;
    const answer = new Promise((resolve, reject) =>
      this.pending.set(id, { resolve, reject, method }),
    );
    return {
      line: `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${JSON.stringify(params)}}\n`,
      answer,
    };
  }

  request(method, params) {
    const { line, answer } = this.prepare(method, params);
    this.child.stdin.write(line);
    return answer;
  }

  notify(method, params) {
    this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method, params }) + '\n');
  }

  /** Sends `lines` in one write. */
  writeAll(lines) {
    this.child.stdin.write(lines.join(''));
  }

  memory() {
    return readMemory(this.child.pid);
  }

  /** Ends the conversation by closing stdin (the stdio shutdown of every era). */
  async close(timeoutMs = 5000) {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const status = await this.exited;
    clearTimeout(timer);
    return status;
  }
}

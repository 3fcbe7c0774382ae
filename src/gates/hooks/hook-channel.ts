import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { HOOK_EVENTS, type HookEvent, type HookVerdict } from './hook-hosts.js';

/**
 * The local channel through which `mcp-gates hook` asks the server already running for the
 * same root, so a command hook answers warm. A Unix domain socket (POSIX only; none on
 * Windows) in a directory private to the user: `$XDG_RUNTIME_DIR/mcp-gates/` when set
 * (absolute), else `~/.cache/mcp-gates/sockets/` (`$XDG_CACHE_HOME` when absolute; never
 * the shared temp directory); the directory must be ours, a real
 * directory (no symlink) and closed to others (no group or other bits), or neither side
 * uses it. No port, no token file: the directory's mode is the access control, as for any
 * per-user socket. One request per connection, one JSON line each way, bounded; closing the
 * connection cancels the hook's gates.
 */

export const CHANNEL_VERSION = 1 as const;
/** A request or a response is one JSON line far below this. */
const MAX_LINE_BYTES = 1024 * 1024;
/** How long a hook waits to reach a server before it runs the gates itself. */
const CONNECT_TIMEOUT_MS = 500;
/** Sockets are named by a hash of the root: short enough for the ~104-byte path limit. */
const NAME_CHARS = 24;
/** At most this many hook requests at once from the channel. */
const MAX_CONNECTIONS = 8;

export interface ChannelRequest {
  version: typeof CHANNEL_VERSION;
  event: HookEvent;
  paths: string[];
  loopFlag: boolean;
  sessionId: string;
  base?: string;
  budgetMs?: number;
}

export interface ChannelResponse {
  verdict: HookVerdict;
  cancelled: boolean;
}

/** A socket's path must fit `sun_path` (104 bytes on macOS, 108 on Linux). */
const MAX_SOCKET_PATH_BYTES = 103;

/** The directory the sockets live in, or undefined on Windows (no uid to check). */
function channelDirectory(env: NodeJS.ProcessEnv): string | undefined {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return undefined;
  const absolute = (value: string | undefined) =>
    value && path.isAbsolute(value) ? value : undefined;
  const runtime = absolute(env.XDG_RUNTIME_DIR);
  if (runtime) return path.join(runtime, 'mcp-gates');
  const cache = absolute(env.XDG_CACHE_HOME) ?? path.join(os.homedir(), '.cache');
  return path.join(cache, 'mcp-gates', 'sockets');
}

/** Why a directory is not private to this user, or undefined when it is. */
function notPrivate(directory: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(directory);
  } catch (error) {
    return `cannot read ${directory}: ${(error as NodeJS.ErrnoException).code}`;
  }
  if (!stat.isDirectory()) return `${directory} is not a directory (a symlink?)`;
  if (stat.uid !== process.getuid!()) return `${directory} belongs to another user`;
  if ((stat.mode & 0o077) !== 0)
    return `${directory} is open to other users (mode ${(stat.mode & 0o777).toString(8)})`;
  return undefined;
}

/** The socket of the server for `root`, or why there is none to use. */
export function channelPath(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): { socket: string } | { why: string } {
  const directory = channelDirectory(env);
  if (directory === undefined) return { why: 'no local hook channel on this platform' };
  let real: string;
  try {
    real = fs.realpathSync(root);
  } catch {
    return { why: `cannot resolve ${root}` };
  }
  const name = crypto.createHash('sha256').update(real).digest('hex').slice(0, NAME_CHARS);
  const socket = path.join(directory, `${name}.sock`);
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH_BYTES)
    return { why: `the socket path ${socket} is too long for a Unix socket; set XDG_RUNTIME_DIR` };
  return { socket };
}

function makePrivateDirectory(directory: string): string | undefined {
  try {
    fs.mkdirSync(directory, { mode: 0o700, recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      return `cannot create ${directory}: ${(error as Error).message}`;
  }
  return notPrivate(directory);
}

/** Reads one newline-ended JSON line from a socket, at most MAX_LINE_BYTES. */
function readLine(socket: net.Socket): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const end = buffered.indexOf('\n');
      if (end >= 0) {
        cleanup();
        try {
          resolve(JSON.parse(buffered.slice(0, end)));
        } catch (error) {
          reject(error as Error);
        }
      } else if (buffered.length > MAX_LINE_BYTES) {
        cleanup();
        reject(new Error('line too long'));
      }
    };
    const onEnd = () => {
      cleanup();
      reject(new Error('closed before a whole line'));
    };
    const cleanup = () => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('error', onEnd);
    };
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', onEnd);
  });
}

function isRequest(value: unknown): value is ChannelRequest {
  const request = value as ChannelRequest | null;
  return (
    typeof request === 'object' &&
    request !== null &&
    request.version === CHANNEL_VERSION &&
    HOOK_EVENTS.includes(request.event) &&
    Array.isArray(request.paths) &&
    request.paths.every((file) => typeof file === 'string') &&
    typeof request.loopFlag === 'boolean' &&
    typeof request.sessionId === 'string' &&
    (request.base === undefined || typeof request.base === 'string') &&
    (request.budgetMs === undefined || Number.isSafeInteger(request.budgetMs))
  );
}

/** Whether a server answers on the socket (a stale file is left by one that was killed). */
function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(socket);
    const timer = setTimeout(() => done(false), CONNECT_TIMEOUT_MS);
    const done = (alive: boolean) => {
      clearTimeout(timer);
      probe.destroy();
      resolve(alive);
    };
    probe.once('connect', () => done(true));
    probe.once('error', () => done(false));
  });
}

/** At most this many other sockets are looked at when a server starts listening. */
const MAX_SWEPT = 100;

/**
 * Removes the sockets that servers killed outright left behind (no server answers on
 * them): only our own sockets, in our private directory, never following a link.
 */
async function sweepStaleSockets(directory: string, own: string): Promise<void> {
  let names: string[];
  try {
    names = fs.readdirSync(directory).filter((name) => name.endsWith('.sock'));
  } catch {
    return;
  }
  for (const name of names.slice(0, MAX_SWEPT)) {
    const file = path.join(directory, name);
    if (file === own) continue;
    try {
      const stat = fs.lstatSync(file);
      if (!stat.isSocket() || stat.uid !== process.getuid!()) continue;
      if (!(await answers(file)) && fs.lstatSync(file).ino === stat.ino) fs.rmSync(file);
    } catch {
      // Gone meanwhile, or not ours to judge.
    }
  }
}

export type ChannelHandler = (
  request: ChannelRequest,
  signal: AbortSignal,
) => Promise<ChannelResponse>;

export interface HookChannel {
  socket: string;
  close(): void;
}

/**
 * The socket for `root` when its directory is private to this user (made so first when
 * `create`), or why it may not be used.
 */
function privateSocket(
  root: string,
  env: NodeJS.ProcessEnv,
  create: boolean,
): { socket: string } | { why: string } {
  const where = channelPath(root, env);
  if ('why' in where) return where;
  const directory = path.dirname(where.socket);
  const problem = create ? makePrivateDirectory(directory) : notPrivate(directory);
  return problem ? { why: problem } : where;
}

/**
 * Listens for hook requests for `root` (in `serve`); resolves to the reason instead when
 * it cannot listen safely or another server for the root already does.
 */
export async function listenForHooks(
  root: string,
  handle: ChannelHandler,
  env: NodeJS.ProcessEnv = process.env,
): Promise<HookChannel | { why: string }> {
  const where = privateSocket(root, env, true);
  if ('why' in where) return where;
  const { socket } = where;
  if (fs.existsSync(socket)) {
    if (await answers(socket)) return { why: `another server for ${root} answers on ${socket}` };
    fs.rmSync(socket, { force: true });
  }
  const server = net.createServer({ allowHalfOpen: true }, (connection) => {
    const cancel = new AbortController();
    connection.on('close', () => cancel.abort());
    connection.on('error', () => cancel.abort());
    readLine(connection)
      .then(async (request) => {
        if (!isRequest(request)) throw new Error('not a hook request');
        const response = await handle(request, cancel.signal);
        if (!connection.destroyed) connection.end(`${JSON.stringify(response)}\n`);
      })
      .catch(() => connection.destroy());
  });
  server.maxConnections = MAX_CONNECTIONS;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socket, () => resolve());
    });
  } catch (error) {
    return { why: `cannot listen on ${socket}: ${(error as Error).message}` };
  }
  fs.chmodSync(socket, 0o600);
  const inode = fs.statSync(socket).ino;
  server.unref();
  void sweepStaleSockets(path.dirname(socket), socket);
  return {
    socket,
    close: () => {
      server.close();
      // Only our own socket: another server may have taken the name since.
      try {
        if (fs.statSync(socket).ino === inode) fs.rmSync(socket, { force: true });
      } catch {
        // Already gone.
      }
    },
  };
}

/**
 * Asks the server for `root` to answer a hook (in `mcp-gates hook`): its response, or why
 * none came (no server, a directory that is not private, a refused request...), in which
 * case the hook runs the gates itself. `signal` (the hook being ended) closes the
 * connection, which cancels the server's run.
 */
export async function askServer(
  root: string,
  request: ChannelRequest,
  signal: AbortSignal,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ChannelResponse | { why: string }> {
  const where = privateSocket(root, env, false);
  if ('why' in where) return where;
  if (!fs.existsSync(where.socket)) return { why: 'no server is running for this root' };
  return new Promise((resolve) => {
    const connection = net.connect(where.socket);
    const timer = setTimeout(
      () => finish({ why: 'the server did not answer the connection' }),
      CONNECT_TIMEOUT_MS,
    );
    const onAbort = () => finish({ why: 'cancelled' });
    const finish = (result: ChannelResponse | { why: string }) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      connection.destroy();
      resolve(result);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    connection.once('error', (error) =>
      finish({ why: `cannot reach the server: ${error.message}` }),
    );
    connection.once('connect', () => {
      clearTimeout(timer);
      connection.write(`${JSON.stringify(request)}\n`);
      readLine(connection).then(
        (response) => {
          const answer = response as ChannelResponse | null;
          if (typeof answer?.verdict?.block === 'boolean' && typeof answer.cancelled === 'boolean')
            finish(answer);
          else finish({ why: 'the server answered something else' });
        },
        (error: Error) => finish({ why: `the server did not answer: ${error.message}` }),
      );
    });
  });
}

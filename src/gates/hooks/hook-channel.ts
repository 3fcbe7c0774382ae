import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { HOOK_EVENTS, type HookEvent, type HookVerdict } from './hook-hosts.js';
import { budgetProblem } from './hook-budget.js';
import { makePrivateDirectory, notPrivate, userCacheHome } from '../run/private-directory.js';

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
 *
 * A socket is stale only when no process holds it (the kernel refuses a connect), never
 * because an answer is slow; a server checks its socket every SOCKET_CHECK_MS and makes it
 * again when it is gone, and a server that found another one holding it takes over when
 * that one goes.
 */

export const CHANNEL_VERSION = 1 as const;
/** A request or a response is one JSON line far below this. */
const MAX_LINE_BYTES = 1024 * 1024;
/** How long a hook waits to reach a server before it runs the gates itself. */
const CONNECT_TIMEOUT_MS = 500;
/** Sockets are named by a hash of the root: short enough for the ~104-byte path limit. */
const NAME_CHARS = 24;
/** At most this many hook requests at once from the channel; more are refused, saying so. */
const MAX_CONNECTIONS = 8;
/** How long a connection may take to send its request line: an idle one holds a slot. */
const REQUEST_TIMEOUT_MS = 3000;
/** How often a server checks that its socket is still there (or, waiting, still held). */
const SOCKET_CHECK_MS = 1000;

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

/** What a server answers when it cannot take a request: why, for the hook to say. */
export interface ChannelRefusal {
  refused: string;
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
  return path.join(userCacheHome(env), 'mcp-gates', 'sockets');
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

/** Reads one newline-ended JSON line from a socket, at most MAX_LINE_BYTES (within `timeoutMs`). */
function readLine(socket: net.Socket, timeoutMs?: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            cleanup();
            reject(new Error(`no request line within ${timeoutMs} ms`));
          }, timeoutMs);
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
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('error', onEnd);
    };
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', onEnd);
  });
}

/** Why `value` is no hook request this server takes, or undefined when it is one. */
function requestProblem(value: unknown): string | undefined {
  if (!isRequest(value)) return 'not a hook request of this version';
  if (value.budgetMs !== undefined) return budgetProblem(value.budgetMs);
  return undefined;
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

/**
 * Whether a process holds the socket: 'stale' only when the kernel refuses the connect (no
 * one listens: a server killed outright left it), 'gone' when there is no file; a slow or
 * busy server is 'held', whatever it takes to answer.
 */
function holder(socket: string): Promise<'held' | 'stale' | 'gone'> {
  return new Promise((resolve) => {
    const probe = net.connect(socket);
    const done = (state: 'held' | 'stale' | 'gone') => {
      probe.destroy();
      resolve(state);
    };
    probe.once('connect', () => done('held'));
    probe.once('error', (error: NodeJS.ErrnoException) =>
      done(error.code === 'ECONNREFUSED' ? 'stale' : error.code === 'ENOENT' ? 'gone' : 'held'),
    );
  });
}

/** Removes `file` if it is still the socket `inode` (another may have taken the name since). */
function removeIfSame(file: string, inode: number): void {
  try {
    if (fs.lstatSync(file).ino === inode) fs.rmSync(file);
  } catch {
    // Gone meanwhile.
  }
}

/** At most this many other sockets are looked at when a server starts listening. */
const MAX_SWEPT = 100;

/**
 * Removes the sockets that servers killed outright left behind (a connect to them is
 * refused): only our own sockets, in our private directory, never following a link.
 */
async function sweepStaleSockets(directory: string, own: string): Promise<void> {
  let names: string[];
  try {
    // `.t`: a name a server listened on before renaming it into place.
    names = fs
      .readdirSync(directory)
      .filter((name) => name.endsWith('.sock') || name.endsWith('.t'));
  } catch {
    return;
  }
  for (const name of names.slice(0, MAX_SWEPT)) {
    const file = path.join(directory, name);
    if (file === own) continue;
    try {
      const stat = fs.lstatSync(file);
      if (!stat.isSocket() || stat.uid !== process.getuid!()) continue;
      if ((await holder(file)) === 'stale') removeIfSame(file, stat.ino);
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
  /** Why this server does not listen yet (another live server does); it takes over when that one goes. */
  waiting?: string;
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

/** Numbers the names a server of this process listens on before renaming them into place. */
let listened = 0;

/** A server for the channel: one request line each way, within the connection limit. */
function channelServer(handle: ChannelHandler): net.Server {
  let active = 0;
  return net.createServer({ allowHalfOpen: true }, (connection) => {
    const refuse = (why: string) => {
      const refusal: ChannelRefusal = { refused: why };
      connection.end(`${JSON.stringify(refusal)}\n`);
    };
    connection.on('error', () => connection.destroy());
    // Past the limit the hook is told why, and says so, rather than finding a closed socket.
    if (active >= MAX_CONNECTIONS) {
      refuse(`the server is already answering ${MAX_CONNECTIONS} hook calls`);
      return;
    }
    active += 1;
    const cancel = new AbortController();
    connection.once('close', () => {
      active -= 1;
      cancel.abort();
    });
    readLine(connection, REQUEST_TIMEOUT_MS)
      .then(async (request) => {
        const problem = requestProblem(request);
        if (problem !== undefined) return refuse(problem);
        const response = await handle(request as ChannelRequest, cancel.signal);
        if (!connection.destroyed) connection.end(`${JSON.stringify(response)}\n`);
      })
      .catch(() => connection.destroy());
  });
}

/**
 * Listens for hook requests for `root` (in `serve`); resolves to the reason instead when
 * it cannot listen safely. While another live server holds the socket this one waits, and
 * takes the socket over when that one goes; a socket that disappears is made again.
 */
export async function listenForHooks(
  root: string,
  handle: ChannelHandler,
  env: NodeJS.ProcessEnv = process.env,
): Promise<HookChannel | { why: string }> {
  const where = privateSocket(root, env, true);
  if ('why' in where) return where;
  const { socket } = where;
  let server: net.Server | undefined;
  let inode: number | undefined;
  let closed = false;
  let checking = false;

  const stop = () => {
    server?.close();
    server = undefined;
    inode = undefined;
  };
  /** Listens on the socket unless a live server holds it (`held`) or it cannot (`why`). */
  const claim = async (): Promise<{ held: string } | { why: string } | undefined> => {
    let existing: fs.Stats | undefined;
    try {
      existing = fs.lstatSync(socket);
    } catch {
      // No socket: ours to make.
    }
    if (existing !== undefined && (await holder(socket)) === 'held') {
      stop();
      return { held: `another server for ${root} answers on ${socket}` };
    }
    // Listened on under a name of its own, then renamed into place (replacing a stale one
    // at once): closing a server unlinks the name it listened on, which must never be a
    // name another server may hold by then.
    const own = path.join(path.dirname(socket), `${process.pid.toString(36)}-${(listened += 1)}.t`);
    const next = channelServer(handle);
    let made: number;
    try {
      fs.rmSync(own, { force: true });
      await new Promise<void>((resolve, reject) => {
        next.once('error', reject);
        next.listen(own, () => resolve());
      });
      fs.chmodSync(own, 0o600);
      made = fs.lstatSync(own).ino;
      fs.renameSync(own, socket);
    } catch (error) {
      next.close();
      return { why: `cannot listen on ${socket}: ${(error as Error).message}` };
    }
    next.unref();
    if (closed) {
      // Closed while this was listening: nothing may stay behind.
      removeIfSame(socket, made);
      next.close();
      return undefined;
    }
    stop();
    server = next;
    inode = made;
    return undefined;
  };
  /** Whether the socket on disk is still the one this server listens on. */
  const ours = () => {
    try {
      return server !== undefined && fs.lstatSync(socket).ino === inode;
    } catch {
      return false;
    }
  };
  const first = await claim();
  if (first !== undefined && 'why' in first) return first;
  const check = setInterval(() => {
    if (closed || checking || ours()) return;
    checking = true;
    void claim().finally(() => (checking = false));
  }, SOCKET_CHECK_MS);
  check.unref();
  void sweepStaleSockets(path.dirname(socket), socket);
  return {
    socket,
    ...(first !== undefined ? { waiting: first.held } : {}),
    close: () => {
      closed = true;
      clearInterval(check);
      // Only our own socket: another server may have taken the name since.
      if (inode !== undefined) removeIfSame(socket, inode);
      stop();
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
): Promise<ChannelResponse | { why: string; refused?: true }> {
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
    const finish = (result: ChannelResponse | { why: string; refused?: true }) => {
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
          const answer = response as Partial<ChannelResponse & ChannelRefusal> | null;
          if (typeof answer?.verdict?.block === 'boolean' && typeof answer.cancelled === 'boolean')
            finish(answer as ChannelResponse);
          else if (typeof answer?.refused === 'string')
            finish({ why: `the server refused the request: ${answer.refused}`, refused: true });
          else finish({ why: 'the server answered something else' });
        },
        (error: Error) => finish({ why: `the server did not answer: ${error.message}` }),
      );
    });
  });
}

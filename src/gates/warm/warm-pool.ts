import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import {
  killGateTreeExceptLeader,
  releaseGate,
  treeExceptLeaderProblem,
  watchGate,
} from '../run/gate-lifeline.js';
import type { PhaseTimes } from '../phase-timing.js';
import { BuildInfoStore } from '../run/tsc-incremental.js';
import {
  capFor,
  megabytes,
  memoryPolicy,
  workerExecArgv,
  type MemoryPolicy,
} from './memory-cap.js';
import { removeWorkerDirectory } from './worker-directory.js';
import {
  WARM_TOOLS,
  type WarmAbandonedReply,
  type WarmAbandonMessage,
  type WarmReply,
  type WarmTool,
} from './warm-protocol.js';
import type { Incremental } from './tool-adapter.js';

/**
 * Warm gates: a pool of worker processes, one per (root, tool, environment), each a
 * child of this process spoken to over its private IPC channel, started on first use
 * and kept for the next calls. A worker serves a call only when every config,
 * dependency and module file it loaded is unchanged (it checks before each call and
 * exits when one changed; the pool then starts a fresh one), so a warm result equals a
 * cold run of the same command on the same tree. Bounded: at most `maxWorkers`, each
 * stopped above its memory cap (memory-cap.ts: sized to the project, or fixed) and after
 * `idleMs` without a call. A cancelled or timed-out call cancels its answer: a tsc worker
 * finishes the check and keeps its program for the next call (unless it crashes, goes
 * above its cap or is still at it after `abandonedCallLimitMs`), an ESLint worker does too
 * once it says it refuses every effect until its next call (else, and a Prettier worker,
 * it is killed). A worker above its cap after its very first call would be replaced after every
 * call: its gate runs cold from then on, and says why.
 *
 * A warm call dies like a cold gate's: each worker leads a process tree on the gate
 * lifeline (POSIX: its own process group; Windows: a job), so whatever the tool starts
 * is killed when the call ends (every process of the tree but the worker), and with the
 * worker's tree when the worker goes or the server dies however it dies. A worker that
 * is killed has its private directory removed by the pool once it is dead.
 */

export interface WarmPoolOptions {
  /** Most workers alive at once; the least recently used idle one makes room. Default 3. */
  maxWorkers?: number;
  /**
   * A fixed cap: a worker whose RSS exceeds this after a call is stopped. Default: sized
   * per worker (memory-cap.ts), or MCP_GATES_WARM_MEMORY_MB of the server's environment.
   */
  memoryCapBytes?: number;
  /**
   * A worker idle this long exits. Default 10 minutes. A worker whose first call (what a
   * fresh one costs) took long waits longer (IDLE_PER_START times that, at most
   * MAX_IDLE_MS), and none exits while another worker of the pool runs a call.
   */
  idleMs?: number;
  /** The IDLE_PER_START of this pool (0: every worker waits `idleMs`). */
  idlePerStartCall?: number;
  /**
   * A call abandoned by its caller that its worker still runs after this long is a hang:
   * the worker is killed. Default 10 minutes.
   */
  abandonedCallLimitMs?: number;
  /**
   * Where TypeScript 7 build info outlives the pool (run/tsc-incremental.ts): `serve` keeps
   * it in the user's cache. Default: a temporary directory, removed when the pool closes.
   */
  buildInfoDirectory?: string;
}

export interface WarmRunRequest {
  root: string;
  /** The gate's command, program first (`eslint src --format json`). */
  argv: readonly string[];
  /** Which warm tool; default: from the program name of argv[0]. */
  tool?: WarmTool;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The gate's environment (the runner's, colour off); part of the worker's identity. */
  env?: NodeJS.ProcessEnv;
}

export type WarmRunResult =
  | {
      kind: 'ran';
      exitCode: number;
      stdout: string;
      stderr: string;
      /** Runs of [stream, characters] in write order (0 stdout, 1 stderr), when known. */
      order?: [0 | 1, number][];
      durationMs: number;
      /** This call started the worker (first use, or a restart after a change). */
      startedWorker: boolean;
      /** The worker returned its earlier result: nothing that run read has changed since. */
      reused: boolean;
      /** When not reused, why (the first changed input, or what the last run did). */
      notReusedBecause?: string;
      /** Files kept and checked again by an incremental run. */
      incremental?: Incremental;
      /** Why an earlier worker was replaced before this call, if it was. */
      restartedBecause?: string;
      /** Why the worker was stopped after this call (its memory cap), if it was. */
      stoppedBecause?: string;
      /** The worker's own phases of the call, when timed (phase-timing.ts). */
      phases?: PhaseTimes;
    }
  /** Run the cold command instead: the reason says why this call cannot run warm. */
  | { kind: 'not-warmable'; reason: string }
  /**
   * The call did not finish: its worker died, was killed, or (tsc) finishes the call for
   * the next one; the reason says which.
   */
  | {
      kind: 'failed';
      end: 'cancelled' | 'timed-out' | 'worker-died';
      reason: string;
      durationMs: number;
    };

const DEFAULT_MAX_WORKERS = 3;
const DEFAULT_IDLE_MS = 10 * 60 * 1000;
/**
 * A worker waits at least this many times its first call's duration before it retires
 * idle: on vuejs/core under load a first lint takes 1-2 minutes and one round of gates
 * longer than 10, so a fixed 10 minutes made the session pay whole cold starts again.
 */
const IDLE_PER_START = 20;
/** The longest an idle worker is kept, however slow its start. */
const MAX_IDLE_MS = 2 * 60 * 60 * 1000;
const DEFAULT_ABANDONED_CALL_LIMIT_MS = 10 * 60 * 1000;
const STDERR_TAIL_BYTES = 4096;
/** How long a retired worker has to exit on its own before it is killed. */
const RETIRE_GRACE_MS = 1000;
/** How long a stopped call waits for its killed worker to be gone before it answers. */
const KILL_WAIT_MS = 2000;
/** How long close() waits for its workers to be gone (a retired one gets SIGKILL at 1 s). */
const CLOSE_WAIT_MS = RETIRE_GRACE_MS + 500;
/** Not-warmable answers remembered at most (the oldest goes first). */
const MAX_COLD_ANSWERS = 256;

const WORKER_MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'worker-main.js');

/** The warm tool a command runs (`eslint`, `node_modules/.bin/tsc`, `prettier.cmd`), if any. */
export function warmToolOf(argv: readonly string[]): WarmTool | undefined {
  const program = path.basename(argv[0] ?? '').replace(/\.(cmd|exe|js|cjs|mjs)$/i, '');
  return WARM_TOOLS.find((tool) => tool === program);
}

type Reply = WarmReply | { type: 'exited'; reason: string };
type StopEnd = 'cancelled' | 'timed-out';
/**
 * A call stopped by its caller: its worker was killed, kept (it finishes the call for the
 * next one), or not reached (the call was still waiting for an earlier one).
 */
type CallReply =
  | Reply
  | { type: 'stopped'; end: StopEnd; worker: 'killed' | 'kept' | 'not-reached' }
  /** The worker went while the call waited for its turn: the call never reached it. */
  | { type: 'gone'; reason: string };

/**
 * Tools whose worker finishes a call its caller gave up on (a cancel, the budget), and
 * keeps what it built: tsc's builder is the cost of a big project's first call, which
 * would otherwise be paid again by every call that runs out of budget. TypeScript runs no
 * code but its own and writes nothing (the host's writeFile does nothing); ESLint and
 * Prettier run plugins, which could write or start processes while no call watches the
 * tree: their worker is killed.
 */
const FINISHES_ABANDONED_CALLS: ReadonlySet<WarmTool> = new Set(['tsc']);
/**
 * Tools whose worker finishes an abandoned call once it has said it refuses, from then on
 * until its next call, every effect the recorder knows (a write, a child process, a thread,
 * a native addon: read-ledger.ts); one that refused one is not kept. ESLint's next call
 * then starts from the kept parts of this one instead of loading again. (Prettier's
 * worker keeps little a call builds: it is still killed.)
 */
const FINISHES_ABANDONED_UNWATCHED: ReadonlySet<WarmTool> = new Set(['eslint']);

/** The period of the timer a call holds the event loop with (it never fires in practice). */
const HOLD_INTERVAL_MS = 2 ** 30;

/** Workers not yet gone, of every pool: the server's exit ends them (see endAtExit). */
const liveWorkers = new Set<WarmWorker>();
let exitHookInstalled = false;

class WarmWorker {
  readonly child: ChildProcess;
  private nextId = 1;
  private pending: { id: number; settle: (reply: Reply) => void } | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private abandonedTimer: ReturnType<typeof setTimeout> | undefined;
  /** Callers waiting for an answer: the worker holds the event loop while there are any. */
  private callers = 0;
  /** Told when the running call's reply comes (abandon waits for it or for the worker's word). */
  private afterReply: (() => void) | undefined;
  /** Why the worker died on its own while no call ran, if it did. */
  diedBecause: string | undefined;
  /** Why the pool killed this worker while it finished an abandoned call, if it did. */
  hungBecause: string | undefined;
  private stderrTail = '';
  exited = false;
  stopped = false;
  lastUsed = Date.now();
  busy = false;
  /** Calls answered with a result (a reused one included), and the cap set after the first. */
  callsAnswered = 0;
  capBytes: number | undefined;
  /** How long the worker's first call took (its load with it): what replacing it costs. */
  private firstCallMs: number | undefined;
  /** Settles once the worker has exited and what it left is gone (cleanUp). */
  readonly gone: Promise<void>;
  private markGone!: () => void;

  constructor(
    readonly key: string,
    readonly tool: WarmTool,
    root: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly idleMs: number,
    private readonly idlePerStartCall: number,
    private readonly onExit: (worker: WarmWorker) => void,
    execArgv: readonly string[],
    private readonly abandonedLimitMs: number,
    /** The reply to a call whose caller gave up on it (the pool's health checks see it). */
    private readonly onAbandonedReply: (worker: WarmWorker, reply: Reply) => void,
    /** Whether another worker of the pool runs a call now (the session is busy). */
    private readonly othersBusy: () => boolean = () => false,
  ) {
    this.child = spawn(process.execPath, [...execArgv, WORKER_MAIN, root, tool], {
      cwd: root,
      env,
      // stdin: held open and never written; its close tells the worker its owner is gone.
      stdio: ['pipe', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
      windowsHide: true,
      shell: false,
      // POSIX: leads a process group of its own, as a cold gate does, so the tool's
      // children can be told from the server's and killed (Windows: its job does that).
      detached: process.platform !== 'win32',
    });
    this.gone = new Promise((resolve) => (this.markGone = resolve));
    liveWorkers.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on('exit', () => {
        for (const worker of liveWorkers) worker.endAtExit();
      });
    }
    // On the lifeline at once: no process of its tree outlives the server.
    watchGate(this.child);
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    this.child.on('message', (reply: WarmReply | WarmAbandonedReply) => {
      // An abandoned call's word that it refuses effects is abandon's, not the call's reply.
      if (reply.type === 'abandoned') return;
      if (this.pending && reply.id === this.pending.id) this.pending.settle(reply);
    });
    this.child.on('error', () => this.markExited('could not be started'));
    this.child.on('exit', (code, signal) =>
      this.markExited(signal ? `was killed by ${signal}` : `exited with code ${code}`),
    );
    this.release();
  }

  private markExited(how: string): void {
    if (this.exited) return;
    this.exited = true;
    // Before the pending call hears of it: an answer comes after the cleanup.
    this.cleanUp();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.abandonedUntil(undefined);
    const said = lastWords(this.stderrTail);
    // Died between calls (an abandoned call's timer refused a write): the next call is told.
    if (!this.pending && !this.stopped)
      this.diedBecause = `the warm ${this.tool} worker ${how} between calls${said ? `: ${said}` : ''}`;
    this.pending?.settle({
      type: 'exited',
      reason: `the warm ${this.tool} worker ${how}${said ? `: ${said}` : ''}`,
    });
    this.onExit(this);
  }

  /**
   * Holds the event loop only while a caller waits for an answer; an idle worker, or one
   * finishing a call its caller gave up on, never keeps it alive.
   */
  private hold(): void {
    this.callers++;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.child.ref();
    this.child.channel?.ref();
  }

  /** A caller has its answer or gave up on it. */
  private letGo(): void {
    this.callers--;
    if (this.callers === 0 && !this.exited && !this.stopped) this.release();
  }

  /** Lets the event loop go; the idle time counts once no call runs. */
  private release(): void {
    this.child.unref();
    this.child.channel?.unref();
    (this.child.stdin as unknown as { _handle?: { unref(): void } })?._handle?.unref();
    (this.child.stderr as unknown as { _handle?: { unref(): void } })?._handle?.unref();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.busy) return;
    this.idleTimer = setTimeout(() => this.idleTimeUp(), this.idleLimitMs());
    this.idleTimer.unref();
  }

  /** How long this worker waits idle: longer the more a fresh one would cost. */
  idleLimitMs(): number {
    const start = this.firstCallMs ?? 0;
    return Math.max(this.idleMs, Math.min(MAX_IDLE_MS, this.idlePerStartCall * start));
  }

  /** Idle long enough: retires, unless the session is busy with another gate. */
  private idleTimeUp(): void {
    this.idleTimer = undefined;
    if (this.exited || this.stopped || this.busy) return;
    if (this.othersBusy()) {
      this.idleTimer = setTimeout(() => this.idleTimeUp(), this.idleLimitMs());
      this.idleTimer.unref();
      return;
    }
    void this.retire();
  }

  /** The worker has exited (or never started): the rest of its tree and its directory go. */
  private cleanUp(): void {
    releaseGate(this.child);
    if (this.child.pid !== undefined) removeWorkerDirectory(this.child.pid, this.env);
    liveWorkers.delete(this);
    this.markGone();
  }

  /** SIGKILL to the worker's whole tree (POSIX: its group; Windows: its job), worker included. */
  private killTree(): void {
    releaseGate(this.child);
    // Windows without the addon has no job: the worker at least.
    if (!this.exited) this.child.kill('SIGKILL');
  }

  /**
   * Stops the worker now; the pool forgets it at once (a next call never reaches it).
   * Settles once it is dead and its private directory removed.
   */
  kill(): Promise<void> {
    this.stopped = true;
    this.killTree();
    this.onExit(this);
    return this.gone;
  }

  /**
   * Stops an idle worker the way it cleans up after itself: its stdin closes, it exits and
   * removes its private directory; SIGKILL follows if it has not gone within a second.
   * Settles once it is gone, with the rest of its tree and its directory.
   */
  retire(): Promise<void> {
    if (this.busy) return this.kill();
    this.stopped = true;
    this.onExit(this);
    if (this.exited) return this.gone;
    this.child.stdin?.end();
    const fallback = setTimeout(() => this.killTree(), RETIRE_GRACE_MS);
    fallback.unref();
    return this.gone;
  }

  /**
   * The server is exiting (synchronously, so no exit event will come): the worker's tree
   * is killed and its directory removed now, as a cold gate's tree is killed at exit.
   */
  endAtExit(): void {
    if (this.exited) return;
    this.killTree();
    if (this.child.pid !== undefined) removeWorkerDirectory(this.child.pid, this.env);
  }

  /**
   * The call is over and the worker lives on: nothing the tool started may outlive the
   * call (a child it spawned and unref'd included), as after a cold gate's call. When
   * that cannot be made sure of, the worker goes too.
   */
  private async endCall(): Promise<void> {
    if (this.exited || killGateTreeExceptLeader(this.child)) return;
    await this.kill();
  }

  /**
   * One call; calls to the same worker run one after another. The budget (timeout and
   * signal) counts from here, the wait for an earlier call included; a call stopped before
   * its turn never reaches the worker.
   */
  call(args: string[], timeoutMs: number, signal: AbortSignal | undefined): Promise<CallReply> {
    return new Promise<CallReply>((resolve) => {
      /** The caller has its answer, or gave up on one: a reply from now on is abandoned. */
      let answered = false;
      let sent = false;
      const answer = (reply: CallReply) => {
        if (answered) return;
        answered = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.letGo();
        resolve(reply);
      };
      const stop = (end: StopEnd) => {
        if (answered) return;
        if (!sent) return answer({ type: 'stopped', end, worker: 'not-reached' });
        if (FINISHES_ABANDONED_CALLS.has(this.tool)) {
          // Only the answer is cancelled: the worker finishes the call (its program, kept
          // results and read records as after any call), so the next call is incremental.
          this.abandonedUntil(Date.now() + this.abandonedLimitMs);
          return answer({ type: 'stopped', end, worker: 'kept' });
        }
        if (FINISHES_ABANDONED_UNWATCHED.has(this.tool)) {
          // Answered once the worker refuses effects (or has replied), while the caller
          // still waits, so its gate's fingerprint after the call sees all the call did.
          answered = true;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          void this.abandon().then((kept) => {
            if (kept) this.abandonedUntil(Date.now() + this.abandonedLimitMs);
            this.letGo();
            resolve({ type: 'stopped', end, worker: kept ? 'kept' : 'killed' });
          });
          return;
        }
        // The tool's state mid-call is unknown, and it may run code of any plugin while
        // no one watches the tree: the worker goes, the next call starts fresh. Answered
        // once the worker's tree is dead and its directory removed. (Bounded: a process
        // the system does not let die must not hold the call.)
        answered = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        void Promise.race([this.kill(), delay(KILL_WAIT_MS, undefined, { ref: false })]).then(
          () => {
            this.letGo();
            resolve({ type: 'stopped', end, worker: 'killed' });
          },
        );
      };
      const onAbort = () => stop('cancelled');
      const timer = setTimeout(() => stop('timed-out'), timeoutMs);
      this.hold();
      if (signal?.aborted) return stop('cancelled');
      signal?.addEventListener('abort', onAbort, { once: true });

      const turn = async () => {
        if (answered) return;
        if (this.exited || this.stopped)
          return answer({ type: 'gone', reason: `the warm ${this.tool} worker was stopped` });
        sent = true;
        this.busy = true;
        this.lastUsed = Date.now();
        const sentAt = this.lastUsed;
        let reply: Reply;
        try {
          reply = await this.send(args);
          if (reply.type !== 'exited') await this.endCall();
        } catch (error) {
          // What the call started could not be made sure of: the worker goes.
          void this.kill();
          reply = {
            type: 'exited',
            reason: `the warm ${this.tool} worker could not end its call (${(error as Error)?.message ?? String(error)})`,
          };
        } finally {
          this.busy = false;
          this.lastUsed = Date.now();
          this.firstCallMs ??= this.lastUsed - sentAt;
          this.abandonedUntil(undefined);
        }
        if (answered) this.onAbandonedReply(this, reply);
        else answer(reply);
        if (!this.exited && !this.stopped && this.callers === 0) this.release();
      };
      this.queue = this.queue.then(turn, turn);
    });
  }

  /**
   * Tells the worker its running call is abandoned, and waits (bounded) until it refuses
   * effects or has replied; then kills what the call started. False when the worker was
   * killed instead: it did not answer in time, or its children could not be killed.
   */
  private async abandon(): Promise<boolean> {
    const id = this.pending?.id;
    if (id !== undefined) {
      const acknowledged = await new Promise<boolean>((settle) => {
        const timer = setTimeout(() => done(false), KILL_WAIT_MS);
        const done = (ok: boolean) => {
          clearTimeout(timer);
          this.child.off('message', onMessage);
          this.afterReply = undefined;
          settle(ok);
        };
        const onMessage = (message: WarmAbandonedReply | WarmReply) => {
          if (message?.type === 'abandoned' && message.id === id) done(true);
        };
        this.child.on('message', onMessage);
        // The reply may come first: the call is over, as watched as any.
        this.afterReply = () => done(true);
        this.child.send({ type: 'abandon', id } satisfies WarmAbandonMessage, (error) => {
          if (error) done(false);
        });
      });
      if (!acknowledged || this.exited) {
        await Promise.race([this.kill(), delay(KILL_WAIT_MS, undefined, { ref: false })]);
        return false;
      }
    }
    // A child started while the call was watched could still write: it goes now.
    if (this.exited || killGateTreeExceptLeader(this.child)) return !this.exited;
    await Promise.race([this.kill(), delay(KILL_WAIT_MS, undefined, { ref: false })]);
    return false;
  }

  /** Sends one call to the worker; settles with its reply, or when the worker exits. */
  private send(args: string[]): Promise<Reply> {
    const id = this.nextId++;
    return new Promise<Reply>((settle) => {
      this.pending = {
        id,
        settle: (reply) => {
          this.pending = undefined;
          this.afterReply?.();
          settle(reply);
        },
      };
      this.child.send({ type: 'run', id, args }, (error) => {
        if (error) {
          this.pending?.settle({
            type: 'exited',
            reason: `the warm ${this.tool} worker could not be reached (${error.message})`,
          });
        }
      });
    });
  }

  /**
   * While an abandoned call runs, the worker is killed at `deadline` (a hang, not a long
   * check); undefined clears it.
   */
  private abandonedUntil(deadline: number | undefined): void {
    if (this.abandonedTimer) clearTimeout(this.abandonedTimer);
    this.abandonedTimer = undefined;
    if (deadline === undefined) return;
    this.abandonedTimer = setTimeout(() => {
      this.hungBecause = `its call, abandoned by its caller, was still running after ${this.abandonedLimitMs} ms`;
      // Told now, not when the exit is read: the next call may come first.
      this.onAbandonedReply(this, { type: 'exited', reason: this.hungBecause });
      void this.kill();
    }, deadline - Date.now());
    this.abandonedTimer.unref();
  }
}

export class WarmPool {
  private readonly workers = new Map<string, WarmWorker>();
  /** Every worker of this pool not yet gone, retired ones still exiting included. */
  private readonly live = new Set<WarmWorker>();
  private readonly coldAnswers = new Map<string, string>();
  private readonly maxWorkers: number;
  private readonly memory: MemoryPolicy;
  private readonly idleMs: number;
  private readonly idlePerStartCall: number;
  /** TypeScript 7 build info kept between calls (run/tsc-incremental.ts). */
  readonly buildInfo: BuildInfoStore;
  /** Workers (by key) that were above their cap after their first call: why they run cold. */
  private readonly tooBig = new Map<string, string>();
  private readonly abandonedCallLimitMs: number;
  /**
   * Why a worker (by key) went after a call whose caller had given up on it (its inputs
   * changed, its memory, a hang): told by the next call, which starts a fresh one.
   */
  private readonly restartReasons = new Map<string, string>();
  /** Closed: a call that finds its worker gone starts no other. */
  private closed = false;

  constructor(options: WarmPoolOptions = {}) {
    this.maxWorkers = Math.max(1, options.maxWorkers ?? DEFAULT_MAX_WORKERS);
    this.memory = memoryPolicy(process.env, undefined, options.memoryCapBytes);
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.buildInfo = new BuildInfoStore(options.buildInfoDirectory);
    this.idlePerStartCall = options.idlePerStartCall ?? IDLE_PER_START;
    this.abandonedCallLimitMs = options.abandonedCallLimitMs ?? DEFAULT_ABANDONED_CALL_LIMIT_MS;
  }

  /** The memory cap rule in force (for diagnostics and tests). */
  get memoryPolicy(): MemoryPolicy {
    return this.memory;
  }

  /** Process ids of the live workers (for diagnostics and tests). */
  workerPids(): number[] {
    return [...this.workers.values()].flatMap((worker) =>
      worker.child.pid ? [worker.child.pid] : [],
    );
  }

  /**
   * A not-warmable answer remembered under the caller's key (its command and a signature
   * of its inputs), so a repeat call runs cold at once instead of asking a worker again.
   */
  knownCold(key: string): string | undefined {
    return this.coldAnswers.get(key);
  }

  rememberCold(key: string, reason: string): void {
    if (this.coldAnswers.size >= MAX_COLD_ANSWERS)
      this.coldAnswers.delete(this.coldAnswers.keys().next().value!);
    this.coldAnswers.set(key, reason);
  }

  /**
   * Stops every worker of this pool (retired ones still exiting included); settles once
   * each is gone, with its tree and its private directory, or after CLOSE_WAIT_MS (a
   * worker the system has not let die yet is left to the exit hook).
   */
  async close(): Promise<void> {
    this.closed = true;
    this.buildInfo.close();
    const going = [...this.live].map((worker) => worker.retire());
    this.workers.clear();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)));
    await Promise.race([Promise.all(going), waited]);
    clearTimeout(timer);
  }

  /**
   * Runs one call, holding the event loop until its answer: a worker holds it only while it
   * answers, so between a stale worker's reply and its replacement's start nothing would,
   * and a script awaiting only this call would end mid-call.
   */
  async run(request: WarmRunRequest): Promise<WarmRunResult> {
    const held = setInterval(() => {}, HOLD_INTERVAL_MS);
    try {
      return await this.answer(request);
    } finally {
      clearInterval(held);
    }
  }

  private async answer(request: WarmRunRequest): Promise<WarmRunResult> {
    const started = Date.now();
    const tool = request.tool ?? warmToolOf(request.argv);
    if (!tool)
      return {
        kind: 'not-warmable',
        reason: `${request.argv[0] ?? 'no program'} has no warm worker`,
      };
    const unkillable = treeExceptLeaderProblem();
    if (unkillable)
      return {
        kind: 'not-warmable',
        reason: `a warm call's children could not be killed at its end (${unkillable})`,
      };
    const env = request.env ?? process.env;
    const root = path.resolve(request.root);
    const key = [root, tool, createHash('sha256').update(JSON.stringify(env)).digest('hex')].join(
      '\0',
    );
    const args = request.argv.slice(1);
    let restartedBecause: string | undefined;
    // A stale worker exits (or went while the call waited); one fresh worker gets one try
    // (it loads what is there now), unless a worker of this key was too big.
    for (let attempt = 0; attempt < 2; attempt++) {
      const tooBig = this.tooBig.get(key);
      if (tooBig) return { kind: 'not-warmable', reason: tooBig };
      restartedBecause = this.restartReasons.get(key) ?? restartedBecause;
      this.restartReasons.delete(key);
      let worker = this.workers.get(key);
      const startedWorker = !worker || worker.exited || worker.stopped;
      if (!worker || worker.exited || worker.stopped)
        worker = this.startWorker(key, tool, root, env);
      const remaining = Math.max(1, request.timeoutMs - (Date.now() - started));
      const reply = await worker.call(args, remaining, request.signal);
      const durationMs = Date.now() - started;
      if (reply.type === 'stopped') {
        const call =
          reply.end === 'cancelled'
            ? `the warm ${tool} call was cancelled`
            : `the warm ${tool} call took longer than ${request.timeoutMs} ms`;
        const worker = {
          killed: 'its worker was stopped',
          kept: 'its worker finishes the check for the next call, which starts from it',
          'not-reached':
            'its worker was still finishing an earlier call, which the next call starts from',
        }[reply.worker];
        return { kind: 'failed', end: reply.end, reason: `${call}; ${worker}`, durationMs };
      }
      // The worker went while this call waited for its turn (an earlier call, one its
      // caller gave up on included, found an input changed or the worker above its cap):
      // a fresh worker answers, told why when the pool knows. Unless the pool is closing.
      if (reply.type === 'gone' && !this.closed) continue;
      if (reply.type === 'exited' || reply.type === 'gone')
        return { kind: 'failed', end: 'worker-died', reason: reply.reason, durationMs };
      if (reply.type === 'stale') {
        restartedBecause = reply.reason;
        await worker.kill();
        continue;
      }
      const stoppedBecause = this.checkMemory(worker, reply.rssBytes);
      if (reply.type === 'not-warmable') return { kind: 'not-warmable', reason: reply.reason };
      return {
        kind: 'ran',
        exitCode: reply.exitCode,
        stdout: reply.stdout,
        stderr: reply.stderr,
        ...(reply.order ? { order: reply.order } : {}),
        durationMs,
        startedWorker,
        reused: reply.reused,
        ...(reply.notReusedBecause ? { notReusedBecause: reply.notReusedBecause } : {}),
        ...(reply.incremental ? { incremental: reply.incremental } : {}),
        ...(restartedBecause ? { restartedBecause } : {}),
        ...(stoppedBecause ? { stoppedBecause } : {}),
        ...(reply.phases ? { phases: reply.phases } : {}),
      };
    }
    return {
      kind: 'not-warmable',
      reason: `inputs kept changing while the warm ${tool} worker loaded (${restartedBecause})`,
    };
  }

  /**
   * After a call: the worker's cap is set from its first call's RSS; above it, the worker
   * is stopped, and when that was its first call, its key runs cold from now on (a fresh
   * worker would be stopped after every call). Says why it stopped the worker, if it did.
   */
  private checkMemory(worker: WarmWorker, rssBytes: number): string | undefined {
    worker.callsAnswered++;
    worker.capBytes ??= capFor(this.memory, rssBytes);
    if (rssBytes <= worker.capBytes) return undefined;
    void worker.retire();
    const over = `the warm ${worker.tool} worker's memory, ${megabytes(rssBytes)} after this call, is above its cap of ${megabytes(worker.capBytes)}`;
    if (worker.callsAnswered > 1)
      return `${over}; it was stopped, and the next call starts a fresh one`;
    const reason = `${over} after its first call, so it would be replaced after every call: this gate runs cold in this server (set MCP_GATES_WARM_MEMORY_MB above ${Math.ceil(rssBytes / (1024 * 1024))} to keep it warm)`;
    this.tooBig.set(worker.key, reason);
    return reason;
  }

  /**
   * The reply to a call whose caller gave up on it: the worker is checked as after any
   * call (its memory cap), and goes when its inputs changed; the next call is told why.
   */
  private abandonedReply(worker: WarmWorker, reply: Reply): void {
    let why: string | undefined;
    if (reply.type === 'stale') {
      why = reply.reason;
      void worker.kill();
    } else if (reply.type === 'exited') {
      why = worker.hungBecause ?? (worker.stopped ? undefined : reply.reason);
    } else {
      why = this.checkMemory(worker, reply.rssBytes);
    }
    if (why !== undefined) this.restartReasons.set(worker.key, why);
  }

  private forget(worker: WarmWorker): void {
    if (this.workers.get(worker.key) !== worker) return;
    this.workers.delete(worker.key);
    if (worker.diedBecause !== undefined) this.restartReasons.set(worker.key, worker.diedBecause);
  }

  private startWorker(
    key: string,
    tool: WarmTool,
    root: string,
    env: NodeJS.ProcessEnv,
  ): WarmWorker {
    while (this.workers.size >= this.maxWorkers) {
      const idle = [...this.workers.values()].filter((worker) => !worker.busy);
      if (idle.length === 0) break;
      const oldest = idle.reduce((a, b) => (a.lastUsed <= b.lastUsed ? a : b));
      oldest.retire();
    }
    const worker: WarmWorker = new WarmWorker(
      key,
      tool,
      root,
      env,
      this.idleMs,
      this.idlePerStartCall,
      (gone) => this.forget(gone),
      workerExecArgv(this.memory, env),
      this.abandonedCallLimitMs,
      (finished, reply) => this.abandonedReply(finished, reply),
      (): boolean => [...this.live].some((other) => other !== worker && other.busy),
    );
    this.workers.set(key, worker);
    this.live.add(worker);
    void worker.gone.then(() => this.live.delete(worker));
    return worker;
  }
}

/**
 * What a worker said as it died: the line naming an uncaught error (`TypeError: ...`), which
 * Node prints above the stack and the error's properties, else the last lines it wrote.
 */
export function lastWords(stderr: string): string {
  const lines = stderr.trim().split('\n');
  const error = [...lines].reverse().find((line) => /^(\w*Error|Uncaught \w+)\b[^:]*:/.test(line));
  const last = lines.slice(-3).join(' | ');
  return error === undefined || last.includes(error) ? last : `${error} | ... | ${last}`;
}

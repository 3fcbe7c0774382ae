import type { ChildProcess } from 'node:child_process';
import { loadNativeCapture } from '../../capture/load-native.js';

/** The addon's lifeline functions (native/lifeline.h); they live in the capture addon. */
interface NativeLifeline {
  readonly lifelineMechanism: string;
  watchGateTree(pid: number): void;
  releaseGateTree(pid: number): void;
  /** Absent from an addon built before warm calls' children were killed. */
  killGateTreeExceptLeader?(pid: number): boolean;
  watchdogPid(): number;
}

export type GateLifelineMode =
  { mode: 'native'; mechanism: string } | { mode: 'degraded'; reason: string };

let native: NativeLifeline | null | undefined;
let loadProblem = '';
/** Gates on the lifeline whose call has not ended (pids; POSIX: their group ids too). */
const watched = new Set<number>();
let exitHookInstalled = false;

function lifeline(): NativeLifeline | null {
  if (native !== undefined) return native;
  const loaded = loadNativeCapture();
  const binding = loaded.ok ? (loaded.binding as unknown as Partial<NativeLifeline>) : undefined;
  if (binding && typeof binding.watchGateTree === 'function') {
    native = binding as NativeLifeline;
  } else {
    native = null;
    loadProblem = loaded.ok
      ? `the addon at ${loaded.bindingPath} predates the lifeline; rebuild it (\`npm rebuild mcp-gates\`)`
      : loaded.reason;
  }
  return native;
}

/**
 * What ties gates to the server's life, for `mcp-gates doctor`. Native: no process of a
 * gate's tree outlives the server, even one killed with SIGKILL. Degraded: a server that
 * exits kills its gates' trees, but one that is killed outright (SIGKILL, a crash of
 * node itself) leaves a running gate behind.
 */
export function gateLifelineMode(): GateLifelineMode {
  const binding = lifeline();
  if (binding) return { mode: 'native', mechanism: binding.lifelineMechanism };
  return {
    mode: 'degraded',
    reason: `no watchdog, so a gate outlives a server killed with SIGKILL: ${loadProblem}`,
  };
}

/** The watchdog's pid (POSIX, once a gate has run), for tests; 0 otherwise. */
export function watchdogPidForTest(): number {
  return lifeline()?.watchdogPid() ?? 0;
}

/** Kills what is left of a gate's tree and forgets it (sync: also runs at exit). */
function release(pid: number): void {
  if (!watched.delete(pid)) return;
  const binding = lifeline();
  if (binding) {
    binding.releaseGateTree(pid);
    return;
  }
  if (process.platform === 'win32') return; // no group to reach once the gate has exited
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already empty.
  }
}

/**
 * Ties a just-spawned gate to the server's life: POSIX, its process group goes to the
 * watchdog (which SIGKILLs it if the server dies); Windows, the gate joins a
 * kill-on-close job. Also, whatever way the server exits, its exit kills the trees of
 * gates still running. A failure here never fails the gate: it still runs, untethered.
 */
export function watchGate(child: ChildProcess): void {
  const pid = child.pid;
  if (pid === undefined) return;
  watched.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const gate of [...watched]) release(gate);
    });
  }
  try {
    lifeline()?.watchGateTree(pid);
  } catch {
    // The gate exited before it could be put in its job (Windows), or the watchdog
    // could not start (fork failed): the exit hook and the call's end still reach it.
  }
}

/**
 * The gate's call has ended: kills every process left in its tree (a background child
 * with closed stdio included; Windows, descendants of the exited gate too, through its
 * job) and takes it off the lifeline.
 */
export function releaseGate(child: ChildProcess): void {
  if (child.pid !== undefined) release(child.pid);
}

/**
 * Why a gate's tree cannot be emptied while its leader lives on (no addon, or one built
 * before it could), or undefined when it can: a warm worker's calls need that.
 */
export function treeExceptLeaderProblem(): string | undefined {
  const binding = lifeline();
  if (!binding) return `no gate lifeline: ${loadProblem}`;
  if (typeof binding.killGateTreeExceptLeader !== 'function') {
    return "the capture addon predates killing a warm call's children; rebuild it (`npm rebuild mcp-gates`)";
  }
  return undefined;
}

/**
 * A warm call has ended and its worker (`child`, on the lifeline) lives on: kills every
 * other process of its tree (POSIX: of its process group; Windows: of its job), as
 * releaseGate does with a cold gate's whole tree. False when that could not be made
 * sure of (see treeExceptLeaderProblem, or children kept appearing): the caller must
 * then end the worker, which releaseGate does with its whole tree.
 */
export function killGateTreeExceptLeader(child: ChildProcess): boolean {
  const pid = child.pid;
  if (pid === undefined || !watched.has(pid)) return false;
  return lifeline()?.killGateTreeExceptLeader?.(pid) ?? false;
}

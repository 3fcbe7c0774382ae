import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Signals a gate's whole process tree. POSIX: the gate was spawned `detached`, so it
 * leads its own process group and `kill(-pid)` reaches every descendant that did not
 * start a session of its own. Windows has no groups: `taskkill /T /F` walks the tree by
 * parent pid (forcefully; there is no polite signal to send). Resolves once the signal
 * is delivered (on Windows, once taskkill has finished).
 */
export function signalProcessTree(
  child: ChildProcess,
  signal: 'SIGTERM' | 'SIGKILL',
): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return Promise.resolve();
  if (process.platform === 'win32') {
    // taskkill walks the tree from a pid: once the gate has exited, that pid may belong
    // to an unrelated process, so the tree is out of reach (its pipes are still closed).
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const killer = spawn('taskkill', ['/T', '/F', '/PID', String(pid)], {
        stdio: 'ignore',
        windowsHide: true,
      });
      killer.once('error', () => {
        child.kill('SIGKILL');
        resolve();
      });
      killer.once('close', () => resolve());
    });
  }
  try {
    process.kill(-pid, signal);
  } catch (error) {
    // ESRCH: the group is already gone. Anything else: at least reach the leader.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') child.kill(signal);
  }
  return Promise.resolve();
}

/** POSIX: whether any process of the gate's group is still alive. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const POLL_MS = 25;

/**
 * SIGTERM to the whole tree, then SIGKILL to whatever is left once `graceMs` has passed
 * (sooner if the group is already empty). Windows kills forcefully at once.
 */
export async function terminateProcessTree(child: ChildProcess, graceMs: number): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  await signalProcessTree(child, 'SIGTERM');
  if (process.platform === 'win32') return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && groupAlive(pid)) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  if (groupAlive(pid)) await signalProcessTree(child, 'SIGKILL');
}

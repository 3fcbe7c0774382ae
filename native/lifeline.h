// The gate lifeline: no process of a gate's tree outlives the server, even when the
// server is killed with SIGKILL (or TerminateProcess) and runs no exit code of its own.
// POSIX (lifeline_posix.cc): a watchdog process, forked on first use, that holds the
// read end of a pipe only the server can write to; it learns each gate's process group
// and, when the pipe reports end of file (the server is gone, however it died), kills
// every group it still knows and exits. Windows (lifeline_win.cc): one Job Object per
// gate with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE; the system closes the handle when the
// server dies, which kills every process in the job.
#ifndef MCP_GATES_LIFELINE_H
#define MCP_GATES_LIFELINE_H

#include <cstdint>

namespace lifeline {

// Puts the gate (just spawned, `pid`) on the lifeline: POSIX, its process group
// (pgid == pid, the gate leads it) is registered with the watchdog, which is started
// on the first call; Windows, the process is assigned to a new kill-on-close job.
// Throws capture::OsError when the lifeline cannot be set up.
void Watch(int64_t pid);

// The gate's call has ended: kills whatever is left of its tree (POSIX, SIGKILL to its
// process group; Windows, TerminateJobObject, which also reaches descendants of a gate
// that has exited) and takes it off the lifeline. Never throws; unknown pids are ignored.
void Release(int64_t pid);

// A warm worker's call has ended (the worker, `pid`, is watched and lives on): kills
// every other process of its tree, POSIX the other live members of its process group,
// Windows the other processes of its job. Goes pass after pass until one finds no
// process it has not already killed, so a child forked meanwhile is caught (POSIX: a
// process with SIGKILL pending cannot fork). Returns false when `pid` is not watched,
// the tree cannot be listed on this system, or new processes kept appearing: the caller
// then ends the whole tree, worker included. Never throws.
bool KillTreeExceptLeader(int64_t pid);

// How gates are tied to the server here ("watchdog process" or "job object"), and the
// watchdog's pid (POSIX; 0 before the first gate, and on Windows).
const char* Mechanism();
int64_t WatchdogPid();

}  // namespace lifeline

#endif  // MCP_GATES_LIFELINE_H

// POSIX lifeline: a watchdog process that kills every gate's process group once the
// server is gone, however it died (SIGKILL included). See lifeline.h for the contract.
//
// The server forks the watchdog on the first gate spawn. The watchdog holds the read end
// of a pipe whose write end only the server has (close-on-exec, so no gate inherits
// it). The server writes fixed-size messages: "watch pgid" when a gate starts, "release
// pgid" when its call has ended. When read() returns end of file, every process that
// held the write end is gone, that is the server: the watchdog sends SIGKILL to every
// group it still knows and exits. On Linux PR_SET_PDEATHSIG is a second trigger.
//
// The forked child of a multi-threaded process may only call async-signal-safe
// functions: everything after fork() in WatchdogMain is a plain system call on fixed-size
// arrays (no malloc, no locks, no C++ runtime).
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__linux__)
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#elif defined(__APPLE__)
#include <sys/sysctl.h>
#endif

#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "capture.h"
#include "lifeline.h"

namespace lifeline {
namespace {

constexpr int32_t kWatchGroup = 1;
constexpr int32_t kReleaseGroup = 2;

// One message per write: 8 bytes, far below PIPE_BUF, so each write is atomic.
struct Message {
  int32_t op;
  int32_t pgid;
};

// Groups the watchdog can hold at once; more gates than this never run at once (the
// server runs one at a time), so the table cannot fill in practice.
constexpr int kMaxGroups = 4096;
// The pipe's read end in the watchdog, moved to a fixed fd so every other fd can go.
constexpr int kWatchdogFd = 3;

std::mutex mutex;
int write_fd = -1;
pid_t watchdog_pid = 0;
// What the server has registered and not released: resent to a restarted watchdog.
std::set<pid_t> watched;

#if defined(__linux__)
// Does nothing but interrupt the watchdog's read(), which then checks its parent.
void OnServerDeath(int) {}
#endif

[[noreturn]] void Throw(const char* syscall, const std::string& what) {
  int errnum = errno;
  throw capture::OsError("EWATCHDOG", errnum, syscall,
                         "gate lifeline: " + what + ": " + syscall + " failed: " + strerror(errnum));
}

// Closes every fd above kWatchdogFd: the server's pipes, sockets, capture files and the
// protocol channel are not the watchdog's to hold open.
void CloseOtherFds() {
#if defined(__linux__) && defined(SYS_close_range)
  if (syscall(SYS_close_range, kWatchdogFd + 1, ~0U, 0) == 0) return;
#endif
  struct rlimit limit;
  rlim_t last = 65536;
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
      limit.rlim_cur < (1u << 20)) {
    last = limit.rlim_cur;
  }
  for (rlim_t fd = kWatchdogFd + 1; fd < last; ++fd) close(static_cast<int>(fd));
}

void SetHandler(int signum, void (*handler)(int)) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = handler;  // no SA_RESTART: a blocked read() returns EINTR
  sigemptyset(&action.sa_mask);
  sigaction(signum, &action, nullptr);
}

void KillAll(const pid_t* groups, int count) {
  for (int index = 0; index < count; ++index) kill(-groups[index], SIGKILL);
}

// The watchdog, in the forked child. Async-signal-safe calls only; never returns.
[[noreturn]] void WatchdogMain(int read_fd, pid_t server_pid) {
  pid_t groups[kMaxGroups];
  int count = 0;

  // Its own session: a signal or kill(-pgid) aimed at the server's group or terminal
  // (Ctrl-C, a host killing the group) does not take the watchdog with it.
  setsid();
  if (dup2(read_fd, kWatchdogFd) < 0) _exit(1);
  if (read_fd != kWatchdogFd) close(read_fd);
  int null_fd = open("/dev/null", O_RDWR);
  if (null_fd >= 0) {
    dup2(null_fd, 0);
    dup2(null_fd, 1);
    dup2(null_fd, 2);
    if (null_fd > 2 && null_fd != kWatchdogFd) close(null_fd);
  }
  CloseOtherFds();

  // Handlers inherited from the server (libuv's) must not run here.
  for (int signum = 1; signum < NSIG; ++signum) {
    if (signum != SIGKILL && signum != SIGSTOP) SetHandler(signum, SIG_DFL);
  }
  const int ignored[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR2, SIGTSTP, SIGTTIN,
                         SIGTTOU};
  for (int signum : ignored) SetHandler(signum, SIG_IGN);
#if defined(__linux__)
  // Belt: the kernel interrupts the read when the server (the forking thread) dies.
  SetHandler(SIGUSR1, OnServerDeath);
  prctl(PR_SET_PDEATHSIG, SIGUSR1);
#endif
  // Blocked by the server around fork(); safe to take now that the handlers are ours.
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  char buffer[sizeof(Message)];
  size_t filled = 0;
  for (;;) {
    // PDEATHSIG also fires when only the forking thread ends (a worker thread that
    // loaded the addon): the server is gone only once we have been reparented.
    if (getppid() != server_pid) break;
    ssize_t got = read(kWatchdogFd, buffer + filled, sizeof buffer - filled);
    if (got == 0) break;  // end of file: no writer left, the server is gone
    if (got < 0) {
      if (errno == EINTR) continue;
      break;
    }
    filled += static_cast<size_t>(got);
    if (filled < sizeof buffer) continue;
    filled = 0;
    Message message;
    memcpy(&message, buffer, sizeof message);
    if (message.pgid <= 1) continue;  // never kill(-1) or kill(0)
    if (message.op == kWatchGroup && count < kMaxGroups) {
      groups[count++] = message.pgid;
    } else if (message.op == kReleaseGroup) {
      for (int index = 0; index < count; ++index) {
        if (groups[index] == message.pgid) {
          groups[index] = groups[--count];
          break;
        }
      }
    }
  }
  KillAll(groups, count);
  _exit(0);
}

// Starts the watchdog (caller holds the mutex). Throws when pipe or fork fails.
void StartWatchdog() {
  int fds[2];
#if defined(__linux__)
  if (pipe2(fds, O_CLOEXEC) < 0) Throw("pipe2", "cannot make the watchdog pipe");
#else
  if (pipe(fds) < 0) Throw("pipe", "cannot make the watchdog pipe");
  fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  fcntl(fds[1], F_SETFD, FD_CLOEXEC);
#endif
  pid_t server_pid = getpid();
  // Signals stay blocked across the fork until the child has reset the server's
  // handlers: one run by the child before that would write into libuv's signal pipe,
  // which the child shares with the server, and the server would act on it.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  pid_t child = fork();
  if (child == 0) {
    close(fds[1]);
    WatchdogMain(fds[0], server_pid);
  }
  int errnum = errno;
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    errno = errnum;
    Throw("fork", "cannot start the watchdog process");
  }
  close(fds[0]);
  write_fd = fds[1];
  watchdog_pid = child;
}

// Writes one message; false when the watchdog is gone (EPIPE) or the write failed.
bool Send(int32_t op, pid_t pgid) {
  Message message{op, static_cast<int32_t>(pgid)};
  for (;;) {
    ssize_t written = write(write_fd, &message, sizeof message);
    if (written == static_cast<ssize_t>(sizeof message)) return true;
    if (written < 0 && errno == EINTR) continue;
    return false;
  }
}

// A watchdog that died (killed by someone) is reaped and replaced, and learns every
// group still watched.
void RestartWatchdog() {
  close(write_fd);
  write_fd = -1;
  if (watchdog_pid > 0) waitpid(watchdog_pid, nullptr, WNOHANG);
  watchdog_pid = 0;
  StartWatchdog();
  for (pid_t pgid : watched) {
    if (!Send(kWatchGroup, pgid)) Throw("write", "cannot reach the restarted watchdog");
  }
}

// Rounds of KillTreeExceptLeader before it gives up on a tree that keeps forking.
constexpr int kMaxKillPasses = 64;

// The live members of process group `pgid` other than its leader (zombies are dead
// already). False when this system offers no way to list a group's members.
bool OtherGroupMembers(pid_t pgid, std::vector<pid_t>* members) {
#if defined(__linux__)
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return false;
  while (dirent* entry = readdir(proc)) {
    char* end = nullptr;
    long pid = strtol(entry->d_name, &end, 10);
    if (end == entry->d_name || *end != '\0' || pid <= 1 || pid == pgid) continue;
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;  // exited meanwhile
    char line[512];
    ssize_t got = read(fd, line, sizeof line - 1);
    close(fd);
    if (got <= 0) continue;
    line[got] = '\0';
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, the
    // fields after it are numbers, so the last ')' ends it.
    const char* after_comm = strrchr(line, ')');
    char state = 0;
    int ppid = 0;
    int pgrp = 0;
    if (after_comm == nullptr || sscanf(after_comm + 1, " %c %d %d", &state, &ppid, &pgrp) != 3) {
      continue;
    }
    if (pgrp == pgid && state != 'Z' && state != 'X') members->push_back(static_cast<pid_t>(pid));
  }
  closedir(proc);
  return true;
#elif defined(__APPLE__)
  int mib[4] = {CTL_KERN, KERN_PROC, KERN_PROC_PGRP, static_cast<int>(pgid)};
  for (int attempt = 0; attempt < 4; ++attempt) {
    size_t size = 0;
    if (sysctl(mib, 4, nullptr, &size, nullptr, 0) < 0) return false;
    // Room for a few more: the group may grow between the two calls (ENOMEM: again).
    std::vector<struct kinfo_proc> procs(size / sizeof(struct kinfo_proc) + 16);
    size = procs.size() * sizeof(struct kinfo_proc);
    if (sysctl(mib, 4, procs.data(), &size, nullptr, 0) < 0) {
      if (errno == ENOMEM) continue;
      return false;
    }
    for (size_t index = 0; index < size / sizeof(struct kinfo_proc); ++index) {
      pid_t pid = procs[index].kp_proc.p_pid;
      if (pid != pgid && procs[index].kp_proc.p_stat != SZOMB) members->push_back(pid);
    }
    return true;
  }
  return false;
#else
  (void)pgid;
  (void)members;
  return false;
#endif
}

}  // namespace

void Watch(int64_t pid) {
  std::lock_guard<std::mutex> lock(mutex);
  pid_t pgid = static_cast<pid_t>(pid);
  if (pgid <= 1) return;
  watched.insert(pgid);
  if (write_fd < 0) {
    StartWatchdog();
  }
  if (!Send(kWatchGroup, pgid)) RestartWatchdog();
}

void Release(int64_t pid) {
  std::lock_guard<std::mutex> lock(mutex);
  pid_t pgid = static_cast<pid_t>(pid);
  if (pgid <= 1 || watched.erase(pgid) == 0) return;
  kill(-pgid, SIGKILL);
  // A failed release only leaves a stale entry: the watchdog would SIGKILL an empty
  // group at the end, which is harmless.
  if (write_fd >= 0) Send(kReleaseGroup, pgid);
}

bool KillTreeExceptLeader(int64_t pid) {
  std::lock_guard<std::mutex> lock(mutex);
  pid_t pgid = static_cast<pid_t>(pid);
  // Only a group we watch: never a pid the caller merely names.
  if (pgid <= 1 || watched.count(pgid) == 0) return false;
  std::set<pid_t> killed;
  for (int pass = 0; pass < kMaxKillPasses; ++pass) {
    std::vector<pid_t> members;
    if (!OtherGroupMembers(pgid, &members)) return false;
    bool killed_new = false;
    for (pid_t member : members) {
      // Killed in an earlier pass and still exiting: it cannot fork any more.
      if (!killed.insert(member).second) continue;
      killed_new = true;
      kill(member, SIGKILL);
    }
    if (!killed_new) return true;
  }
  return false;
}

const char* Mechanism() { return "watchdog process"; }

int64_t WatchdogPid() {
  std::lock_guard<std::mutex> lock(mutex);
  return watchdog_pid;
}

}  // namespace lifeline

// POSIX backend: fds 1 and 2 are switched with dup2. The originals are saved once,
// close-on-exec, so no child ever inherits the real stderr or the protocol channel.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mutex>

#include "capture.h"

namespace capture {
namespace {

constexpr int kStdin = 0;
constexpr int kStdout = 1;
constexpr int kStderr = 2;
// Private copies live above the standard three so a closed std fd is never refilled.
constexpr int kFirstPrivateFd = 3;

std::mutex state_mutex;
GuardState state = GuardState::kIdle;
bool stdio_guarded = false;
ProtocolFds protocol_fds{-1, -1};
// Originals of fds 1 and 2, taken at the first Begin (and again after the stdio
// guard moves fd 1) and kept for the life of the process: each switch is then one
// dup2 per fd.
int saved_stdout = -1;
int saved_stderr = -1;

const char* ErrnoName(int errnum) {
  switch (errnum) {
    case EBADF: return "EBADF";
    case EINTR: return "EINTR";
    case EMFILE: return "EMFILE";
    case ENFILE: return "ENFILE";
    case EINVAL: return "EINVAL";
    case EBUSY: return "EBUSY";
    case ENOENT: return "ENOENT";
    case EACCES: return "EACCES";
    default: return "EIO";
  }
}

[[noreturn]] void ThrowErrno(const char* syscall, const std::string& what) {
  int errnum = errno;
  throw OsError(ErrnoName(errnum), errnum, syscall,
                what + ": " + syscall + " failed: " + strerror(errnum));
}

int DupCloexec(int fd, const char* what) {
  int copy = fcntl(fd, F_DUPFD_CLOEXEC, kFirstPrivateFd);
  if (copy < 0) ThrowErrno("fcntl(F_DUPFD_CLOEXEC)", what);
  return copy;
}

void Dup2Retrying(int from, int to, const char* what) {
  while (dup2(from, to) < 0) {
    if (errno != EINTR && errno != EBUSY) ThrowErrno("dup2", what);
  }
}

void CloseIfOpen(int* fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

void SaveOriginals() {
  if (saved_stderr < 0) saved_stderr = DupCloexec(kStderr, "begin: saving stderr");
  if (saved_stdout < 0) saved_stdout = DupCloexec(kStdout, "begin: saving stdout");
}

int64_t FileSize(int fd, const char* what) {
  struct stat info;
  if (fstat(fd, &info) < 0) ThrowErrno("fstat", what);
  return static_cast<int64_t>(info.st_size);
}

void FlushCStdio() {
  // printf output buffered in C stdio must land where it was written, not
  // wherever fd 1 points when the buffer happens to flush.
  fflush(stdout);
  fflush(stderr);
}

// Undoes a half-done switch if Begin fails between its two dup2 calls.
class SwitchRollback {
 public:
  ~SwitchRollback() {
    if (armed_) {
      dup2(saved_stderr, kStderr);
      dup2(saved_stdout, kStdout);
    }
  }
  void Disarm() { armed_ = false; }

 private:
  bool armed_ = true;
};

}  // namespace

const char* BackendName() { return "posix"; }

ProtocolFds GuardStdio() {
  std::lock_guard<std::mutex> lock(state_mutex);
  if (stdio_guarded) return protocol_fds;
  if (state != GuardState::kIdle) {
    throw StateError("ECAPTURE_STATE",
                     std::string("guardStdio: not allowed in state ") + GuardStateName(state) +
                         " (guard stdio at start-up, before any capture)");
  }
  FlushCStdio();
  int input = DupCloexec(kStdin, "guardStdio: copying stdin for the protocol");
  int output;
  try {
    output = DupCloexec(kStdout, "guardStdio: copying stdout for the protocol");
  } catch (...) {
    close(input);
    throw;
  }
  int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd < 0) {
    close(input);
    close(output);
    ThrowErrno("open(/dev/null)", "guardStdio");
  }
  Dup2Retrying(kStderr, kStdout, "guardStdio: pointing stdout at stderr");
  Dup2Retrying(null_fd, kStdin, "guardStdio: pointing stdin at /dev/null");
  close(null_fd);
  // fd 1 now refers to stderr's file: a stdout original saved earlier is stale.
  CloseIfOpen(&saved_stdout);
  protocol_fds = ProtocolFds{input, output};
  stdio_guarded = true;
  return protocol_fds;
}

int64_t CaptureFileSize(const CaptureTarget& target) {
  return FileSize(target.fd, "size: the capture file");
}

int64_t Begin(const CaptureTarget& target) {
  std::lock_guard<std::mutex> lock(state_mutex);
  if (state == GuardState::kActive) {
    throw StateError("ECAPTURE_ACTIVE",
                     "begin: a capture is already active (captures never nest)");
  }
  if (target.fd < 0) {
    errno = EBADF;
    ThrowErrno("dup2", "begin: capture fd is not open");
  }
  SaveOriginals();
  FlushCStdio();
  int64_t size = FileSize(target.fd, "begin: the capture file");
  SwitchRollback rollback;
  Dup2Retrying(target.fd, kStderr, "begin: pointing stderr at the capture file");
  Dup2Retrying(target.fd, kStdout, "begin: pointing stdout at the capture file");
  rollback.Disarm();
  state = GuardState::kActive;
  return size;
}

bool End(int64_t* file_size) {
  std::lock_guard<std::mutex> lock(state_mutex);
  if (state == GuardState::kIdle) return false;
  FlushCStdio();
  // Sized before the restore: fd 2 still is the capture file, whatever the caller
  // did with its own descriptor meanwhile.
  struct stat info;
  int64_t size = fstat(kStderr, &info) == 0 ? static_cast<int64_t>(info.st_size) : -1;
  // Restore both even if one fails, then report the first failure.
  int failed_errno = 0;
  if (dup2(saved_stderr, kStderr) < 0) failed_errno = errno;
  if (dup2(saved_stdout, kStdout) < 0 && failed_errno == 0) failed_errno = errno;
  state = GuardState::kIdle;
  if (failed_errno != 0) {
    errno = failed_errno;
    ThrowErrno("dup2", "end: restoring stdout/stderr");
  }
  if (file_size != nullptr) *file_size = size;
  return true;
}

GuardState State() {
  std::lock_guard<std::mutex> lock(state_mutex);
  return state;
}

void WriteStandardErrorForTest(const std::string& text) {
  // Through C stdio on purpose: proves Begin/End flush its buffer correctly.
  fputs(text.c_str(), stderr);
  fflush(stderr);
}

void BareRedirectPairForTest(const CaptureTarget& target) {
  std::lock_guard<std::mutex> lock(state_mutex);
  if (state == GuardState::kActive) {
    throw StateError("ECAPTURE_ACTIVE", "bareRedirectPairForTest: a capture is active");
  }
  SaveOriginals();
  Dup2Retrying(target.fd, kStderr, "bareRedirectPairForTest");
  Dup2Retrying(saved_stderr, kStderr, "bareRedirectPairForTest");
}

}  // namespace capture

// Platform-neutral interface of the capture guard. Each backend
// (capture_posix.cc, capture_win.cc) implements it; binding.gyp compiles exactly
// one. Only binding.cc sees N-API: backends report failures as exceptions below.
#ifndef MCP_GATES_CAPTURE_H
#define MCP_GATES_CAPTURE_H

#include <cstdint>
#include <stdexcept>
#include <string>

namespace capture {

// An operating-system call failed. `errnum` is errno on POSIX and GetLastError()
// on Windows; `code` is the symbolic name ("EBADF", "ERROR_ACCESS_DENIED").
class OsError : public std::runtime_error {
 public:
  OsError(const std::string& code, int errnum, const std::string& syscall,
          const std::string& message)
      : std::runtime_error(message), code(code), errnum(errnum), syscall(syscall) {}
  std::string code;
  int errnum;
  std::string syscall;
};

// An operation was called in a state that does not allow it. `code` is stable
// (ECAPTURE_ACTIVE, ECAPTURE_STATE); the message names the operation and state.
class StateError : public std::logic_error {
 public:
  StateError(const std::string& code, const std::string& message)
      : std::logic_error(message), code(code) {}
  std::string code;
};

enum class GuardState { kIdle, kActive };

inline const char* GuardStateName(GuardState state) {
  return state == GuardState::kActive ? "active" : "idle";
}

// What the protocol channel uses after the stdio guard: descriptors in the
// runtime's own (libuv/CRT) numbering.
struct ProtocolFds {
  int input_fd;
  int output_fd;
};

// Where a capture goes. POSIX backends use `fd` (opened by the caller, O_APPEND);
// the Windows backend opens `path` itself, because an addon cannot translate
// node.exe's CRT descriptors into handles.
struct CaptureTarget {
  int fd;
  std::string path;
};

// Start-up stdio guard, idempotent: the protocol gets private close-on-exec copies
// of the input and output channels; the process-wide stdout is pointed at stderr
// and stdin at the null device.
ProtocolFds GuardStdio();

// Points stdout and stderr at the capture target and returns the capture file's
// size at the switch (bytes that are not this capture's). Throws StateError
// ECAPTURE_ACTIVE when a capture is already active (captures never nest).
int64_t Begin(const CaptureTarget& target);

// Restores stdout and stderr. Idempotent: returns false when nothing was active.
// Otherwise stores the capture file's size at the restore in `*file_size` (if given),
// so the caller needs no second stat to know what was captured.
bool End(int64_t* file_size);

GuardState State();

// The capture file's current size, without the allocation of a JS stat: the cheap
// check that no byte arrived between two back-to-back captures.
int64_t CaptureFileSize(const CaptureTarget& target);

// Test hooks: a native write to the process's standard error, and one bare
// redirect-and-restore of stderr onto `fd` (the benchmark's reference cost).
void WriteStandardErrorForTest(const std::string& text);
void BareRedirectPairForTest(const CaptureTarget& target);

// Which backend this is ("posix" or "win32").
const char* BackendName();

// Restores the guard when the owning runtime is torn down; an RAII holder so the
// restore also runs if the cleanup path itself unwinds.
class ScopedRestore {
 public:
  ScopedRestore() = default;
  ScopedRestore(const ScopedRestore&) = delete;
  ScopedRestore& operator=(const ScopedRestore&) = delete;
  ~ScopedRestore() noexcept {
    try {
      End(nullptr);
    } catch (...) {
      // A destructor must not throw; the fds are as restored as they can be.
    }
  }
};

}  // namespace capture

#endif  // MCP_GATES_CAPTURE_H

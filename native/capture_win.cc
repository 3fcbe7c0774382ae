// Windows backend. node.exe links its C runtime statically, so an addon cannot
// retarget node's own descriptors 0-2: `_dup2` here would act on this DLL's CRT
// table and close handles node still uses. What an addon can do is retarget the
// Win32 standard handles (SetStdHandle), which reaches native code that writes via
// GetStdHandle and processes created by native code that inherit them. node's
// writes and node-spawned children are captured in TS (patched streams, explicit
// capture fds for children); see src/capture.
#include <windows.h>

#include <mutex>
#include <string>

#include "capture.h"

namespace capture {
namespace {

std::mutex state_mutex;
GuardState state = GuardState::kIdle;
bool stdio_guarded = false;
HANDLE saved_output = INVALID_HANDLE_VALUE;
HANDLE saved_error = INVALID_HANDLE_VALUE;
HANDLE capture_handle = INVALID_HANDLE_VALUE;

std::string ErrorName(DWORD error) {
  switch (error) {
    case ERROR_FILE_NOT_FOUND: return "ENOENT";
    case ERROR_PATH_NOT_FOUND: return "ENOENT";
    case ERROR_ACCESS_DENIED: return "EACCES";
    case ERROR_INVALID_HANDLE: return "EBADF";
    case ERROR_SHARING_VIOLATION: return "EBUSY";
    case ERROR_TOO_MANY_OPEN_FILES: return "EMFILE";
    default: return "EIO";
  }
}

[[noreturn]] void ThrowLastError(const char* syscall, const std::string& what) {
  DWORD error = GetLastError();
  throw OsError(ErrorName(error), static_cast<int>(error), syscall,
                what + ": " + syscall + " failed with Windows error " + std::to_string(error));
}

std::wstring Widen(const std::string& utf8) {
  if (utf8.empty()) return std::wstring();
  int length = MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()),
                                   nullptr, 0);
  std::wstring wide(static_cast<size_t>(length), L'\0');
  MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), &wide[0],
                      length);
  return wide;
}

HANDLE OpenForAppend(const std::string& path, const char* what) {
  SECURITY_ATTRIBUTES inheritable{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
  // FILE_APPEND_DATA without FILE_WRITE_DATA gives append semantics, like O_APPEND.
  HANDLE handle = CreateFileW(Widen(path).c_str(), FILE_APPEND_DATA | FILE_READ_ATTRIBUTES | SYNCHRONIZE,
                              FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                              &inheritable, OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (handle == INVALID_HANDLE_VALUE) ThrowLastError("CreateFileW", what);
  return handle;
}

void SetStd(DWORD which, HANDLE handle, const char* what) {
  if (!SetStdHandle(which, handle)) ThrowLastError("SetStdHandle", what);
}

}  // namespace

const char* BackendName() { return "win32"; }

ProtocolFds GuardStdio() {
  std::lock_guard<std::mutex> lock(state_mutex);
  // node keeps using its CRT descriptors 0 and 1 for the protocol; only the Win32
  // standard handles move, so native writers and natively created children never
  // see the channel.
  ProtocolFds fds{0, 1};
  if (stdio_guarded) return fds;
  if (state != GuardState::kIdle) {
    throw StateError("ECAPTURE_STATE",
                     std::string("guardStdio: not allowed in state ") + GuardStateName(state) +
                         " (guard stdio at start-up, before any capture)");
  }
  HANDLE null_input = CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE,
                                  nullptr, OPEN_EXISTING, 0, nullptr);
  if (null_input == INVALID_HANDLE_VALUE) ThrowLastError("CreateFileW(NUL)", "guardStdio");
  SetStd(STD_OUTPUT_HANDLE, GetStdHandle(STD_ERROR_HANDLE), "guardStdio: stdout to stderr");
  SetStd(STD_INPUT_HANDLE, null_input, "guardStdio: stdin to NUL");
  stdio_guarded = true;
  return fds;
}

int64_t FileSize(HANDLE handle, const char* what) {
  LARGE_INTEGER size;
  if (!GetFileSizeEx(handle, &size)) ThrowLastError("GetFileSizeEx", what);
  return static_cast<int64_t>(size.QuadPart);
}

int64_t CaptureFileSize(const CaptureTarget& target) {
  // The target's fd belongs to node's own C runtime, not ours: ask by path.
  WIN32_FILE_ATTRIBUTE_DATA data;
  if (!GetFileAttributesExA(target.path.c_str(), GetFileExInfoStandard, &data)) {
    ThrowLastError("GetFileAttributesExA", "size: the capture file");
  }
  return (static_cast<int64_t>(data.nFileSizeHigh) << 32) | data.nFileSizeLow;
}

int64_t Begin(const CaptureTarget& target) {
  std::lock_guard<std::mutex> lock(state_mutex);
  if (state == GuardState::kActive) {
    throw StateError("ECAPTURE_ACTIVE",
                     "begin: a capture is already active (captures never nest)");
  }
  HANDLE handle = OpenForAppend(target.path, "begin: opening the capture file");
  int64_t size;
  try {
    size = FileSize(handle, "begin: the capture file");
  } catch (...) {
    CloseHandle(handle);
    throw;
  }
  saved_output = GetStdHandle(STD_OUTPUT_HANDLE);
  saved_error = GetStdHandle(STD_ERROR_HANDLE);
  if (!SetStdHandle(STD_ERROR_HANDLE, handle) || !SetStdHandle(STD_OUTPUT_HANDLE, handle)) {
    DWORD error = GetLastError();
    SetStdHandle(STD_ERROR_HANDLE, saved_error);
    SetStdHandle(STD_OUTPUT_HANDLE, saved_output);
    CloseHandle(handle);
    SetLastError(error);
    ThrowLastError("SetStdHandle", "begin: pointing the standard handles at the capture file");
  }
  capture_handle = handle;
  state = GuardState::kActive;
  return size;
}

bool End(int64_t* file_size) {
  std::lock_guard<std::mutex> lock(state_mutex);
  if (state == GuardState::kIdle) return false;
  LARGE_INTEGER size;
  int64_t size_at_restore = GetFileSizeEx(capture_handle, &size) ? size.QuadPart : -1;
  BOOL restored_error = SetStdHandle(STD_ERROR_HANDLE, saved_error);
  BOOL restored_output = SetStdHandle(STD_OUTPUT_HANDLE, saved_output);
  CloseHandle(capture_handle);
  capture_handle = INVALID_HANDLE_VALUE;
  state = GuardState::kIdle;
  if (!restored_error || !restored_output) {
    ThrowLastError("SetStdHandle", "end: restoring the standard handles");
  }
  if (file_size != nullptr) *file_size = size_at_restore;
  return true;
}

GuardState State() {
  std::lock_guard<std::mutex> lock(state_mutex);
  return state;
}

void WriteStandardErrorForTest(const std::string& text) {
  // Via the Win32 handle: the one layer this backend redirects.
  DWORD written = 0;
  if (!WriteFile(GetStdHandle(STD_ERROR_HANDLE), text.data(), static_cast<DWORD>(text.size()),
                 &written, nullptr)) {
    ThrowLastError("WriteFile", "writeStderrForTest");
  }
}

void BareRedirectPairForTest(const CaptureTarget& target) {
  std::lock_guard<std::mutex> lock(state_mutex);
  if (state == GuardState::kActive) {
    throw StateError("ECAPTURE_ACTIVE", "bareRedirectPairForTest: a capture is active");
  }
  HANDLE original = GetStdHandle(STD_ERROR_HANDLE);
  HANDLE handle = OpenForAppend(target.path, "bareRedirectPairForTest");
  SetStdHandle(STD_ERROR_HANDLE, handle);
  SetStdHandle(STD_ERROR_HANDLE, original);
  CloseHandle(handle);
}

}  // namespace capture

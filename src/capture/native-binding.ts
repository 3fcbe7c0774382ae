/** The JS shape of the native addon (native/binding.cc), declared once. */
export interface NativeCaptureBinding {
  /** "posix" (dup2 on fds 1 and 2) or "win32" (SetStdHandle on the Win32 standard handles). */
  readonly backend: 'posix' | 'win32';
  /**
   * Start-up stdio guard, idempotent. POSIX: returns private close-on-exec copies of
   * fds 0 and 1, points fd 1 at fd 2 and fd 0 at /dev/null. Windows: returns 0 and 1
   * unchanged and moves only the Win32 standard handles (stdout to stderr, stdin to NUL).
   */
  guardStdio(): { inputFd: number; outputFd: number };
  /**
   * Points stdout and stderr at the capture file: `fd` on POSIX (opened O_APPEND by the
   * caller), `path` on Windows. Returns the file's size at the switch. Throws
   * `ECAPTURE_ACTIVE` when a capture is active.
   */
  begin(target: { fd: number; path: string }): number;
  /**
   * Restores stdout and stderr and returns the capture file's size at the restore;
   * null when nothing was active (idempotent).
   */
  end(): number | null;
  state(): 'idle' | 'active';
  /** The capture file's current size (no JS stat object allocated). */
  size(target: { fd: number; path: string }): number;
  /** Test hook: a native write to the process's standard error (C stdio / WriteFile). */
  writeStderrForTest(text: string): void;
  /** Benchmark hook: one bare redirect-and-restore of stderr, the reference cost. */
  bareRedirectPairForTest(target: { fd: number; path: string }): void;
}

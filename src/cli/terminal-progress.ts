import fs from 'node:fs';

/**
 * A one-line live status for `run` on a terminal. It writes to the terminal device
 * itself, opened before the capture starts: during a run fd 2 (and process.stderr)
 * point into the capture, and the status line must not end up in the report.
 */
export class TerminalProgress {
  private fd: number | undefined;

  private constructor(fd: number) {
    this.fd = fd;
  }

  /** Null when stderr is not a terminal or the device cannot be opened. */
  static open(): TerminalProgress | null {
    if (!process.stderr.isTTY) return null;
    try {
      return new TerminalProgress(
        fs.openSync(process.platform === 'win32' ? '\\\\.\\CONOUT$' : '/dev/tty', 'w'),
      );
    } catch {
      return null;
    }
  }

  update(text: string): void {
    if (this.fd === undefined) return;
    const width = (process.stderr.columns || 80) - 1;
    try {
      fs.writeSync(this.fd, `\r\u001B[K${text.slice(0, width)}`);
    } catch {
      this.close();
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      fs.writeSync(this.fd, '\r\u001B[K');
    } catch {
      // The terminal went away; nothing to clear.
    }
    fs.closeSync(this.fd);
    this.fd = undefined;
  }
}

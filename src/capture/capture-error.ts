/** Stable codes of the capture runtime's local errors (never sent on the wire). */
export type CaptureErrorCode =
  /** begin while a capture is active or starting: captures never nest or overlap. */
  | 'ECAPTURE_ACTIVE'
  /** Any other operation in a state that does not allow it. */
  | 'ECAPTURE_STATE';

export class CaptureError extends Error {
  readonly code: CaptureErrorCode;
  readonly operation: string;
  readonly state: string;

  constructor(code: CaptureErrorCode, operation: string, state: string, detail: string) {
    super(`${operation}: not allowed in state ${state}: ${detail}`);
    this.name = 'CaptureError';
    this.code = code;
    this.operation = operation;
    this.state = state;
  }
}

/**
 * The temp directory cannot hold a capture file (missing, read-only, full). The tool
 * is not run: a run whose output would be lost cannot give a truthful report.
 */
export class CaptureStorageError extends Error {
  readonly code = 'ECAPTURE_TMPDIR';
  readonly directory: string;

  constructor(directory: string, cause: string) {
    super(
      `output capture cannot use the temp directory ${directory}: ${cause}. Fix: free space there, or point TMPDIR (TEMP on Windows) at a writable directory with room.`,
    );
    this.name = 'CaptureStorageError';
    this.directory = directory;
  }
}

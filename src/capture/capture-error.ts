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

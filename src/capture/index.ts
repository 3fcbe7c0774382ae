export type { CapturedReport } from './capture-file.js';
export {
  DEFAULT_REPORT_LIMIT_BYTES,
  keepCaptureLogs,
  removeCaptureDirectory,
  sweepDirectoriesOfDeadProcesses,
} from './capture-file.js';
export { CaptureError, CaptureStorageError, type CaptureErrorCode } from './capture-error.js';
export {
  activeCapture,
  captureMode,
  childStdio,
  guardStdio,
  noteCaptureWriteError,
  takeCapture,
  type ActiveCapture,
  type CaptureModeInfo,
} from './capture-guard.js';
export { createCaptureWrapper, withCapture } from './with-capture.js';

import type { DispatchWrapper, ToolResult } from '../server/tool.js';
import { DEFAULT_REPORT_LIMIT_BYTES, type CapturedReport } from './capture-file.js';
import { beginCapture, endCapture } from './capture-guard.js';

/** Resolves or rejects like `work`, or rejects with the abort reason once `signal` aborts. */
function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The marked section appended after a tool's own text. */
export function formatCapturedSection(report: CapturedReport): string {
  const heading = report.truncated
    ? `--- captured output (${report.totalBytes} bytes; head and tail shown, full log: ${report.logPath}) ---`
    : `--- captured output (${report.totalBytes} bytes) ---`;
  return `${heading}\n${report.text}`;
}

function appendSection(text: string, report: CapturedReport): string {
  return text.length > 0 ? `${text}\n\n${formatCapturedSection(report)}` : formatCapturedSection(report);
}

/**
 * A dispatch wrapper that captures everything a tool run writes (its own stdout and
 * stderr, native code, children) and appends it after the tool's text. A quiet tool
 * returns exactly its own result. A cancelled run releases the capture at once; its
 * result, if it ever comes, is dropped by the server.
 */
export function createCaptureWrapper(options: { limitBytes?: number } = {}): DispatchWrapper {
  const limitBytes = options.limitBytes ?? DEFAULT_REPORT_LIMIT_BYTES;
  return async (run, call) => {
    await beginCapture(call.signal);
    let outcome: { ok: true; result: ToolResult } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, result: await unlessAborted(Promise.resolve().then(run), call.signal) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    const report = endCapture({ limitBytes });
    if (outcome.ok) {
      if (report.totalBytes === 0) return outcome.result;
      return { ...outcome.result, text: appendSection(outcome.result.text, report) };
    }
    // A tool that throws after printing: its output is the story of the failure, so
    // it becomes a failed result with the output rather than a bare error.
    if (call.signal.aborted || report.totalBytes === 0) throw outcome.error;
    const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    return { text: appendSection(message, report), isError: true };
  };
}

/** The dispatch wrapper with the default report limit (64 KiB of head and tail). */
export const withCapture: DispatchWrapper = createCaptureWrapper();

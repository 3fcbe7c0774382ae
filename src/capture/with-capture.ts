import type { DispatchWrapper, ToolResult } from '../server/tool.js';
import { reportLimit, type CapturedReport } from './capture-file.js';
import { beginCapture, endCapture } from './capture-guard.js';

/** How long a cancelled run may take to wind down (kill children, flush) before the capture ends. */
const DEFAULT_ABORT_GRACE_MS = 2000;

/**
 * Settles like `work`; once `signal` aborts, waits at most `graceMs` more, then rejects
 * with the abort reason, so a run that never settles cannot hold the capture forever.
 */
function settleWithinGrace<T>(work: Promise<T>, signal: AbortSignal, graceMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      timer = setTimeout(() => reject(signal.reason), graceMs);
    };
    work.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The marked section appended after a tool's own text. */
export function formatCapturedSection(report: CapturedReport): string {
  const heading = report.truncated
    ? `--- captured output (${report.totalBytes} bytes; head and tail shown, full log: ${report.logPath}) ---`
    : `--- captured output (${report.totalBytes} bytes) ---`;
  const problem = report.problem === undefined ? '' : `\n[capture incomplete: ${report.problem}]`;
  return `${heading}\n${report.text}${problem}`;
}

function appendSection(text: string, report: CapturedReport): string {
  return text.length > 0
    ? `${text}\n\n${formatCapturedSection(report)}`
    : formatCapturedSection(report);
}

/**
 * A dispatch wrapper that captures everything a tool run writes (its own stdout and
 * stderr, native code, children) and appends it after the tool's text. A quiet tool
 * returns exactly its own result. A cancelled run gets `abortGraceMs` to wind down
 * before the capture is released; its result, if it ever comes, is dropped.
 */
export function createCaptureWrapper(
  options: { limitBytes?: number; abortGraceMs?: number } = {},
): DispatchWrapper {
  const limitBytes = reportLimit(options.limitBytes);
  const graceMs = options.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS;
  return async (run, call) => {
    await beginCapture(call.signal);
    let outcome: { ok: true; result: ToolResult } | { ok: false; error: unknown };
    try {
      outcome = {
        ok: true,
        result: await settleWithinGrace(Promise.resolve().then(run), call.signal, graceMs),
      };
    } catch (error) {
      outcome = { ok: false, error };
    }
    const report = endCapture({ limitBytes });
    if (outcome.ok) {
      // Lost output makes the report untrustworthy: a failure, saying why.
      if (report.problem !== undefined) {
        return {
          ...outcome.result,
          text: appendSection(outcome.result.text, report),
          isError: true,
        };
      }
      if (report.totalBytes === 0) return outcome.result;
      return { ...outcome.result, text: appendSection(outcome.result.text, report) };
    }
    // A tool that throws after printing: its output is the story of the failure, so
    // it becomes a failed result with the output rather than a bare error.
    if (call.signal.aborted || (report.totalBytes === 0 && report.problem === undefined)) {
      throw outcome.error;
    }
    const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    return {
      text: appendSection(`Tool "${call.toolName}" failed: ${message}`, report),
      isError: true,
    };
  };
}

/** The dispatch wrapper with the default report limit (64 KiB of head and tail). */
export const withCapture: DispatchWrapper = createCaptureWrapper();

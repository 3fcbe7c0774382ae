import type { DispatchWrapper, ToolResult } from '../server/tool.js';
import { reportLimit, type CapturedReport } from './capture-file.js';
import { beginCapture, endCapture } from './capture-guard.js';

/** The marked section appended after a tool's own text. */
export function formatCapturedSection(report: CapturedReport): string {
  const heading = report.truncated
    ? `--- captured output (${report.totalBytes} bytes; head and tail shown, full log: ${report.logPath}) ---`
    : `--- captured output (${report.totalBytes} bytes) ---`;
  const problem = report.problem === undefined ? '' : `\n[capture incomplete: ${report.problem}]`;
  return `${heading}\n${report.text}${problem}`;
}

function appendSection(text: string | undefined, report: CapturedReport): string {
  return text !== undefined && text.length > 0
    ? `${text}\n\n${formatCapturedSection(report)}`
    : formatCapturedSection(report);
}

/**
 * A dispatch wrapper that captures everything a tool run writes (its own stdout and
 * stderr, native code, children) and appends it after the tool's text. A quiet tool
 * returns exactly its own result. The server makes a cancelled run settle within its
 * abort grace (see DispatchWrapper), so the capture is always released; a tool the
 * server abandoned still holds its own capture handle, which reads nothing after this.
 */
export function createCaptureWrapper(options: { limitBytes?: number } = {}): DispatchWrapper {
  const limitBytes = reportLimit(options.limitBytes);
  return async (run, call) => {
    // Most calls switch at once; the signal is asked for only if begin must wait.
    const starting = beginCapture(() => call.signal);
    const capture = starting instanceof Promise ? await starting : starting;
    let outcome: { ok: true; result: ToolResult } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, result: await run() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    // With a run queued right behind, a quiet run leaves the fds switched for it.
    const report = endCapture({ limitBytes, linger: (call.queued ?? 0) > 0, capture });
    // A cancelled run's report is never delivered (nor is any once the server is
    // ending: it cancels every run), so the full log it would name goes now.
    if (capture.hasLog() && call.signal.aborted) capture.discardLog();
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

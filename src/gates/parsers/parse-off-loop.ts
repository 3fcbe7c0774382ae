import { Worker } from 'node:worker_threads';
import {
  incompleteResult,
  parseGateOutputSync,
  PARSE_BUDGET_MS,
  type ParseRequest,
  type ParseStepResult,
} from './parse-step.js';

/**
 * Outputs up to this many characters are parsed on the caller's thread: every parser is
 * linear, so that takes a few milliseconds, less than starting a worker.
 */
export const INLINE_PARSE_CHARS = 128 * 1024;
/** After the budget, how long a worker may take to notice it before it is terminated. */
const WORKER_GRACE_MS = 2000;

/**
 * Parses a gate's output without holding the event loop: large outputs go to a worker
 * thread of their own, so `ping`, cancellations and other requests are answered while it
 * runs. The parser stops itself at the budget; a worker that overruns it anyway, or a
 * cancellation, terminates the worker, and the result says the findings are unknown.
 * Never rejects.
 */
export async function parseGateOutput(
  request: Omit<ParseRequest, 'budgetMs'> & { budgetMs?: number },
  signal?: AbortSignal,
): Promise<ParseStepResult> {
  const full: ParseRequest = { ...request, budgetMs: request.budgetMs ?? PARSE_BUDGET_MS };
  if (full.stdout.length + full.stderr.length <= INLINE_PARSE_CHARS)
    return parseGateOutputSync(full);
  const unread = (why: string): ParseStepResult => ({
    parsed: incompleteResult({ findings: [], passed: full.exitCode === 0 }, full.exitCode, why),
  });
  // The decode that produced these strings ran in the same macrotask; let pending pings
  // and cancellations through before the (synchronous) copy of the output to the worker.
  await new Promise((resolve) => setImmediate(resolve));
  if (signal?.aborted) return unread('cancelled before its output was parsed');
  let worker: Worker;
  try {
    // stdout/stderr: true keeps the worker's console off the server's stdout (the protocol stream).
    worker = new Worker(new URL('./parse-worker.js', import.meta.url), {
      stdout: true,
      stderr: true,
    });
  } catch {
    // No thread to be had (resource limits): the parse is linear and budgeted, so the
    // event loop is held for at most the budget rather than the gate losing its verdict.
    return parseGateOutputSync(full);
  }
  return new Promise<ParseStepResult>((resolve) => {
    worker.postMessage(full);
    let settled = false;
    const settle = (result: ParseStepResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(overrun);
      signal?.removeEventListener('abort', onAbort);
      // Resolve once the worker is gone: until then it holds a copy of the output.
      const done = () => setImmediate(() => resolve(result));
      worker.terminate().then(done, done);
    };
    const overrun = setTimeout(
      () =>
        settle(
          unread(
            `parsing did not finish within ${(full.budgetMs + WORKER_GRACE_MS) / 1000} s and was stopped`,
          ),
        ),
      full.budgetMs + WORKER_GRACE_MS,
    );
    const onAbort = () => settle(unread('cancelled while its output was parsed'));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (result: ParseStepResult) => settle(result));
    worker.once('error', (error) => settle(unread(`the parse worker failed (${error.message})`)));
    worker.once('exit', (code) =>
      settle(unread(`the parse worker exited (code ${code}) without a result`)),
    );
  });
}

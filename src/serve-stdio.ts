import { captureMode, guardStdio, withCapture } from './capture/index.js';
import { abandonCapture } from './capture/capture-guard.js';
import type { McpServer } from './server/server.js';
import { StdioTransport } from './transport/stdio.js';

export interface ServeStdioOptions {
  /** Capture each tool run's output into its report (default true). */
  capture?: boolean;
  /** Longest accepted input line in bytes (the transport's default otherwise). */
  maxLineBytes?: number;
  /**
   * Milliseconds from the end of input (EOF or a signal) after which the process exits
   * (code 0) if something still holds it (default 1700; `false`: never). The timer holds
   * nothing itself: a process that ends on its own is not cut short. It is there because
   * a write to a client that stopped reading can hold the process forever.
   */
  forceExitAfterMs?: number | false;
}

/** Signals that end the conversation like EOF does (SIGHUP: the terminal or host went away). */
const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
/**
 * From the end of input (EOF or a signal) to a forced exit: shutdown normally takes well
 * under a second, and the promise is an exit within 2 s whatever a tool or the client does.
 * Exit handlers still run (temp files removed, gate process groups killed).
 */
export const EXIT_DEADLINE_MS = 1700;

/**
 * The composition root of a stdio MCP server: guards stdio so nothing but protocol
 * frames reaches the channel, plugs output capture into every tool run, serves until
 * the client closes the input (or SIGTERM, SIGINT, SIGHUP), aborts work, and resolves.
 * Exiting is the caller's; but a process still held `forceExitAfterMs` after the end of
 * input (a write stuck on a client that stopped reading) exits 0 then, within 2 s in all.
 */
export async function serveStdio(
  server: McpServer,
  options: ServeStdioOptions = {},
): Promise<void> {
  const capture = options.capture ?? true;
  const mode = captureMode();
  // The guard runs before anything touches process.stdout, so that stream is created
  // on the guarded fd 1 (which now points at stderr), not on the protocol channel.
  const fds = guardStdio();
  // Create both std streams now, while fds hold their originals: a stream first
  // created during a capture would stay a synchronous file stream for good.
  void process.stdout;
  void process.stderr;
  if (capture && mode.mode === 'degraded') {
    process.stderr.write(`mcp-gates: output capture is degraded: ${mode.reason}\n`);
  }
  // A crash trace must reach the real stderr, not a tool's capture file.
  process.on('uncaughtExceptionMonitor', () => abandonCapture());

  const transport = new StdioTransport({
    inputFd: fds.inputFd,
    outputFd: fds.outputFd,
    ...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}),
  });
  if (capture) server.setDispatch(withCapture);

  // A signal ends the conversation like EOF does: serve() then aborts in-flight work.
  const stop = () => void transport.close();
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  const deadline = options.forceExitAfterMs ?? EXIT_DEADLINE_MS;
  if (deadline !== false) {
    void transport.inputEnded.then(() => {
      setTimeout(() => {
        abandonCapture();
        process.exit(0);
      }, deadline).unref();
    });
  }
  try {
    await server.serve(transport);
    await transport.close();
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, stop);
    abandonCapture();
  }
}

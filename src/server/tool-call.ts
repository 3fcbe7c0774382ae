import { notificationFrame, type JsonObject } from '../protocol/message.js';
import { isValidIdValue } from '../protocol/request-id.js';
import { isModernRevision, revisionAtLeast, type Revision } from '../protocol/revisions.js';
import type { LogLevel, ProgressUpdate, ToolContext } from './tool.js';

/** What a running call needs from its server. */
export interface CallHost {
  readonly closed: boolean;
  readonly queuedRuns: number;
  send(frame: JsonObject): void;
  /** Sends `notifications/message` if the session's level lets it through. */
  log(level: LogLevel, data: unknown, logger: string | undefined, call: ToolCall): void;
}

/**
 * One tools/call in flight: its cancellation, its progress channel, and both the
 * context its tool sees and the call its dispatch wrapper sees. One object per call,
 * because a call is the hot path: the AbortSignal is made only when someone asks.
 */
export class ToolCall implements ToolContext {
  aborted = false;
  readonly wantsProgress: boolean;
  private reason: unknown;
  private controller: AbortController | undefined;
  private lastProgress = -Infinity;
  private finished = false;
  /** When this call last wrote a progress notification (performance.now()), or -Infinity. */
  lastProgressAt = -Infinity;
  private readonly progressToken: unknown;

  constructor(
    private readonly host: CallHost,
    readonly toolName: string,
    readonly revision: Revision,
    readonly meta: Readonly<JsonObject>,
  ) {
    this.progressToken = meta.progressToken;
    this.wantsProgress = isValidIdValue(this.progressToken);
  }

  /** Whether the call may still send notifications: not answered, not cancelled, server open. */
  get live(): boolean {
    return !this.finished && !this.aborted && !this.host.closed;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** How many tool runs wait behind this one (for the dispatch wrapper). */
  get queued(): number {
    return this.host.queuedRuns;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }

  /** No progress after the response (or after a cancel): the spec forbids it. */
  finish(): void {
    this.finished = true;
  }

  // A property, not a method: tools destructure it from their context.
  readonly progress = (update: ProgressUpdate): void => {
    if (!this.wantsProgress || !this.live) return;
    if (typeof update.progress !== 'number' || !(update.progress > this.lastProgress)) return;
    this.lastProgress = update.progress;
    const body: JsonObject = { progressToken: this.progressToken, progress: update.progress };
    if (typeof update.total === 'number') body.total = update.total;
    if (typeof update.message === 'string' && revisionAtLeast(this.revision, '2025-03-26')) {
      body.message = update.message;
    }
    this.host.send(notificationFrame('notifications/progress', body));
    this.lastProgressAt = performance.now();
  };

  /**
   * A legacy session's log belongs to the session, which still listens after a cancel: a
   * cancelled tool's logs while it winds down are delivered (as SDK v2 does). A 2026-07-28
   * log belongs to its request, over once cancelled; nothing follows a response.
   */
  readonly log = (level: LogLevel, data: unknown, logger?: string): void => {
    const winding = this.aborted && !this.host.closed && !isModernRevision(this.revision);
    if (this.live || winding) this.host.log(level, data, logger, this);
  };
}

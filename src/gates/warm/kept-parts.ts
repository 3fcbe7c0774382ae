import { callLedger, ReadLedger, recordPartSync } from './read-ledger.js';
import type { Incremental } from './tool-adapter.js';
import { workerCount, workerTimed } from './worker-timing.js';

/**
 * Results of the parts of a run (ESLint: one file's lint) kept across calls, each with
 * what it read while it ran, so a call recomputes only the parts whose inputs changed.
 *
 * A part is keyed by everything the tool hands it (ESLint: the file's text, its config
 * and the lint options), and its reads are recorded as a run's are (read-ledger.ts), so a
 * kept part is reused only when its key and every answer it got are unchanged. Parts can
 * share what they read without reading it again (a plugin that parsed another file's
 * exports for one file answers the next from memory), so a change in anything any part
 * read drops every kept part: the next call recomputes them all, as a cold run would.
 * A part that did something no ledger can replay (a clock, a child process) is not kept.
 */
/** How many parts that could not be kept a call's summary names. */
const NOT_KEPT_SAMPLE = 5;

export class KeptParts<T> {
  private readonly parts = new Map<string, { value: T; reads: ReadLedger }>();
  /** Every question a kept part asked, with the answer it got. */
  private partReads = new ReadLedger();
  private reusedCount = 0;
  private ranCount = 0;
  /** Why every part was dropped at the start of this call, if it was. */
  private droppedBecause: string | undefined;
  /** The first parts this call ran and could not keep, with why. */
  private notKept: string[] = [];

  constructor(private readonly maxParts: number) {}

  /** At the start of a call: drops every part when anything a part read has changed. */
  startCall(): void {
    this.reusedCount = 0;
    this.ranCount = 0;
    this.droppedBecause = undefined;
    this.notKept = [];
    if (this.parts.size === 0) return;
    workerCount('parts.questions.count', this.partReads.size);
    const change = workerTimed('parts.check', () => this.partReads.firstChange());
    if (change === undefined) return;
    this.droppedBecause = `${change} changed, and parts may share what they read`;
    this.parts.clear();
    this.partReads = new ReadLedger();
  }

  /** The kept value for `key`, its reads replayed into the call's ledger; undefined if none. */
  reuse(key: string): T | undefined {
    const kept = this.parts.get(key);
    if (!kept) return undefined;
    // The most recently used goes last: eviction takes the oldest.
    this.parts.delete(key);
    this.parts.set(key, kept);
    callLedger()?.absorb(kept.reads, { replayed: true });
    this.reusedCount++;
    return kept.value;
  }

  /**
   * Runs the synchronous part `work` (named by `label` in the result) with its reads recorded
   * on their own (then taken into the call's ledger), and keeps `keep(result)` under `key`
   * when the part can be replayed; `keep` answers why not with a string.
   */
  run<R>(key: string, label: () => string, work: () => R, keep: (result: R) => T | string): R {
    const reads = new ReadLedger();
    reads.part = true;
    const result = recordPartSync(reads, work);
    callLedger()?.absorb(reads);
    this.ranCount++;
    if (reads.notReusableBecause !== undefined) {
      this.noteNotKept(label, `it used ${reads.notReusableBecause}`);
      return result;
    }
    const value = keep(result);
    if (typeof value === 'string') {
      this.noteNotKept(label, value);
      return result;
    }
    if (this.parts.size >= this.maxParts) this.parts.delete(this.parts.keys().next().value!);
    this.parts.set(key, { value, reads });
    this.partReads.absorb(reads);
    return result;
  }

  private noteNotKept(label: () => string, why: string): void {
    if (this.notKept.length < NOT_KEPT_SAMPLE) this.notKept.push(`${label()}: ${why}`);
  }

  /**
   * What this call did: parts kept and parts run again, why all were dropped if they were,
   * and the first parts run that will run again next call, with why.
   */
  summary(): Incremental {
    return {
      kept: this.reusedCount,
      checked: this.ranCount,
      ...(this.droppedBecause ? { droppedBecause: this.droppedBecause } : {}),
      ...(this.notKept.length > 0 ? { relintedBecause: [...this.notKept] } : {}),
    };
  }
}

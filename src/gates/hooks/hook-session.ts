import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  BASELINE_VERSION,
  baselineDirectory,
  createBaseline,
  rootFileAccess,
  splitNew,
  writeBaseline,
  type Baseline,
} from '../report/baseline.js';
import type { Finding } from '../report/finding.js';
import type { ChangedLines } from '../run/changed-files.js';

/**
 * What a hook session remembers: per gate, the findings the session started with (its
 * baseline), and the findings the last `before_stop` blocked on. A finding is old when the
 * baseline holds it (matched by content, see report/baseline.ts), so an edit's errors are
 * told from the project's old ones however lines move.
 *
 * The baseline grows as the session meets files: the first time a gate's findings in a
 * file are seen, those on lines unchanged since the session's start (its HEAD then, see
 * `startCommit`) are the file's baseline, and those on lines changed since are new (the
 * session's edits and commits, or edits made before it).
 * Without git or a commit, every finding of a first-seen file is taken as old.
 */
export interface GateMemory {
  baseline: Baseline;
  /** Files whose findings are in the baseline (none recorded means none there). */
  seen: string[];
  /** Whether a whole-project run has been seen: every file is then known. */
  seenAll: boolean;
  /** Whether findings without a file have been seen. */
  seenProject: boolean;
  /**
   * How the gate ended on the whole project with only old findings (the session's start,
   * as first seen): whether its old findings alone fail it, e.g. under `--max-warnings`.
   */
  startStatus?: 'passed' | 'failed';
  /**
   * The gate gave a verdict (passed or failed) in this session: if it errs later, the
   * session's changes since broke it.
   */
  gaveVerdict?: boolean;
}

export interface SessionState {
  version: 1;
  gates: Record<string, GateMemory>;
  /** The fingerprints `before_stop` last blocked on, or null when its last answer let the agent stop. */
  lastStopBlock: string | null;
  /**
   * HEAD when the session began (its first hook call), null without git or a commit,
   * absent until recorded: a stop checks what changed since, commits and branch switches
   * included, and a first-seen finding on a line changed since is new.
   */
  startCommit?: string | null;
  /**
   * The commit "new" is judged against for the whole session, fixed by its first call: the
   * start, or for a session whose first call was no session_start, the merge base then
   * (work committed before that call counts as the session's). null: none (no git).
   */
  sinceCommit?: string | null;
  /**
   * Gates that gave no verdict on the session's start tree either: their errors are not the
   * session's doing, and the start tree is not run again for them.
   */
  erredAtStart?: string[];
}

/** The gate run on the session's start tree (a private copy in `root`), over `scope`. */
export interface StartRun {
  root: string;
  findings: readonly Finding[];
  scope: readonly string[] | 'all';
}

/** What the split needs to know about one run of a gate. */
export interface GateRunView {
  gate: string;
  findings: readonly Finding[];
  /** The files the run checked, or 'all' for the whole project. */
  scope: readonly string[] | 'all';
  /** Lines changed against HEAD per file of the findings; null when there is no HEAD. */
  changedLines: ReadonlyMap<string, ChangedLines> | null;
}

function emptyMemory(gate: string): GateMemory {
  return {
    baseline: { version: BASELINE_VERSION, gate, files: Object.create(null), project: [] },
    seen: [],
    seenAll: false,
    seenProject: false,
  };
}

/** Whether a finding lies on a line the working tree changed against HEAD. */
function onChangedLine(finding: Finding, changed: ReadonlyMap<string, ChangedLines> | null) {
  if (changed === null || finding.file === null) return false;
  const lines = changed.get(finding.file);
  if (lines === undefined) return false;
  if (lines === 'all') return true;
  // A finding without a line (a whole-file format finding) counts as changed when the file is.
  return finding.line === null ? lines.size > 0 : lines.has(finding.line);
}

export class HookSession {
  readonly state: SessionState;
  /** The baseline being taken in the background (session-start), while it runs. */
  priming: Promise<unknown> | undefined;

  constructor(state?: SessionState) {
    this.state = state ?? { version: 1, gates: Object.create(null), lastStopBlock: null };
  }

  /** Whether the session has met any gate's findings yet (its baseline has begun). */
  get started(): boolean {
    return this.priming !== undefined || Object.keys(this.state.gates).length > 0;
  }

  /** The files of these findings the session has not met yet for the gate (their baseline is still to take). */
  unseenFiles(gate: string, findings: readonly Finding[]): string[] {
    const memory = this.state.gates[gate];
    if (memory?.seenAll) return [];
    const seen = new Set(memory?.seen ?? []);
    const files = findings.flatMap((finding) => (finding.file === null ? [] : [finding.file]));
    return [...new Set(files)].filter((file) => !seen.has(file));
  }

  /**
   * The run's first-seen findings on lines not changed since the session's start: only the
   * start tree can tell whether they were there (an edit breaks an unchanged line too: an
   * import of a deleted module, a declaration whose last use was removed).
   */
  undecided(run: GateRunView): Finding[] {
    if (run.changedLines === null) return [];
    const memory = this.state.gates[run.gate] ?? emptyMemory(run.gate);
    const seen = new Set(memory.seen);
    return run.findings.filter(
      (finding) =>
        (finding.file === null
          ? !memory.seenProject
          : !memory.seenAll && !seen.has(finding.file)) &&
        !onChangedLine(finding, run.changedLines),
    );
  }

  /**
   * The run's findings that are new for the session. What the start tree said (`start`:
   * the gate run there, on `scope`) becomes the baseline of the files it covered; other
   * first-seen files join the baseline with their findings on lines unchanged since the
   * start, unless the start tree could not be checked (`'unknown'`): then they count as
   * new (told of, never hidden). Then the run is split against the baseline.
   */
  newFindings(root: string, run: GateRunView, start?: StartRun | 'unknown'): Finding[] {
    const memory = (this.state.gates[run.gate] ??= emptyMemory(run.gate));
    const access = rootFileAccess(root);
    const seen = new Set(memory.seen);
    if (start !== undefined && start !== 'unknown') {
      const startAccess = rootFileAccess(start.root);
      const covered = (file: string | null) =>
        start.scope === 'all' ? true : file !== null && start.scope.includes(file);
      const fromStart = createBaseline(
        run.gate,
        start.findings.filter((finding) => covered(finding.file)),
        startAccess.readLines,
        startAccess.fileHash,
      );
      if (start.scope === 'all') {
        memory.baseline = fromStart;
        memory.seenAll = true;
        memory.seenProject = true;
      } else {
        for (const file of start.scope) {
          const record = fromStart.files[file];
          if (record) memory.baseline.files[file] = record;
          else delete memory.baseline.files[file];
          seen.add(file);
        }
      }
    }
    const firstSeen = (finding: Finding) =>
      finding.file === null ? !memory.seenProject : !memory.seenAll && !seen.has(finding.file);
    const joining = run.findings.filter(
      (finding) =>
        start !== 'unknown' && firstSeen(finding) && !onChangedLine(finding, run.changedLines),
    );
    const added = createBaseline(run.gate, joining, access.readLines, access.fileHash);
    for (const [file, record] of Object.entries(added.files)) memory.baseline.files[file] = record;
    memory.baseline.project.push(...added.project);
    const scopeFiles = run.scope === 'all' ? [] : run.scope;
    for (const file of [...scopeFiles, ...run.findings.map((finding) => finding.file)])
      if (file !== null) seen.add(file);
    memory.seen = [...seen].sort();
    if (run.scope === 'all') memory.seenAll = true;
    if (run.scope === 'all' || run.findings.some((finding) => finding.file === null))
      memory.seenProject = true;
    return splitNew(memory.baseline, run.findings, access.readLines, access.fileHash).newFindings;
  }
}

/** A stable key of findings (gate, file, rule, message; no line, which moves): what a stop blocked on. */
export function findingsKey(findings: readonly { gate: string; finding: Finding }[]): string {
  const lines = findings
    .map(({ gate, finding }) => JSON.stringify([gate, finding.file, finding.rule, finding.message]))
    .sort();
  return crypto.createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** A session id as a file name: its hash, so any id (a path, a UUID) is safe. */
function sessionFile(root: string, sessionId: string, env: NodeJS.ProcessEnv): string {
  const id = crypto.createHash('sha256').update(sessionId).digest('hex').slice(0, 32);
  return path.join(baselineDirectory(root, env), 'hook-sessions', `${id}.json`);
}

function isSessionState(value: unknown): value is SessionState {
  const state = value as SessionState | null;
  return (
    typeof state === 'object' &&
    state !== null &&
    state.version === 1 &&
    typeof state.gates === 'object' &&
    state.gates !== null &&
    (state.lastStopBlock === null || typeof state.lastStopBlock === 'string') &&
    [state.startCommit, state.sinceCommit].every(
      (commit) => commit === undefined || commit === null || typeof commit === 'string',
    )
  );
}

/**
 * A command hook's session, kept between its processes in the per-root cache (outside the
 * repository, 0600): a file that is missing or unreadable starts the session afresh.
 */
export function loadSession(root: string, sessionId: string, env: NodeJS.ProcessEnv): HookSession {
  try {
    const value: unknown = JSON.parse(fs.readFileSync(sessionFile(root, sessionId, env), 'utf8'));
    if (isSessionState(value)) return new HookSession(value);
  } catch {
    // No session yet, or one this version cannot read: start afresh.
  }
  return new HookSession();
}

/** Saves a command hook's session; a failure only costs the memory, never the answer. */
export function saveSession(
  root: string,
  sessionId: string,
  session: HookSession,
  env: NodeJS.ProcessEnv,
): void {
  try {
    // writeBaseline's atomic 0600 write serves any JSON document.
    writeBaseline(sessionFile(root, sessionId, env), session.state as unknown as Baseline);
  } catch {
    // The next call starts a new session: it may report an old finding as new, never hide one.
  }
}

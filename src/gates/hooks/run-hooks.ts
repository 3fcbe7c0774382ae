import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToolContext } from '../../server/tool.js';
import { inParallel } from '../check-tool.js';
import { gateCommands } from '../detect/gate-commands.js';
import { takesPaths, type GateSpec } from '../gate-spec.js';
import { GatesError } from '../gates-error.js';
import { createFinding, type Finding } from '../report/finding.js';
import type { GateStatus, GateStructuredContent } from '../report/gate-result.js';
import {
  baseCommitOf,
  ChangedFilesError,
  changedLinesAgainst,
  extractTree,
  headCommitOf,
  listChanges,
  mergeBaseOf,
  type Changes,
} from '../run/changed-files.js';
import { confinePaths } from '../run/confine-paths.js';
import { runGateCall, type GateToolOptions } from '../run/run-gate.js';
import { fingerprintTree, sameTree } from '../run/tree-fingerprint.js';
import { timed, underPhase } from '../phase-timing.js';
import type { HookEvent, HookVerdict } from './hook-hosts.js';
import { pathArgument, planRuns, type PlannedRun } from './hook-plan.js';
import { findingsKey, type HookSession, type StartRun } from './hook-session.js';
import { clampBudget, DEFAULT_BUDGET_MS } from './hook-budget.js';

/** The reason shown to the model stays short: a hook's answer is read on every edit. */
export const MAX_REASON_CHARS = 4000;

/** One gate's part in a hook call. */
export interface HookGateRow {
  gate: string;
  status: GateStatus;
  /** The hook's own budget ran out before the gate finished. */
  overBudget: boolean;
  newFindings: number;
  newErrors: number;
  /**
   * It fails and did not before the session's new findings (e.g. new warnings under
   * `--max-warnings 0`): they block whatever their severity.
   */
  newFailure: boolean;
  /** It failed and its findings could not be read: no verdict on the edit. */
  unread: boolean;
  /** It failed and the tree changed while it ran (root-relative files): named, never silent. */
  wrote: string[];
  /** The gate's verdict line (what ran and how it ended). */
  verdict: string;
}

export interface HookOutcome {
  verdict: HookVerdict;
  rows: HookGateRow[];
  /** Every new finding, its rule prefixed with its gate. */
  newFindings: Finding[];
  /** The host cancelled the call: no verdict to act on. */
  cancelled: boolean;
}

/** A context for the gates of one hook call: the host's cancel or the hook's budget ends them. */
function budgetedContext(context: ToolContext, signal: AbortSignal): ToolContext {
  return {
    signal,
    wantsProgress: false,
    progress: () => {},
    log: (level, data, logger) => context.log?.(level, data, logger),
    revision: context.revision,
    meta: context.meta,
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

function location(finding: Finding): string {
  if (finding.file === null) return '(project)';
  if (finding.line === null) return finding.file;
  return `${finding.file}:${finding.line}${finding.column === null ? '' : `:${finding.column}`}`;
}

/**
 * New findings as the model reads them: those that block first, those in the edited files before
 * those elsewhere, one line each, within MAX_REASON_CHARS.
 */
function findingLines(
  findings: readonly Finding[],
  edited: ReadonlySet<string>,
  blocking: ReadonlySet<Finding>,
): string[] {
  const rank = (finding: Finding) =>
    (blocking.has(finding) ? 0 : 2) + (finding.file !== null && edited.has(finding.file) ? 0 : 1);
  return [...findings]
    .map((finding, index) => ({ finding, index }))
    .sort((a, b) => rank(a.finding) - rank(b.finding) || a.index - b.index)
    .map(({ finding }) =>
      `${location(finding)} ${finding.severity} ${finding.rule ?? ''} ${finding.message.split('\n')[0]}`.replace(
        /\s+/g,
        ' ',
      ),
    );
}

function bounded(head: string, lines: readonly string[], tail: readonly string[]): string {
  const end = tail.length > 0 ? `\n${tail.join('\n')}` : '';
  let text = head;
  for (let index = 0; index < lines.length; index += 1) {
    const more = `\n… and ${lines.length - index} more (run the gates for the full list)`;
    const next = `${text}\n${lines[index]}`;
    if (next.length + more.length + end.length > MAX_REASON_CHARS)
      return `${text}${more}${end}`.slice(0, MAX_REASON_CHARS);
    text = next;
  }
  return `${text}${end}`.slice(0, MAX_REASON_CHARS);
}

interface HookCall {
  kind: 'after-edit' | 'before-stop';
  /** Before a stop: what the changed files were taken against, for the note. */
  against?: string;
  /**
   * The commit the session's first-seen findings are split against: on lines changed
   * since it they are new (the session start's HEAD, else the merge base, else HEAD).
   */
  since: string | undefined;
  gates: readonly GateSpec[];
  runs: PlannedRun[];
  /** The call's whole budget, when waiting for the baseline took part of it (`budgetMs` is what is left). */
  totalBudgetMs?: number;
  /** The tree is the session's start as it is (session_start's baseline): nothing to look up. */
  liveIsStart?: boolean;
  /** The edited files (after-edit) or the changed ones (before-stop), relative to the root. */
  files: readonly string[];
  /** What was not checked and why (paths outside the root, a deleted file...). */
  skipped: string[];
  budgetMs: number;
  context: ToolContext;
  options: GateToolOptions;
  session: HookSession;
}

/**
 * Whether a gate's run fails because of its new findings: it failed, with new findings,
 * and did not before them. The gate's own verdict on the whole project with only old
 * findings decides (the session's start, as recorded): a gate already failing then is no
 * new failure. Without that record, a run whose old findings hold an error failed before
 * them; otherwise the failure counts as new (the new findings are the agent's to fix).
 */
function failsAnew(
  session: HookSession,
  run: PlannedRun,
  status: 'passed' | 'failed',
  findings: readonly Finding[],
  fresh: readonly Finding[],
  treeMoved = false,
): boolean {
  const memory = session.state.gates[run.gate.name];
  // The first whole-project run with nothing new is how the gate ends on old findings.
  if (
    memory &&
    memory.startStatus === undefined &&
    run.scope === 'all' &&
    fresh.length === 0 &&
    !treeMoved
  )
    memory.startStatus = status;
  if (status !== 'failed' || fresh.length === 0) return false;
  if (memory?.startStatus !== undefined) return memory.startStatus === 'passed';
  const novel = new Set(fresh);
  const old = findings.filter((finding) => !novel.has(finding));
  return !old.some((finding) => finding.severity === 'error');
}

/** Runs the planned gates within the budget and splits their findings against the session. */
async function runPlanned(call: HookCall): Promise<
  Omit<HookOutcome, 'verdict'> & {
    ranNames: string[];
    /** The gates that ran on the whole project where they take paths, with why ("lint (x is gone)"). */
    wholeRuns: string[];
    /** The new findings that block: new errors, and every new finding of a gate that newly fails. */
    blocking: Finding[];
    /** What the answer must say beside the gates' rows (a start tree that could not be checked). */
    problems: string[];
  }
> {
  const { runs, context, options, session } = call;
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(), clampBudget(call.budgetMs));
  const onCancel = () => budget.abort();
  context.signal.addEventListener('abort', onCancel, { once: true });
  if (context.signal.aborted) budget.abort();
  const gateContext = budgetedContext(context, budget.signal);
  const isolated: GateToolOptions = { ...options, ownTranscript: true };
  const startTree: StartTree = { root: undefined };
  const startProblems = new Set<string>();
  try {
    // Every gate at once: a hook call runs the few gates an edit concerns, and a warm one
    // waits on its worker, not on a core of this process, so lint and format answer beside
    // a typecheck instead of queueing behind it (at one gate per core, on 2 cores the third
    // started only when one of the first two ended).
    const outcomes = await inParallel(
      runs.map(
        (run) => () =>
          underPhase(run.gate.name, () =>
            timed('call', () => runGateCall(run.gate, false, run.args, gateContext, isolated)),
          ),
      ),
      Math.max(1, runs.length),
    );
    const rows: HookGateRow[] = [];
    const newFindings: Finding[] = [];
    const blocking: Finding[] = [];
    const ranNames: string[] = [];
    const wholeRuns: string[] = [];
    for (const [index, { result, run: data }] of outcomes.entries()) {
      const planned = runs[index]!;
      const structured = result.structuredContent as unknown as GateStructuredContent;
      const status = structured.status;
      const overBudget = status === 'cancelled' && !context.signal.aborted;
      let fresh: Finding[] = [];
      let newFailure = false;
      if (data && (status === 'passed' || status === 'failed')) {
        ranNames.push(planned.gate.name);
        if (planned.whole) wholeRuns.push(`${planned.gate.name} (${planned.whole})`);
        const findings = data.parsed.findings;
        // Only files met for the first time need HEAD's lines (and git): the rest are known.
        const unseen = session.unseenFiles(planned.gate.name, findings);
        const gatePhase = <T>(phase: string, work: () => T) =>
          underPhase(planned.gate.name, () => timed(phase, work));
        const changedLines =
          unseen.length === 0
            ? new Map()
            : await gatePhase('changedLines', () =>
                changedLinesAgainst(options.root, unseen, {
                  ...(options.env ? { env: options.env } : {}),
                  ...(call.since ? { against: call.since } : {}),
                }),
              );
        const view = { gate: planned.gate.name, findings, scope: planned.scope, changedLines };
        const undecided = call.liveIsStart ? [] : session.undecided(view);
        const start =
          undecided.length > 0 && call.since
            ? await gatePhase('startTree', () =>
                startTreeRun(call, planned, undecided, startTree, gateContext),
              )
            : undefined;
        if (start === 'unknown')
          startProblems.add(
            `${planned.gate.name}: the session's start could not be checked, so its ${undecided.length} finding(s) on unchanged lines count as new`,
          );
        fresh = gatePhase('compare', () => session.newFindings(options.root, view, start));
        // New warnings alone fail the gate anew only if it passed at the start: with no record
        // of how it ended there, its whole run on the start tree says, once per session (the
        // run's old findings are only those of the files at hand: distrobox's shellcheck failed
        // on old warnings elsewhere, and its new ones blocked as failing it).
        const memory = session.state.gates[planned.gate.name];
        if (
          status === 'failed' &&
          call.since &&
          !call.liveIsStart &&
          memory?.startStatus === undefined &&
          fresh.length > 0 &&
          !fresh.some((finding) => finding.severity === 'error')
        ) {
          const ended = await gatePhase('startStatus', () =>
            startTreeRun(call, planned, [], startTree, gateContext, true),
          );
          if (ended !== 'unknown') memory!.startStatus = ended.status;
        }
        // A run the tree changed under (the agent edits while the baseline runs) fails for
        // that, not on its findings: it says nothing of how the gate ended at the start.
        const treeMoved = (structured.changedFiles?.length ?? 0) > 0;
        newFailure = failsAnew(session, planned, status, findings, fresh, treeMoved);
        session.state.gates[planned.gate.name]!.gaveVerdict = true;
      } else if (
        status === 'error' &&
        !call.liveIsStart &&
        (await underPhase(planned.gate.name, () =>
          timed('startTree', () => ranAtStart(call, planned, startTree, gateContext)),
        ))
      ) {
        // It gave a verdict at the session's start and cannot now: the session broke it (a
        // module its config imports deleted, a config that no longer loads). That blocks as
        // a new error does, its cause named; "no verdict" alone would let the stop pass.
        fresh = [brokenFinding(result.text ?? '')];
        newFailure = true;
      }
      const named = fresh.map((finding) => ({
        ...finding,
        rule: `${planned.gate.name}:${finding.rule ?? ''}`,
      }));
      newFindings.push(...named);
      // Under `--max-warnings 0` a warning fails the gate as an error does, whatever else fails it.
      // The plan read it; the session's baseline runs (no plan) read it here.
      const strict = planned.strict ?? gateCommands(planned.gate, options.root).warningLimit === 0;
      blocking.push(
        ...named.filter((finding) => newFailure || strict || finding.severity === 'error'),
      );
      rows.push({
        gate: planned.gate.name,
        status,
        overBudget,
        newFindings: fresh.length,
        newErrors: fresh.filter((finding) => finding.severity === 'error').length,
        newFailure,
        unread: status === 'failed' && (data?.parsed.unparsed ?? false) && fresh.length === 0,
        wrote: status === 'failed' ? (structured.changedFiles ?? []) : [],
        verdict: (result.text ?? '').split('\n')[0]!,
      });
    }
    return {
      rows,
      newFindings,
      blocking,
      ranNames,
      wholeRuns,
      cancelled: context.signal.aborted,
      problems: [...startProblems],
    };
  } finally {
    clearTimeout(timer);
    context.signal.removeEventListener('abort', onCancel);
    if (startTree.root !== undefined) fs.rmSync(startTree.root, { recursive: true, force: true });
  }
}

/**
 * Whether the gate gave a verdict (passed or failed) at the session's start or since: as the
 * session recorded it, else run whole on the start tree (which cannot show it where the
 * project's node_modules links back to the live tree: a package that depends on itself).
 */
async function ranAtStart(
  call: HookCall,
  planned: PlannedRun,
  tree: StartTree,
  context: ToolContext,
): Promise<boolean> {
  const { state } = call.session;
  const memory = state.gates[planned.gate.name];
  if (memory?.startStatus !== undefined || memory?.gaveVerdict) return true;
  if (call.since === undefined || state.erredAtStart?.includes(planned.gate.name)) return false;
  const whole: PlannedRun = { ...planned, scope: 'all' };
  if ((await startTreeRun(call, whole, [], tree, context)) !== 'unknown') return true;
  // Once per session: a gate broken before it began would cost a start-tree run per call.
  if (!context.signal.aborted) (state.erredAtStart ??= []).push(planned.gate.name);
  return false;
}

/**
 * A gate the session broke, as the finding that blocks, with the error's first line (no
 * timing in it: a stop never blocks twice on the same findings, so they must read the same).
 */
function brokenFinding(text: string): Finding {
  const lines = text
    .split('\n')
    .slice(1)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('$ '));
  const cause = lines.find((line) => /error/i.test(line)) ?? lines[0];
  const message = `no verdict now, where it gave one earlier in the session${cause ? `: ${cause}` : ''}`;
  return createFinding({ file: null, message: message.slice(0, 500) });
}

/** The session's start tree of one hook call, written on first need, removed at its end. */
interface StartTree {
  root: string | undefined;
  /** Its files: it is no git work tree, so gates that list theirs with git are given these. */
  files?: string[];
  /** Why it could not be written. */
  problem?: string;
}

/**
 * The gate run on the tree the session started from (a private copy outside the root, its
 * ignored environments linked in), cold, on the files whose first-seen findings lie on
 * unchanged lines (a gate that takes no paths, or a whole run: the whole project; `wholeRun`:
 * the whole project, for how the gate ended at the start). 'unknown' when the tree cannot be
 * written or the gate gives no verdict there.
 */
async function startTreeRun(
  call: HookCall,
  planned: PlannedRun,
  undecided: readonly Finding[],
  tree: StartTree,
  context: ToolContext,
  wholeRun = false,
): Promise<(StartRun & { status: 'passed' | 'failed' }) | 'unknown'> {
  const { options } = call;
  if (tree.problem !== undefined || context.signal.aborted) return 'unknown';
  if (tree.root === undefined) {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-gates-start-'));
    try {
      tree.files = await extractTree(options.root, call.since!, directory, {
        signal: context.signal,
        ...(options.env ? { env: options.env } : {}),
      });
      tree.root = directory;
    } catch (error) {
      fs.rmSync(directory, { recursive: true, force: true });
      if (!(error instanceof ChangedFilesError)) throw error;
      tree.problem = error.message;
      return 'unknown';
    }
  }
  const files = [...new Set(undecided.flatMap((finding) => (finding.file ? [finding.file] : [])))];
  const whole =
    wholeRun ||
    planned.scope === 'all' ||
    !takesPaths(planned.gate) ||
    undecided.some((finding) => finding.file === null);
  const args = whole ? {} : { paths: files.map(pathArgument) };
  // Cold and on its own: the start tree is another root, never the warm workers' or the watch's.
  const startOptions: GateToolOptions = {
    root: tree.root,
    ownTranscript: true,
    ...(options.env ? { env: options.env } : {}),
    ...(tree.files ? { projectFiles: tree.files } : {}),
  };
  const { result, run } = await runGateCall(planned.gate, false, args, context, startOptions);
  const status = (result.structuredContent as unknown as GateStructuredContent).status;
  if (!run || (status !== 'passed' && status !== 'failed')) return 'unknown';
  return { root: tree.root, findings: run.parsed.findings, scope: whole ? 'all' : files, status };
}

/** What the answer says about gates that did not give a verdict. */
function troubles(rows: readonly HookGateRow[], budgetMs: number): string[] {
  return rows.flatMap((row) => {
    if (row.overBudget)
      return [`${row.gate} did not finish within the hook's ${seconds(budgetMs)} budget`];
    // A failed run whose findings could not be read is no pass either.
    if (row.unread) return [`${row.gate}: ${row.verdict}`];
    // Nor one that failed for writing in the tree (go vet under GOFLAGS=-mod=mod adds a go
    // directive to go.mod): "nothing new" said nothing of it.
    if (row.wrote.length > 0) {
      const files = row.wrote.slice(0, 5).join(', ') + (row.wrote.length > 5 ? ', ...' : '');
      return [
        `${row.gate} changed ${files} while it ran, which a check never does (the tool's own write, or an edit made meanwhile; git status / git diff show it)`,
      ];
    }
    // Broken by the session: listed with the findings that block.
    if (row.status === 'error' && row.newFailure) return [];
    if (row.status === 'passed' || row.status === 'failed') return [];
    if (row.status === 'nothing-to-check') return [];
    return [`${row.gate} gave no verdict: ${row.verdict}`];
  });
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** What blocks, counted: "2 new errors", "1 new warning that fails lint", or both. */
function blockingCount(blocking: readonly Finding[], rows: readonly HookGateRow[]): string {
  const errors = blocking.filter((finding) => finding.severity === 'error').length;
  const others = blocking.length - errors;
  // The gates those warnings fail, not every gate that fails anew (a typecheck's new error).
  const failing = rows
    .filter(
      (row) =>
        row.newFailure &&
        blocking.some(
          (finding) => finding.severity !== 'error' && finding.rule?.startsWith(`${row.gate}:`),
        ),
    )
    .map((row) => row.gate);
  const warnings =
    others === 0
      ? ''
      : `${plural(others, 'new warning')} that ${others === 1 ? 'fails' : 'fail'} ${failing.join(', ')}`;
  if (errors === 0) return warnings;
  return others === 0
    ? plural(errors, 'new error')
    : `${plural(errors, 'new error')} and ${warnings}`;
}

/** The first new warnings by place and rule, for a note that blocks nothing but should say what. */
function warningsNamed(findings: readonly Finding[], most = 3): string {
  const named = findings
    .slice(0, most)
    .map((finding) => `${location(finding)} ${finding.rule ?? ''}`);
  return findings.length > most
    ? `${named.join(', ')} and ${findings.length - most} more`
    : named.join(', ');
}

function verdictOf(
  call: HookCall,
  ran: Awaited<ReturnType<typeof runPlanned>>,
  blockAllowed: boolean,
) {
  const edited = new Set(call.files);
  const { blocking } = ran;
  const problems = [
    ...call.skipped,
    ...troubles(ran.rows, call.totalBudgetMs ?? call.budgetMs),
    ...ran.problems,
  ];
  const where =
    call.kind === 'after-edit'
      ? ` on ${call.files.join(', ')}`
      : ` on the ${plural(call.files.length, 'file')} changed against ${call.against}`;
  // A gate that ran whole where it takes paths says so: its findings are the whole project's.
  const wholeText =
    ran.wholeRuns.length > 0 ? `; on the whole project: ${ran.wholeRuns.join(', ')}` : '';
  const ranText =
    ran.ranNames.length > 0 ? `ran ${ran.ranNames.join(', ')}${where}${wholeText}` : 'no gate ran';
  // The gate's verdict decides: a new error, or a new warning that makes its gate fail.
  const block = blocking.length > 0 && blockAllowed;
  const lines = findingLines(ran.newFindings, edited, new Set(blocking));
  const count = blockingCount(blocking, ran.rows);
  const them = blocking.length === 1 ? 'it' : 'them';
  const remain = blocking.length === 1 ? 'remains' : 'remain';
  // New means new since the session began: an earlier edit's findings still there are listed
  // too (edited files first), so the head says where they are rather than blaming this edit.
  const elsewhere = blocking.filter(
    (finding) => finding.file === null || !edited.has(finding.file),
  );
  const head =
    call.kind === 'after-edit'
      ? elsewhere.length === 0
        ? `mcp-gates: the edited file${call.files.length === 1 ? '' : 's'} now ${call.files.length === 1 ? 'has' : 'have'} ${count} since the session began (${ranText}); fix ${them}:`
        : `mcp-gates: ${count} since the session began, ${elsewhere.length} of them outside the edited file${call.files.length === 1 ? '' : 's'} (${ranText}); fix ${them}:`
      : `mcp-gates: ${count} since the session began ${remain} (${ranText}); fix ${them} before stopping:`;
  const newCount = ran.newFindings.length;
  // Gates that fail on their old findings too: their new warnings are no new failure.
  const failedBefore = ran.rows
    .filter((row) => row.status === 'failed' && row.newFindings > 0 && !row.newFailure)
    .map((row) => `${row.gate} failed before the session's findings too`);
  // The note says what the reason says: never "no new error" beside a block.
  const summary = block
    ? `mcp-gates: blocked on ${count} (${ranText})`
    : blocking.length > 0
      ? `mcp-gates: ${count} ${remain} (${ranText}); not blocking again for the same findings`
      : newCount > 0
        ? `mcp-gates: ${ranText}: ${plural(newCount, 'new warning')}, no new error: ${warningsNamed(ran.newFindings)}`
        : `mcp-gates: ${ranText}: nothing new`;
  const note = [summary, ...failedBefore, ...problems].join('; ');
  return {
    block,
    reason: block ? bounded(head, lines, problems) : '',
    note,
    /** Something the hook was to check was not: hosts that show nothing else are told. */
    unchecked: problems.length > 0,
    // What a stop blocked on, so it never blocks twice in a row on the same findings.
    errorsKey: findingsKey(blocking.map((finding) => ({ gate: '', finding }))),
    errorCount: blocking.length,
  };
}

/**
 * A host's path as the root spells it: an absolute path through another spelling of the
 * root (a symlinked workspace, /tmp for /private/tmp) is taken through the real paths.
 */
function underRoot(root: string, given: string): string {
  if (!path.isAbsolute(given)) return given;
  const relative = path.relative(root, given);
  if (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
    return given;
  try {
    const realRoot = fs.realpathSync(root);
    // The file itself may be gone (deleted): its directory's real path is enough.
    const realDirectory = fs.realpathSync(path.dirname(given));
    const inside = path.relative(realRoot, path.join(realDirectory, path.basename(given)));
    if (inside !== '..' && !inside.startsWith(`..${path.sep}`) && !path.isAbsolute(inside))
      return path.join(root, inside);
  } catch {
    // Its directory is gone too, or the root: confinePaths says why.
  }
  return given;
}

/**
 * The edited paths inside the root, relative to it: those that exist, and those that are
 * gone (deleted by the edit; what imported them may break). The others (outside the root,
 * a directory...) are named in `skipped`.
 */
function confineEdited(
  root: string,
  given: readonly string[],
): { files: string[]; deleted: string[]; skipped: string[] } {
  const files: string[] = [];
  const deleted: string[] = [];
  const skipped: string[] = [];
  if (given.length === 0)
    skipped.push(
      "nothing checked: the hook's input named no edited file (fix: run this hook after file edits only, with the matcher `mcp-gates init --hooks` writes)",
    );
  for (const original of given) {
    const file = underRoot(root, original);
    const absolute = path.resolve(root, file);
    const relative = path.relative(root, absolute).split(path.sep).join('/');
    const inside =
      relative !== '' &&
      relative !== '..' &&
      !relative.startsWith('../') &&
      !path.isAbsolute(relative);
    if (inside && !fs.existsSync(absolute)) {
      deleted.push(relative);
      continue;
    }
    try {
      const [confined] = confinePaths(root, [absolute]);
      // A directory is no edit: its files are the stop's to check.
      if (fs.statSync(absolute).isDirectory()) {
        skipped.push(
          `not checked: ${JSON.stringify(original)} is a directory, not an edited file (fix: name the edited files)`,
        );
        continue;
      }
      files.push(confined!.split(path.sep).join('/').replace(/^\.\//, ''));
    } catch (error) {
      if (!(error instanceof GatesError)) throw error;
      skipped.push(
        `not checked: ${error.message.replace(/\n\s*fix: /, ' (fix: ')}${error.fix ? ')' : ''}`,
      );
    }
  }
  return { files: [...new Set(files)], deleted: [...new Set(deleted)], skipped };
}

export interface HookRequest {
  gates: readonly GateSpec[];
  context: ToolContext;
  options: GateToolOptions;
  session: HookSession;
  budgetMs?: number;
}

/**
 * The session's anchor: HEAD when the session began, recorded by its first hook call
 * (session_start, else the first edit or stop it sees). Returns the commit first-seen
 * findings are split against: the recorded start, or for a call that is the session's
 * first, the merge base with the default branch (work committed before it counts as the
 * session's), else HEAD.
 */
async function sessionSince(request: HookRequest, base?: string): Promise<string | undefined> {
  const { session, options } = request;
  const envOption = options.env ? { env: options.env } : {};
  const { state } = session;
  if (state.sinceCommit !== undefined) return state.sinceCommit ?? undefined;
  // A session kept by an older version has its start only: new is judged against it.
  if (state.startCommit !== undefined) {
    state.sinceCommit = state.startCommit;
    return state.startCommit ?? undefined;
  }
  state.startCommit = await headCommitOf(options.root, envOption);
  state.sinceCommit = state.startCommit;
  const against = base ?? (await defaultBase(options.root, envOption));
  if (against !== undefined) {
    try {
      state.sinceCommit =
        (await mergeBaseOf(options.root, against, envOption)) ?? state.sinceCommit;
    } catch (error) {
      if (!(error instanceof ChangedFilesError)) throw error;
    }
  }
  return state.sinceCommit ?? undefined;
}

/**
 * The request with its root in one spelling, the real path: tools report real paths (eslint
 * names files absolutely), and a root given through a symlink would leave them outside it.
 */
function realRooted(request: HookRequest): HookRequest {
  let root: string;
  try {
    root = fs.realpathSync(request.options.root);
  } catch {
    return request;
  }
  return root === request.options.root
    ? request
    : { ...request, options: { ...request.options, root } };
}

/**
 * Records the session's start (HEAD now) where nothing was recorded yet, as the commit new
 * is judged against: the session begins here (its prompt hook), so nothing before is its.
 */
export async function recordSessionStart(given: HookRequest): Promise<void> {
  const request = realRooted(given);
  const { state } = request.session;
  if (state.startCommit !== undefined || state.sinceCommit !== undefined) return;
  const envOption = request.options.env ? { env: request.options.env } : {};
  state.startCommit = await headCommitOf(request.options.root, envOption);
  state.sinceCommit = state.startCommit;
}

/**
 * `session_start`: takes the session's baseline in the background, before the agent's
 * first edit: every gate on the whole project, its findings on lines unchanged since the
 * session's start (so an edit already made while it runs still counts as new). Once per
 * session; answers once HEAD is recorded. It also starts the warm workers, so the first
 * edit's hook is warm too.
 */
export async function startSession(given: HookRequest): Promise<'started' | 'already started'> {
  const request = realRooted(given);
  const { session } = request;
  const started = session.started;
  await recordSessionStart(request);
  if (started) return 'already started';
  const call: HookCall = {
    kind: 'after-edit',
    ...request,
    since: session.state.startCommit ?? undefined,
    liveIsStart: true,
    // Its own context: the call that started it ends at once, the baseline goes on.
    context: hookContext(new AbortController().signal, request.context.revision),
    runs: request.gates.map((gate) => ({ gate, args: {}, scope: 'all' })),
    files: [],
    skipped: [],
    budgetMs: request.budgetMs ?? DEFAULT_BUDGET_MS.sessionStart,
  };
  // The baseline is the start only if the tree is as session_start found it when it ends:
  // an edit made before or while it ran (the agent does not wait for it) would make what the
  // edit broke on unchanged lines old. Then it records nothing, and the start tree answers.
  const { root } = request.options;
  const env = request.options.env ?? process.env;
  const print = () =>
    request.options.trees
      ? request.options.trees.fingerprint(root, env)
      : fingerprintTree(root, env);
  const atStart = await print();
  const before = structuredClone(session.state.gates);
  session.priming = runPlanned(call)
    .then(async () => {
      if (sameTree(atStart, await print())) return;
      for (const gate of Object.keys(session.state.gates)) delete session.state.gates[gate];
      Object.assign(session.state.gates, before);
    })
    .catch(() => undefined);
  return 'started';
}

/** Waits for a baseline still being taken, at most `budgetMs` (the hook's own budget). */
async function primed(session: HookSession, budgetMs: number): Promise<void> {
  if (session.priming === undefined) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    session.priming,
    new Promise((resolve) => (timer = setTimeout(resolve, clampBudget(budgetMs)))),
  ]);
  clearTimeout(timer);
}

/** What the answer says about files no gate reads: which, and which tools were asked. */
function unreadNote(unread: { files: string[]; tools: string[] }): string[] {
  if (unread.files.length === 0) return [];
  const tools = unread.tools.length > 0 ? unread.tools.join(', ') : 'none known';
  return [
    `no gate reads ${unread.files.join(', ')} (the gates' tools: ${tools}): nothing checked ${unread.files.length === 1 ? 'it' : 'them'}`,
  ];
}

/** `after_edit`: the gates the edited files concern, warm, new findings only. */
export async function runAfterEdit(
  given: HookRequest,
  paths: readonly string[],
): Promise<HookOutcome> {
  const request = realRooted(given);
  // One budget for the whole call: waiting for the baseline spends it too.
  const deadline = Date.now() + (request.budgetMs ?? DEFAULT_BUDGET_MS.afterEdit);
  await timed('hook.primed', () =>
    primed(request.session, request.budgetMs ?? DEFAULT_BUDGET_MS.afterEdit),
  );
  const since = await timed('hook.since', () => sessionSince(request));
  const { files, deleted, skipped, plan } = timed('hook.plan', () => {
    const confined = confineEdited(request.options.root, paths);
    const { files, deleted } = confined;
    return {
      ...confined,
      plan: planRuns(request.gates, request.options.root, { files, deleted }, true),
    };
  });
  skipped.push(...unreadNote(plan.unread));
  const call: HookCall = {
    kind: 'after-edit',
    ...request,
    since,
    runs: plan.runs,
    files: [...files, ...deleted],
    skipped,
    budgetMs: Math.max(1, deadline - Date.now()),
    totalBudgetMs: request.budgetMs ?? DEFAULT_BUDGET_MS.afterEdit,
  };
  const ran = await timed('hook.gates', () => runPlanned(call));
  const { block, reason, note, unchecked } = timed('hook.verdict', () =>
    verdictOf(call, ran, true),
  );
  return {
    verdict: { block, reason, note, unchecked },
    rows: ran.rows,
    newFindings: ran.newFindings,
    cancelled: ran.cancelled,
  };
}

/** Where a stop's changed files are taken from when the call names no base. */
const DEFAULT_BASES = ['origin/HEAD', 'main', 'master'];

/** The first of DEFAULT_BASES the repository has, or undefined (then HEAD is the base). */
async function defaultBase(
  root: string,
  options: { env?: NodeJS.ProcessEnv },
): Promise<string | undefined> {
  for (const candidate of DEFAULT_BASES)
    if ((await baseCommitOf(root, candidate, options)) !== undefined) return candidate;
  return undefined;
}

/**
 * What a stop checks: everything changed since the session began (its recorded start,
 * whatever was committed or switched to since) and against the merge base with `base`
 * (the default branch by default), deletions and renames included.
 */
async function stopChanges(
  request: HookRequest,
  base: string | undefined,
): Promise<{ changes: Changes; against: string } | { error: string }> {
  const { options, session } = request;
  const envOption = options.env ? { env: options.env } : {};
  const since: string[] = [];
  const described: string[] = [];
  if (session.state.startCommit) {
    since.push(session.state.startCommit);
    described.push('the session start');
  }
  try {
    if (base !== undefined) {
      const mergeBase = await mergeBaseOf(options.root, base, envOption);
      if (mergeBase !== null) {
        since.push(mergeBase);
        described.push(`the merge base with ${base}`);
      }
    }
    const changes = await listChanges(options.root, {
      since,
      signal: request.context.signal,
      ...envOption,
    });
    return { changes, against: described.length > 0 ? described.join(' and ') : 'HEAD' };
  } catch (error) {
    if (!(error instanceof ChangedFilesError)) throw error;
    return { error: error.message };
  }
}

/**
 * `before_stop`: every gate on what changed since the session began and against the
 * merge base (see stopChanges), new findings only. Blocks while new errors remain, never
 * twice in a row on the same ones, and never when the host says the stop already follows
 * a blocked one and the session has no record of it.
 */
export async function runBeforeStop(
  given: HookRequest,
  stop: { base?: string; loopFlag: boolean },
): Promise<HookOutcome> {
  const request = realRooted(given);
  const { options, session } = request;
  const deadline = Date.now() + (request.budgetMs ?? DEFAULT_BUDGET_MS.beforeStop);
  await primed(session, request.budgetMs ?? DEFAULT_BUDGET_MS.beforeStop);
  const envOption = options.env ? { env: options.env } : {};
  const base = stop.base ?? (await defaultBase(options.root, envOption));
  const since = await sessionSince(request, base);
  const listed = await stopChanges(request, base);
  const quiet = (note: string, unchecked = false): HookOutcome => ({
    verdict: { block: false, reason: '', note, ...(unchecked ? { unchecked } : {}) },
    rows: [],
    newFindings: [],
    cancelled: false,
  });
  if ('error' in listed) return quiet(`mcp-gates: no gate ran: ${listed.error}`, true);
  const { changes, against } = listed;
  if (changes.files.length + changes.deleted.length === 0) {
    session.state.lastStopBlock = null;
    return quiet(`mcp-gates: no gate ran: no files changed against ${against}`);
  }
  const plan = planRuns(request.gates, options.root, changes, false);
  const call: HookCall = {
    kind: 'before-stop',
    against,
    since,
    ...request,
    runs: plan.runs,
    files: [...changes.files, ...changes.deleted],
    skipped: [],
    budgetMs: Math.max(1, deadline - Date.now()),
    totalBudgetMs: request.budgetMs ?? DEFAULT_BUDGET_MS.beforeStop,
  };
  const ran = await runPlanned(call);
  const probe = verdictOf(call, ran, true);
  const again =
    probe.errorCount > 0 &&
    (session.state.lastStopBlock === probe.errorsKey ||
      (stop.loopFlag && session.state.lastStopBlock === null));
  const { block, reason, note, unchecked } = again ? verdictOf(call, ran, false) : probe;
  if (!ran.cancelled) session.state.lastStopBlock = block ? probe.errorsKey : null;
  // A stop that follows one the host held back has told of what went unchecked: saying it
  // again (Cursor sends it as the next prompt) would keep the agent going until the host's cap.
  const tell = unchecked && !(stop.loopFlag && !block);
  return {
    verdict: { block, reason, note, ...(tell ? { unchecked: true } : {}) },
    rows: ran.rows,
    newFindings: ran.newFindings,
    cancelled: ran.cancelled,
  };
}

/** A context for a hook run outside an MCP call (the CLI, the channel): no progress, no log. */
export function hookContext(signal: AbortSignal, revision: string): ToolContext {
  return { signal, progress: () => {}, log: () => {}, wantsProgress: false, revision, meta: {} };
}

/** Runs a hook event: the edited `paths` after an edit; the changed files before a stop. */
export async function runHookEvent(
  event: HookEvent,
  request: HookRequest,
  input: { paths: readonly string[]; base?: string; loopFlag: boolean },
): Promise<HookOutcome> {
  if (event === 'session-start') {
    const state = await startSession(request);
    const note = `mcp-gates: the session's baseline: ${state}`;
    return {
      verdict: { block: false, reason: '', note },
      rows: [],
      newFindings: [],
      cancelled: false,
    };
  }
  return event === 'after-edit'
    ? runAfterEdit(request, input.paths)
    : runBeforeStop(request, {
        ...(input.base ? { base: input.base } : {}),
        loopFlag: input.loopFlag,
      });
}

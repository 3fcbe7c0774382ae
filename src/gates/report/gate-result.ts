import path from 'node:path';
import type { JsonSchema, ToolResult } from '../../server/tool.js';
import { crashOf, stderrNote } from './crash.js';
import { countBySeverity, formatLocation, type Finding } from './finding.js';
import type { ParseResult } from '../parsers/index.js';
import { PARSE_LIMIT_BYTES, type RunOutcome } from '../run/runner.js';
import type { TreeWatch } from '../run/tree-fingerprint.js';
import {
  COMPACT_OUTPUT_PROPERTIES,
  COMPACT_OUTPUT_REQUIRED,
  shapeToBudget,
  writeFullLog,
  type CompactData,
} from './budget.js';
import { fullLogDirectory } from './log-directory.js';
import { TIMING_SCHEMA } from '../phase-timing.js';

/** At most this many changed files go into structuredContent, and this many into the text. */
export const MAX_STRUCTURED_CHANGED_FILES = 50;
const MAX_LISTED_CHANGED_FILES = 20;
/** At most this many paths the tool did not check go into structuredContent and the text. */
export const MAX_LISTED_NOT_CHECKED = 20;

const nullable = (type: string) => ({ type: [type, 'null'] });

const FINDING_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    file: {
      ...nullable('string'),
      description: 'Relative to the project root, forward slashes; null for project-wide problems.',
    },
    line: { ...nullable('integer'), description: '1-based.' },
    column: { ...nullable('integer'), description: '1-based.' },
    endLine: nullable('integer'),
    endColumn: nullable('integer'),
    severity: { enum: ['error', 'warning', 'info'] },
    rule: {
      ...nullable('string'),
      description: "The tool's rule or code, e.g. no-unused-vars or TS2322.",
    },
    message: { type: 'string' },
  },
  required: ['file', 'line', 'column', 'endLine', 'endColumn', 'severity', 'rule', 'message'],
  additionalProperties: false,
};

export type GateStatus =
  | 'passed'
  | 'failed'
  | 'error'
  | 'timed-out'
  | 'cancelled'
  | 'not-installed'
  | 'nothing-to-check'
  | 'nothing-checked';
export const GATE_STATUSES: readonly GateStatus[] = [
  'passed',
  'failed',
  'error',
  'timed-out',
  'cancelled',
  'not-installed',
  'nothing-to-check',
  'nothing-checked',
];

/**
 * Statuses that are not a failure: a clean run, a changed scope with nothing in it, a run
 * the tool says checked nothing. Only `passed` is a pass.
 */
export const NOT_FAILING_STATUSES: ReadonlySet<GateStatus> = new Set([
  'passed',
  'nothing-to-check',
  'nothing-checked',
]);

export const GATE_OUTPUT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    gate: { type: 'string', description: 'The tool that ran (a gate, <gate>_fix, or check).' },
    status: {
      enum: [...GATE_STATUSES],
      description:
        'passed only when the check ran and finished clean; error: the tool could not run its check (config error, crash); not-installed: its program was not found; nothing-to-check: a changed scope held no file the tool checks, so it did not run; nothing-checked: the tool ran and said it checked nothing (every given path ignored or unmatched by its config, no input in the project): neither is a failure or a pass.',
    },
    passed: { type: 'boolean', description: 'status is passed.' },
    note: {
      ...nullable('string'),
      description:
        'Why the status is not what the exit code alone says: for error, what went wrong (a crash names its kind, then the first lines of stderr); null when nothing needs saying.',
    },
    exitCode: {
      ...nullable('integer'),
      description: 'null when the gate did not run or was killed.',
    },
    signal: { ...nullable('string'), description: 'The signal that ended the gate, if any.' },
    durationMs: { type: 'integer' },
    command: { type: 'array', items: { type: 'string' }, description: 'The argv that ran.' },
    source: {
      enum: ['ran', 'reused'],
      description:
        'ran: the gate ran for this call; reused: the findings of the last run, the tree unchanged since.',
    },
    scope: {
      type: ['object', 'null'],
      description: 'The changed-files scope of the call; null: the whole project.',
      properties: {
        base: { ...nullable('string'), description: 'The ref compared with; null: HEAD.' },
        changedFiles: { type: 'integer', description: 'Files changed.' },
        checkedFiles: {
          ...nullable('integer'),
          description:
            'Changed files the tool checks (passed as paths); null: the gate takes no paths.',
        },
        otherFindings: {
          type: 'integer',
          description: 'Findings in files not changed (not listed).',
        },
      },
      required: ['base', 'changedFiles', 'checkedFiles', 'otherFindings'],
      additionalProperties: false,
    },
    baseline: {
      type: ['object', 'null'],
      description: 'With new: true, the split against the recorded baseline.',
      properties: {
        path: { type: 'string' },
        newFindings: { type: 'integer' },
        oldFindings: { type: 'integer' },
        oldErrors: { type: 'integer' },
        fixed: { type: 'integer', description: 'Baseline findings no longer found.' },
      },
      required: ['path', 'newFindings', 'oldFindings', 'oldErrors', 'fixed'],
      additionalProperties: false,
    },
    page: {
      type: ['object', 'null'],
      description: 'The file filter and offset of the call; null: none.',
      properties: {
        file: { ...nullable('string') },
        offset: { type: 'integer' },
      },
      required: ['file', 'offset'],
      additionalProperties: false,
    },
    findings: {
      type: 'array',
      items: FINDING_SCHEMA,
      description: 'The listed findings: errors first, spread across files; see omitted.',
    },
    findingCount: { type: 'integer', description: 'All findings counted (after any filter).' },
    ...COMPACT_OUTPUT_PROPERTIES,
    logPath: {
      ...nullable('string'),
      description: 'A log with every finding and the output; null when nothing was left out.',
    },
    changedFiles: {
      type: ['array', 'null'],
      items: { type: 'string' },
      description: `Files (relative to the project root) the run added, removed or modified, the first ${MAX_STRUCTURED_CHANGED_FILES}; null when the tree was not watched (the command did not start). A check that changes any file fails.`,
    },
    notChecked: {
      type: ['array', 'null'],
      items: { type: 'string' },
      description: `Paths the tool said it did not check (ignored, no matching configuration, matched no file), relative to the project root, the first ${MAX_LISTED_NOT_CHECKED}; null when it named none. The text says why.`,
    },
    timing: TIMING_SCHEMA,
    treeWatch: {
      type: ['object', 'null'],
      properties: {
        method: {
          enum: ['git', 'walk'],
          description:
            'git: git status of tracked and untracked, not ignored files; walk: every file outside node_modules, .git and tagged caches.',
        },
        capped: {
          type: 'boolean',
          description: 'The walk stopped at its file cap: changes past it are not seen.',
        },
        changedFileCount: { type: 'integer' },
        durationMs: { type: 'integer', description: 'Time spent fingerprinting, both sides.' },
      },
      required: ['method', 'capped', 'changedFileCount', 'durationMs'],
      additionalProperties: false,
    },
    gates: {
      type: 'array',
      description: 'check only: one row per gate.',
      items: {
        type: 'object',
        properties: {
          gate: { type: 'string' },
          status: { enum: [...GATE_STATUSES] },
          durationMs: { type: 'integer' },
          findingCount: { type: 'integer' },
          errors: { type: 'integer' },
          logPath: { ...nullable('string') },
        },
        required: ['gate', 'status', 'durationMs', 'findingCount', 'errors', 'logPath'],
        additionalProperties: false,
      },
    },
    warm: {
      type: 'object',
      description:
        'Present when the server keeps warm workers: whether one answered this call (used), whether this call started it (started), whether the worker returned its earlier result because nothing that run read has changed (reused), and why the call ran cold or the worker restarted (reason).',
      properties: {
        used: { type: 'boolean' },
        started: { type: 'boolean' },
        reused: { type: 'boolean' },
        reason: { type: 'string' },
        incremental: {
          type: 'object',
          description:
            'An incremental warm run (ESLint): files whose earlier result was kept because nothing they read changed (kept), files linted again (checked), why every kept result was dropped (droppedBecause), and a sample of the files linted this time whose result could not be kept, so they are linted again on every call, with why (relintedBecause).',
          properties: {
            kept: { type: 'integer' },
            checked: { type: 'integer' },
            droppedBecause: { type: 'string' },
            relintedBecause: { type: 'array', items: { type: 'string' } },
          },
          required: ['kept', 'checked'],
          additionalProperties: false,
        },
      },
      required: ['used', 'started'],
      additionalProperties: false,
    },
  },
  required: [
    'gate',
    'status',
    'passed',
    'note',
    'exitCode',
    'signal',
    'durationMs',
    'command',
    'source',
    'scope',
    'baseline',
    'page',
    'findings',
    'findingCount',
    ...COMPACT_OUTPUT_REQUIRED,
    'logPath',
    'changedFiles',
    'notChecked',
    'treeWatch',
  ],
  additionalProperties: false,
};

export interface ScopeInfo {
  base: string | null;
  changedFiles: number;
  checkedFiles: number | null;
  otherFindings: number;
}

export interface BaselineInfo {
  path: string;
  newFindings: number;
  oldFindings: number;
  oldErrors: number;
  fixed: number;
}

export interface GateStructuredContent extends CompactData {
  gate: string;
  status: GateStatus;
  passed: boolean;
  note: string | null;
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  command: string[];
  source: 'ran' | 'reused';
  scope: ScopeInfo | null;
  baseline: BaselineInfo | null;
  page: { file: string | null; offset: number } | null;
  changedFiles: string[] | null;
  notChecked: string[] | null;
  treeWatch: {
    method: 'git' | 'walk';
    capped: boolean;
    changedFileCount: number;
    durationMs: number;
  } | null;
  gates?: {
    gate: string;
    status: GateStatus;
    durationMs: number;
    findingCount: number;
    errors: number;
    logPath: string | null;
  }[];
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

export function describeFindings(findings: readonly Finding[]): string {
  if (findings.length === 0) return 'no findings';
  const counts = countBySeverity(findings);
  const parts = [
    counts.error ? plural(counts.error, 'error') : '',
    counts.warning ? plural(counts.warning, 'warning') : '',
    counts.info ? `${counts.info} info` : '',
  ].filter(Boolean);
  return `${plural(findings.length, 'finding')} (${parts.join(', ')})`;
}

function describeEnd(outcome: RunOutcome): string {
  if (outcome.end === 'not-found') return 'not run';
  if (outcome.end === 'spawn-failed') return 'could not start';
  if (outcome.end === 'timed-out') return 'timed out';
  if (outcome.end === 'cancelled') return 'cancelled';
  if (outcome.signal) return `killed by ${outcome.signal}`;
  return `exit ${outcome.exitCode}`;
}

/** The report lines on what the run changed in the tree (and how far the watch could see). */
function describeTree(tree: TreeWatch, fixing: boolean): string[] {
  const lines: string[] = [];
  const changed = tree.changedFiles;
  if (!fixing && changed.length > 0) {
    lines.push(
      `failed: this check changed ${plural(changed.length, 'file')} in the project tree, which a check never does (the tool may have applied fixes, e.g. \`fix = true\` in its config, or something else wrote while it ran)${tree.method === 'git' ? '; `git status` / `git diff` show them' : ''}:`,
    );
  } else if (fixing) {
    lines.push(
      changed.length > 0 ? `changed ${plural(changed.length, 'file')}:` : 'changed no files',
    );
  }
  if (changed.length > 0) {
    for (const file of changed.slice(0, MAX_LISTED_CHANGED_FILES)) lines.push(`  ${file}`);
    if (changed.length > MAX_LISTED_CHANGED_FILES)
      lines.push(`  … and ${changed.length - MAX_LISTED_CHANGED_FILES} more`);
  }
  if (tree.capped) {
    lines.push(
      `note: the tree watch (no git) covered only its first files in sorted order${tree.lastPath ? `, up to ${tree.lastPath}` : ''}; changes past that are not seen`,
    );
  }
  if (tree.gitProblem) {
    lines.push(`note: git status failed (${tree.gitProblem}); the tree was watched by a file walk`);
  }
  return lines;
}

/** The report lines on what the tool said it did not check. */
function describeCoverage(parsed: ParseResult): string[] {
  const lines: string[] = [];
  if (parsed.nothingChecked !== undefined)
    lines.push(`nothing checked: ${parsed.nothingChecked}; this is no pass`);
  const skipped = parsed.notChecked ?? [];
  if (skipped.length === 0) return lines;
  lines.push(`not checked (${plural(skipped.length, 'path')}, the tool's words):`);
  for (const entry of skipped.slice(0, MAX_LISTED_NOT_CHECKED))
    lines.push(`  ${entry.path}: ${entry.reason}`);
  if (skipped.length > MAX_LISTED_NOT_CHECKED)
    lines.push(`  … and ${skipped.length - MAX_LISTED_NOT_CHECKED} more`);
  return lines;
}

/**
 * One argv word as a POSIX shell reads it back, so the report's `$ command` line can be
 * pasted: plain words stay bare, anything else is single-quoted (a ' becomes '\'').
 */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, "'\\''")}'`;
}

/**
 * Commands as one line a POSIX shell runs as they ran: each quoted word by word, and
 * several (a split chain's steps) joined with `;`, since every step runs to its end even
 * after an earlier one failed (`&&` would stop there and hide the later steps' findings).
 */
export function shellLine(commands: readonly (readonly string[])[]): string {
  return commands.map((command) => command.map(shellQuote).join(' ')).join('; ');
}

export function formatFinding(finding: Finding): string {
  const rule = finding.rule ? ` [${finding.rule}]` : '';
  return `${formatLocation(finding)}: ${finding.severity}: ${finding.message.split('\n')[0]}${rule}`;
}

/** A long argv (many paths in changed scope) is cut in the result: the log has all of it. */
const MAX_COMMAND_WORDS = 40;

function compactCommand(argv: readonly string[]): string[] {
  if (argv.length <= MAX_COMMAND_WORDS) return [...argv];
  return [...argv.slice(0, MAX_COMMAND_WORDS), `… ${argv.length - MAX_COMMAND_WORDS} more`];
}

/** The command at the budget's floor: its program's name, then how many words follow. */
function floorCommand(argv: readonly string[]): string[] {
  const program = argv[0] === undefined ? [] : [path.basename(argv[0]).slice(0, 64)];
  return argv.length > 1 ? [...program, `… ${argv.length - 1} more`] : program;
}

/** How a result was made: the caller's view of one run. */
export interface ResultView {
  maxChars?: number;
  /** ran: the gate ran for this call; reused: the last run's findings (tree unchanged). */
  source?: 'ran' | 'reused';
  page?: { file: string | null; offset: number; matches?: (file: string | null) => boolean };
  /** Changed scope: the changed files, and for a gate that takes no paths, which to list first. */
  scope?: { base: string | null; changedFiles: readonly string[]; checkedFiles: number | null };
  /** Write no log: the call was cancelled, so its result is never delivered. */
  noLog?: boolean;
  /** New only: the split against the baseline. */
  split?: { path: string; newFindings: Finding[]; oldFindings: Finding[]; fixedCount: number };
}

export interface ShapeInput {
  toolName: string;
  status: GateStatus;
  verdictTail: string;
  details: string[];
  /** Every finding of the run (the log holds them all). */
  allFindings: readonly Finding[];
  /** The findings this result counts and lists. */
  findings: readonly Finding[];
  output: string;
  outputBytes: number;
  fullOutput: () => string;
  offset?: number;
  maxChars?: number;
  extra: Omit<GateStructuredContent, keyof CompactData | 'status' | 'passed' | 'gate'>;
  isError?: boolean;
  /** A complete log that already exists (the capture's, of a run without findings). */
  existingLog?: string;
  /** Write no log: the result is never delivered (a cancelled call). */
  noLog?: boolean;
}

/** The budgeted ToolResult; the full log is written only when something is left out. */
export function shapeResult(input: ShapeInput): ToolResult {
  const verdict = `${input.toolName}: ${input.status} (${input.verdictTail})`;
  const logPath = () => {
    if (input.existingLog !== undefined) return input.existingLog;
    try {
      return writeFullLog(fullLogDirectory(), {
        name: input.toolName,
        verdict: [verdict, ...input.details].join('\n'),
        findings: input.allFindings,
        output: input.fullOutput(),
      });
    } catch {
      return null;
    }
  };
  const shaped = shapeToBudget({
    verdict,
    details: input.details,
    findings: input.findings,
    output: input.output,
    outputBytes: input.outputBytes,
    logPath: input.noLog ? null : logPath,
    ...(input.offset ? { offset: input.offset } : {}),
    ...(input.maxChars !== undefined ? { maxChars: input.maxChars } : {}),
    structuredExtra: {
      gate: input.toolName,
      status: input.status,
      passed: input.status === 'passed',
      ...input.extra,
    },
    compactExtra: () => ({
      gate: input.toolName,
      status: input.status,
      passed: input.status === 'passed',
      ...input.extra,
      command: floorCommand(input.extra.command),
      // At the floor the note keeps its first line (what went wrong); the text has the rest.
      note: input.extra.note === null ? null : input.extra.note.split('\n')[0]!.slice(0, 200),
    }),
  });
  return {
    text: shaped.text,
    isError: input.isError ?? !NOT_FAILING_STATUSES.has(input.status),
    structuredContent: shaped.structuredContent,
  };
}

/** The result of a call that did not run its gate: bad arguments, an unpreparable run. */
export function failureResult(
  toolName: string,
  argv: readonly string[],
  message: string,
  status: GateStatus = 'error',
): ToolResult {
  return shapeResult({
    toolName,
    status,
    verdictTail: 'not run',
    details: message.split('\n'),
    allFindings: [],
    findings: [],
    output: '',
    outputBytes: 0,
    fullOutput: () => '',
    extra: { ...emptyExtra(argv), note: message },
  });
}

/** The structured fields of a result whose run (or runs) left no single outcome to describe. */
export function emptyExtra(argv: readonly string[]): ShapeInput['extra'] {
  return {
    note: null,
    exitCode: null,
    signal: null,
    durationMs: 0,
    command: compactCommand(argv),
    source: 'ran',
    scope: null,
    baseline: null,
    page: null,
    changedFiles: null,
    notChecked: null,
    treeWatch: null,
  };
}

/**
 * A changed-scope call with nothing to check: the tool did not run, so the result is no
 * pass (`nothing-to-check`, not an error either), and makes no claim about files the tool
 * was not given.
 */
export function nothingChangedResult(
  toolName: string,
  argv: readonly string[],
  scope: NonNullable<ResultView['scope']>,
  why: string,
): ToolResult {
  return shapeResult({
    toolName,
    status: 'nothing-to-check',
    isError: false,
    verdictTail: why,
    details: [],
    allFindings: [],
    findings: [],
    output: '',
    outputBytes: 0,
    fullOutput: () => '',
    extra: {
      ...emptyExtra(argv),
      scope: {
        base: scope.base,
        changedFiles: scope.changedFiles.length,
        checkedFiles: 0,
        otherFindings: 0,
      },
    },
  });
}

/**
 * The status of a run: passed only when the check ran, finished and found it clean; an
 * error when it crashed (`crash`: crashOf's word), whatever it printed before.
 */
export function statusOf(
  outcome: RunOutcome,
  parsed: ParseResult,
  passed: boolean,
  crash?: string,
): GateStatus {
  if (outcome.end === 'not-found') return 'not-installed';
  if (outcome.end === 'spawn-failed') return 'error';
  if (outcome.end === 'timed-out') return 'timed-out';
  if (outcome.end === 'cancelled') return 'cancelled';
  if (crash !== undefined) return 'error';
  // The tool's own word that it checked nothing outranks its exit code: never a pass.
  if (parsed.nothingChecked !== undefined && !outcome.signal) return 'nothing-checked';
  if (passed) return 'passed';
  // Killed by a signal, or a machine-format tool that printed no report: it did not check.
  if (outcome.signal) return 'error';
  if (parsed.unparsed && parsed.findings.length === 0) return 'error';
  return 'failed';
}

/**
 * The result's note: for an error, why (the crash, the signal, the report the tool did
 * not print, with the first lines of stderr); otherwise the parser's word on a verdict
 * the exit code alone does not give.
 */
function statusNote(
  status: GateStatus,
  outcome: RunOutcome,
  parsed: ParseResult,
  crash: string | undefined,
): string | null {
  if (status === 'error') {
    if (crash !== undefined) return crash;
    if (outcome.end !== 'exited') return outcome.problem ?? describeEnd(outcome);
    if (outcome.signal)
      return stderrNote(`the tool was killed by ${outcome.signal}`, outcome.stderr);
    if (parsed.unparsed)
      return stderrNote(
        `the tool printed no report the parser reads (exit ${outcome.exitCode})`,
        outcome.stderr,
      );
  }
  return parsed.nothingChecked ?? parsed.note ?? null;
}

export interface GateRunData {
  toolName: string;
  argv: readonly string[];
  outcome: RunOutcome;
  parsed: ParseResult;
  listFindings: boolean;
  /** False when stdout was kept out of the capture (machine formats). */
  stdoutInReport: boolean;
  /** A fix may change files; a check that changed any fails. */
  fixing: boolean;
  /** Absent when the tree was not watched (the command did not start). */
  tree?: TreeWatch;
  /** Notes on the check's reach from preparing it (e.g. tsc's project references). */
  notes?: readonly string[];
  /**
   * A split chain's commands, run one after another (argv then holds them joined with
   * `&&`, as the script spelled them): the `$` line shows these, pasteable.
   */
  steps?: readonly (readonly string[])[];
}

function matchesAny(files: ReadonlySet<string>, file: string | null): boolean {
  return file !== null && files.has(file);
}

/**
 * The tool result of one gate run, within its budget (report/budget.ts): the verdict
 * line with the status, the command and notes, complete counts, the findings (errors
 * first, spread across files), then the output's head and tail. structuredContent has
 * the same compact data; the full findings and output go to a log when any is left out.
 */
export function buildGateResult(options: GateRunData, view: ResultView = {}): ToolResult {
  const { toolName, outcome, parsed, tree } = options;
  const ran = outcome.end === 'exited';
  const changed = tree?.changedFiles ?? [];
  const checkWrote = !options.fixing && changed.length > 0;
  const split = view.split;
  const newErrors = split?.newFindings.filter((finding) => finding.severity === 'error').length;
  const cleanVerdict = split
    ? newErrors === 0 && !(parsed.unparsed && parsed.findings.length === 0 && !parsed.passed)
    : parsed.passed;
  const crash = ran ? crashOf(outcome.exitCode, outcome.stderr, outcome.stdout) : undefined;
  let status = statusOf(outcome, parsed, ran && cleanVerdict && !checkWrote, crash);
  if (checkWrote && (status === 'error' || status === 'nothing-checked')) status = 'failed';
  const note = statusNote(status, outcome, parsed, crash);
  const seconds = (outcome.durationMs / 1000).toFixed(1);
  const changedPart = changed.length > 0 ? `, ${plural(changed.length, 'file')} changed` : '';
  const details = [`$ ${shellLine(options.steps ?? [options.argv])}`];
  if (view.source === 'reused')
    details.push(
      'not run again: the tree is unchanged since the last run, whose findings these are',
    );
  if (outcome.problem) details.push(...outcome.problem.split('\n'));
  if (crash !== undefined)
    details.push(...crash.split('\n').map((line, index) => (index === 0 ? line : `  ${line}`)));
  if (tree) details.push(...describeTree(tree, options.fixing));
  if (ran) details.push(...describeCoverage(parsed));
  if (ran && parsed.note) details.push(`note: ${parsed.note}`);
  for (const note of options.notes ?? []) details.push(`note: ${note}`);
  if (outcome.parseTruncated)
    details.push(
      `note: the output passed ${PARSE_LIMIT_BYTES / 1024 / 1024} MiB per stream; findings come from its first part`,
    );
  if (ran && outcome.outputBytes === 0) details.push('(no output)');

  let findings: readonly Finding[] = split ? split.newFindings : parsed.findings;
  let baseline: BaselineInfo | null = null;
  if (split) {
    const oldErrors = split.oldFindings.filter((finding) => finding.severity === 'error').length;
    baseline = {
      path: split.path,
      newFindings: split.newFindings.length,
      oldFindings: split.oldFindings.length,
      oldErrors,
      fixed: split.fixedCount,
    };
    details.push(
      `new only: ${plural(split.newFindings.length, 'new finding')} (${plural(newErrors ?? 0, 'new error')}); ${plural(split.oldFindings.length, 'old finding')} remain (${plural(oldErrors, 'error')}), ${split.fixedCount} fixed since the baseline ${split.path}`,
    );
  }
  let scope: ScopeInfo | null = null;
  if (view.scope) {
    const changedSet = new Set(view.scope.changedFiles);
    let otherFindings = 0;
    if (view.scope.checkedFiles === null) {
      const inChanged = findings.filter((finding) => matchesAny(changedSet, finding.file));
      otherFindings = findings.length - inChanged.length;
      findings = inChanged;
    }
    scope = {
      base: view.scope.base,
      changedFiles: view.scope.changedFiles.length,
      checkedFiles: view.scope.checkedFiles,
      otherFindings,
    };
    const against = view.scope.base ? `the merge-base with ${view.scope.base}` : 'HEAD';
    details.push(
      view.scope.checkedFiles === null
        ? `changed scope: ${plural(view.scope.changedFiles.length, 'file')} changed against ${against}; the gate checks the whole project: ${plural(otherFindings, 'finding')} in other files not counted below (the log has them)`
        : `changed scope: ${plural(view.scope.checkedFiles, 'file')} checked of ${view.scope.changedFiles.length} changed against ${against}`,
    );
  }
  const page = view.page;
  if (page?.matches) {
    const matches = page.matches;
    findings = findings.filter((finding) => matches(finding.file));
    details.push(`file filter ${page.file}: ${plural(findings.length, 'finding')} match`);
  }
  // A machine-format gate's stdout is its findings, kept out of the output section: only
  // when it held no report is it shown (and counted) as output.
  const stdoutShown = !options.stdoutInReport && parsed.unparsed && outcome.stdout.trim() !== '';
  const shownOutput = stdoutShown
    ? `${outcome.stdout.trimEnd()}\n${outcome.output.text}`
    : outcome.output.text;
  const outputBytes =
    outcome.output.totalBytes + (stdoutShown ? Buffer.byteLength(outcome.stdout) : 0);
  return shapeResult({
    toolName,
    status,
    verdictTail: `${describeEnd(outcome)}, ${seconds} s, ${describeFindings(split ? split.newFindings : parsed.findings)}${split ? ' new' : ''}${changedPart}`,
    details,
    allFindings: parsed.findings,
    findings,
    output: shownOutput,
    outputBytes: Math.max(outputBytes, Buffer.byteLength(shownOutput)),
    fullOutput: () =>
      `--- stdout ---\n${outcome.stdout}\n--- stderr ---\n${outcome.stderr}${outcome.output.logPath ? `\n(interleaved output: ${outcome.output.logPath})` : ''}`,
    ...(page?.offset ? { offset: page.offset } : {}),
    ...(view.noLog ? { noLog: true } : {}),
    // The capture's full log has all of the output, in order: with no findings, it is the log.
    ...(parsed.findings.length === 0 && outcome.output.logPath
      ? { existingLog: outcome.output.logPath }
      : {}),
    ...(view.maxChars !== undefined ? { maxChars: view.maxChars } : {}),
    extra: {
      note,
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      durationMs: outcome.durationMs,
      command: compactCommand(options.argv),
      source: view.source ?? 'ran',
      scope,
      baseline,
      page: page ? { file: page.file, offset: page.offset } : null,
      changedFiles: tree ? changed.slice(0, MAX_STRUCTURED_CHANGED_FILES) : null,
      notChecked:
        ran && parsed.notChecked
          ? parsed.notChecked.slice(0, MAX_LISTED_NOT_CHECKED).map((entry) => entry.path)
          : null,
      treeWatch: tree
        ? {
            method: tree.method,
            capped: tree.capped,
            changedFileCount: changed.length,
            durationMs: tree.durationMs,
          }
        : null,
    },
  });
}

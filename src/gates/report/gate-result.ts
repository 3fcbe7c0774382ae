import type { JsonSchema, ToolResult } from '../../server/tool.js';
import { countBySeverity, formatLocation, type Finding } from './finding.js';
import type { ParseResult } from '../parsers/index.js';
import { PARSE_LIMIT_BYTES, type RunOutcome } from '../run/runner.js';
import type { TreeWatch } from '../run/tree-fingerprint.js';

/** At most this many findings go into structuredContent; `findingCount` has the total. */
export const MAX_STRUCTURED_FINDINGS = 500;
/** At most this many findings are listed in the text report (machine-format gates). */
const MAX_LISTED_FINDINGS = 100;
/** At most this many changed files go into structuredContent, and this many into the text. */
export const MAX_STRUCTURED_CHANGED_FILES = 500;
const MAX_LISTED_CHANGED_FILES = 50;

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

export const GATE_OUTPUT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    gate: { type: 'string', description: 'The tool that ran (a gate, or <gate>_fix).' },
    passed: { type: 'boolean' },
    exitCode: {
      ...nullable('integer'),
      description: 'null when the gate did not run or was killed.',
    },
    signal: { ...nullable('string'), description: 'The signal that ended the gate, if any.' },
    durationMs: { type: 'integer' },
    command: { type: 'array', items: { type: 'string' }, description: 'The argv that ran.' },
    findings: {
      type: 'array',
      items: FINDING_SCHEMA,
      description: `The first ${MAX_STRUCTURED_FINDINGS} findings.`,
    },
    findingCount: { type: 'integer', description: 'All findings, including any not listed.' },
    truncated: { type: 'boolean', description: 'The report or the findings list was cut.' },
    logPath: { ...nullable('string'), description: 'The full output, when the report was cut.' },
    report: { type: 'string', description: 'The same text report as the content block.' },
    changedFiles: {
      type: ['array', 'null'],
      items: { type: 'string' },
      description: `Files (relative to the project root) the run added, removed or modified, the first ${MAX_STRUCTURED_CHANGED_FILES}; null when the tree was not watched (the command did not start). A check that changes any file fails.`,
    },
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
    warm: {
      type: 'object',
      description:
        'Present when the server keeps warm workers: whether one answered this call (used), whether this call started it (started), and why the call ran cold or the worker restarted (reason).',
      properties: {
        used: { type: 'boolean' },
        started: { type: 'boolean' },
        reason: { type: 'string' },
      },
      required: ['used', 'started'],
      additionalProperties: false,
    },
  },
  required: [
    'gate',
    'passed',
    'exitCode',
    'signal',
    'durationMs',
    'command',
    'findings',
    'findingCount',
    'truncated',
    'logPath',
    'report',
    'changedFiles',
    'treeWatch',
  ],
  additionalProperties: false,
};

export interface GateStructuredContent {
  gate: string;
  passed: boolean;
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  command: string[];
  findings: Finding[];
  findingCount: number;
  truncated: boolean;
  logPath: string | null;
  report: string;
  changedFiles: string[] | null;
  treeWatch: {
    method: 'git' | 'walk';
    capped: boolean;
    changedFileCount: number;
    durationMs: number;
  } | null;
}

const STDOUT_EXCERPT_CHARS = 8 * 1024;

function headAndTail(text: string): string {
  // trimEnd, not replace(/\s+$/): that pattern retries at every space of a long run (quadratic).
  const trimmed = text.trimEnd();
  if (trimmed.length <= STDOUT_EXCERPT_CHARS * 2) return trimmed;
  const omitted = trimmed.length - STDOUT_EXCERPT_CHARS * 2;
  return `${trimmed.slice(0, STDOUT_EXCERPT_CHARS)}\n[… ${omitted} characters omitted …]\n${trimmed.slice(-STDOUT_EXCERPT_CHARS)}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function describeFindings(findings: readonly Finding[]): string {
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
      `failed: this check changed ${plural(changed.length, 'file')} in the project tree, and a check must never write (the tool may have applied fixes, e.g. \`fix = true\` in its config, or something else wrote while it ran)${tree.method === 'git' ? '; review them with `git status` / `git diff`' : ''}:`,
    );
  } else if (fixing) {
    lines.push(
      changed.length > 0 ? `changed ${plural(changed.length, 'file')}:` : 'changed no files',
    );
  }
  if (changed.length > 0) {
    for (const file of changed.slice(0, MAX_LISTED_CHANGED_FILES)) lines.push(`  ${file}`);
    if (changed.length > MAX_LISTED_CHANGED_FILES)
      lines.push(
        `  … and ${changed.length - MAX_LISTED_CHANGED_FILES} more (see structuredContent.changedFiles)`,
      );
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

/**
 * One argv word as a POSIX shell reads it back, so the report's `$ command` line can be
 * pasted: plain words stay bare, anything else is single-quoted (a ' becomes '\'').
 */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, "'\\''")}'`;
}

export function formatFinding(finding: Finding): string {
  const rule = finding.rule ? ` [${finding.rule}]` : '';
  return `${formatLocation(finding)}: ${finding.severity}: ${finding.message.split('\n')[0]}${rule}`;
}

/**
 * The tool result of one gate run. The text is one header line (gate, verdict, exit,
 * duration, findings), the command, any note on the verdict, a findings list for
 * machine-format gates (their raw output is JSON), then the captured output, head and
 * tail. structuredContent repeats the text as `report`: some hosts show only it.
 */
/** The result of a call that did not run its gate: bad arguments, an unpreparable run. */
export function failureResult(
  toolName: string,
  argv: readonly string[],
  message: string,
): ToolResult {
  const report = `${toolName}: failed (not run)\n${message}`;
  return {
    text: report,
    isError: true,
    structuredContent: {
      gate: toolName,
      passed: false,
      exitCode: null,
      signal: null,
      durationMs: 0,
      command: [...argv],
      findings: [],
      findingCount: 0,
      truncated: false,
      logPath: null,
      report,
      changedFiles: null,
      treeWatch: null,
    },
  };
}

export function buildGateResult(options: {
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
}): ToolResult {
  const { toolName, outcome, parsed, tree } = options;
  const ran = outcome.end === 'exited';
  const changed = tree?.changedFiles ?? [];
  const checkWrote = !options.fixing && changed.length > 0;
  const passed = ran && parsed.passed && !checkWrote;
  const seconds = (outcome.durationMs / 1000).toFixed(1);
  const changedPart = changed.length > 0 ? `, ${plural(changed.length, 'file')} changed` : '';
  const header = `${toolName}: ${passed ? 'passed' : 'failed'} (${describeEnd(outcome)}, ${seconds} s, ${describeFindings(parsed.findings)}${changedPart})`;
  const lines = [header, `$ ${options.argv.map(shellQuote).join(' ')}`];
  if (outcome.problem) lines.push(outcome.problem);
  if (tree) lines.push(...describeTree(tree, options.fixing));
  if (ran && parsed.note) lines.push(`note: ${parsed.note}`);
  for (const note of options.notes ?? []) lines.push(`note: ${note}`);
  if (outcome.parseTruncated)
    lines.push(
      `note: the output passed ${PARSE_LIMIT_BYTES / 1024 / 1024} MiB per stream; findings come from its first part`,
    );
  if (options.listFindings && parsed.findings.length > 0) {
    lines.push('', 'findings:');
    for (const finding of parsed.findings.slice(0, MAX_LISTED_FINDINGS))
      lines.push(`  ${formatFinding(finding)}`);
    if (parsed.findings.length > MAX_LISTED_FINDINGS) {
      lines.push(
        `  … and ${parsed.findings.length - MAX_LISTED_FINDINGS} more (see structuredContent.findings)`,
      );
    }
  }
  if (!options.stdoutInReport && parsed.unparsed && outcome.stdout.trim() !== '') {
    lines.push(
      '',
      `--- stdout (${Buffer.byteLength(outcome.stdout)} bytes) ---`,
      headAndTail(outcome.stdout),
    );
  }
  const output = outcome.output;
  if (output.totalBytes > 0) {
    const heading = output.truncated
      ? `--- output (${output.totalBytes} bytes; head and tail shown${output.logPath ? `, full log: ${output.logPath}` : ''}) ---`
      : `--- output (${output.totalBytes} bytes) ---`;
    lines.push('', heading, output.text.trimEnd());
  } else if (ran && (options.stdoutInReport || outcome.outputBytes === 0)) {
    lines.push('(no output)');
  }
  const report = lines.join('\n');
  const structured: GateStructuredContent = {
    gate: toolName,
    passed,
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    durationMs: outcome.durationMs,
    command: [...options.argv],
    findings: parsed.findings.slice(0, MAX_STRUCTURED_FINDINGS),
    findingCount: parsed.findings.length,
    truncated:
      output.truncated ||
      outcome.parseTruncated ||
      parsed.findings.length > MAX_STRUCTURED_FINDINGS ||
      changed.length > MAX_STRUCTURED_CHANGED_FILES,
    logPath: output.logPath ?? null,
    report,
    changedFiles: tree ? changed.slice(0, MAX_STRUCTURED_CHANGED_FILES) : null,
    treeWatch: tree
      ? {
          method: tree.method,
          capped: tree.capped,
          changedFileCount: changed.length,
          durationMs: tree.durationMs,
        }
      : null,
  };
  return { text: report, isError: !passed, structuredContent: structured };
}

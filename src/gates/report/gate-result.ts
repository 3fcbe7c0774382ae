import type { JsonSchema, ToolResult } from '../../server/tool.js';
import { countBySeverity, formatLocation, type Finding } from './finding.js';
import type { ParseResult } from '../parsers/index.js';
import { PARSE_LIMIT_BYTES, type RunOutcome } from '../run/runner.js';

/** At most this many findings go into structuredContent; `findingCount` has the total. */
export const MAX_STRUCTURED_FINDINGS = 500;
/** At most this many findings are listed in the text report (machine-format gates). */
const MAX_LISTED_FINDINGS = 100;

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
export function buildGateResult(options: {
  toolName: string;
  argv: readonly string[];
  outcome: RunOutcome;
  parsed: ParseResult;
  listFindings: boolean;
  /** False when stdout was kept out of the capture (machine formats). */
  stdoutInReport: boolean;
}): ToolResult {
  const { toolName, outcome, parsed } = options;
  const ran = outcome.end === 'exited';
  const passed = ran && parsed.passed;
  const seconds = (outcome.durationMs / 1000).toFixed(1);
  const header = `${toolName}: ${passed ? 'passed' : 'failed'} (${describeEnd(outcome)}, ${seconds} s, ${describeFindings(parsed.findings)})`;
  const lines = [header, `$ ${options.argv.join(' ')}`];
  if (outcome.problem) lines.push(outcome.problem);
  if (ran && parsed.note) lines.push(`note: ${parsed.note}`);
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
      parsed.findings.length > MAX_STRUCTURED_FINDINGS,
    logPath: output.logPath ?? null,
    report,
  };
  return { text: report, isError: !passed, structuredContent: structured };
}

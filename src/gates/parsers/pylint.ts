import { createFinding, type Finding, type Severity } from '../report/finding.js';
import {
  extractJson,
  lines,
  positiveInteger,
  relativeToRoot,
  verdict,
  withCoverage,
  type ParseResult,
  type Parser,
  type GateOutput,
} from './parser.js';
import { textFallback } from './text-lines.js';

/** One message of `--output-format=json` (pylint 2 and 3) or of json2's `messages` (pylint 3). */
interface PylintMessage {
  type?: string;
  path?: string;
  line?: number;
  column?: number;
  endLine?: number | null;
  endColumn?: number | null;
  symbol?: string;
  message?: string;
  'message-id'?: string;
  messageId?: string;
}

// fatal and error are bugs; warning is likely one; convention, refactor and info are style.
const SEVERITIES: Record<string, Severity> = {
  fatal: 'error',
  error: 'error',
  warning: 'warning',
  refactor: 'info',
  convention: 'info',
  info: 'info',
};

/** `symbol (C0114)`: the name pylint's disable comments take, and its message id. */
function ruleOf(symbol: string | undefined, id: string | undefined): string | null {
  if (symbol && id) return `${symbol} (${id})`;
  return symbol || id || null;
}

/**
 * pylint's exit code is a bit mask of what it reported: 1 fatal, 2 error, 4 warning,
 * 8 refactor, 16 convention, 32 a usage error. Any bit fails the gate (pylint's own
 * verdict, as CI reads it); 32 with no message is a finding of its own.
 */
function pylintVerdict(output: GateOutput, findings: Finding[]): ParseResult {
  if (output.exitCode !== null && output.exitCode & 32 && findings.length === 0)
    findings.push(
      createFinding({
        rule: 'pylint',
        message: `pylint could not run (usage error, exit ${output.exitCode}): ${output.stderr.trim().split('\n')[0] ?? ''}`,
      }),
    );
  return verdict(output.exitCode, findings);
}

/**
 * pylint's JSON: `--output-format=json` (an array of messages) or pylint 3's `json2`
 * (`{messages, statistics}`, whose `modulesLinted` of 0 is nothing checked, never a
 * pass). The rule is the message's symbol with its id, `unused-import (W0611)`.
 */
export const pylintJsonParser: Parser = {
  name: 'pylint-json',
  summary: 'pylint --output-format=json or json2 (symbol and message id per finding)',
  parse(output) {
    const text = output.stdout.trimStart();
    const document = extractJson(output.stdout, text.startsWith('{') ? '{' : '[');
    const json2 =
      document && !Array.isArray(document) && typeof document === 'object'
        ? (document as { messages?: unknown; statistics?: { modulesLinted?: unknown } })
        : undefined;
    const messages = Array.isArray(document) ? document : json2?.messages;
    if (!Array.isArray(messages))
      return textFallback(output, 'no pylint JSON on stdout: read the output');
    const findings = (messages as PylintMessage[]).map((message) =>
      createFinding({
        file: message.path ? relativeToRoot(message.path, output.root) : null,
        line: positiveInteger(message.line),
        // pylint counts columns from 0; its end column too.
        column: typeof message.column === 'number' ? message.column + 1 : null,
        endLine: positiveInteger(message.endLine),
        endColumn: typeof message.endColumn === 'number' ? message.endColumn + 1 : null,
        severity: SEVERITIES[message.type ?? ''] ?? 'error',
        rule: ruleOf(message.symbol, message['message-id'] ?? message.messageId),
        message: message.message ?? '',
      }),
    );
    const result = pylintVerdict(output, findings);
    return json2?.statistics?.modulesLinted === 0
      ? withCoverage(result, output, [], 'pylint linted no module')
      : result;
  },
};

// `src/app.py:7:22: E0602: Undefined variable 'nam' (undefined-variable)`: the default
// text report (columns from 0).
const TEXT_MESSAGE =
  /^(?<file>[^\s:][^:]*?):(?<line>\d+):(?<col>\d+): (?<id>[CRWEFI]\d{4}): (?<msg>.*?)(?: \((?<symbol>[a-z0-9-]+)\))?$/s;
const TYPES: Record<string, string> = {
  C: 'convention',
  R: 'refactor',
  W: 'warning',
  E: 'error',
  F: 'fatal',
  I: 'info',
};
/**
 * pylint's default text report, as a script or Makefile running bare `pylint` prints it:
 * `path:line:col: ID: message (symbol)` per message, then the score. (No score does not
 * prove it linted nothing: `score = no` in its config leaves it out too.)
 */
export const pylintTextParser: Parser = {
  name: 'pylint',
  summary: 'pylint text report (path:line:col: ID: message (symbol))',
  parse(output) {
    const findings: Finding[] = [];
    for (const raw of lines(output.stdout, findings)) {
      const line = raw.trimEnd();
      const match = TEXT_MESSAGE.exec(line);
      if (!match?.groups) continue;
      findings.push(
        createFinding({
          file: relativeToRoot(match.groups.file!, output.root),
          line: Math.max(1, Number(match.groups.line)),
          column: Number(match.groups.col) + 1,
          severity: SEVERITIES[TYPES[match.groups.id![0]!] ?? ''] ?? 'error',
          rule: ruleOf(match.groups.symbol, match.groups.id),
          message: match.groups.msg!,
        }),
      );
    }
    return pylintVerdict(output, findings);
  },
};

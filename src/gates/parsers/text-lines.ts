import { createFinding as finding, type Finding } from '../report/finding.js';
import {
  lines,
  relativeToRoot,
  toSeverity,
  verdict,
  type GateOutput,
  type ParseResult,
} from './parser.js';

// Every pattern here runs on one line, anchored, with no two adjacent parts that can
// match the same characters in more than one way (the line is trimmed at the end first,
// and a message starts with a non-space), so each match is linear in the line. The `s`
// flag lets `.` take any character: a stray U+2028 cannot make `.*$` fail and backtrack.
// `src/a.ts(5,14): error TS2322: message`, as printed by `tsc --pretty false`.
const TSC_LINE =
  /^(?<file>\S.*?)\((?<line>\d+),(?<col>\d+)\): (?<sev>error|warning|message) (?<code>TS\d+): (?<msg>.*)$/s;
// A project-wide diagnostic: `error TS18003: No inputs were found in config file ...`.
const TSC_GLOBAL = /^(?<sev>error|warning) (?<code>TS\d+): (?<msg>.*)$/s;
// `file:line[:col]: [severity[rule]:] message [rule]`: gcc, go vet, clang, ruff concise, eslint unix.
const COLON_LINE =
  /^(?<file>(?:[A-Za-z]:[\\/])?[^\s:][^:\s]*):(?<line>\d+)(?::(?<col>\d+))?:\s*(?:(?<sev>fatal error|error|warning|warn|info|note|hint)(?:\[(?<bracketRule>[^\]]+)\])?:\s*)?(?<msg>\S.*)$/is;
// eslint's default "stylish" rows under a file heading: `  2:9  error  message  rule-id`.
const STYLISH_ROW = /^\s+(?<line>\d+):(?<col>\d+)\s+(?<sev>error|warning)\s+(?<msg>\S.*)$/s;
// prettier --check: `[warn] path` per unformatted file; `[error] path: SyntaxError: ... (3:10)`.
const PRETTIER_WARN = /^\[warn\] (?<file>.+)$/s;
const PRETTIER_ERROR =
  /^\[error\] (?<file>[^\s:][^:]*): (?<msg>\w*Error: .*?)(?: \((?<line>\d+):(?<col>\d+)\))?$/s;
const PRETTIER_SUMMARY = /^(Code style issues|All matched files|Checking formatting)/;
// A leading code in the message: ruff `F401`, clang-tidy like `E501 [*]`.
const LEADING_CODE = /^(?<code>[A-Z]{1,4}\d{2,5})\s+(?:\[\*\]\s+)?(?<rest>\S.*)$/s;
// eslint unix/compact formatters end with `[Error/no-unused-vars]` (matched on the last `[`).
const SEVERITY_RULE_SUFFIX = /^\[(?<sev>Error|Warning)\/(?<rule>[^\]]+)\]$/s;
// gcc `[-Wunused-variable]`, mypy `[attr-defined]`, clang-tidy `[readability-foo]`.
const RULE_SUFFIX = /^\[(?<rule>-?[A-Za-z][\w@/.:-]*)\]$/;
// A bare path at column 0 may head an eslint stylish block.
const STYLISH_HEADING = /^(?:[A-Za-z]:[\\/]|\/|\.{0,2}[\w@-])\S*\.\w+$/;

/**
 * A trailing `[...]` group of a message, found from the last `[` (an unanchored
 * `\s*\[...\]$` pattern retried at every start was quadratic on long space runs).
 */
function trailingBracket(
  message: string,
  pattern: RegExp,
): { groups: Record<string, string>; before: string } | undefined {
  if (!message.endsWith(']')) return undefined;
  const open = message.lastIndexOf('[');
  if (open <= 0) return undefined;
  const match = pattern.exec(message.slice(open));
  if (!match?.groups) return undefined;
  return { groups: match.groups as Record<string, string>, before: message.slice(0, open) };
}

/** Parses one tsc diagnostic line (with any indented continuation added by the caller). */
export function parseTscLine(line: string, root: string): Finding | undefined {
  // Both forms have ` TS<code>: `; most lines do not, and skip both patterns.
  if (!line.includes(' TS')) return undefined;
  const located = TSC_LINE.exec(line);
  if (located?.groups) {
    const { file, sev, code, msg } = located.groups;
    return finding({
      file: relativeToRoot(file!, root),
      line: Number(located.groups.line),
      column: Number(located.groups.col),
      severity: sev === 'message' ? 'info' : toSeverity(sev),
      rule: code!,
      message: msg!,
    });
  }
  const global = TSC_GLOBAL.exec(line);
  if (global?.groups) {
    return finding({
      severity: toSeverity(global.groups.sev),
      rule: global.groups.code!,
      message: global.groups.msg!,
    });
  }
  return undefined;
}

/** Reads tsc output: one finding per diagnostic, indented lines appended to the last one. */
export function parseTscText(text: string, root: string): Finding[] {
  const findings: Finding[] = [];
  for (const line of lines(text, findings)) {
    const parsed = parseTscLine(line, root);
    if (parsed) findings.push(parsed);
    else if (findings.length > 0 && /^\s+\S/.test(line)) {
      findings[findings.length - 1]!.message += `\n${line.trim()}`;
    }
  }
  return findings;
}

export function parseColonLine(line: string, root: string): Finding | undefined {
  if (!line.includes(':')) return undefined;
  const match = COLON_LINE.exec(line.trimEnd());
  if (!match?.groups) return undefined;
  const { file, sev, bracketRule } = match.groups;
  let message = match.groups.msg!;
  let rule: string | null = bracketRule ?? null;
  let severity = sev
    ? toSeverity(sev === 'note' || sev === 'hint' ? 'info' : sev)
    : ('error' as const);
  const severityRule = trailingBracket(message, SEVERITY_RULE_SUFFIX);
  const ruleOnly = severityRule || rule ? undefined : trailingBracket(message, RULE_SUFFIX);
  if (severityRule) {
    rule = severityRule.groups.rule!;
    severity = toSeverity(severityRule.groups.sev);
    message = severityRule.before.trimEnd();
  } else if (ruleOnly && /\s$/.test(ruleOnly.before)) {
    rule = ruleOnly.groups.rule!;
    message = ruleOnly.before.trimEnd();
  } else if (!rule) {
    const leading = LEADING_CODE.exec(message);
    if (leading?.groups) {
      rule = leading.groups.code!;
      message = leading.groups.rest!;
    }
  }
  return finding({
    file: relativeToRoot(file!, root),
    line: Number(match.groups.line),
    column: match.groups.col ? Number(match.groups.col) : null,
    severity,
    rule,
    message,
  });
}

export function parsePrettierLine(line: string, root: string): Finding | undefined {
  if (!line.startsWith('[')) return undefined;
  const error = PRETTIER_ERROR.exec(line);
  if (error?.groups) {
    return finding({
      file: relativeToRoot(error.groups.file!, root),
      line: error.groups.line ? Number(error.groups.line) : null,
      column: error.groups.col ? Number(error.groups.col) : null,
      rule: 'prettier',
      message: error.groups.msg!,
    });
  }
  const warn = PRETTIER_WARN.exec(line);
  if (warn?.groups && !PRETTIER_SUMMARY.test(warn.groups.file!)) {
    return finding({
      file: relativeToRoot(warn.groups.file!, root),
      rule: 'prettier',
      message: 'not formatted (prettier --write fixes it)',
    });
  }
  return undefined;
}

/** `  2:9  error  message  rule-id`: the rule is the last word when two spaces precede it. */
function parseStylishRow(line: string, file: string): Finding | undefined {
  const row = STYLISH_ROW.exec(line.trimEnd());
  if (!row?.groups) return undefined;
  let message = row.groups.msg!;
  let rule: string | null = null;
  const lastSpace = Math.max(message.lastIndexOf(' '), message.lastIndexOf('\t'));
  if (lastSpace > 0 && /\s/.test(message[lastSpace - 1]!)) {
    rule = message.slice(lastSpace + 1);
    message = message.slice(0, lastSpace).trimEnd();
  }
  return finding({
    file,
    line: Number(row.groups.line),
    column: Number(row.groups.col),
    severity: toSeverity(row.groups.sev),
    rule,
    message,
  });
}

/**
 * The generic fallback: tsc lines, prettier's [warn]/[error] lines, eslint stylish
 * blocks and `file:line:col: message` lines. Severity and rule come from the line when
 * it carries them; a located line with no severity counts as an error.
 */
export function parseTextFindings(text: string, root: string): Finding[] {
  const findings: Finding[] = [];
  let stylishFile: string | null = null;
  for (const line of lines(text, findings)) {
    // The cheapest case first: a run of CRs or LFs is millions of empty lines.
    if (line === '') continue;
    const tsc = parseTscLine(line, root);
    if (tsc) {
      findings.push(tsc);
      stylishFile = null;
      continue;
    }
    const prettier = parsePrettierLine(line, root);
    if (prettier) {
      findings.push(prettier);
      continue;
    }
    const row = stylishFile !== null ? parseStylishRow(line, stylishFile) : undefined;
    if (row) {
      findings.push(row);
      continue;
    }
    const colon = parseColonLine(line, root);
    if (colon) {
      findings.push(colon);
      stylishFile = null;
      continue;
    }
    // A bare path at column 0 may head an eslint stylish block.
    if (line.includes('.') && STYLISH_HEADING.test(line)) stylishFile = relativeToRoot(line, root);
    else if (line.trim() === '') continue;
    else if (!/^\s/.test(line)) stylishFile = null;
  }
  return findings;
}

/**
 * A JSON parser's answer when its tool printed no JSON (a crash, a config error, an
 * old version): the findings readable as text lines, the verdict, and a note saying so.
 */
export function textFallback(output: GateOutput, note: string): ParseResult {
  const result = verdict(
    output.exitCode,
    parseTextFindings(`${output.stdout}\n${output.stderr}`, output.root),
  );
  result.note = note;
  result.unparsed = true;
  return result;
}

/**
 * A finding for each line of `text` that `pattern` matches, pushed to `findings`: named
 * groups `file`, `line`, `msg`, optionally `col` and `rule` (else `rule` as given).
 */
export function matchedLines(
  text: string,
  pattern: RegExp,
  rule: string,
  root: string,
  findings: Finding[],
): void {
  for (const raw of lines(text, findings)) {
    const groups = pattern.exec(raw.trimEnd())?.groups;
    if (!groups) continue;
    findings.push(
      finding({
        file: relativeToRoot(groups.file!, root),
        line: Math.max(1, Number(groups.line)),
        column: groups.col === undefined ? null : Number(groups.col),
        rule: groups.rule ?? rule,
        message: groups.msg!.trimEnd(),
      }),
    );
  }
}

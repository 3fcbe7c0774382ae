import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { JsonSchema } from '../../server/tool.js';
import { countBySeverity, formatLocation, type Finding, type Severity } from './finding.js';

/**
 * Results shaped for agents: a gate result that fits a character budget whatever the
 * number of findings. Hosts cut large tool results (Claude Code warns above 10,000
 * tokens and cuts at 25,000), and a cut result loses whatever came last; here the
 * budget decides what is listed, and what is left out is counted and kept in a log.
 */

export const DEFAULT_MAX_CHARS = 12_000;
/**
 * The smallest budget: the verdict, counts and omission line at their floor (a long command
 * and log path included) take up to about 1,000 characters, and the budget must leave room
 * for findings beyond them (at 1,000 a report listed none).
 */
export const MIN_MAX_CHARS = 2_000;
/** What --max-chars and a gate's maxChars accept. */
export const MAX_CHARS_RANGE = { min: MIN_MAX_CHARS, max: 10_000_000 } as const;
/** The fixed part shrinks (tables, details, wording) until this many findings fit. */
const FLOOR_FINDINGS = 3;
/** Rows of the per-file and per-rule tables at most (fewer when the budget is small). */
const MAX_TABLE_ROWS = 20;
/** The tables may take this share of the budget; the rest is for findings and output. */
const TABLE_SHARE = 0.5;
/** File rows kept while the whole budget can hold them. */
const MIN_FILE_ROWS = 3;
/** A listed finding's message: its first line, cut to this many characters. */
const MESSAGE_CHARS = 240;
/** A verdict line longer than this is cut when the budget is too small for it. */
const VERDICT_MIN_CHARS = 160;
/** The verdict's floor: its first words (`lint: failed (exit 1, ...`) still fit here. */
const VERDICT_FLOOR_CHARS = 48;
/** Less room than this for output and the output section is left out (a sliver helps no one). */
const MIN_OUTPUT_CHARS = 200;
/** Slack for rounding in the size arithmetic; the final size is measured exactly. */
const SAFETY_CHARS = 16;

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

export interface SeverityCounts {
  error: number;
  warning: number;
  info: number;
}

export interface FileCount extends SeverityCounts {
  /** null: findings about the whole project. */
  file: string | null;
}

export interface RuleCount extends SeverityCounts {
  rule: string | null;
}

/** What the compact result leaves out; the log at `logPath` has all of it. */
export interface Omitted {
  /** Findings not listed. */
  findings: number;
  /** Files with findings that are not in the per-file table. */
  files: number;
  /** Rules that are not in the per-rule table. */
  rules: number;
  /** Output bytes not shown (of `outputBytes`). */
  outputBytes: number;
}

/** The compact data; structuredContent holds it (with the caller's own fields). */
export interface CompactData {
  findingCount: number;
  counts: SeverityCounts;
  /** Files with the most errors first (then warnings, info, name). */
  files: FileCount[];
  /** Rules with the most errors first. */
  rules: RuleCount[];
  /** The listed findings: errors before warnings before info, spread across files. */
  findings: Finding[];
  omitted: Omitted;
  /** Where the full findings and output are; null when nothing was left out or no log was kept. */
  logPath: string | null;
}

export interface BudgetInput {
  /** The first line of the result, e.g. `lint: failed (exit 1, 4.2 s, 3001 findings)`. */
  verdict: string;
  /**
   * Lines after the verdict (the command, notes on the run), counted in the budget; the
   * last ones go first when the budget cannot hold them all.
   */
  details?: readonly string[];
  /** Findings to skip in listing order (paging); the counts still cover all of them. */
  offset?: number;
  findings: readonly Finding[];
  /** The raw output the head and tail come from ('' for none). */
  output: string;
  /** Bytes of output the gate wrote, which `output` stands for (it may be a head and tail already). */
  outputBytes: number;
  /**
   * Where the full findings and output are. A function is called only when something is
   * left out (so a clean or small run writes no log), e.g. `() => writeFullLog(...)`.
   */
  logPath: string | null | (() => string | null);
  /** Budget for the whole CallToolResult as JSON (see wireLength). Default 12,000. */
  maxChars?: number;
  /**
   * The caller's own structuredContent fields (gate, passed, exitCode, command...), counted
   * in the budget. The compact fields win over same-named ones.
   */
  structuredExtra?: Record<string, unknown>;
  /**
   * The caller's fields made as small as their schema allows (e.g. the command cut to its
   * program), used only when the fixed part would not fit otherwise: with them, a long
   * command or log path still fits MIN_MAX_CHARS.
   */
  compactExtra?: () => Record<string, unknown>;
}

export interface ShapedResult {
  text: string;
  structuredContent: Record<string, unknown> & CompactData;
  /** wireLength(text, structuredContent): at most maxChars. */
  wireChars: number;
}

/**
 * The length of the CallToolResult the server sends for this text and structuredContent
 * (`isError: false` is the longer of the two spellings).
 */
export function wireLength(text: string, structuredContent: unknown): number {
  return JSON.stringify({ content: [{ type: 'text', text }], isError: false, structuredContent })
    .length;
}

/** Characters `text` takes inside a JSON string (escapes counted). */
function escapedLength(text: string): number {
  return JSON.stringify(text).length - 2;
}

/** Characters one UTF-16 unit takes inside a JSON string; a surrogate pair counts 1 + 1. */
function escapedUnitLength(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20)
    return code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 2 : 6;
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = text.charCodeAt(index + 1);
    return next >= 0xdc00 && next <= 0xdfff ? 1 : 6;
  }
  if (code >= 0xdc00 && code <= 0xdfff) {
    const previous = text.charCodeAt(index - 1);
    return previous >= 0xd800 && previous <= 0xdbff ? 1 : 6;
  }
  return 1;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The longest prefix within `budget` escaped characters, ending at a line end when one is near. */
function headWithin(text: string, budget: number): string {
  let used = 0;
  let end = 0;
  while (end < text.length) {
    const cost = escapedUnitLength(text, end);
    if (used + cost > budget) break;
    used += cost;
    end += 1;
  }
  if (end > 0 && end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  const lineEnd = text.lastIndexOf('\n', end - 1);
  if (end < text.length && lineEnd >= end * 0.75) end = lineEnd + 1;
  return text.slice(0, end);
}

/** The longest suffix within `budget` escaped characters, starting at a line start when one is near. */
function tailWithin(text: string, budget: number): string {
  let used = 0;
  let start = text.length;
  while (start > 0) {
    const cost = escapedUnitLength(text, start - 1);
    if (used + cost > budget) break;
    used += cost;
    start -= 1;
  }
  if (start > 0 && start < text.length && isHighSurrogate(text.charCodeAt(start - 1))) start += 1;
  const lineStart = text.indexOf('\n', start);
  if (start > 0 && lineStart !== -1 && lineStart - start <= (text.length - start) * 0.25)
    start = lineStart + 1;
  return text.slice(start);
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The first line of a message, cut to MESSAGE_CHARS (never inside a surrogate pair). */
function compactMessage(message: string): string {
  const newline = message.indexOf('\n');
  const firstLine = (newline === -1 ? message : message.slice(0, newline)).trimEnd();
  const more = newline !== -1 && message.slice(newline).trim() !== '';
  if (firstLine.length <= MESSAGE_CHARS) return more ? `${firstLine} …` : firstLine;
  let cut = MESSAGE_CHARS;
  if (isHighSurrogate(firstLine.charCodeAt(cut - 1))) cut -= 1;
  return `${firstLine.slice(0, cut)}…`;
}

/** `src/a.ts:3:5: error: message [rule]`: one finding, one line (messages cut). */
export function formatCompactFinding(finding: Finding): string {
  const rule = finding.rule ? ` [${finding.rule}]` : '';
  return `${formatLocation(finding)}: ${finding.severity}: ${compactMessage(finding.message)}${rule}`;
}

function compareCounts(a: SeverityCounts, b: SeverityCounts): number {
  return b.error - a.error || b.warning - a.warning || b.info - a.info;
}

function compareNames(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

function comparePositions(a: Finding, b: Finding): number {
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
}

interface FileGroup {
  counts: FileCount;
  bySeverity: Record<Severity, Finding[]>;
}

/** Findings grouped per file, files ordered by error count (then warnings, info, name). */
function groupByFile(findings: readonly Finding[]): FileGroup[] {
  const groups = new Map<string | null, FileGroup>();
  for (const finding of findings) {
    let group = groups.get(finding.file);
    if (group === undefined) {
      group = {
        counts: { file: finding.file, error: 0, warning: 0, info: 0 },
        bySeverity: { error: [], warning: [], info: [] },
      };
      groups.set(finding.file, group);
    }
    group.counts[finding.severity] += 1;
    group.bySeverity[finding.severity].push(finding);
  }
  const ordered = [...groups.values()];
  ordered.sort(
    (a, b) => compareCounts(a.counts, b.counts) || compareNames(a.counts.file, b.counts.file),
  );
  // Array.prototype.sort is stable: equal positions keep the tool's order.
  for (const group of ordered)
    for (const list of Object.values(group.bySeverity)) list.sort(comparePositions);
  return ordered;
}

function countRules(findings: readonly Finding[]): RuleCount[] {
  const rules = new Map<string | null, RuleCount>();
  for (const finding of findings) {
    let counts = rules.get(finding.rule);
    if (counts === undefined) {
      counts = { rule: finding.rule, error: 0, warning: 0, info: 0 };
      rules.set(finding.rule, counts);
    }
    counts[finding.severity] += 1;
  }
  return [...rules.values()].sort((a, b) => compareCounts(a, b) || compareNames(a.rule, b.rule));
}

/**
 * Errors of every file before any warning, warnings before info; within a severity one
 * finding per file per round, files in `groups` order, so one noisy file cannot push
 * another file's error out of the list. Linear in the number of findings.
 */
function* spreadAcrossFiles(groups: readonly FileGroup[]): Generator<Finding> {
  for (const severity of SEVERITIES) {
    let active = groups.filter((group) => group.bySeverity[severity].length > 0);
    for (let round = 0; active.length > 0; round += 1) {
      const next: FileGroup[] = [];
      for (const group of active) {
        const list = group.bySeverity[severity];
        yield list[round];
        if (list.length > round + 1) next.push(group);
      }
      active = next;
    }
  }
}

/** Findings in the order the compact result lists them (all of them). */
export function orderForListing(findings: readonly Finding[]): Finding[] {
  return [...spreadAcrossFiles(groupByFile(findings))];
}

function describeCounts(counts: SeverityCounts): string {
  return `${counts.error}/${counts.warning}/${counts.info}`;
}

function sumCounts(rows: readonly SeverityCounts[]): SeverityCounts {
  const total = { error: 0, warning: 0, info: 0 };
  for (const row of rows) for (const severity of SEVERITIES) total[severity] += row[severity];
  return total;
}

interface Layout {
  verdict: string;
  details: string[];
  offset: number;
  counts: SeverityCounts;
  findingCount: number;
  files: FileCount[];
  allFiles: number;
  rules: RuleCount[];
  allRules: RuleCount[];
  allFileCounts: FileCount[];
  listedLines: string[];
  listed: Finding[];
  omitted: Omitted;
  logPath: string | null;
  outputSection: string[];
  /** At the floor: the findings header and the omitted line in their shortest words. */
  terse: boolean;
}

/** A count table: its shown rows, then the sum of the rows left out on one line. */
function pushTable<Row extends SeverityCounts>(
  lines: string[],
  noun: string,
  shown: readonly Row[],
  all: readonly Row[],
  omittedRows: number,
  nameOf: (row: Row) => string,
): void {
  // With no row shown, the sum of the rest is the counts line again: the omitted line says it.
  if (shown.length === 0) return;
  lines.push(`by ${noun} (errors/warnings/info):`);
  for (const row of shown) lines.push(`  ${nameOf(row)} ${describeCounts(row)}`);
  if (omittedRows > 0) {
    const rest = sumCounts(all.slice(shown.length));
    lines.push(`  and ${plural(omittedRows, `more ${noun}`)} ${describeCounts(rest)}`);
  }
}

function renderText(layout: Layout): string {
  const { counts } = layout;
  const lines = [layout.verdict, ...layout.details];
  if (layout.findingCount === 0) {
    lines.push('counts: no findings');
  } else {
    lines.push(
      `counts: ${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${counts.info} info; ${plural(layout.allFiles, 'file')}, ${plural(layout.allRules.length, 'rule')}`,
    );
    pushTable(
      lines,
      'file',
      layout.files,
      layout.allFileCounts,
      layout.omitted.files,
      (row) => row.file ?? '(project)',
    );
    pushTable(
      lines,
      'rule',
      layout.rules,
      layout.allRules,
      layout.omitted.rules,
      (row) => row.rule ?? '(no rule)',
    );
    const from =
      layout.offset > 0
        ? `${layout.listed.length} of ${layout.findingCount} listed from offset ${layout.offset}`
        : `${layout.listed.length} of ${layout.findingCount} listed`;
    lines.push(`findings (${from}${layout.terse ? '' : '; errors first, spread across files'}):`);
    for (const line of layout.listedLines) lines.push(line);
  }
  const omitted = layout.omitted;
  if (omitted.findings + omitted.files + omitted.rules + omitted.outputBytes > 0) {
    const where = layout.logPath
      ? `${layout.terse ? 'log' : 'full findings and output'}: ${layout.logPath}`
      : 'no log of the full findings and output was kept';
    const terse = layout.terse;
    const parts = [
      omitted.findings > 0
        ? `${plural(omitted.findings, 'finding')}${terse ? '' : ' not listed'}`
        : '',
      omitted.files > 0
        ? `${plural(omitted.files, 'file')}${terse ? '' : ' not in the file table'}`
        : '',
      omitted.rules > 0
        ? `${plural(omitted.rules, 'rule')}${terse ? '' : ' not in the rule table'}`
        : '',
      omitted.outputBytes > 0
        ? `${omitted.outputBytes} output bytes${terse ? '' : ' not shown'}`
        : '',
    ].filter(Boolean);
    lines.push(`omitted: ${parts.join(', ')}; ${where}`);
  }
  for (const line of layout.outputSection) lines.push(line);
  return lines.join('\n');
}

function structuredOf(
  layout: Layout,
  extra: Record<string, unknown>,
): ShapedResult['structuredContent'] {
  return {
    ...extra,
    findingCount: layout.findingCount,
    counts: layout.counts,
    files: layout.files,
    rules: layout.rules,
    findings: layout.listed,
    omitted: layout.omitted,
    logPath: layout.logPath,
  };
}

function measure(layout: Layout, extra: Record<string, unknown>): number {
  return wireLength(renderText(layout), structuredOf(layout, extra));
}

function checkMaxChars(maxChars: number): void {
  if (!Number.isSafeInteger(maxChars) || maxChars < MIN_MAX_CHARS) {
    const error = new RangeError(
      `maxChars must be an integer >= ${MIN_MAX_CHARS}, got ${String(maxChars)}`,
    );
    throw Object.assign(error, { code: 'ERR_OUT_OF_RANGE' });
  }
}

function cutVerdict(verdict: string, chars: number): string {
  const firstLine = verdict.split('\n')[0];
  if (firstLine.length <= chars) return firstLine;
  let cut = chars - 1;
  if (isHighSurrogate(firstLine.charCodeAt(cut - 1))) cut -= 1;
  return `${firstLine.slice(0, cut)}…`;
}

function shapeWithLog(input: BudgetInput, logPath: string | null, maxChars: number): ShapedResult {
  let extra = input.structuredExtra ?? {};
  const findings = input.findings;
  const groups = groupByFile(findings);
  const allFileCounts = groups.map((group) => group.counts);
  const allRules = countRules(findings);
  const output = input.output.trimEnd();
  const outputBytes = Math.max(input.outputBytes, Buffer.byteLength(input.output));
  // Trailing whitespace is dropped from the text but counts as shown: the tail is shown.
  const trailingBytes = Buffer.byteLength(input.output) - Buffer.byteLength(output);

  // Worst-case numbers while sizing (every count only shrinks from here).
  const layout: Layout = {
    verdict: input.verdict.split('\n')[0],
    details: (input.details ?? []).map((line) => cutVerdict(line, MESSAGE_CHARS * 4)),
    offset: Math.max(0, Math.min(input.offset ?? 0, findings.length)),
    counts: countBySeverity(findings),
    findingCount: findings.length,
    files: allFileCounts.slice(0, MAX_TABLE_ROWS),
    allFiles: allFileCounts.length,
    rules: allRules.slice(0, MAX_TABLE_ROWS),
    allRules,
    allFileCounts,
    listedLines: [],
    listed: [],
    omitted: {
      findings: findings.length,
      files: allFileCounts.length,
      rules: allRules.length,
      outputBytes,
    },
    logPath,
    outputSection: [],
    terse: false,
  };

  // The findings after the offset in listing order, each with its text line, its
  // structured copy and what the two cost.
  function* listable(): Generator<{ line: string; compact: Finding; cost: number }> {
    let skip = layout.offset;
    for (const finding of spreadAcrossFiles(groups)) {
      if (skip > 0) {
        skip -= 1;
        continue;
      }
      // The Finding fields only (the output schema allows no others), the message cut.
      const { file, line: at, column, endLine, endColumn, severity, rule } = finding;
      const message = compactMessage(finding.message);
      const compact: Finding = {
        file,
        line: at,
        column,
        endLine,
        endColumn,
        severity,
        rule,
        message,
      };
      const line = `  ${formatCompactFinding(finding)}`;
      yield { line, compact, cost: escapedLength(line) + 2 + JSON.stringify(compact).length + 1 };
    }
  }
  // The fixed part shrinks below this, when it can, so that the first findings fit too: a
  // report that counts findings and lists none tells the agent nothing to fix.
  let wanted = 0;
  let counted = 0;
  for (const { cost } of listable()) {
    if (counted === FLOOR_FINDINGS) break;
    wanted += cost;
    counted += 1;
  }
  const fixedLimit = maxChars - SAFETY_CHARS - wanted;

  // The tables shrink until they leave most of the budget to findings: rules go first, since
  // the per-file table is what shows a file whose findings are not listed.
  let size = measure(layout, extra);
  // Below MIN_FILE_ROWS the file table shrinks only when the budget cannot hold it at all.
  const shrink = (limit: number, minFileRows: number) => {
    while (size > limit && (layout.files.length > minFileRows || layout.rules.length > 0)) {
      if (layout.rules.length > 0)
        layout.rules = layout.rules.slice(0, Math.floor(layout.rules.length / 2));
      else
        layout.files = layout.files.slice(
          0,
          Math.max(minFileRows, Math.floor(layout.files.length / 2)),
        );
      size = measure(layout, extra);
    }
  };
  shrink(maxChars * TABLE_SHARE, MIN_FILE_ROWS);
  shrink(fixedLimit, 0);
  while (size > fixedLimit && layout.details.length > 0) {
    layout.details = layout.details.slice(0, -1);
    size = measure(layout, extra);
  }
  if (size > fixedLimit) {
    layout.verdict = cutVerdict(layout.verdict, VERDICT_MIN_CHARS);
    size = measure(layout, extra);
  }
  // The floor, so that MIN_MAX_CHARS holds with a long command or log path (a macOS
  // temporary directory alone is 49 characters) and leaves room for findings: the caller's
  // compact fields, then the shortest wording, then the verdict's first words.
  if (size > fixedLimit && input.compactExtra) {
    extra = input.compactExtra();
    size = measure(layout, extra);
  }
  if (size > fixedLimit) {
    layout.terse = true;
    layout.verdict = cutVerdict(layout.verdict, VERDICT_FLOOR_CHARS);
    size = measure(layout, extra);
  }
  if (size > maxChars) {
    const error = new RangeError(
      `the verdict, counts, log path and the caller's structured fields take ${size} characters, more than maxChars ${maxChars}; raise maxChars or shorten the structured fields (e.g. the command)`,
    );
    throw Object.assign(error, { code: 'ERR_OUT_OF_RANGE' });
  }

  // Findings, in listing order, while they fit: the text line plus the structured copy.
  let room = maxChars - size - SAFETY_CHARS;
  for (const { line, compact, cost } of listable()) {
    if (cost > room) break;
    room -= cost;
    layout.listedLines.push(line);
    layout.listed.push(compact);
  }

  // The head and tail of the output with what is left.
  let shownBytes = 0;
  const header = (shown: number) =>
    shown === outputBytes
      ? `--- output (${outputBytes} bytes) ---`
      : `--- output (${outputBytes} bytes; head and tail, ${shown} bytes shown) ---`;
  const marker = '[… output omitted here …]';
  // Five lines ('', header, head, marker, tail): five escaped newlines.
  const sectionCost = escapedLength(header(outputBytes - 1)) + escapedLength(marker) + 10;
  const outputRoom = room - sectionCost;
  if (output !== '' && outputRoom >= MIN_OUTPUT_CHARS) {
    if (escapedLength(output) <= outputRoom) {
      shownBytes = Buffer.byteLength(output) + trailingBytes;
      layout.outputSection = ['', header(shownBytes), output];
    } else {
      const head = headWithin(output, Math.floor(outputRoom / 2));
      const tail = tailWithin(output.slice(head.length), outputRoom - escapedLength(head));
      shownBytes = Buffer.byteLength(head) + Buffer.byteLength(tail) + trailingBytes;
      layout.outputSection = ['', header(shownBytes), head.replace(/\n$/, ''), marker, tail];
    }
  }

  layout.omitted = {
    findings: findings.length - layout.listed.length,
    files: allFileCounts.length - layout.files.length,
    rules: allRules.length - layout.rules.length,
    outputBytes: Math.max(0, outputBytes - shownBytes),
  };
  // The arithmetic above is exact up to SAFETY_CHARS; this check keeps the promise even
  // if it were not (output first, then findings, go).
  while (measure(layout, extra) > maxChars) {
    if (layout.outputSection.length > 0) {
      layout.outputSection = [];
      layout.omitted.outputBytes = outputBytes;
    } else if (layout.listed.length > 0) {
      const keep = Math.floor(layout.listed.length / 2);
      layout.listed = layout.listed.slice(0, keep);
      layout.listedLines = layout.listedLines.slice(0, keep);
      layout.omitted.findings = findings.length - keep;
    } else {
      // Unreachable: this layout is the skeleton measured above with smaller numbers.
      throw new Error(`compact result over maxChars ${maxChars} with nothing left to drop`);
    }
  }
  const text = renderText(layout);
  const structuredContent = structuredOf(layout, extra);
  return { text, structuredContent, wireChars: wireLength(text, structuredContent) };
}

function somethingOmitted(shaped: ShapedResult): boolean {
  const { omitted } = shaped.structuredContent;
  return omitted.findings + omitted.files + omitted.rules + omitted.outputBytes > 0;
}

/**
 * The compact result: the verdict line; complete counts per severity, per file and per
 * rule (tables capped, the rest summed on an "and N more" line); findings, errors first,
 * spread across files; then the output's head and tail in what remains. Whatever the
 * number of findings, wireLength(text, structuredContent) <= maxChars.
 */
export function shapeToBudget(input: BudgetInput): ShapedResult {
  const maxChars = input.maxChars ?? DEFAULT_MAX_CHARS;
  checkMaxChars(maxChars);
  if (typeof input.logPath !== 'function') return shapeWithLog(input, input.logPath, maxChars);
  const withoutLog = shapeWithLog(input, null, maxChars);
  if (!somethingOmitted(withoutLog)) return withoutLog;
  const logPath = input.logPath();
  return logPath === null ? withoutLog : shapeWithLog(input, logPath, maxChars);
}

/** Full logs kept per directory by default; older ones go as new ones are written. */
export const KEPT_FULL_LOGS = 16;
const FULL_LOG_NAME = /^[A-Za-z0-9_.-]{1,64}-(\d+)-[0-9a-f]{8}\.log$/;

/**
 * Deletes all but the newest `keep` full logs in `directory`, never `current` (other
 * files are left alone).
 */
function pruneFullLogs(directory: string, keep: number, current: string): void {
  const logs: { name: string; time: number }[] = [];
  for (const name of fs.readdirSync(directory)) {
    const match = name === current ? null : FULL_LOG_NAME.exec(name);
    if (match) logs.push({ name, time: Number(match[1]) });
  }
  logs.sort((a, b) => b.time - a.time || (a.name < b.name ? 1 : -1));
  for (const { name } of logs.slice(keep - 1))
    fs.rmSync(path.join(directory, name), { force: true });
}

/**
 * Writes the full findings (whole messages, in listing order) and the output to a new
 * file in `directory` (made 0700 if missing), mode 0600, and returns its path. Keeps the
 * newest `keep` such logs in the directory, so an agent's edit loop does not fill the
 * disk. Throws on an I/O error, leaving no partial file.
 */
export function writeFullLog(
  directory: string,
  content: { name: string; verdict: string; findings: readonly Finding[]; output: string },
  keep: number = KEPT_FULL_LOGS,
): string {
  fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
  const safeName = content.name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64) || 'gate';
  const file = path.join(
    directory,
    `${safeName}-${Date.now()}-${crypto.randomBytes(4).toString('hex')}.log`,
  );
  const fd = fs.openSync(file, 'wx', 0o600);
  try {
    const lines = [`${content.verdict}\n\nfindings (${content.findings.length}):\n`];
    for (const finding of orderForListing(content.findings)) {
      const rule = finding.rule ? ` [${finding.rule}]` : '';
      const message = finding.message.replace(/\n/g, '\n    ');
      lines.push(`  ${formatLocation(finding)}: ${finding.severity}: ${message}${rule}\n`);
    }
    // writeFileSync on an fd writes everything (writeSync may write part).
    fs.writeFileSync(fd, lines.join(''));
    fs.writeFileSync(fd, `\n--- output (${Buffer.byteLength(content.output)} bytes) ---\n`);
    fs.writeFileSync(fd, content.output);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  pruneFullLogs(directory, Math.max(1, keep), path.basename(file));
  return file;
}

const COUNT = { type: 'integer', minimum: 0 };
const SEVERITY_COUNT_PROPERTIES = { error: COUNT, warning: COUNT, info: COUNT };

function countRowSchema(key: string, description: string): JsonSchema {
  return {
    type: 'array',
    description,
    items: {
      type: 'object',
      properties: { [key]: { type: ['string', 'null'] }, ...SEVERITY_COUNT_PROPERTIES },
      required: [key, 'error', 'warning', 'info'],
      additionalProperties: false,
    },
  };
}

/**
 * JSON Schema properties of the compact fields that GATE_OUTPUT_SCHEMA does not have yet
 * (`findings`, `findingCount` and `logPath` keep their schema there).
 */
export const COMPACT_OUTPUT_PROPERTIES: Record<string, JsonSchema> = {
  counts: {
    type: 'object',
    description: 'All findings per severity.',
    properties: SEVERITY_COUNT_PROPERTIES,
    required: ['error', 'warning', 'info'],
    additionalProperties: false,
  },
  files: countRowSchema(
    'file',
    'Findings per file, most errors first; capped (see omitted.files).',
  ),
  rules: countRowSchema(
    'rule',
    'Findings per rule, most errors first; capped (see omitted.rules).',
  ),
  omitted: {
    type: 'object',
    description: 'What this result leaves out; logPath has all of it.',
    properties: {
      findings: { ...COUNT, description: 'Findings not listed.' },
      files: { ...COUNT, description: 'Files with findings not in the files table.' },
      rules: { ...COUNT, description: 'Rules not in the rules table.' },
      outputBytes: { ...COUNT, description: 'Output bytes not shown.' },
    },
    required: ['findings', 'files', 'rules', 'outputBytes'],
    additionalProperties: false,
  },
};

export const COMPACT_OUTPUT_REQUIRED: readonly string[] = ['counts', 'files', 'rules', 'omitted'];

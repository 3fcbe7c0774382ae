import { createFinding, type Finding } from '../report/finding.js';
import { extractJson, positiveInteger, relativeToRoot, verdict, type Parser } from './parser.js';
import { textFallback } from './text-lines.js';

/** knip --reporter codeclimate: one entry per issue. */
interface CodeClimateIssue {
  check_name?: string;
  description?: string;
  severity?: string;
  location?: {
    path?: string;
    lines?: { begin?: number };
    positions?: { begin?: { line?: number; column?: number } };
  };
}

/** knip --reporter json: per-file rows, one array per issue type. */
interface JsonRow {
  file?: string;
  [type: string]: unknown;
}

interface JsonItem {
  name?: string;
  line?: number;
  col?: number;
}

/** `Unused exports` → `unused-exports` (knip's issue type titles). */
function ruleOf(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

/** knip's words for each issue type of its JSON report (the titles of its other reporters). */
const JSON_TYPE_TITLES: Record<string, string> = {
  files: 'Unused files',
  dependencies: 'Unused dependencies',
  devDependencies: 'Unused devDependencies',
  optionalPeerDependencies: 'Referenced optional peerDependencies',
  unlisted: 'Unlisted dependencies',
  binaries: 'Unlisted binaries',
  unresolved: 'Unresolved imports',
  exports: 'Unused exports',
  nsExports: 'Exports in used namespace',
  types: 'Unused exported types',
  nsTypes: 'Exported types in used namespace',
  enumMembers: 'Unused exported enum members',
  namespaceMembers: 'Unused exported namespace members',
  classMembers: 'Unused exported class members',
  duplicates: 'Duplicate exports',
  catalog: 'Unused catalog entries',
  catalogReferences: 'Unresolved catalog references',
  cycles: 'Circular dependencies',
};

/** knip's own singular: `Unused dependencies` → `Unused dependency`. */
function issuePrefix(title: string): string {
  return title.replace(/ies$/, 'y').replace(/s$/, '');
}

/** An issue type's items: an array, or (knip 5's enumMembers) arrays keyed by parent. */
function itemsOf(value: unknown): JsonItem[] {
  if (Array.isArray(value)) return value.flat() as JsonItem[];
  if (value && typeof value === 'object') return Object.values(value).flat(2) as JsonItem[];
  return [];
}

function fromCodeClimate(issues: CodeClimateIssue[], root: string): Finding[] {
  return issues.map((issue) => {
    const begin = issue.location?.positions?.begin;
    return createFinding({
      file: issue.location?.path ? relativeToRoot(issue.location.path, root) : null,
      // knip gives line 0 where it has no line (a file, a dependency).
      line: positiveInteger(begin?.line ?? issue.location?.lines?.begin),
      column: positiveInteger(begin?.column),
      // `major` is an error rule, `minor` one the config sets to "warn".
      severity:
        issue.severity === 'major' ? 'error' : issue.severity === 'minor' ? 'warning' : 'info',
      rule: issue.check_name ? ruleOf(issue.check_name) : null,
      message: issue.description ?? '',
    });
  });
}

/**
 * The JSON report names no severity: knip exits 0 when every issue is of a rule set to
 * "warn", so issues of a run that exited 0 are warnings, the others errors.
 */
function fromJson(
  document: { files?: unknown; issues?: JsonRow[] },
  root: string,
  exitCode: number | null,
): Finding[] {
  const severity = exitCode === 0 ? 'warning' : 'error';
  const findings: Finding[] = [];
  // knip 5 lists unused files at the top level, knip 6 in each file's row.
  if (Array.isArray(document.files))
    for (const file of document.files)
      if (typeof file === 'string')
        findings.push(
          createFinding({
            file: relativeToRoot(file, root),
            severity,
            rule: 'unused-files',
            message: `Unused file: ${file}`,
          }),
        );
  for (const row of document.issues ?? []) {
    const file = typeof row.file === 'string' ? relativeToRoot(row.file, root) : null;
    for (const [type, title] of Object.entries(JSON_TYPE_TITLES)) {
      // Duplicates and cycles come as groups of names.
      for (const raw of itemsOf(row[type])) {
        const name = raw.name ?? '';
        findings.push(
          createFinding({
            file,
            line: positiveInteger(raw.line),
            column: positiveInteger(raw.col),
            severity,
            rule: ruleOf(title),
            message: `${issuePrefix(title)}: ${name}`,
          }),
        );
      }
    }
  }
  return findings;
}

/** `Unused exports (2)`: a section of knip's default (symbols) report. */
const SECTION = /^(\S.*?) \((\d+)\)$/;
/** `unused  function  src/util.ts:5:17`: an item's last column, its place. */
const PLACE = /^(.+?):(\d+)(?::(\d+))?$/;

/**
 * knip's default report: a `Title (count)` line, then one line per issue, its columns
 * two spaces apart, the last its place (`file:line:col`); unused files are the file alone.
 * Undefined when no section is there. Severities as for the JSON report.
 */
function fromSymbols(stdout: string, root: string, exitCode: number | null): Finding[] | undefined {
  const severity = exitCode === 0 ? 'warning' : 'error';
  const findings: Finding[] = [];
  let title: string | undefined;
  for (const line of stdout.split(/\r?\n/)) {
    const section = SECTION.exec(line);
    if (section) {
      title = section[1]!;
      continue;
    }
    if (!title || line.trim() === '') continue;
    const columns = line.trim().split(/\s{2,}/);
    const last = columns[columns.length - 1]!;
    const place = columns.length > 1 ? PLACE.exec(last) : null;
    const name = columns[0]!;
    const file =
      title === 'Unused files' ? name : place ? place[1]! : columns.length > 1 ? last : null;
    findings.push(
      createFinding({
        file: file === null ? null : relativeToRoot(file, root),
        line: place ? positiveInteger(Number(place[2])) : null,
        column: place?.[3] ? positiveInteger(Number(place[3])) : null,
        severity,
        rule: ruleOf(title),
        message: `${issuePrefix(title)}: ${name}`,
      }),
    );
  }
  return title === undefined ? undefined : findings;
}

/**
 * knip's machine reports: `--reporter codeclimate` (an array of issues with severity and
 * location; the marker gate's) and `--reporter json` (`{files?, issues[{file, exports[{name,
 * line, col}], dependencies[{name}], ...}]}`). Exit 1 when an error-level issue was found,
 * 2 on a config or run error (no report). A script running bare `knip` prints its default
 * report, read too.
 */
export const knipParser: Parser = {
  name: 'knip',
  summary: 'knip --reporter codeclimate, --reporter json, or its default report (stdout)',
  parse(output) {
    const climate = extractJson(output.stdout, '[');
    if (Array.isArray(climate))
      return verdict(output.exitCode, fromCodeClimate(climate as CodeClimateIssue[], output.root));
    const document = extractJson(output.stdout, '{') as
      { files?: unknown; issues?: JsonRow[] } | undefined;
    if (document && Array.isArray(document.issues))
      return verdict(output.exitCode, fromJson(document, output.root, output.exitCode));
    const symbols = fromSymbols(output.stdout, output.root, output.exitCode);
    if (symbols) return verdict(output.exitCode, symbols);
    return textFallback(
      output,
      'no knip report on stdout: read the output (a config or run error)',
    );
  },
};

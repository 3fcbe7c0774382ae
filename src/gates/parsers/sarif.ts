import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFinding, type Finding, type Severity } from '../report/finding.js';
import { extractJson, positiveInteger, relativeToRoot, verdict, type Parser } from './parser.js';
import { textFallback } from './text-lines.js';

interface SarifArtifactLocation {
  uri?: string;
  uriBaseId?: string;
  index?: number;
}

interface SarifRegion {
  startLine?: number;
  startColumn?: number;
  endLine?: number;
  endColumn?: number;
}

interface SarifMessage {
  text?: string;
  markdown?: string;
  id?: string;
  arguments?: string[];
}

interface SarifRule {
  id?: string;
  defaultConfiguration?: { level?: string };
  messageStrings?: Record<string, { text?: string }>;
}

interface SarifResult {
  ruleId?: string;
  ruleIndex?: number;
  rule?: { id?: string; index?: number };
  level?: string;
  kind?: string;
  message?: SarifMessage;
  locations?: {
    physicalLocation?: { artifactLocation?: SarifArtifactLocation; region?: SarifRegion };
  }[];
}

interface SarifRun {
  tool?: { driver?: { name?: string; rules?: SarifRule[] } };
  originalUriBaseIds?: Record<string, { uri?: string; uriBaseId?: string }>;
  artifacts?: { location?: SarifArtifactLocation }[];
  results?: SarifResult[] | null;
  invocations?: {
    executionSuccessful?: boolean;
    toolExecutionNotifications?: { level?: string; message?: SarifMessage }[];
  }[];
}

const LEVELS: Record<string, Severity | undefined> = {
  error: 'error',
  warning: 'warning',
  note: 'info',
  none: 'info',
};

/** Kinds that say the rule was met or did not apply: no problem to report. */
const NOT_PROBLEMS = new Set(['pass', 'notApplicable']);

/** A URI's path with %-escapes decoded (a malformed escape is kept as written). */
function decoded(uri: string): string {
  try {
    return decodeURIComponent(uri);
  } catch {
    return uri;
  }
}

/**
 * An artifact location as a path: a `file:` URI made a path; a relative URI resolved
 * against its `uriBaseId` (followed through `originalUriBaseIds`, itself possibly based
 * on another id); a base the log does not define (`%SRCROOT%`) is the root it ran in.
 */
function locationPath(
  location: SarifArtifactLocation,
  run: SarifRun,
  root: string,
  depth = 0,
): string | null {
  const artifact =
    location.uri === undefined && typeof location.index === 'number'
      ? run.artifacts?.[location.index]?.location
      : undefined;
  if (artifact && depth < 8) return locationPath(artifact, run, root, depth + 1);
  const uri = location.uri;
  if (typeof uri !== 'string' || uri === '') return null;
  if (/^file:/i.test(uri)) {
    try {
      return fileURLToPath(uri);
    } catch {
      return decoded(uri.replace(/^file:(\/\/)?/i, ''));
    }
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(uri) && !/^[a-z]:[\\/]/i.test(uri)) return uri; // another scheme
  const relative = decoded(uri);
  const base = location.uriBaseId ? run.originalUriBaseIds?.[location.uriBaseId] : undefined;
  if (base && depth < 8) {
    const directory = locationPath({ ...base, uri: base.uri ?? '' }, run, root, depth + 1);
    if (directory !== null) return path.resolve(root, directory, relative);
  }
  return relative;
}

/** A message's text: `text`, else the rule's message string `id` with its arguments. */
function messageText(message: SarifMessage | undefined, rule: SarifRule | undefined): string {
  if (!message) return '';
  const template =
    message.text ?? message.markdown ?? rule?.messageStrings?.[message.id ?? '']?.text;
  if (template === undefined) return message.id ?? '';
  return template.replace(/\{(\d+)\}/g, (whole, index: string) =>
    String(message.arguments?.[Number(index)] ?? whole),
  );
}

function ruleOf(result: SarifResult, run: SarifRun): SarifRule | undefined {
  const rules = run.tool?.driver?.rules ?? [];
  const index = result.ruleIndex ?? result.rule?.index;
  if (typeof index === 'number' && rules[index]) return rules[index];
  const id = result.ruleId ?? result.rule?.id;
  return id === undefined ? undefined : rules.find((rule) => rule.id === id);
}

/** The result's severity: its level, else its rule's default level, else warning (SARIF 3.27.10). */
function severityOf(result: SarifResult, rule: SarifRule | undefined): Severity {
  if (result.kind !== undefined && result.kind !== 'fail') return 'info';
  const level = result.level ?? rule?.defaultConfiguration?.level ?? 'warning';
  return LEVELS[level] ?? 'warning';
}

function findingsOfRun(run: SarifRun, root: string): Finding[] {
  const findings: Finding[] = [];
  for (const result of run.results ?? []) {
    if (result.kind !== undefined && NOT_PROBLEMS.has(result.kind)) continue;
    const rule = ruleOf(result, run);
    const physical = result.locations?.[0]?.physicalLocation;
    const file = physical?.artifactLocation
      ? locationPath(physical.artifactLocation, run, root)
      : null;
    const region = physical?.region;
    findings.push(
      createFinding({
        file: file === null ? null : relativeToRoot(file, root),
        line: positiveInteger(region?.startLine),
        column: positiveInteger(region?.startColumn),
        endLine: positiveInteger(region?.endLine),
        endColumn: positiveInteger(region?.endColumn),
        severity: severityOf(result, rule),
        rule: result.ruleId ?? result.rule?.id ?? rule?.id ?? null,
        message: messageText(result.message, rule),
      }),
    );
  }
  // The tool's own failures (a config error) are notifications of its invocation.
  for (const invocation of run.invocations ?? []) {
    for (const notification of invocation.toolExecutionNotifications ?? []) {
      if (notification.level !== 'error') continue;
      findings.push(
        createFinding({
          rule: run.tool?.driver?.name ?? null,
          message: messageText(notification.message, undefined),
        }),
      );
    }
  }
  return findings;
}

/**
 * SARIF 2.1.0 on stdout, from any tool that prints it: each run's results with their rule
 * (`ruleId`, or the rule `ruleIndex` names), severity (`level`, else the rule's default,
 * else warning; a `kind` other than fail is info, `pass`/`notApplicable` no finding),
 * message (`text`, or the rule's message string with its arguments) and first physical
 * location (`file:` URIs, relative URIs with `uriBaseId` resolved through
 * `originalUriBaseIds`, artifact indexes; 1-based region lines and columns). Error
 * notifications of an invocation (the tool failed) are project findings.
 */
export const sarifParser: Parser = {
  name: 'sarif',
  summary: 'SARIF 2.1.0 from any tool (runs[].results[])',
  parse(output) {
    const document = extractJson(output.stdout, '{') as { runs?: SarifRun[] } | undefined;
    if (!document || !Array.isArray(document.runs))
      return textFallback(output, 'no SARIF log on stdout: read the output');
    const findings = document.runs.flatMap((run) => findingsOfRun(run ?? {}, output.root));
    return verdict(output.exitCode, findings);
  },
};

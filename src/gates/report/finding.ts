export type Severity = 'error' | 'warning' | 'info';

/** One problem a gate reported, normalised across tools. Positions are 1-based. */
export interface Finding {
  /** Relative to the root with forward slashes when inside it; null for project-wide problems. */
  file: string | null;
  line: number | null;
  column: number | null;
  endLine: number | null;
  endColumn: number | null;
  severity: Severity;
  /** The tool's rule or code (e.g. `no-unused-vars`, `TS2322`, `clippy::needless_return`). */
  rule: string | null;
  message: string;
}

/** A finding with every position unknown unless given; severity defaults to error. */
export function createFinding(partial: Partial<Finding> & { message: string }): Finding {
  return {
    file: null,
    line: null,
    column: null,
    endLine: null,
    endColumn: null,
    severity: 'error',
    rule: null,
    ...partial,
  };
}

export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity] += 1;
  return counts;
}

/** `src/a.js:2:9` style location, for reports. */
export function formatLocation(finding: Finding): string {
  if (finding.file === null) return '(project)';
  if (finding.line === null) return finding.file;
  return finding.column === null
    ? `${finding.file}:${finding.line}`
    : `${finding.file}:${finding.line}:${finding.column}`;
}

/** Drops exact repeats (cargo reports a lint once per target, e.g. bin and its test build). */
export function dedupeFindings(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  const unique: Finding[] = [];
  for (const finding of findings) {
    const key = JSON.stringify(finding);
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(finding);
  }
  return unique;
}

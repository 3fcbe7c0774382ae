import { createFinding, type Finding, type Severity } from '../report/finding.js';
import { lines, relativeToRoot, verdict, type Parser } from './parser.js';

// `Dockerfile:3 DL3008 warning: Pin versions in apt get install.` (its own DL rules and the
// SC rules of the shellcheck it runs on RUN lines).
const CHECK =
  /^(?<file>[^\s:][^:]*?):(?<line>\d+) (?<code>(?:DL|SC)\d+) (?<level>error|warning|info|style): (?<msg>.*)$/s;
// `Dockerfile:1:1 unexpected 'F' expecting ...`: a file it cannot parse.
const PARSE_ERROR = /^(?<file>[^\s:][^:]*?):(?<line>\d+):(?<col>\d+) (?<msg>\S.*)$/s;
const LEVELS: Record<string, Severity> = {
  error: 'error',
  warning: 'warning',
  info: 'info',
  style: 'info',
};

/**
 * hadolint's default (tty) report without colours: `file:line CODE level: message` per
 * failed rule, `file:line:col message` for a file it cannot parse. It exits 1 when a rule
 * at or above its failure threshold (info by default) failed: the exit code decides.
 */
export const hadolintParser: Parser = {
  name: 'hadolint',
  summary: 'hadolint tty report (file:line CODE level: message)',
  parse(output) {
    const findings: Finding[] = [];
    for (const raw of lines(output.stdout, findings)) {
      const line = raw.trimEnd();
      const check = CHECK.exec(line);
      if (check?.groups) {
        findings.push(
          createFinding({
            file: relativeToRoot(check.groups.file!, output.root),
            line: Math.max(1, Number(check.groups.line)),
            severity: LEVELS[check.groups.level!] ?? 'error',
            rule: check.groups.code!,
            message: check.groups.msg!,
          }),
        );
        continue;
      }
      const failed = PARSE_ERROR.exec(line);
      if (failed?.groups)
        findings.push(
          createFinding({
            file: relativeToRoot(failed.groups.file!, output.root),
            line: Number(failed.groups.line),
            column: Number(failed.groups.col),
            rule: 'hadolint',
            message: failed.groups.msg!.trimEnd(),
          }),
        );
    }
    return verdict(output.exitCode, findings);
  },
};

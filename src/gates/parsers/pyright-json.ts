import type { Finding } from '../report/finding.js';
import { extractJson, relativeToRoot, verdict, type Parser } from './parser.js';
import { textFallback } from './text-lines.js';

interface PyrightPosition {
  line?: number;
  character?: number;
}

interface PyrightDiagnostic {
  file?: string;
  severity?: string;
  message?: string;
  rule?: string;
  range?: { start?: PyrightPosition; end?: PyrightPosition };
}

/** Pyright positions are 0-based. */
function oneBased(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value + 1 : null;
}

/**
 * `pyright --outputjson`: `{generalDiagnostics[{file (absolute), severity
 * error|warning|information, message, rule, range{start,end}{line,character}}], summary}`.
 */
export const pyrightJsonParser: Parser = {
  name: 'pyright-json',
  summary: 'pyright --outputjson',
  parse(output) {
    const document = extractJson(output.stdout, '{') as
      { generalDiagnostics?: PyrightDiagnostic[] } | undefined;
    if (!document || !Array.isArray(document.generalDiagnostics)) {
      return textFallback(output, 'no pyright JSON on stdout: read the output');
    }
    const findings: Finding[] = document.generalDiagnostics.map((diagnostic) => ({
      file: diagnostic.file ? relativeToRoot(diagnostic.file, output.root) : null,
      line: oneBased(diagnostic.range?.start?.line),
      column: oneBased(diagnostic.range?.start?.character),
      endLine: oneBased(diagnostic.range?.end?.line),
      endColumn: oneBased(diagnostic.range?.end?.character),
      severity:
        diagnostic.severity === 'error'
          ? 'error'
          : diagnostic.severity === 'warning'
            ? 'warning'
            : 'info',
      rule: diagnostic.rule ?? null,
      message: diagnostic.message ?? '',
    }));
    return verdict(output.exitCode, findings);
  },
};

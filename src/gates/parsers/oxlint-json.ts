import type { Finding } from '../report/finding.js';
import {
  extractJson,
  positiveInteger,
  relativeToRoot,
  toSeverity,
  verdict,
  type Parser,
} from './parser.js';
import { textFallback } from './text-lines.js';

interface OxlintDiagnostic {
  message?: string;
  code?: string;
  severity?: string;
  help?: string;
  filename?: string;
  labels?: { span?: { line?: number; column?: number } }[];
}

/**
 * `oxlint --format json`: `{diagnostics[{message, code "eslint(rule)", severity,
 * filename, labels[{span{line, column}}]}], ...}`. Warnings exit 0 by default.
 */
export const oxlintJsonParser: Parser = {
  name: 'oxlint-json',
  summary: 'oxlint --format json',
  parse(output) {
    const document = extractJson(output.stdout, '{') as
      { diagnostics?: OxlintDiagnostic[] } | undefined;
    if (!document || !Array.isArray(document.diagnostics)) {
      return textFallback(output, 'no oxlint JSON on stdout: read the output');
    }
    const findings: Finding[] = document.diagnostics.map((diagnostic) => {
      const span = diagnostic.labels?.[0]?.span;
      const help = diagnostic.help ? ` (${diagnostic.help})` : '';
      return {
        file: diagnostic.filename ? relativeToRoot(diagnostic.filename, output.root) : null,
        line: positiveInteger(span?.line),
        column: positiveInteger(span?.column),
        endLine: null,
        endColumn: null,
        severity: diagnostic.severity === 'advice' ? 'info' : toSeverity(diagnostic.severity),
        rule: diagnostic.code ?? null,
        message: `${diagnostic.message ?? ''}${help}`,
      };
    });
    return verdict(output.exitCode, findings);
  },
};

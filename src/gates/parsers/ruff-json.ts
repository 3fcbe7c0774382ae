import type { Finding } from '../report/finding.js';
import { extractJson, positiveInteger, relativeToRoot, verdict, type Parser } from './parser.js';
import { textFallback } from './text-lines.js';

interface RuffPosition {
  row?: number;
  column?: number;
}

interface RuffDiagnostic {
  code?: string | null;
  message?: string;
  filename?: string;
  location?: RuffPosition;
  end_location?: RuffPosition;
}

/**
 * `ruff check --output-format json`: an array of `{code, message, filename, location{row,
 * column}, end_location, fix, url}`; code is null for syntax errors. Exit 1 on
 * violations, 2 on an error.
 */
export const ruffJsonParser: Parser = {
  name: 'ruff-json',
  summary: 'ruff check --output-format json',
  parse(output) {
    const document = extractJson(output.stdout, '[');
    if (!Array.isArray(document)) {
      return textFallback(output, 'no ruff JSON on stdout: read the output');
    }
    const findings: Finding[] = (document as RuffDiagnostic[]).map((diagnostic) => ({
      file: diagnostic.filename ? relativeToRoot(diagnostic.filename, output.root) : null,
      line: positiveInteger(diagnostic.location?.row),
      column: positiveInteger(diagnostic.location?.column),
      endLine: positiveInteger(diagnostic.end_location?.row),
      endColumn: positiveInteger(diagnostic.end_location?.column),
      severity: 'error',
      rule: diagnostic.code ?? null,
      message: diagnostic.message ?? '',
    }));
    return verdict(output.exitCode, findings);
  },
};

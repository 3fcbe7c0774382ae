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

interface BiomePosition {
  line?: number;
  column?: number;
}

interface BiomeDiagnostic {
  severity?: string;
  message?: string;
  description?: string;
  category?: string;
  location?: {
    // Biome 2 prints a string; Biome 1 printed `{file: string}`.
    path?: string | { file?: string };
    start?: BiomePosition;
    end?: BiomePosition;
  };
}

function diagnosticPath(location: BiomeDiagnostic['location']): string | null {
  const value = location?.path;
  if (typeof value === 'string') return value;
  if (value && typeof value.file === 'string') return value.file;
  return null;
}

/**
 * `biome check --reporter=json`: `{summary, diagnostics[{severity, message, category,
 * location{path, start, end}}]}`. Formatter diagnostics have line 0 (whole file).
 */
export const biomeJsonParser: Parser = {
  name: 'biome-json',
  summary: 'biome check --reporter=json',
  parse(output) {
    const document = extractJson(output.stdout, '{') as
      { diagnostics?: BiomeDiagnostic[] } | undefined;
    if (!document || !Array.isArray(document.diagnostics)) {
      return textFallback(output, 'no biome JSON on stdout: read the output');
    }
    const findings: Finding[] = document.diagnostics.map((diagnostic) => {
      const file = diagnosticPath(diagnostic.location);
      return {
        file: file ? relativeToRoot(file, output.root) : null,
        line: positiveInteger(diagnostic.location?.start?.line),
        column: positiveInteger(diagnostic.location?.start?.column),
        endLine: positiveInteger(diagnostic.location?.end?.line),
        endColumn: positiveInteger(diagnostic.location?.end?.column),
        severity: toSeverity(diagnostic.severity),
        rule: diagnostic.category ?? null,
        message: diagnostic.message ?? diagnostic.description ?? '',
      };
    });
    return verdict(output.exitCode, findings);
  },
};

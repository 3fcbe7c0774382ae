import fs from 'node:fs';
import path from 'node:path';
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

/** Biome 1's markup: the message as styled pieces (`[{elements, content}]`). */
type BiomeMarkup = { content?: unknown }[];

interface BiomeDiagnostic {
  severity?: string;
  // Biome 2 prints a string; Biome 1 printed markup.
  message?: string | BiomeMarkup;
  description?: string;
  category?: string;
  location?: {
    // Biome 2 prints a string; Biome 1 printed `{file: string}`.
    path?: string | { file?: string };
    start?: BiomePosition;
    end?: BiomePosition;
    // Biome 1: byte offsets into sourceCode instead of start/end.
    span?: [number, number] | null;
    sourceCode?: string | null;
  };
}

function diagnosticPath(location: BiomeDiagnostic['location']): string | null {
  const value = location?.path;
  if (typeof value === 'string') return value;
  if (value && typeof value.file === 'string') return value.file;
  return null;
}

/**
 * A path Biome printed, relative to the root. Biome 2's betas (radashi pins 2.0.0-beta.1)
 * print the project's files with a leading slash (`/src/app.js`): such a path that is not
 * inside the root and names no file as given is the root's (taken as absolute it would
 * match no edited file, and the hooks would never tell of its findings).
 */
export function biomePath(file: string, root: string): string {
  if (
    file.startsWith('/') &&
    !file.startsWith('//') &&
    path.relative(root, file).startsWith('..') &&
    !fs.existsSync(file)
  )
    return relativeToRoot(file.slice(1), root);
  return relativeToRoot(file, root);
}

function diagnosticMessage(diagnostic: BiomeDiagnostic): string {
  const { message } = diagnostic;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) {
    return message
      .map((piece) => (typeof piece?.content === 'string' ? piece.content : ''))
      .join('');
  }
  return diagnostic.description ?? '';
}

/** The 1-based line and column of a UTF-8 byte offset into `source` (Biome 1's spans). */
function positionAt(source: string, offset: number): BiomePosition | undefined {
  const bytes = Buffer.from(source, 'utf8');
  if (!Number.isInteger(offset) || offset < 0 || offset > bytes.length) return undefined;
  const before = bytes.subarray(0, offset).toString('utf8');
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: before.length - lineStart + 1 };
}

/** Start and end as Biome 2 prints them, or computed from Biome 1's span. */
function diagnosticRange(location: BiomeDiagnostic['location']): {
  start?: BiomePosition;
  end?: BiomePosition;
} {
  if (location?.start) return { start: location.start, end: location.end };
  const { span, sourceCode } = location ?? {};
  if (!Array.isArray(span) || typeof sourceCode !== 'string') return {};
  return { start: positionAt(sourceCode, span[0]), end: positionAt(sourceCode, span[1]) };
}

/**
 * `biome check --reporter=json`: `{summary, diagnostics[{severity, message, category,
 * location{path, start, end}}]}`; Biome 1 gives the message as markup and the location
 * as a byte span into sourceCode. Formatter diagnostics have no position (whole file).
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
      const { start, end } = diagnosticRange(diagnostic.location);
      return {
        file: file ? biomePath(file, output.root) : null,
        line: positiveInteger(start?.line),
        column: positiveInteger(start?.column),
        endLine: positiveInteger(end?.line),
        endColumn: positiveInteger(end?.column),
        severity: toSeverity(diagnostic.severity),
        rule: diagnostic.category ?? null,
        message: diagnosticMessage(diagnostic),
      };
    });
    return verdict(output.exitCode, findings);
  },
};

import { dedupeFindings, type Finding } from '../report/finding.js';
import {
  lines,
  positiveInteger,
  relativeToRoot,
  toSeverity,
  verdict,
  type Parser,
} from './parser.js';

interface RustSpan {
  file_name?: string;
  is_primary?: boolean;
  line_start?: number;
  line_end?: number;
  column_start?: number;
  column_end?: number;
}

interface RustDiagnostic {
  message?: string;
  level?: string;
  code?: { code?: string } | null;
  spans?: RustSpan[];
}

// Summaries rustc adds after the real diagnostics; they repeat what was already said.
const SUMMARY =
  /^(aborting due to|\d+ warnings? emitted|could not compile|for more information about)/;

/**
 * `cargo clippy|check --message-format=json`: one JSON object per line on stdout;
 * `compiler-message` lines carry rustc diagnostics. Cargo's own errors (a bad
 * manifest, a failed build script) stay plain text on stderr, so a non-zero exit with
 * no error parsed still fails. Each lint is reported once per target: deduplicated.
 */
export const cargoJsonParser: Parser = {
  name: 'cargo-json',
  summary: 'cargo clippy/check --message-format=json',
  parse(output) {
    const findings: Finding[] = [];
    for (const line of lines(output.stdout)) {
      if (!line.startsWith('{')) continue;
      let record: { reason?: string; message?: RustDiagnostic; manifest_path?: string };
      try {
        record = JSON.parse(line) as typeof record;
      } catch {
        continue;
      }
      if (record.reason !== 'compiler-message' || !record.message) continue;
      const diagnostic = record.message;
      const message = diagnostic.message ?? '';
      if (SUMMARY.test(message)) continue;
      if (diagnostic.level === 'note' || diagnostic.level === 'help') continue;
      const span =
        diagnostic.spans?.find((candidate) => candidate.is_primary) ?? diagnostic.spans?.[0];
      findings.push({
        file: span?.file_name ? relativeToRoot(span.file_name, output.root) : null,
        line: positiveInteger(span?.line_start),
        column: positiveInteger(span?.column_start),
        endLine: positiveInteger(span?.line_end),
        endColumn: positiveInteger(span?.column_end),
        severity: toSeverity(diagnostic.level),
        rule: diagnostic.code?.code ?? null,
        message,
      });
    }
    return verdict(output.exitCode, dedupeFindings(findings));
  },
};

import { dedupeFindings, type Finding } from '../report/finding.js';
import { tryParseJson } from './parse-budget.js';
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
  /** What rustc prints under the caret, e.g. "expected `u32`, found `&str`". */
  label?: string | null;
  suggested_replacement?: string | null;
}

interface RustDiagnostic {
  message?: string;
  level?: string;
  code?: { code?: string } | null;
  spans?: RustSpan[];
  /** The `note:` / `help:` lines under the diagnostic. */
  children?: RustDiagnostic[];
}

/**
 * The diagnostic's message as rustc shows it: the headline with the primary span's
 * label (`mismatched types: expected u32, found &str`), then one line per note or help
 * (with the suggested replacement, when there is one).
 */
function fullMessage(diagnostic: RustDiagnostic, primary: RustSpan | undefined): string {
  const headline = diagnostic.message ?? '';
  const parts = [primary?.label ? `${headline}: ${primary.label}` : headline];
  for (const child of diagnostic.children ?? []) {
    if (!child.message) continue;
    // One replacement reads well inline; several edits (or a multi-line one) do not.
    const replacements = (child.spans ?? []).flatMap((span) =>
      typeof span.suggested_replacement === 'string' ? [span.suggested_replacement] : [],
    );
    const [only] = replacements;
    const suggestion =
      replacements.length === 1 && only !== '' && !only!.includes('\n') ? `: \`${only}\`` : '';
    parts.push(`${child.level ?? 'note'}: ${child.message}${suggestion}`);
  }
  return parts.join('\n');
}

// Summaries rustc adds after the real diagnostics; they repeat what was already said.
const SUMMARY =
  /^(aborting due to|\d+ warnings? emitted|could not compile|for more information about)/i;

/**
 * `cargo clippy|check --message-format=json`: one JSON object per line on stdout;
 * `compiler-message` lines carry rustc diagnostics. Cargo's own errors (a bad
 * manifest, a failed build script) stay plain text on stderr, so a non-zero exit with
 * no error parsed still fails. Each lint is reported once per target: deduplicated.
 * Diagnostics without a span are the run's summaries (`could not compile`, `N warnings
 * emitted`, `For more information...`) and are dropped, unless they are errors that
 * say something else (a linker failure).
 */
export const cargoJsonParser: Parser = {
  name: 'cargo-json',
  summary: 'cargo clippy/check --message-format=json',
  parse(output) {
    const findings: Finding[] = [];
    for (const line of lines(output.stdout, findings)) {
      // Cargo prints one whole object per line: anything else is not worth a JSON.parse.
      if (!line.startsWith('{') || !line.endsWith('}')) continue;
      const record = tryParseJson(line) as
        { reason?: string; message?: RustDiagnostic; manifest_path?: string } | undefined;
      if (!record || typeof record !== 'object') continue;
      if (record.reason !== 'compiler-message' || !record.message) continue;
      const diagnostic = record.message;
      const headline = diagnostic.message ?? '';
      if (SUMMARY.test(headline)) continue;
      const span =
        diagnostic.spans?.find((candidate) => candidate.is_primary) ?? diagnostic.spans?.[0];
      if (!span && diagnostic.level !== 'error') continue;
      findings.push({
        file: span?.file_name ? relativeToRoot(span.file_name, output.root) : null,
        line: positiveInteger(span?.line_start),
        column: positiveInteger(span?.column_start),
        endLine: positiveInteger(span?.line_end),
        endColumn: positiveInteger(span?.column_end),
        severity: toSeverity(diagnostic.level),
        rule: diagnostic.code?.code ?? null,
        message: fullMessage(diagnostic, span),
      });
    }
    return verdict(output.exitCode, dedupeFindings(findings));
  },
};

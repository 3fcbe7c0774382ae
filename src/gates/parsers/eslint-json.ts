import type { Finding } from '../report/finding.js';
import { extractJson, positiveInteger, relativeToRoot, verdict, type Parser } from './parser.js';
import { textFallback } from './text-lines.js';

interface EslintMessage {
  ruleId?: string | null;
  severity?: number;
  message?: string;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
  fatal?: boolean;
}

interface EslintFileResult {
  filePath?: string;
  messages?: EslintMessage[];
}

/**
 * `eslint --format json`: an array of per-file results. Severity 2 is an error, 1 a
 * warning. Exit 0 with warnings only passes (that is the repo's own policy; use
 * --max-warnings 0 to tighten it); exit 2 (config error) prints no JSON and fails.
 */
export const eslintJsonParser: Parser = {
  name: 'eslint-json',
  summary: 'eslint --format json (stdout)',
  parse(output) {
    const document = extractJson(output.stdout, '[');
    if (!Array.isArray(document)) {
      return textFallback(
        output,
        'no eslint JSON on stdout: read the output (a config or crash report is usually on stderr)',
      );
    }
    const findings: Finding[] = [];
    for (const fileResult of document as EslintFileResult[]) {
      for (const message of fileResult.messages ?? []) {
        findings.push({
          file: fileResult.filePath ? relativeToRoot(fileResult.filePath, output.root) : null,
          line: positiveInteger(message.line),
          column: positiveInteger(message.column),
          endLine: positiveInteger(message.endLine),
          endColumn: positiveInteger(message.endColumn),
          severity:
            message.severity === 2 || message.fatal
              ? 'error'
              : message.severity === 1
                ? 'warning'
                : 'info',
          rule: message.ruleId ?? null,
          message: message.message ?? '',
        });
      }
    }
    return verdict(output.exitCode, findings);
  },
};

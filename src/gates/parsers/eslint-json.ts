import type { Finding } from '../report/finding.js';
import {
  extractJson,
  positiveInteger,
  relativeToRoot,
  verdict,
  withCoverage,
  type NotChecked,
  type Parser,
} from './parser.js';
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
 * ESLint's word that it did not lint a file it was given: "File ignored because no
 * matching configuration was supplied", "... of a matching ignore pattern", "... by
 * default because it is located under the node_modules directory", "... because outside
 * of base path": a warning with no rule at 0:0, never a finding about the code.
 */
const IGNORED_FILE = /^File ignored\b/;

function isEslintIgnoredNotice(message: {
  rule: string | null;
  line: number | null;
  message: string;
}): boolean {
  return message.rule === null && message.line === null && IGNORED_FILE.test(message.message);
}

/** The notice's first sentence, without the advice that follows it. */
function ignoredReason(message: string): string {
  const end = message.indexOf('. ');
  return (end === -1 ? message : message.slice(0, end)).replace(/\.$/, '');
}

/**
 * The findings without ESLint's "File ignored" notices, and the files those name: a
 * file ESLint ignored was not checked, which is no warning about it.
 */
export function splitIgnoredFiles(findings: readonly Finding[]): {
  findings: Finding[];
  notChecked: NotChecked[];
} {
  const notChecked: NotChecked[] = [];
  const kept: Finding[] = [];
  for (const finding of findings) {
    if (finding.file !== null && isEslintIgnoredNotice(finding))
      notChecked.push({ path: finding.file, reason: `eslint: ${ignoredReason(finding.message)}` });
    else kept.push(finding);
  }
  return { findings: kept, notChecked };
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
    const { findings: kept, notChecked } = splitIgnoredFiles(findings);
    // The JSON lists every file ESLint was given, clean ones too: when it lists none, or
    // only files it ignored, nothing was linted.
    const ignored = new Set(notChecked.map((entry) => entry.path));
    const lintedAny = (document as EslintFileResult[]).some(
      (fileResult) =>
        !fileResult.filePath || !ignored.has(relativeToRoot(fileResult.filePath, output.root)),
    );
    const whole = lintedAny
      ? undefined
      : notChecked.length === 0
        ? 'eslint linted no file (its JSON report lists none)'
        : `eslint linted none of the ${notChecked.length} file${notChecked.length === 1 ? '' : 's'} it was given (${notChecked[0]!.reason.replace(/^eslint: /, '')})`;
    return withCoverage(verdict(output.exitCode, kept), output, notChecked, whole);
  },
};

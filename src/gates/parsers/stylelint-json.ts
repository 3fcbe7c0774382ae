import { createFinding, type Finding } from '../report/finding.js';
import {
  jsonArrayOnEitherStream,
  positiveInteger,
  relativeToRoot,
  verdict,
  withCoverage,
  type NotChecked,
  type Parser,
} from './parser.js';
import { textFallback } from './text-lines.js';

interface StylelintWarning {
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
  rule?: string;
  severity?: string;
  text?: string;
}

interface StylelintResult {
  source?: string;
  ignored?: boolean;
  warnings?: StylelintWarning[];
  invalidOptionWarnings?: { text?: string }[];
}

/** stylelint's refusal when its globs matched nothing: it checked no file. */
const NO_FILES = /No files matching the pattern "([^"]*)" were found/;
/** Its refusal when every file it was given is ignored (AllFilesIgnoredError). */
const ALL_IGNORED = /All input files were ignored because of the ignore pattern/;

/** The message without the ` (rule-name)` stylelint appends to it. */
function withoutRuleSuffix(text: string, rule: string | undefined): string {
  const suffix = rule ? ` (${rule})` : '';
  return suffix && text.endsWith(suffix) ? text.slice(0, -suffix.length) : text;
}

/**
 * `stylelint --formatter json`: an array of per-file results `{source (absolute),
 * ignored?, warnings[{line, column, endLine, endColumn, rule, severity, text}],
 * invalidOptionWarnings[{text}]}`. stylelint 16 and later print it on stderr, older ones
 * on stdout; exit 2 when a problem is an error. A syntax error is a warning whose rule is
 * `CssSyntaxError`. A glob that matched no file prints NoFilesFoundError instead, and
 * paths that are all ignored AllFilesIgnoredError: nothing was checked.
 */
export const stylelintJsonParser: Parser = {
  name: 'stylelint-json',
  summary: 'stylelint --formatter json (stderr from stylelint 16 on, stdout before)',
  parse(output) {
    const document = jsonArrayOnEitherStream(output) as StylelintResult[] | undefined;
    if (!document) {
      const noFiles = NO_FILES.exec(`${output.stdout}\n${output.stderr}`);
      if (noFiles)
        return withCoverage(
          { findings: [], passed: false },
          output,
          [],
          `stylelint found no file matching "${noFiles[1]}"`,
        );
      if (ALL_IGNORED.test(`${output.stdout}\n${output.stderr}`))
        return withCoverage(
          { findings: [], passed: false },
          output,
          [],
          'stylelint ignored every file it was given (its ignore files or --ignore-pattern)',
        );
      return textFallback(
        output,
        'no stylelint JSON on stdout or stderr: read the output (a config error or crash report)',
      );
    }
    const findings: Finding[] = [];
    const notChecked: NotChecked[] = [];
    // Each file's result repeats the config's invalid options: one finding each.
    const invalidOptions = new Set<string>();
    for (const result of document) {
      const file = result.source ? relativeToRoot(result.source, output.root) : null;
      if (result.ignored && file !== null) {
        notChecked.push({
          path: file,
          reason: 'stylelint: ignored by its ignore files or options',
        });
        continue;
      }
      for (const option of result.invalidOptionWarnings ?? []) {
        if (invalidOptions.has(option.text ?? '')) continue;
        invalidOptions.add(option.text ?? '');
        findings.push(createFinding({ rule: 'invalid-option', message: option.text ?? '' }));
      }
      for (const warning of result.warnings ?? [])
        findings.push({
          file,
          line: positiveInteger(warning.line),
          column: positiveInteger(warning.column),
          endLine: positiveInteger(warning.endLine),
          endColumn: positiveInteger(warning.endColumn),
          severity: warning.severity === 'warning' ? 'warning' : 'error',
          rule: warning.rule ?? null,
          message: withoutRuleSuffix(warning.text ?? '', warning.rule),
        });
    }
    // Every file of the run is listed, clean ones too: none (or only ignored ones) is nothing checked.
    const checkedAny = document.some((result) => !result.ignored);
    const whole = checkedAny
      ? undefined
      : `stylelint checked no file (${notChecked.length === 0 ? 'its JSON report lists none' : 'every file it was given is ignored'})`;
    return withCoverage(verdict(output.exitCode, findings), output, notChecked, whole);
  },
};

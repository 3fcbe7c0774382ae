import { createFinding, type Finding } from '../report/finding.js';
import { extractJson, positiveInteger, relativeToRoot, verdict, type Parser } from './parser.js';
import { matchedLines, textFallback } from './text-lines.js';

/** One error of `-format '{{json .}}'` (actionlint's Error struct). */
interface ActionlintError {
  message?: string;
  filepath?: string;
  line?: number;
  column?: number;
  end_column?: number;
  kind?: string;
}

/**
 * `actionlint -format '{{json .}}'`: an array of errors (file, line, column, end column,
 * the check's kind as the rule), `null` or nothing when there is none. actionlint exits 1
 * when it found errors, 2 on a bad option, 3 when it could not run; every error fails.
 */
export const actionlintJsonParser: Parser = {
  name: 'actionlint-json',
  summary: "actionlint -format '{{json .}}' (kind per finding)",
  parse(output) {
    const text = output.stdout.trim();
    if (text === '' || text === 'null') return verdict(output.exitCode, []);
    const document = extractJson(output.stdout, '[');
    if (!Array.isArray(document))
      return textFallback(output, 'no actionlint JSON on stdout: read the output');
    const findings = (document as ActionlintError[]).map((error) =>
      createFinding({
        file: error.filepath ? relativeToRoot(error.filepath, output.root) : null,
        line: positiveInteger(error.line),
        column: positiveInteger(error.column),
        endLine: positiveInteger(error.line),
        endColumn: positiveInteger(error.end_column),
        rule: error.kind ?? 'actionlint',
        message: error.message ?? '',
      }),
    );
    return verdict(output.exitCode, findings);
  },
};

// `test.yaml:3:5: unexpected key "branch" for "push" section... [syntax-check]`, then the
// snippet lines (`  |`, `3 |     branch: main`) it prints under each.
const ERROR_LINE =
  /^(?<file>[^\s:|][^:]*?):(?<line>\d+):(?<col>\d+): (?<msg>.*) \[(?<rule>[a-z0-9-]+)\]$/s;

/** actionlint's default report (and `-oneline`): a located line per error, its kind in brackets. */
export const actionlintParser: Parser = {
  name: 'actionlint',
  summary: 'actionlint default or -oneline report (path:line:col: message [kind])',
  parse(output) {
    const findings: Finding[] = [];
    matchedLines(output.stdout, ERROR_LINE, 'actionlint', output.root, findings);
    return verdict(output.exitCode, findings);
  },
};

import { createFinding, type Finding } from '../report/finding.js';
import {
  lines,
  positiveInteger,
  relativeToRoot,
  toSeverity,
  verdict,
  withCoverage,
  type Parser,
} from './parser.js';
import { tryParseJson } from './parse-budget.js';
import { textFallback } from './text-lines.js';

interface GolangciIssue {
  FromLinter?: string;
  Text?: string;
  Severity?: string;
  Pos?: { Filename?: string; Line?: number; Column?: number };
  LineRange?: { From?: number; To?: number };
}

interface GolangciDocument {
  Issues?: GolangciIssue[] | null;
  Report?: { Error?: string; Warnings?: { Tag?: string; Text?: string }[] };
}

/** golangci-lint's exit code when it found no Go file to lint (exitcodes.NoGoFiles). */
const NO_GO_FILES = 5;

/**
 * golangci-lint's JSON (v1 `--out-format json`, v2 `--output.json.path stdout`): one line
 * `{"Issues":[{FromLinter, Text, Severity, Pos{Filename, Line, Column}, LineRange}],
 * "Report":{Warnings, Linters, Error}}`. v2 may print its "N issues:" statistics after it
 * on stdout, so the document is the line that starts with `{"Issues"`. An empty severity
 * (no `severity` config) is an error, as golangci-lint fails on it; `Report.Error` (a
 * package that did not load) is a project finding. Exit 1 on issues, 3 on a failure, 5
 * when there was no Go file (checked nothing).
 */
export const golangciLintJsonParser: Parser = {
  name: 'golangci-json',
  summary: 'golangci-lint run (v1 --out-format json, v2 --output.json.path stdout)',
  parse(output) {
    let document: GolangciDocument | undefined;
    for (const line of lines(output.stdout)) {
      if (!line.startsWith('{"Issues"')) continue;
      document = tryParseJson(line) as GolangciDocument | undefined;
      if (document) break;
    }
    const nothing =
      output.exitCode === NO_GO_FILES ? 'golangci-lint found no Go file to lint' : undefined;
    if (!document) {
      const fallback = textFallback(output, 'no golangci-lint JSON on stdout: read the output');
      return withCoverage(fallback, output, [], nothing);
    }
    const findings: Finding[] = (document.Issues ?? []).map((issue) =>
      createFinding({
        file: issue.Pos?.Filename ? relativeToRoot(issue.Pos.Filename, output.root) : null,
        line: positiveInteger(issue.Pos?.Line),
        column: positiveInteger(issue.Pos?.Column),
        endLine:
          issue.LineRange && issue.LineRange.To !== issue.LineRange.From
            ? positiveInteger(issue.LineRange.To)
            : null,
        severity: issue.Severity ? toSeverity(issue.Severity) : 'error',
        rule: issue.FromLinter ?? null,
        message: issue.Text ?? '',
      }),
    );
    const error = document.Report?.Error;
    if (error) findings.push(createFinding({ rule: 'golangci-lint', message: error }));
    return withCoverage(verdict(output.exitCode, findings), output, [], nothing);
  },
};

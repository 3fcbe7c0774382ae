import { createFinding, type Finding, type Severity } from '../report/finding.js';
import {
  extractJson,
  lines,
  positiveInteger,
  relativeToRoot,
  verdict,
  type Parser,
} from './parser.js';
import { textFallback } from './text-lines.js';

interface ShellcheckComment {
  file?: string;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
  level?: string;
  code?: number;
  message?: string;
}

const LEVELS: Record<string, Severity> = {
  error: 'error',
  warning: 'warning',
  info: 'info',
  style: 'info',
};

// `nope.sh: nope.sh: openBinaryFile: does not exist (No such file or directory)`: a file it
// could not read, on stderr (exit 2).
const UNREADABLE = /^(?<file>[^:]+): \1: (?<msg>\S.*)$/s;

/**
 * `shellcheck -f json1` (`{"comments": [...]}`) or `-f json` (the bare array): file,
 * line, column, end, level (error, warning, info, style) and code (SC<code>). shellcheck
 * exits 1 when any comment is at or above its `--severity` (style by default), 2 when a
 * file could not be read (said on stderr, with the file named twice).
 */
export const shellcheckJsonParser: Parser = {
  name: 'shellcheck-json',
  summary: 'shellcheck -f json1 (or -f json)',
  parse(output) {
    const document = extractJson(
      output.stdout,
      output.stdout.trimStart().startsWith('[') ? '[' : '{',
    );
    const comments = Array.isArray(document)
      ? (document as ShellcheckComment[])
      : (document as { comments?: ShellcheckComment[] } | undefined)?.comments;
    if (!Array.isArray(comments))
      return textFallback(output, 'no shellcheck JSON on stdout: read the output');
    const findings: Finding[] = comments.map((comment) =>
      createFinding({
        file: comment.file ? relativeToRoot(comment.file, output.root) : null,
        line: positiveInteger(comment.line),
        column: positiveInteger(comment.column),
        endLine: positiveInteger(comment.endLine),
        endColumn: positiveInteger(comment.endColumn),
        severity: LEVELS[comment.level ?? ''] ?? 'error',
        rule: typeof comment.code === 'number' ? `SC${comment.code}` : null,
        message: comment.message ?? '',
      }),
    );
    for (const raw of lines(output.stderr, findings)) {
      const unreadable = UNREADABLE.exec(raw.trimEnd());
      if (unreadable?.groups)
        findings.push(
          createFinding({
            file: relativeToRoot(unreadable.groups.file!, output.root),
            rule: 'shellcheck',
            message: unreadable.groups.msg!,
          }),
        );
    }
    return verdict(output.exitCode, findings);
  },
};

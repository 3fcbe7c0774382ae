import { createFinding, type Finding } from '../report/finding.js';
import { lines, relativeToRoot, verdict, type Parser } from './parser.js';
import { parseColonLine } from './text-lines.js';

// ruff before the diagnostic renderer: one `Would reformat: <path>` line per file.
const WOULD_REFORMAT = /^Would reformat: (?<file>.+)$/s;
// ruff's full format (its default since ruff 0.9ish): `<id>: <message>` then ` --> path:line:col`.
const DIAGNOSTIC_HEADING = /^(?<id>[a-z][a-z0-9-]*): (?<msg>\S.*)$/s;
const ARROW = /^\s*--> (?<file>.+?):(?<line>\d+):(?<col>\d+)$/s;
// Older ruff: `error: Failed to format app/bad.py: source contains syntax errors: ...`.
const FAILED =
  /^error: Failed to (?:parse|format) (?<file>[^:]+?)(?::(?<line>\d+):(?<col>\d+))?: (?<msg>\S.*)$/s;
// `2 files would be reformatted, 3 files already formatted` / `1 file would be reformatted`.
const SUMMARY = /^(?<count>\d+) files? would be reformatted/;

const NOT_FORMATTED = 'not formatted (ruff format fixes it)';

function unformatted(file: string, line: number | null, column: number | null): Finding {
  return createFinding({ file, line, column, rule: 'ruff-format', message: NOT_FORMATTED });
}

/**
 * `ruff format --check`, in every form ruff has printed: `Would reformat: <path>` (older
 * releases); the full diagnostic `unformatted: File would be reformatted` with a
 * ` --> path:line:col` line at the first changed line (current ruff, default output);
 * and `--output-format concise` (`path:line:col: unformatted: ...`). Syntax errors come
 * as `invalid-syntax` diagnostics (or `error: Failed to format ...` lines). Exit 1 when
 * a file would change, 2 on an error. If the summary counts files to reformat that no
 * line named, one project-wide finding says so: a failing check never lists nothing.
 */
export const ruffFormatParser: Parser = {
  name: 'ruff-format',
  summary: 'ruff format --check (full, concise or older output)',
  parse(output) {
    const findings: Finding[] = [];
    let heading: { id: string; message: string } | null = null;
    let wouldReformat = 0;
    for (const raw of lines(`${output.stdout}\n${output.stderr}`, findings)) {
      const line = raw.trimEnd();
      if (line === '') {
        heading = null;
        continue;
      }
      const arrow = heading && line.includes('-->') ? ARROW.exec(line) : null;
      if (heading && arrow?.groups) {
        const file = relativeToRoot(arrow.groups.file!, output.root);
        const position = [Number(arrow.groups.line), Number(arrow.groups.col)] as const;
        findings.push(
          heading.id === 'unformatted'
            ? unformatted(file, ...position)
            : createFinding({
                file,
                line: position[0],
                column: position[1],
                rule: heading.id,
                message: heading.message,
              }),
        );
        heading = null;
        continue;
      }
      heading = null;
      const legacy = WOULD_REFORMAT.exec(line);
      if (legacy?.groups) {
        findings.push(unformatted(relativeToRoot(legacy.groups.file!, output.root), null, null));
        continue;
      }
      const summary = SUMMARY.exec(line);
      if (summary?.groups) {
        wouldReformat = Number(summary.groups.count);
        continue;
      }
      const failed = line.startsWith('error: Failed to ') ? FAILED.exec(line) : null;
      if (failed?.groups) {
        findings.push(
          createFinding({
            file: relativeToRoot(failed.groups.file!, output.root),
            line: failed.groups.line ? Number(failed.groups.line) : null,
            column: failed.groups.col ? Number(failed.groups.col) : null,
            rule: 'ruff-format',
            message: failed.groups.msg!,
          }),
        );
        continue;
      }
      const located = parseColonLine(line, output.root);
      if (located) {
        // Concise: the message is `unformatted: ...` or `invalid-syntax: ...`.
        const concise = DIAGNOSTIC_HEADING.exec(located.message);
        if (concise?.groups?.id === 'unformatted') {
          findings.push(unformatted(located.file!, located.line, located.column));
        } else if (concise?.groups && !located.rule) {
          findings.push({ ...located, rule: concise.groups.id!, message: concise.groups.msg! });
        } else findings.push(located);
        continue;
      }
      const diagnostic = DIAGNOSTIC_HEADING.exec(line);
      if (diagnostic?.groups)
        heading = { id: diagnostic.groups.id!, message: diagnostic.groups.msg! };
    }
    const named = new Set(
      findings.filter((finding) => finding.rule === 'ruff-format').map((finding) => finding.file),
    );
    if (wouldReformat > named.size) {
      const missing = wouldReformat - named.size;
      findings.push(
        createFinding({
          rule: 'ruff-format',
          message: `ruff counted ${missing} more file${missing === 1 ? '' : 's'} to reformat than it named (run \`ruff format --check\` to see them)`,
        }),
      );
    }
    return verdict(output.exitCode, findings);
  },
};

import { createFinding, type Finding } from '../report/finding.js';
import { lines, relativeToRoot, verdict, type Parser } from './parser.js';

// `-format gcc`: `src/a.js:4:0: error: Wrong indentation type(spaces instead of tabs)`;
// line 0 is a file-level error, and the column is always 0.
const GCC = /^(?<file>[^\s:][^:]*?):(?<line>\d+):\d+: error: (?<msg>\S.*)$/s;
// The default format: the file on a line of its own (`src/a.js:`), then its errors, each
// indented: ` 4: message`, ` 1-2: message` (consecutive lines), ` message` (the file).
const ERROR = /^ (?:(?<line>\d+)(?:-(?<end>\d+))?: )?(?<msg>\S.*)$/s;
const COUNT = /^\d+ errors? found$/;

/**
 * editorconfig-checker's reports: `-format gcc` (the marker gate's) and the default one a
 * script's bare `editorconfig-checker` prints. Every error fails (it exits 1); the closing
 * `N errors found` is no finding.
 */
export const editorconfigCheckerParser: Parser = {
  name: 'editorconfig-checker',
  summary: 'editorconfig-checker (-format gcc or its default report)',
  parse(output) {
    const findings: Finding[] = [];
    let file: string | null = null;
    for (const raw of lines(output.stdout, findings)) {
      const line = raw.trimEnd();
      if (line === '' || COUNT.test(line)) continue;
      const gcc = GCC.exec(line);
      if (gcc?.groups) {
        const at = Number(gcc.groups.line);
        findings.push(
          createFinding({
            file: relativeToRoot(gcc.groups.file!, output.root),
            line: at > 0 ? at : null,
            rule: 'editorconfig',
            message: gcc.groups.msg!,
          }),
        );
        continue;
      }
      const error = file === null ? null : ERROR.exec(line);
      if (error?.groups) {
        findings.push(
          createFinding({
            file,
            line: error.groups.line ? Number(error.groups.line) : null,
            endLine: error.groups.end ? Number(error.groups.end) : null,
            rule: 'editorconfig',
            message: error.groups.msg!,
          }),
        );
        continue;
      }
      if (!line.startsWith(' ') && line.endsWith(':'))
        file = relativeToRoot(line.slice(0, -1), output.root);
    }
    return verdict(output.exitCode, findings);
  },
};

import { createFinding, type Finding } from '../report/finding.js';
import { lines, relativeToRoot, verdict, type Parser } from './parser.js';
import { parseColonLine } from './text-lines.js';

const WOULD_REFORMAT = /^Would reformat: (?<file>.+)$/;

/** `ruff format --check`: `Would reformat: <path>` per file; exit 1 when one would change. */
export const ruffFormatParser: Parser = {
  name: 'ruff-format',
  summary: 'ruff format --check',
  parse(output) {
    const findings: Finding[] = [];
    for (const line of lines(`${output.stdout}\n${output.stderr}`)) {
      const match = WOULD_REFORMAT.exec(line);
      if (match?.groups) {
        findings.push(
          createFinding({
            file: relativeToRoot(match.groups.file!, output.root),
            rule: 'ruff-format',
            message: 'not formatted (ruff format fixes it)',
          }),
        );
        continue;
      }
      const located = parseColonLine(line, output.root);
      if (located) findings.push(located);
    }
    return verdict(output.exitCode, findings);
  },
};

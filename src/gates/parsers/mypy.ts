import { createFinding, type Finding } from '../report/finding.js';
import { lines, relativeToRoot, verdict, type Parser } from './parser.js';

// mypy --show-column-numbers --no-error-summary --no-pretty:
//   pkg/mod.py:5:17: error: Argument 2 to "add" has incompatible type "str"  [arg-type]
//   pkg/mod.py:7:13: note: Revealed type is "int"
// A note on the line of the error before it explains that error; any other note is info.

const LINE = /^((?:[A-Za-z]:)?[^:]*):(\d{1,9}):(?:(\d{1,9}):)? (error|warning|note): (.*)$/;
const CODE = /\s\s\[([\w-]{1,64})\]$/;

export function parseMypyText(text: string, root: string): Finding[] {
  const findings: Finding[] = [];
  for (const line of lines(text, findings)) {
    const match = LINE.exec(line);
    if (!match) continue;
    const file = relativeToRoot(match[1]!, root);
    const lineNumber = Number(match[2]);
    const kind = match[4]!;
    let message = match[5]!;
    const code = CODE.exec(message);
    if (code) message = message.slice(0, code.index);
    const previous = findings[findings.length - 1];
    if (kind === 'note' && previous?.file === file && previous.line === lineNumber) {
      previous.message += `\n${message}`;
      continue;
    }
    findings.push(
      createFinding({
        file,
        line: lineNumber,
        column: match[3] ? Number(match[3]) : null,
        severity: kind === 'note' ? 'info' : kind === 'warning' ? 'warning' : 'error',
        rule: code ? code[1]! : null,
        message,
      }),
    );
  }
  return findings;
}

export const mypyParser: Parser = {
  name: 'mypy',
  summary: 'mypy --show-column-numbers --no-error-summary --no-pretty',
  parse(output) {
    return verdict(
      output.exitCode,
      parseMypyText(`${output.stdout}\n${output.stderr}`, output.root),
    );
  },
};

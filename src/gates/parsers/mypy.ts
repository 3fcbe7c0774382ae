import { createFinding, type Finding } from '../report/finding.js';
import { lines, relativeToRoot, verdict, type Parser } from './parser.js';

// mypy --show-column-numbers --no-error-summary --no-pretty:
//   pkg/mod.py:5:17: error: Argument 2 to "add" has incompatible type "str"  [arg-type]
//   pkg/mod.py:7:13: note: Revealed type is "int"
// A note on the line of the error before it explains that error; any other note is info.
// `show_error_end = True` in the project's config (no flag turns it off) adds the end:
//   pkg/mod.py:8:8:8:10: error: Argument 2 to "add" ...  [arg-type]
// A problem of a whole file has no line, its notes follow it (mypy 1.x and 2.x):
//   mod.py: error: Duplicate module named "pkg.mod" (also at "../pkg/mod.py")
//   mod.py: note: See https://mypy.readthedocs.io/...
//   other.py: error: Cannot read file: No such file or directory
// and one of mypy itself names no file: `mypy: error: ...`.

const LINE =
  /^((?:[A-Za-z]:)?[^:]*):(\d{1,9}):(?:(\d{1,9}):)?(?:(\d{1,9}):(\d{1,9}):)? (error|warning|note): (.*)$/;
const WHOLE_FILE =
  /^((?:[A-Za-z]:)?[^:]*\.(?:pyi?|ini|cfg|toml)|mypy): (error|warning|note): (.*)$/;
const CODE = /\s\s\[([\w-]{1,64})\]$/;

interface MypyLine {
  file: string | null;
  line: number | null;
  column: number | null;
  endLine: number | null;
  endColumn: number | null;
  kind: string;
  message: string;
}

function readLine(line: string, root: string): MypyLine | undefined {
  const located = LINE.exec(line);
  if (located) {
    const number = (index: number) => (located[index] ? Number(located[index]) : null);
    return {
      file: relativeToRoot(located[1]!, root),
      line: number(2),
      column: number(3),
      endLine: number(4),
      endColumn: number(5),
      kind: located[6]!,
      message: located[7]!,
    };
  }
  const whole = WHOLE_FILE.exec(line);
  if (!whole) return undefined;
  return {
    file: whole[1] === 'mypy' ? null : relativeToRoot(whole[1]!, root),
    line: null,
    column: null,
    endLine: null,
    endColumn: null,
    kind: whole[2]!,
    message: whole[3]!,
  };
}

export function parseMypyText(text: string, root: string): Finding[] {
  const findings: Finding[] = [];
  for (const raw of lines(text, findings)) {
    const read = readLine(raw, root);
    if (!read) continue;
    let { message } = read;
    const code = CODE.exec(message);
    if (code) message = message.slice(0, code.index);
    const previous = findings[findings.length - 1];
    if (read.kind === 'note' && previous?.file === read.file && previous.line === read.line) {
      previous.message += `\n${message}`;
      continue;
    }
    findings.push(
      createFinding({
        file: read.file,
        line: read.line,
        column: read.column,
        endLine: read.endLine,
        // mypy's end column is inclusive (`8:8:8:10` spans `"2"`); a finding's is exclusive.
        endColumn: read.endColumn === null ? null : read.endColumn + 1,
        severity: read.kind === 'note' ? 'info' : read.kind === 'warning' ? 'warning' : 'error',
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

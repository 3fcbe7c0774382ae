import { createFinding, type Finding } from '../report/finding.js';
import { lines, relativeToRoot, verdict, type Parser } from './parser.js';

// `vitest --typecheck` / `vitest typecheck` report each failure as an error line and the
// place it points at:
//   TypeCheckError: Type 'string' is not assignable to type 'number'.
//    ❯ src/math.test-d.ts:4:9                                  (`>` without unicode)
// Runtime failures of the same run (`AssertionError: …`) have the same shape and count too.

const ERROR_LINE = /^(\w{1,64}Error): (.*)$/;
const POINTER = /^\s+(?:❯|>)\s(.*):(\d{1,9}):(\d{1,9})$/;

export function parseVitestText(text: string, root: string): Finding[] {
  const findings: Finding[] = [];
  let pending: { rule: string; message: string } | undefined;
  for (const line of lines(text, findings)) {
    const error = ERROR_LINE.exec(line);
    if (error) {
      pending = { rule: error[1]!, message: error[2]! };
      continue;
    }
    const pointer = pending ? POINTER.exec(line) : null;
    if (pointer && pending) {
      findings.push(
        createFinding({
          file: relativeToRoot(pointer[1]!, root),
          line: Number(pointer[2]),
          column: Number(pointer[3]),
          rule: pending.rule,
          message: pending.message,
        }),
      );
      pending = undefined;
    }
  }
  return findings;
}

export const vitestTypecheckParser: Parser = {
  name: 'vitest-typecheck',
  summary: 'vitest --typecheck default output (TypeCheckError + location)',
  parse(output) {
    return verdict(
      output.exitCode,
      parseVitestText(`${output.stdout}\n${output.stderr}`, output.root),
    );
  },
};

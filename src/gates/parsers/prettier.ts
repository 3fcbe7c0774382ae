import { createFinding, type Finding } from '../report/finding.js';
import { lines, relativeToRoot, verdict, type Parser } from './parser.js';
import { parsePrettierLine } from './text-lines.js';

const NOT_A_PATH = /^(Checking formatting|All matched files|Code style issues|Error occurred|\[)/;

/**
 * `prettier --check` ([warn] lines on stderr) and `--list-different` (bare paths on
 * stdout). `[error]` lines are syntax errors with a position. Exit 1: unformatted
 * files; exit 2: prettier could not parse or run.
 */
export const prettierParser: Parser = {
  name: 'prettier',
  summary: 'prettier --check or --list-different',
  parse(output) {
    const findings: Finding[] = [];
    for (const line of lines(`${output.stdout}\n${output.stderr}`, findings)) {
      if (line === '') continue;
      const parsed = parsePrettierLine(line, output.root);
      if (parsed) findings.push(parsed);
      else if (line.trim() !== '' && !NOT_A_PATH.test(line) && !/\s/.test(line.trim())) {
        findings.push(
          createFinding({
            file: relativeToRoot(line.trim(), output.root),
            rule: 'prettier',
            message: 'not formatted (prettier --write fixes it)',
          }),
        );
      }
    }
    return verdict(output.exitCode, findings);
  },
};

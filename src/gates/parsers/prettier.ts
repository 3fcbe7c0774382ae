import { createFinding, type Finding } from '../report/finding.js';
import {
  lines,
  relativeToRoot,
  verdict,
  withCoverage,
  type NotChecked,
  type Parser,
} from './parser.js';
import { parsePrettierLine } from './text-lines.js';

/** Prettier 3 on a path it was given and checked nothing in (exit 2, nothing else said). */
const UNMATCHED =
  /^\[error\] (?<why>No files matching the pattern were found|No supported files were found in the directory|Explicitly specified file was ignored due to negative glob patterns): "(?<path>.*)"\.?$/s;
/** Prettier 3 when no pattern matched any file. */
const NO_MATCHING_FILES = /^\[error\] No matching files\./;

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
    const notChecked: NotChecked[] = [];
    let matchedNothing: string | undefined;
    for (const line of lines(`${output.stdout}\n${output.stderr}`, findings)) {
      if (line === '') continue;
      const unmatched = UNMATCHED.exec(line);
      if (unmatched?.groups) {
        const file = relativeToRoot(unmatched.groups.path!, output.root);
        notChecked.push({ path: file, reason: `prettier: ${unmatched.groups.why}` });
        continue;
      }
      if (NO_MATCHING_FILES.test(line)) {
        matchedNothing = `prettier matched no file (${line.slice('[error] '.length)})`;
        continue;
      }
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
    return withCoverage(verdict(output.exitCode, findings), output, notChecked, matchedNothing);
  },
};

import { verdict, type Parser } from './parser.js';
import { formatterFindings } from './unified-diff.js';

// `ERROR: /abs/app.py Imports are incorrectly sorted and/or formatted.` (isort 5).
const INCORRECT = /^ERROR: (?<file>.+?) Imports are incorrectly sorted(?: and\/or formatted)?\.?$/s;
const NOT_SORTED = 'imports not sorted (isort fixes it)';

/**
 * `isort --check-only --diff`: the diff on stdout (`--- path:before` / `+++ path:after`),
 * one finding per hunk at its first changed line; `ERROR: <path> Imports are incorrectly
 * sorted and/or formatted.` on stderr per file (a file with no hunk shown is one
 * whole-file finding). Exit 1 when any file would change.
 */
export const isortParser: Parser = {
  name: 'isort',
  summary: 'isort --check-only [--diff] (diff hunks, ERROR lines)',
  parse(output) {
    const findings = formatterFindings(
      output,
      `${output.stderr}\n${output.stdout}`,
      'isort',
      NOT_SORTED,
      (line) => (line.startsWith('ERROR: ') ? INCORRECT.exec(line)?.groups?.file : undefined),
    );
    return verdict(output.exitCode, findings);
  },
};

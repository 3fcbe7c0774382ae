import { lines, verdict, withCoverage, type GateOutput, type Parser } from './parser.js';
import { formatterFindings } from './unified-diff.js';

// `ERROR: /abs/app.py Imports are incorrectly sorted and/or formatted.` (isort 5).
const INCORRECT = /^ERROR: (?<file>.+?) Imports are incorrectly sorted(?: and\/or formatted)?\.?$/s;
const NOT_SORTED = 'imports not sorted (isort fixes it)';
// On stdout when its config skipped files (`skip`, `extend_skip`, with --filter-files also
// named ones): it names none of them.
const SKIPPED = /^Skipped (?<count>\d+) files?$/;

/**
 * Why isort checked none of the call's paths: every one names a Python file and it skipped
 * as many files as it was given (the config skips them all). A directory may hold skipped
 * and checked files alike, so a call naming one is never judged so.
 */
function skippedAll(output: GateOutput): string | undefined {
  const given = output.paths ?? [];
  if (given.length === 0 || !given.every((file) => /\.pyi?$/i.test(file))) return undefined;
  for (const line of lines(output.stdout)) {
    const count = SKIPPED.exec(line.trim())?.groups?.count;
    if (count !== undefined && Number(count) >= given.length)
      return `isort skipped all ${given.length} given file${given.length === 1 ? '' : 's'} (its config's skip settings)`;
  }
  return undefined;
}

/**
 * `isort --check-only --diff`: the diff on stdout (`--- path:before` / `+++ path:after`),
 * one finding per hunk at its first changed line; `ERROR: <path> Imports are incorrectly
 * sorted and/or formatted.` on stderr per file (a file with no hunk shown is one
 * whole-file finding). Exit 1 when any file would change. Given only files its config
 * skips, it checks nothing and says only `Skipped N files`: nothing checked, no pass.
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
    return withCoverage(verdict(output.exitCode, findings), output, [], skippedAll(output));
  },
};

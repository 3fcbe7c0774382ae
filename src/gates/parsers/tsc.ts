import { verdict, withCoverage, type Parser } from './parser.js';
import { parseTscText } from './text-lines.js';

/** tsc found no input file in its project: it checked nothing. */
const NO_INPUTS = 'TS18003';

/**
 * `tsc --pretty false`: `file(line,col): error TSnnnn: message` on stdout; exit 1 or 2 on
 * errors. TS18003 alone in a single-project run means nothing was checked; in build mode
 * (`-b`) it may name one referenced project while the others were checked, so it fails.
 */
export const tscParser: Parser = {
  name: 'tsc',
  summary: 'tsc --pretty false diagnostics',
  parse(output) {
    const findings = parseTscText(`${output.stdout}\n${output.stderr}`, output.root);
    const buildMode = output.argv?.some((word) => word === '-b' || word === '--build') ?? true;
    const noInputs =
      !buildMode && findings.length > 0 && findings.every((finding) => finding.rule === NO_INPUTS);
    if (!noInputs) return verdict(output.exitCode, findings);
    const why = `tsc found no input file (${findings[0]!.rule}: ${findings[0]!.message.replace(/\.$/, '')})`;
    return withCoverage({ findings: [], passed: false }, output, [], why);
  },
};

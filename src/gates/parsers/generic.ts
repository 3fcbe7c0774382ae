import { dedupeFindings } from '../report/finding.js';
import { verdict, type Parser } from './parser.js';
import { parseTextFindings } from './text-lines.js';

/**
 * The fallback for any command: `file:line[:col]: [severity:] message [rule]` lines,
 * tsc lines, eslint stylish blocks and prettier's [warn] lines, on either stream. A
 * located line that names no severity counts as an error, so a script that prints
 * problems and exits 0 still fails.
 */
export const genericParser: Parser = {
  name: 'generic',
  summary: 'file:line:col: message lines (any tool)',
  parse(output) {
    const findings = parseTextFindings(`${output.stdout}\n${output.stderr}`, output.root);
    return verdict(output.exitCode, dedupeFindings(findings));
  },
};

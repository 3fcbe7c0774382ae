import { createFinding, type Finding } from '../report/finding.js';
import { lines, relativeToRoot, verdict, withCoverage, type Parser } from './parser.js';

// cspell lint's default issue lines, on stdout:
//   src/a.ts:2:32 - Unknown word (wrold) fix: (world)
//   src/a.ts:4:9 - Forbidden word (blacklist)
// and its summary on stderr: `CSpell: Files checked: 3, Issues found: 1 in 1 file.`
// The path is relative (no drive colon): it ends at the first colon, one anchored pass.
const ISSUE = /^(?<file>[^:\s][^:]*):(?<line>\d{1,9}):(?<col>\d{1,9}) - (?<msg>\S.*)$/s;
/** The kind of issue, before the word in parentheses: `Unknown word`, `Forbidden word`. */
const KIND = /^([A-Z][a-z]+(?: [a-z]+){0,3}) \(/;
const SUMMARY = /^CSpell: Files checked: (\d+)/m;
/** The summary's tail when cspell itself failed (a config it could not load): `... with 1 error.` */
const RUN_ERRORS = /^CSpell: Files checked: \d+,.* with (\d+) errors?\b/m;

export function parseCspellText(text: string, root: string): Finding[] {
  const findings: Finding[] = [];
  for (const line of lines(text, findings)) {
    if (!line.includes(' - ')) continue;
    const match = ISSUE.exec(line.trimEnd());
    if (!match?.groups) continue;
    const message = match.groups.msg!;
    const kind = KIND.exec(message)?.[1];
    findings.push(
      createFinding({
        file: relativeToRoot(match.groups.file!, root),
        line: Number(match.groups.line),
        column: Number(match.groups.col),
        rule: kind ? kind.toLowerCase().replace(/ /g, '-') : null,
        message,
      }),
    );
  }
  return findings;
}

/**
 * `cspell lint --no-progress`: one issue a line, every one an error (cspell exits 1); its
 * summary saying `Files checked: 0` means its globs matched no file it reads.
 */
export const cspellParser: Parser = {
  name: 'cspell',
  summary: 'cspell lint (file:line:col - Unknown word (x))',
  parse(output) {
    const result = verdict(
      output.exitCode,
      parseCspellText(`${output.stdout}\n${output.stderr}`, output.root),
    );
    const failed = RUN_ERRORS.exec(output.stderr) ?? RUN_ERRORS.exec(output.stdout);
    // A configuration error also ends in `Files checked: 0`: cspell could not run its check,
    // which is an error (not "nothing to check", which a host may read as no failure).
    if (failed && Number(failed[1]) > 0 && result.findings.length === 0)
      return {
        ...result,
        passed: false,
        unparsed: true,
        note: `cspell reported ${failed[1]} error${failed[1] === '1' ? '' : 's'} of its own (a configuration it could not load?): read the output`,
      };
    const checked = SUMMARY.exec(output.stderr) ?? SUMMARY.exec(output.stdout);
    if (checked && Number(checked[1]) === 0 && result.findings.length === 0)
      return withCoverage(result, output, [], 'cspell checked 0 files (its globs matched none)');
    return result;
  },
};

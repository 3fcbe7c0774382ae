import { createFinding, type Finding } from '../report/finding.js';
import { lines, relativeToRoot, verdict, type Parser } from './parser.js';

// `./docs/a.md:3: teh ==> the` (a suggestion list `a, b` when ambiguous, `| reason` when
// the dictionary gives one); `./teh.txt: teh ==> the` for a misspelt file name.
const MISSPELLING = /^(?<file>[^\s:][^:]*?):(?:(?<line>\d+):)? (?<word>\S.*?) ==> (?<fix>\S.*)$/s;

/**
 * codespell's default output: one `path:line: word ==> suggestion` line per misspelling
 * (no column), on stdout. Exit 65 when it found any, 0 when clean; with `-w` it fixes
 * the unambiguous ones and prints `FIXED:` lines on stderr.
 */
export const codespellParser: Parser = {
  name: 'codespell',
  summary: 'codespell (path:line: word ==> suggestion)',
  parse(output) {
    const findings: Finding[] = [];
    for (const raw of lines(output.stdout, findings)) {
      const match = MISSPELLING.exec(raw.trimEnd());
      if (!match?.groups) continue;
      findings.push(
        createFinding({
          file: relativeToRoot(match.groups.file!, output.root),
          line: match.groups.line ? Number(match.groups.line) : null,
          rule: 'codespell',
          message: `${match.groups.word} ==> ${match.groups.fix}`,
        }),
      );
    }
    return verdict(output.exitCode, findings);
  },
};

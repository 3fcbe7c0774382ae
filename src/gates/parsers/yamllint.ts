import { createFinding, type Finding, type Severity } from '../report/finding.js';
import { lines, relativeToRoot, verdict, type Parser } from './parser.js';

// `-f parsable`: `./config/app.yaml:2:1: [error] duplication of key "name" in mapping (key-duplicates)`.
const PARSABLE =
  /^(?<file>[^\s:][^:]*?):(?<line>\d+):(?<col>\d+): \[(?<level>error|warning)\] (?<msg>.*?)(?: \((?<rule>[a-z0-9-]+)\))?$/s;
// `-f github` (its `auto` under GitHub Actions): `::error file=./a.yaml,line=2,col=1::2:1 [rule] message`.
const GITHUB =
  /^::(?<level>error|warning) file=(?<file>[^,]+),line=(?<line>\d+),col=(?<col>\d+)::\d+:\d+ (?:\[(?<rule>[a-z0-9-]+)\] )?(?<msg>.*)$/s;
// `-f standard` (its `auto` elsewhere, `colored` on a terminal): the file alone on a line,
// then `  2:1       error    message  (rule)` under it.
const STANDARD =
  /^ {2}(?<line>\d+):(?<col>\d+) +(?<level>error|warning) +(?<msg>.*?)(?: {2}\((?<rule>[a-z0-9-]+)\))?$/s;

/**
 * yamllint's reports, any of its formats: `parsable` (the marker gate's), `github` and
 * `standard`/`colored` (what `auto` picks, as a script's bare `yamllint .` prints it).
 * Errors fail (exit 1); warnings fail only under `--strict` (exit 2), as yamllint says.
 */
export const yamllintParser: Parser = {
  name: 'yamllint',
  summary: 'yamllint (parsable, github or standard format; rule per finding)',
  parse(output) {
    const findings: Finding[] = [];
    let file: string | null = null;
    for (const raw of lines(output.stdout, findings)) {
      const line = raw.trimEnd();
      const match = PARSABLE.exec(line) ?? GITHUB.exec(line);
      const standard = match ? null : STANDARD.exec(line);
      const groups = match?.groups ?? standard?.groups;
      if (groups) {
        const where = match ? groups.file! : file;
        if (where === null) continue;
        findings.push(
          createFinding({
            file: relativeToRoot(where, output.root),
            line: Number(groups.line),
            column: Number(groups.col),
            severity: groups.level as Severity,
            rule: groups.rule ?? 'yamllint',
            message: groups.msg!,
          }),
        );
        continue;
      }
      // A standard report's file line; `::group::` / `::endgroup::` are github's.
      if (line !== '' && !line.startsWith(' ') && !line.startsWith('::')) file = line;
    }
    // Exit 0 with errors cannot happen; exit 0 with warnings is yamllint's pass.
    return verdict(output.exitCode, findings);
  },
};

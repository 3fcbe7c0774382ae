import { dedupeFindings } from '../report/finding.js';
import { verdict, withCoverage, type Parser } from './parser.js';

/** The name of a parser that reads one output with several tool parsers: `a+b`. */
export function combinedParserName(names: readonly string[]): string {
  return [...new Set(names)].join('+');
}

/**
 * One output that several tools wrote into (a package.json script chaining them): every
 * part parser reads all of it, and the findings are their union, in part order. The
 * verdict is the script's exit code and those findings. Nothing was checked only when
 * every part says so; what any part says it skipped is kept.
 */
export function combineParsers(parts: readonly Parser[]): Parser {
  return {
    name: combinedParserName(parts.map((part) => part.name)),
    summary: `the output of ${parts.map((part) => part.name).join(', ')} together`,
    parse(output) {
      const results = parts.map((part) => part.parse(output));
      const findings = dedupeFindings(results.flatMap((result) => result.findings));
      const nothing = results.every((result) => result.nothingChecked !== undefined)
        ? results.map((result) => result.nothingChecked).join('; ')
        : undefined;
      const notChecked = results.flatMap((result) => result.notChecked ?? []);
      // Each part already weighed the call's paths against what it skipped.
      const unweighed = { ...output, paths: [] };
      return withCoverage(verdict(output.exitCode, findings), unweighed, notChecked, nothing);
    },
  };
}

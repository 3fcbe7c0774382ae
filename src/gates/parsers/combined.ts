import { dedupeFindings } from '../report/finding.js';
import { verdict, type Parser } from './parser.js';

/** The name of a parser that reads one output with several tool parsers: `a+b`. */
export function combinedParserName(names: readonly string[]): string {
  return [...new Set(names)].join('+');
}

/**
 * One output that several tools wrote into (a package.json script chaining them): every
 * part parser reads all of it, and the findings are their union, in part order. The
 * verdict is the script's exit code and those findings.
 */
export function combineParsers(parts: readonly Parser[]): Parser {
  return {
    name: combinedParserName(parts.map((part) => part.name)),
    summary: `the output of ${parts.map((part) => part.name).join(', ')} together`,
    parse(output) {
      const findings = parts.flatMap((part) => part.parse(output).findings);
      return verdict(output.exitCode, dedupeFindings(findings));
    },
  };
}

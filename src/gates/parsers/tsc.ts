import { verdict, type Parser } from './parser.js';
import { parseTscText } from './text-lines.js';

/** `tsc --pretty false`: `file(line,col): error TSnnnn: message` on stdout; exit 1 or 2 on errors. */
export const tscParser: Parser = {
  name: 'tsc',
  summary: 'tsc --pretty false diagnostics',
  parse(output) {
    return verdict(
      output.exitCode,
      parseTscText(`${output.stdout}\n${output.stderr}`, output.root),
    );
  },
};

import type { GateSpec } from '../gate-spec.js';
import { toolOfProgram } from '../tools/index.js';
import { commandParser } from './scripts.js';

/**
 * The command a check on given files runs in place of `words` (past `uv run`, `npx`…:
 * makefile.ts' unwrap), a whole-tree command of a
 * tool that reads each file on its own (ToolDescriptor.onFiles): its program and options
 * as written, its path operands (globs, directories) left out, read by the parser that
 * reads `argv`. Undefined for any other command: another tool, one that writes, one past
 * `--`, or one with an option the tool's knowledge does not say takes a value or not.
 */
export function narrowCommand(words: readonly string[]): GateSpec['narrow'] | undefined {
  const program = words[0];
  const knows = program === undefined ? undefined : toolOfProgram(program)?.onFiles;
  if (knows === undefined) return undefined;
  // A format the parsers do not read is replaced by one they do (shellcheck's tty report).
  const own = commandParser(words);
  const readable = own === undefined ? knows.readable : undefined;
  if (
    own === undefined &&
    (readable === undefined || /(^|\s)(--fix|-w|--write)\b/.test(words.join(' ')))
  )
    return undefined;
  const values = new Set(knows.valueOptions);
  const flags = new Set(knows.flags);
  const formats = new Set(readable?.formatOptions ?? []);
  const command = [program!];
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index]!;
    if (word === '--') return undefined;
    if (index === 1 && knows.subcommands?.includes(word)) command.push(word);
    else if (formats.has(word) || [...formats].some((option) => word.startsWith(`${option}=`)))
      index += word.includes('=') ? 0 : 1;
    else if (word.startsWith('-') && word !== '-') {
      // `--name=value` holds its value; a short option glued to its value (`-cfile`) is not read.
      if (word.startsWith('--') && word.includes('=')) command.push(word);
      else if (flags.has(word)) command.push(word);
      else if (values.has(word) && index + 1 < words.length)
        command.push(word, words[(index += 1)]!);
      else return undefined;
    }
    // Anything else is a path or glob: the call's files take its place.
  }
  if (readable) return { command: [...command, ...readable.args], parser: readable.parser };
  return { command, parser: own! };
}

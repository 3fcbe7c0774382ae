import fs from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_TIMEOUT_MS,
  GATE_NAME_PATTERN,
  MAX_TIMEOUT_MS,
  MIN_TIMEOUT_MS,
  fixToolName,
  type GateSpec,
  type PathsMode,
} from './gate-spec.js';
import { closestName } from './closest-name.js';
import { MAX_CHARS_RANGE } from './report/budget.js';
import { findDuplicateKey } from './duplicate-keys.js';
import { documentProblem, sizeProblem } from './detect/source-document.js';
import { derivedFilesOf } from './run/derived-files.js';
import { inferTscPrepare } from './run/tsc-build.js';
import { GatesError } from './gates-error.js';
import { PARSER_NAMES } from './parsers/index.js';

export const CONFIG_FILE = 'mcp-gates.json';

/** The keys the loader accepts (schema/mcp-gates.schema.json must list the same). */
export const ROOT_KEYS = ['$schema', 'gates'] as const;
export const GATE_KEYS = [
  'command',
  'fix',
  'description',
  'parser',
  'timeoutMs',
  'maxChars',
  'paths',
  'warm',
] as const;
/** Bounds of a gate's `maxChars` (the schema says the same). */
const PATHS_MODES: readonly PathsMode[] = ['append', 'none'];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function describeValue(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value === 'object' ? 'an object' : `the ${typeof value} ${JSON.stringify(value)}`}`;
}

function unknownKeyFix(key: string, allowed: readonly string[]): string {
  const close = closestName(key, allowed);
  const list = allowed.map((candidate) => `"${candidate}"`).join(', ');
  return close
    ? `did you mean "${close}"? Allowed keys: ${list}`
    : `remove it; allowed keys: ${list}`;
}

/** The offset Node reports for a JSON.parse failure; undefined at "end of JSON input". */
function jsonErrorOffset(error: Error): number | undefined {
  const position = /position (\d+)/.exec(error.message);
  return position ? Number(position[1]) : undefined;
}

/** Line and column of a JSON.parse failure (the end of the text when Node names none). */
function jsonErrorLocation(text: string, error: Error): string {
  const lineColumn = /line (\d+) column (\d+)/.exec(error.message);
  if (lineColumn) return `line ${lineColumn[1]}, column ${lineColumn[2]}`;
  const before = text.slice(0, jsonErrorOffset(error) ?? text.length);
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

/** The fix for a JSON.parse failure, from what the text shows where it failed. */
function jsonSyntaxFix(text: string, error: Error): string {
  const offset = jsonErrorOffset(error);
  if (/Unterminated string/i.test(error.message)) return 'close the string with a " on its line';
  if (offset === undefined || offset >= text.trimEnd().length)
    return 'the file ends before the JSON does: add the missing } or ] (each { and [ needs its closing pair)';
  if (text.startsWith('//', offset) || text.startsWith('/*', offset))
    return 'remove the comment: mcp-gates.json is plain JSON, which has no comments';
  if (/,\s*[}\]]$/.test(text.slice(0, offset + 1)))
    return 'remove the comma before the closing } or ]: JSON allows no trailing commas';
  return 'make it plain JSON: keys and strings in double quotes, a comma between entries';
}

/**
 * A program name that only makes sense to a shell: operators, quotes, `$(...)`, or words
 * separated by whitespace. A path may hold spaces ("C:\\Program Files\\..."), so there
 * only a space followed by an option or a lone "." counts.
 */
function looksLikeShellString(program: string): boolean {
  if (/[|;&<>`"']|\$\(/.test(program)) return true;
  if (!/\s/.test(program)) return false;
  if (!/[\\/]/.test(program)) return true;
  return /\s-/.test(program) || /\s\.(\s|$)/.test(program);
}

/** Whitespace-separated words, shell operators dropped: the start of the argv to suggest. */
function splitWords(line: string): string[] {
  const words = line.split(/\s+/).filter(Boolean);
  const operator = words.findIndex((word) => /^(&&|\|\||\||;|>|<)$/.test(word));
  return (operator === -1 ? words : words.slice(0, operator)).map((word) =>
    word.replace(/^["']|["']$/g, ''),
  );
}

class ConfigReader {
  constructor(private readonly file: string) {}

  fail(
    code: 'ECONFIG_TYPE' | 'ECONFIG_VALUE' | 'ECONFIG_UNKNOWN_KEY',
    keyPath: string,
    problem: string,
    fix: string,
  ): never {
    throw new GatesError(code, problem, { file: this.file, keyPath, fix });
  }

  object(value: Json, keyPath: string, fix: string): { [key: string]: Json } {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      this.fail('ECONFIG_TYPE', keyPath, `expected an object, got ${describeValue(value)}`, fix);
    }
    return value;
  }

  knownKeys(value: { [key: string]: Json }, keyPath: string, allowed: readonly string[]): void {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) {
        this.fail(
          'ECONFIG_UNKNOWN_KEY',
          keyPath ? `${keyPath}.${key}` : key,
          'unknown key',
          unknownKeyFix(key, allowed),
        );
      }
    }
  }

  argv(value: Json, keyPath: string): string[] {
    const example =
      'write it as an argv array, e.g. ["eslint", "--format", "json", "."] (no shell: &&, pipes and quotes are not interpreted)';
    if (!Array.isArray(value))
      this.fail(
        'ECONFIG_TYPE',
        keyPath,
        `expected an array of strings, got ${describeValue(value)}`,
        example,
      );
    if (value.length === 0) this.fail('ECONFIG_VALUE', keyPath, 'the command is empty', example);
    value.forEach((item, index) => {
      if (typeof item !== 'string') {
        this.fail(
          'ECONFIG_TYPE',
          `${keyPath}[${index}]`,
          `expected a string, got ${describeValue(item)}`,
          example,
        );
      }
      // The OS would cut the argument at NUL; spawn refuses it outright.
      if (item.includes('\0'))
        this.fail(
          'ECONFIG_VALUE',
          `${keyPath}[${index}]`,
          'contains a NUL byte (\\u0000), which no program argument can hold',
          'remove the \\u0000 from the string',
        );
    });
    const argv = value as string[];
    const program = argv[0]!;
    if (program.trim() === '')
      this.fail('ECONFIG_VALUE', `${keyPath}[0]`, 'the program name is empty', example);
    if (looksLikeShellString(program)) {
      const split = splitWords(program)
        .map((word) => JSON.stringify(word))
        .join(', ');
      this.fail(
        'ECONFIG_VALUE',
        `${keyPath}[0]`,
        `${describeValue(program)} is a shell command line, not a program name`,
        `the command is an argv array run without a shell: split it, e.g. [${split}]; for && or pipes, put the line in a package.json script and run it with ["npm", "run", "--silent", "<script>"]`,
      );
    }
    return argv;
  }
}

function readGate(
  reader: ConfigReader,
  name: string,
  value: Json,
  names: ReadonlySet<string>,
): GateSpec {
  const keyPath = `gates.${name}`;
  if (!GATE_NAME_PATTERN.test(name)) {
    reader.fail(
      'ECONFIG_VALUE',
      keyPath,
      'invalid gate name',
      'use a letter, then up to 59 letters, digits, "_", "-" or "." (it becomes the tool name)',
    );
  }
  const gate = reader.object(
    value,
    keyPath,
    `make it an object such as {"command": ["eslint", "."]}`,
  );
  reader.knownKeys(gate, keyPath, GATE_KEYS);
  if (!('command' in gate))
    reader.fail(
      'ECONFIG_VALUE',
      `${keyPath}.command`,
      'missing',
      'add "command": an argv array such as ["eslint", "."]',
    );
  const command = reader.argv(gate.command!, `${keyPath}.command`);
  const fix =
    gate.fix === undefined || gate.fix === null ? null : reader.argv(gate.fix, `${keyPath}.fix`);
  if (fix && names.has(fixToolName(name))) {
    reader.fail(
      'ECONFIG_VALUE',
      `${keyPath}.fix`,
      `its tool "${fixToolName(name)}" clashes with the gate of that name`,
      `rename the gate "${fixToolName(name)}"`,
    );
  }
  let description = `The "${name}" gate`;
  if (gate.description !== undefined) {
    if (typeof gate.description !== 'string')
      reader.fail(
        'ECONFIG_TYPE',
        `${keyPath}.description`,
        `expected a string, got ${describeValue(gate.description)}`,
        'write a short sentence in quotes',
      );
    description = gate.description;
  }
  let parser = 'generic';
  if (gate.parser !== undefined) {
    if (typeof gate.parser !== 'string')
      reader.fail(
        'ECONFIG_TYPE',
        `${keyPath}.parser`,
        `expected a string, got ${describeValue(gate.parser)}`,
        `use one of: ${PARSER_NAMES.join(', ')}`,
      );
    if (!PARSER_NAMES.includes(gate.parser))
      reader.fail(
        'ECONFIG_VALUE',
        `${keyPath}.parser`,
        `unknown parser "${gate.parser}"`,
        `use one of: ${PARSER_NAMES.join(', ')}`,
      );
    parser = gate.parser;
  }
  let timeoutMs = DEFAULT_TIMEOUT_MS;
  if (gate.timeoutMs !== undefined) {
    if (typeof gate.timeoutMs !== 'number')
      reader.fail(
        'ECONFIG_TYPE',
        `${keyPath}.timeoutMs`,
        `expected a number of milliseconds, got ${describeValue(gate.timeoutMs)}`,
        'e.g. 300000 for five minutes',
      );
    if (
      !Number.isInteger(gate.timeoutMs) ||
      gate.timeoutMs < MIN_TIMEOUT_MS ||
      gate.timeoutMs > MAX_TIMEOUT_MS
    ) {
      reader.fail(
        'ECONFIG_VALUE',
        `${keyPath}.timeoutMs`,
        `${gate.timeoutMs} is out of range`,
        `use a whole number of milliseconds from ${MIN_TIMEOUT_MS} to ${MAX_TIMEOUT_MS}`,
      );
    }
    timeoutMs = gate.timeoutMs;
  }
  let maxChars: number | undefined;
  if (gate.maxChars !== undefined) {
    if (
      typeof gate.maxChars !== 'number' ||
      !Number.isInteger(gate.maxChars) ||
      gate.maxChars < MAX_CHARS_RANGE.min ||
      gate.maxChars > MAX_CHARS_RANGE.max
    )
      reader.fail(
        typeof gate.maxChars === 'number' ? 'ECONFIG_VALUE' : 'ECONFIG_TYPE',
        `${keyPath}.maxChars`,
        `expected a whole number of characters, got ${describeValue(gate.maxChars)}`,
        `use a whole number from ${MAX_CHARS_RANGE.min} to ${MAX_CHARS_RANGE.max} (default 12000)`,
      );
    maxChars = gate.maxChars;
  }
  let paths: PathsMode = 'none';
  if (gate.paths !== undefined) {
    if (typeof gate.paths !== 'string')
      reader.fail(
        'ECONFIG_TYPE',
        `${keyPath}.paths`,
        `expected a string, got ${describeValue(gate.paths)}`,
        'use "append" or "none"',
      );
    if (!PATHS_MODES.includes(gate.paths as PathsMode))
      reader.fail(
        'ECONFIG_VALUE',
        `${keyPath}.paths`,
        `unknown mode "${gate.paths}"`,
        'use "append" (paths go at the end of argv) or "none"',
      );
    paths = gate.paths as PathsMode;
  }
  if (gate.warm !== undefined && typeof gate.warm !== 'boolean')
    reader.fail(
      'ECONFIG_TYPE',
      `${keyPath}.warm`,
      `expected true or false, got ${describeValue(gate.warm)}`,
      'use false to always run this gate cold in `serve` (true, the default, lets it run warm)',
    );
  const prepare = inferTscPrepare(command);
  const derivedFiles = derivedFilesOf(command);
  return {
    name,
    description,
    command,
    fix,
    parser,
    timeoutMs,
    ...(maxChars !== undefined ? { maxChars } : {}),
    paths,
    source: 'config',
    ...(prepare ? { prepare } : {}),
    ...(derivedFiles ? { derivedFiles } : {}),
    ...(gate.warm === false ? { warm: false } : {}),
  };
}

/** Validates a parsed config document; `file` is used in messages only. */
export function parseConfig(document: unknown, file: string): GateSpec[] {
  const reader = new ConfigReader(file);
  const root = reader.object(
    document as Json,
    '(top level)',
    'the file must hold one object: {"gates": {...}}',
  );
  reader.knownKeys(root, '', ROOT_KEYS);
  if (!('gates' in root))
    reader.fail(
      'ECONFIG_VALUE',
      'gates',
      'missing',
      'add "gates": {"lint": {"command": ["eslint", "."]}}',
    );
  const gates = reader.object(
    root.gates!,
    'gates',
    'map gate names to gates: {"lint": {"command": ["eslint", "."]}}',
  );
  const names = new Set(Object.keys(gates));
  if (names.size === 0) {
    reader.fail(
      'ECONFIG_VALUE',
      'gates',
      'no gates: the server would serve nothing',
      'add a gate, or delete the file to use detection',
    );
  }
  return Object.entries(gates).map(([name, value]) => readGate(reader, name, value, names));
}

/**
 * Loads `<root>/mcp-gates.json`: undefined when there is none; throws a GatesError
 * naming the file, the key path and the fix on any problem (never half a config).
 */
export function loadConfig(root: string): GateSpec[] | undefined {
  const file = path.join(root, CONFIG_FILE);
  let text: string;
  try {
    const tooLarge = sizeProblem(fs.statSync(file).size);
    if (tooLarge !== undefined)
      throw new GatesError('ECONFIG_JSON', `not read: ${tooLarge}`, {
        file,
        fix: 'keep the gates of mcp-gates.json only (a few kilobytes), or delete it to use detection',
      });
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof GatesError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new GatesError('ECONFIG_READ', `cannot read: ${(error as Error).message}`, {
      file,
      fix: 'check the file permissions, or delete it to use detection',
    });
  }
  const json = text.replace(/^\uFEFF/, '');
  if (json.trim() === '') {
    throw new GatesError('ECONFIG_JSON', 'the file is empty', {
      file,
      fix: 'delete it to use detection (then `mcp-gates init` writes one to edit), or write {"gates": {...}} in it',
    });
  }
  let document: unknown;
  try {
    document = JSON.parse(json);
  } catch (error) {
    throw new GatesError(
      'ECONFIG_JSON',
      `invalid JSON at ${jsonErrorLocation(json, error as Error)}: ${(error as Error).message}`,
      { file, fix: jsonSyntaxFix(json, error as Error) },
    );
  }
  const beyond = documentProblem(document);
  if (beyond !== undefined)
    throw new GatesError('ECONFIG_JSON', `not read: ${beyond}`, {
      file,
      fix: 'write each gate as {"command": [...], ...} under "gates", with no deeper nesting',
    });
  const duplicate = findDuplicateKey(text);
  if (duplicate) {
    throw new GatesError('ECONFIG_JSON', `duplicate key at line ${duplicate.line}`, {
      file,
      keyPath: duplicate.keyPath,
      fix: 'keep one of the two entries: JSON readers silently use the last one',
    });
  }
  return parseConfig(document, file);
}

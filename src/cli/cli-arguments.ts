import { closestName } from '../gates/closest-name.js';
import { GatesError } from '../gates/gates-error.js';
import { MAX_CHARS_RANGE } from '../gates/report/budget.js';
import { HOSTS, type HostName } from './host-config.js';
import { HOOK_EVENTS, HOOK_HOSTS, type HookHost } from '../gates/hooks/hook-hosts.js';

export const COMMANDS = [
  'serve',
  'list',
  'run',
  'check',
  'baseline',
  'init',
  'doctor',
  'hook',
  'help',
] as const;
export type CommandName = (typeof COMMANDS)[number];

export interface CliArguments {
  command: CommandName;
  root: string | undefined;
  json: boolean;
  fix: boolean;
  /** `--no-warm`: no warm workers (serve; `run` is always cold). */
  warm: boolean;
  /** serve `--hook-tools`: serve the hook tools even where no hooks file calls them. */
  hookTools: boolean;
  help: boolean;
  version: boolean;
  /** run: only the files changed against HEAD, or the merge-base with `base`. */
  changed: boolean;
  base: string | undefined;
  /** run: only findings not in the baseline. */
  newOnly: boolean;
  /** run, check: the result budget in characters. */
  maxChars: number | undefined;
  /** baseline: write the baseline into the repository (committed) rather than the cache. */
  writeFile: boolean;
  /** init: print (or with --write, write) this host's config instead of mcp-gates.json. */
  host: HostName | undefined;
  /** init --host: write into the host's project file. */
  write: boolean;
  /** init: write this host's hook configuration (hook tools or `mcp-gates hook`). */
  hooks: HookHost | undefined;
  /** hook: how long the hook waits for its gates, in ms. */
  budgetMs: number | undefined;
  /** Positionals after the command (run: the gate, then paths; baseline: gates). */
  positionals: string[];
}

const FLAGS_BY_COMMAND: Record<CommandName, readonly string[]> = {
  serve: ['--root', '--no-warm', '--hook-tools'],
  list: ['--root', '--json'],
  run: ['--root', '--json', '--fix', '--no-warm', '--changed', '--base', '--new', '--max-chars'],
  check: ['--root', '--json', '--max-chars'],
  baseline: ['--root', '--write-file'],
  init: ['--root', '--host', '--write', '--hooks'],
  doctor: ['--root', '--json'],
  hook: ['--root', '--host', '--base', '--budget-ms'],
  help: [],
};

function usage(message: string): GatesError {
  return new GatesError('EGATES_USAGE', message, { fix: 'run `mcp-gates --help` for usage' });
}

/** A flag's value that must be one of `names`; the usage error suggests the closest. */
function oneOf<T extends string>(flag: string, value: string | undefined, names: readonly T[]): T {
  if (value !== undefined && (names as readonly string[]).includes(value)) return value as T;
  const close = value ? closestName(value, names) : undefined;
  throw usage(
    `${flag} needs one of ${names.join(', ')}${value ? ` (got "${value}"${close ? `; did you mean ${close}?` : ''})` : ''}`,
  );
}

/** Parses `mcp-gates [command] [options] [args]`; `--` ends options. */
export function parseCliArguments(argv: readonly string[]): CliArguments {
  const parsed: CliArguments = {
    command: 'serve',
    root: undefined,
    json: false,
    fix: false,
    warm: true,
    hookTools: false,
    help: false,
    version: false,
    changed: false,
    base: undefined,
    newOnly: false,
    maxChars: undefined,
    writeFile: false,
    host: undefined,
    write: false,
    hooks: undefined,
    budgetMs: undefined,
    positionals: [],
  };
  let commandSeen = false;
  const flags: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    if (argument === '--') {
      parsed.positionals.push(...argv.slice(index + 1));
      break;
    }
    if (argument.startsWith('-') && argument !== '-') {
      const [flag, inline] = argument.includes('=')
        ? [argument.slice(0, argument.indexOf('=')), argument.slice(argument.indexOf('=') + 1)]
        : [argument, undefined];
      switch (flag) {
        case '-h':
        case '--help':
          parsed.help = true;
          break;
        case '-V':
        case '--version':
          parsed.version = true;
          break;
        case '--json':
          parsed.json = true;
          flags.push(flag);
          break;
        case '--fix':
          parsed.fix = true;
          flags.push(flag);
          break;
        case '--no-warm':
          parsed.warm = false;
          flags.push(flag);
          break;
        case '--hook-tools':
          parsed.hookTools = true;
          flags.push(flag);
          break;
        case '--changed':
          parsed.changed = true;
          flags.push(flag);
          break;
        case '--new':
          parsed.newOnly = true;
          flags.push(flag);
          break;
        case '--write-file':
          parsed.writeFile = true;
          flags.push(flag);
          break;
        case '--write':
          parsed.write = true;
          flags.push(flag);
          break;
        case '--host':
          parsed.host = oneOf(flag, inline ?? argv[(index += 1)], HOSTS);
          flags.push(flag);
          break;
        case '--hooks':
          parsed.hooks = oneOf(flag, inline ?? argv[(index += 1)], HOOK_HOSTS);
          flags.push(flag);
          break;
        case '--budget-ms': {
          const value = inline ?? argv[(index += 1)];
          const number = Number(value);
          if (value === undefined || !/^\d+$/.test(value) || !Number.isSafeInteger(number))
            throw usage('--budget-ms needs a whole number of milliseconds, e.g. 10000');
          parsed.budgetMs = number;
          flags.push(flag);
          break;
        }
        case '--base': {
          const value = inline ?? argv[(index += 1)];
          if (value === undefined || value === '') throw usage('--base needs a git ref, e.g. main');
          parsed.base = value;
          flags.push(flag);
          break;
        }
        case '--max-chars': {
          const value = inline ?? argv[(index += 1)];
          const number = Number(value);
          if (value === undefined || !/^\d+$/.test(value) || !Number.isSafeInteger(number))
            throw usage('--max-chars needs a whole number of characters, e.g. 12000');
          // A budget out of range is a usage error (exit 2), not a failed gate (exit 1).
          if (number < MAX_CHARS_RANGE.min || number > MAX_CHARS_RANGE.max)
            throw new GatesError(
              'EGATES_USAGE',
              `--max-chars ${value} is out of range: from ${MAX_CHARS_RANGE.min} to ${MAX_CHARS_RANGE.max} characters`,
              { fix: `pass a budget in that range, e.g. --max-chars ${MAX_CHARS_RANGE.min}` },
            );
          parsed.maxChars = number;
          flags.push(flag);
          break;
        }
        case '--root': {
          const value = inline ?? argv[(index += 1)];
          if (value === undefined || value === '') throw usage('--root needs a directory');
          parsed.root = value;
          flags.push(flag);
          break;
        }
        default:
          throw usage(`unknown option ${flag}`);
      }
      continue;
    }
    if (
      !commandSeen &&
      parsed.positionals.length === 0 &&
      (COMMANDS as readonly string[]).includes(argument)
    ) {
      parsed.command = argument as CommandName;
      commandSeen = true;
      continue;
    }
    if (!commandSeen) {
      const close = closestName(argument, COMMANDS);
      throw new GatesError('EGATES_USAGE', `unknown command "${argument}"`, {
        fix: close
          ? `did you mean \`mcp-gates ${close}\`? Commands: ${COMMANDS.join(', ')}`
          : `use one of: ${COMMANDS.join(', ')} (see \`mcp-gates --help\`)`,
      });
    }
    parsed.positionals.push(argument);
  }
  if (!parsed.help && !parsed.version) {
    for (const flag of flags) {
      if (!FLAGS_BY_COMMAND[parsed.command].includes(flag))
        throw usage(`${flag} does not apply to \`${parsed.command}\``);
    }
    if (parsed.base !== undefined && !parsed.changed && parsed.command !== 'hook')
      throw usage('--base goes with --changed');
    if (parsed.write && parsed.host === undefined) throw usage('--write goes with --host');
    if (parsed.hooks !== undefined && (parsed.host !== undefined || parsed.write))
      throw usage(
        '--hooks writes the hook configuration on its own; run it without --host and --write',
      );
    if (parsed.command === 'hook') {
      const event = parsed.positionals[0];
      if (parsed.positionals.length !== 1 || !(HOOK_EVENTS as readonly string[]).includes(event!))
        throw usage(`\`mcp-gates hook\` takes one event: ${HOOK_EVENTS.join(' or ')}`);
      if (parsed.host === undefined || !(HOOK_HOSTS as readonly string[]).includes(parsed.host))
        throw usage(`\`mcp-gates hook\` needs --host, one of ${HOOK_HOSTS.join(', ')}`);
    }
    if (
      !['run', 'help', 'baseline', 'hook'].includes(parsed.command) &&
      parsed.positionals.length > 0
    ) {
      throw usage(
        `\`${parsed.command}\` takes no arguments (got ${JSON.stringify(parsed.positionals[0])})`,
      );
    }
  }
  return parsed;
}

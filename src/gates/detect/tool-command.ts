import { toolOfProgram } from '../tools/index.js';
import type { MarkerGate, ProjectFacts, ToolDescriptor } from '../tools/tool.js';
import { readOnlyProgram, unwrap } from './read-only-program.js';

/** Something a gate source names that detection does not serve, and why (shown by list and doctor). */
export interface NotServed {
  /** The file it is written in. */
  source: string;
  /** What it is there (`hook codespell`, `env docs`). */
  name: string;
  why: string;
}

/** The check a command of a known tool stands for (a pre-commit hook's, a tox env's...). */
export interface ToolCheck {
  tool: ToolDescriptor;
  /** The tool's marker gate with the command's kept options and targets: a read-only check, and its fix. */
  gate: MarkerGate;
  /** Whether the command as written changes files (`ruff format .`, a hook with `--fix`). */
  fixes: boolean;
  /** What the command had that the check leaves out, and why, for the description. */
  dropped: string[];
  /** The paths the command named, which the check checks instead of the whole project. */
  targets: string[];
}

export interface ToolCheckOptions {
  /** Where the command was written: the gate's source. */
  source: string;
  /** Whether the root's ruff config fixes on `ruff check` (`fix = true`). */
  ruffFixes: boolean;
  /**
   * What a word that is no option is: a path the command checks (a tox command, a hook
   * that gets no file names), or an argument dropped (a hook that gets file names too).
   */
  positionals: 'targets' | 'drop';
}

/** Options that take no value, so the word after one is a path even when the option is left out. */
const FLAGS = new Set([
  '--fix',
  '--no-fix',
  '--unsafe-fixes',
  '--show-fixes',
  '--exit-non-zero-on-fix',
  '--write',
  '-w',
  '--check',
  '--diff',
  '--apply',
  '--install-types',
  '--non-interactive',
  '--pretty',
  '--no-pretty',
  '--show-error-codes',
  '--show-column-numbers',
  '--statistics',
  '--quiet',
  '-q',
  '--verbose',
  '-v',
  '--no-cache',
  '--cache',
]);

/** The second words that pick a tool's check: `ruff check`, `cargo fmt`, `biome lint`, `golangci-lint run`. */
const SUBCOMMANDS = new Set(['check', 'format', 'lint', 'ci', 'fmt', 'clippy', 'vet', 'run']);

/** The subcommand an argv runs, when its tool takes one (`check` in `ruff check .`). */
function subcommandOf(words: readonly string[]): string | undefined {
  const word = words[1];
  return word !== undefined && SUBCOMMANDS.has(word) ? word : undefined;
}

/**
 * Which check of which known tool a command runs (`ruff:check`, `mypy:`), or undefined
 * when no tool of the registry runs it. Two commands of one key are one check only when
 * their identities (checkIdentity) are equal too.
 */
export function checkKey(argv: readonly string[]): string | undefined {
  const words = unwrap([...argv]);
  const tool = toolOfProgram(words[0] ?? '');
  return tool ? `${tool.name}:${subcommandOf(words) ?? ''}` : undefined;
}

/**
 * Options that never change what a check finds: how it prints, caches, fixes or installs
 * (a marker gate's own output flags among them). Those taking a value are `--name=`.
 */
const NEUTRAL_OPTIONS = new Set([
  ...FLAGS,
  '--format=',
  '-f=',
  '--formatter=',
  '--output-format=',
  '--reporter=',
  '--out-format=',
  '--message-format=',
  '--cache-location=',
  '--cache-strategy=',
  '--cache-dir=',
  '--cache-file=',
  '--no-error-summary',
  '--no-color-output',
  '--no-color',
  '--color',
  '--no-progress',
  '--outputjson',
  '--json',
  // go vet's JSON report.
  '-json',
  '--check-only',
  '-c',
  '--noEmit',
  '--pretty=',
  '--incremental',
  '--no-incremental',
  '--sqlite-cache',
]);

/**
 * What makes a command of a known tool the check it is: the tool and subcommand, the
 * options that change its findings (every option but NEUTRAL_OPTIONS, values written
 * `--name=value`), and the paths it names (`.` for the whole tree, which naming none
 * also means).
 */
export interface CheckIdentity {
  key: string;
  options: string[];
  paths: string[];
  /** What its source's environment sets (a tox env's basepython, setenv), when anything. */
  environment?: string;
}

export function checkIdentity(argv: readonly string[]): CheckIdentity | undefined {
  const words = unwrap([...argv]);
  const tool = toolOfProgram(words[0] ?? '');
  if (!tool) return undefined;
  const subcommand = subcommandOf(words);
  const args = words.slice(subcommand === undefined ? 1 : 2);
  const kept = new Set(tool.commands?.keepOptions ?? []);
  // What the tool keeps changes findings (eslint's `--quiet`, `-c` its config), neutral or
  // not; its options for files named one by one (ruff's --force-exclude) do not.
  const neutral = (name: string) =>
    (tool.explicitPathArgs ?? []).includes(name) ||
    (!kept.has(name) &&
      !kept.has(`${name}=`) &&
      (NEUTRAL_OPTIONS.has(name) || NEUTRAL_OPTIONS.has(`${name}=`)));
  const options: string[] = [];
  const paths = new Set<string>();
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--') continue;
    if (arg.startsWith('-') && arg !== '-') {
      const equals = arg.indexOf('=');
      const name = equals === -1 ? arg : arg.slice(0, equals);
      const takesValue = kept.has(`${name}=`)
        ? true
        : kept.has(name)
          ? false
          : NEUTRAL_OPTIONS.has(`${name}=`) || (!NEUTRAL_OPTIONS.has(name) && !FLAGS.has(name));
      const next = args[index + 1];
      const value =
        equals !== -1
          ? arg.slice(equals + 1)
          : (takesValue && next !== undefined && !next.startsWith('-')) ||
              (kept.has(name) && booleanValue(next))
            ? args[(index += 1)]!
            : undefined;
      if (neutral(name)) continue;
      options.push(value === undefined ? name : `${name}=${value}`);
      continue;
    }
    // `!**/dist/**` and `#node_modules` leave paths out: they are what is checked too.
    if (/^[!#]/.test(arg)) options.push(arg);
    else paths.add(arg.replace(/^\.\/(?=.)/, '').replace(/(?<=.)\/+$/, ''));
  }
  const named = paths.has('.') || paths.size === 0 ? ['.'] : [...paths].sort();
  return { key: `${tool.name}:${subcommand ?? ''}`, options: options.sort(), paths: named };
}

/** A check's options, paths and environment, for a description. */
function describeCheck(identity: CheckIdentity): string {
  return [
    identity.options.length > 0 ? identity.options.join(' ') : 'no options',
    `paths ${identity.paths.join(', ')}`,
    ...(identity.environment !== undefined ? [identity.environment] : []),
  ].join('; ');
}

/** Whether two identities are one check. */
function sameCheck(left: CheckIdentity, right: CheckIdentity): boolean {
  return (
    left.key === right.key &&
    left.environment === right.environment &&
    left.options.join('\0') === right.options.join('\0') &&
    left.paths.join('\0') === right.paths.join('\0')
  );
}

/** Programs that check nothing (a recipe's messages and moves). */
const INERT = new Set(['echo', 'printf', 'true', ':', 'cd']);

/** A check a gate runs, as CheckCoverage keeps it. */
interface CoveredCheck {
  gate: string;
  identity: CheckIdentity;
  /** A marker gate's: detection's own default command for a tool, not one the project wrote. */
  marker?: { source: string };
  /** A later gate was not served because this check runs its: this gate stays. */
  reliedOn?: boolean;
  /** The narrower check of the project's own that replaces this marker's, and where it is written. */
  narrowedBy?: { gate: string; what: string; paths: string[] };
}

/**
 * Which gate runs each check, so a later source serves a check once: a gate whose every
 * command is a check an earlier gate runs (same tool, options that change findings and
 * paths: checkIdentity) is not served. `tool:*` stands for every check of a tool (a script
 * that names it in a way not split into commands). A command of the project's own that
 * runs a marker gate's check on fewer paths (`mypy pkg tests` where the marker runs
 * `mypy .`) replaces that marker gate: the marker would check what the project does not.
 */
export class CheckCoverage {
  private readonly checks: CoveredCheck[] = [];
  private readonly toolGate = new Map<string, string>();

  /**
   * The checks of a served gate: `marker` for a marker gate's; `what` names a source's
   * gate (`the Makefile target "typecheck"`) for the marker gates it replaces.
   */
  add(
    gate: string,
    commands: readonly (readonly string[])[],
    origin: { marker?: { source: string }; what?: string; environment?: string } = {},
  ): void {
    for (const command of commands) {
      const found = checkIdentity(command);
      if (found === undefined) continue;
      // Run in another environment (a tox env's basepython), it is no other gate's check.
      const identity =
        origin.environment === undefined ? found : { ...found, environment: origin.environment };
      if (origin.what !== undefined && !origin.marker && identity.paths[0] !== '.')
        for (const check of this.checks)
          if (
            check.marker &&
            !check.reliedOn &&
            !check.narrowedBy &&
            check.identity.key === identity.key &&
            check.identity.environment === identity.environment &&
            check.identity.paths[0] === '.' &&
            check.identity.options.join('\0') === identity.options.join('\0')
          )
            check.narrowedBy = { gate, what: origin.what, paths: identity.paths };
      this.checks.push({ gate, identity, ...(origin.marker ? { marker: origin.marker } : {}) });
    }
  }

  addTool(gate: string, tool: string): void {
    if (!this.toolGate.has(tool)) this.toolGate.set(tool, gate);
  }

  /**
   * `gate \`ruff\`` when earlier gates run every one of these checks (in `environment`,
   * when given: inDirectory's words for a step's working directory), else undefined.
   */
  covering(commands: readonly (readonly string[])[], environment?: string): string | undefined {
    // `@echo linting` checks nothing: it neither adds a check nor keeps one from counting.
    const checks = commands.filter((command) => !INERT.has(command[0] ?? ''));
    if (checks.length === 0) return undefined;
    const found: CoveredCheck[] = [];
    const gates = new Set<string>();
    for (const command of checks) {
      const written = checkIdentity(command);
      if (written === undefined) return undefined;
      const identity = environment === undefined ? written : { ...written, environment };
      const same = this.checks.find(
        (check) => !check.narrowedBy && sameCheck(check.identity, identity),
      );
      const gate = same?.gate ?? this.toolGate.get(identity.key.split(':')[0]!);
      if (gate === undefined) return undefined;
      if (same) found.push(same);
      gates.add(gate);
    }
    for (const check of found) check.reliedOn = true;
    return `${gates.size === 1 ? 'gate' : 'gates'} ${[...gates].map((gate) => `\`${gate}\``).join(', ')}`;
  }

  /**
   * For a served gate's description (after `add`): the other gates that run the same
   * tools' checks with other options, paths or environment (`gate \`mypy\` runs mypy with other options or paths`),
   * so `list` says why both are served; undefined when none does.
   */
  alike(gate: string, commands: readonly (readonly string[])[]): string | undefined {
    const notes: string[] = [];
    for (const command of commands) {
      const found = checkIdentity(command);
      const identity = this.checks.find(
        (check) =>
          check.gate === gate &&
          found &&
          sameCheck({ ...check.identity, environment: undefined }, found),
      )?.identity;
      if (identity === undefined) continue;
      const other = this.checks.find(
        (check) =>
          check.gate !== gate &&
          !check.narrowedBy &&
          check.identity.key === identity.key &&
          !sameCheck(check.identity, identity),
      );
      if (!other) continue;
      const tool = identity.key.replace(/:$/, '').replace(':', ' ');
      notes.push(
        `its ${tool} (${describeCheck(identity)}) is not the check gate \`${other.gate}\` runs (${describeCheck(other.identity)}): both are served`,
      );
    }
    return notes.length > 0 ? notes.join('; ') : undefined;
  }

  /**
   * The marker gates a narrower check of the project's own replaces, each with why (for
   * `list`); detection leaves them out. A marker gate that a later gate was not served
   * for stays.
   */
  replacedMarkers(): Map<string, NotServed> {
    const replaced = new Map<string, NotServed>();
    for (const check of this.checks) {
      if (!check.marker || !check.narrowedBy || check.reliedOn || replaced.has(check.gate))
        continue;
      const { gate, what, paths } = check.narrowedBy;
      replaced.set(check.gate, {
        source: check.marker.source,
        name: `gate ${check.gate}`,
        why: `${what} (gate \`${gate}\`) runs this check on ${paths.join(', ')}, as the project runs it: the whole tree would be checked for what the project does not check`,
      });
    }
    return replaced;
  }
}

/** The environment words of a check run in a directory below the root (a Go module's). */
export function inDirectory(directory: string): string {
  return `runs in ${directory}`;
}

/** argv with options put before its final `.` and `targets` instead of it (or at the end). */
export function withArguments(
  argv: readonly string[],
  options: readonly string[],
  targets: readonly string[],
): string[] {
  // Go's `./...` (every package of the module) is its whole tree, as `.` is others'.
  const whole = argv.length > 1 ? WHOLE_TREE.exec(argv[argv.length - 1]!)?.[0] : undefined;
  const dot = whole !== undefined;
  const base = dot ? argv.slice(0, -1) : [...argv];
  // A flag the check already has (ruff's --force-exclude) is not given twice.
  const extra = options.filter((option, index) => {
    const isValue = index > 0 && options[index - 1]!.startsWith('-') && !option.startsWith('-');
    return isValue || option.includes('=') || !base.includes(option);
  });
  return [...base, ...extra, ...(targets.length > 0 ? targets : dot ? [whole] : [])];
}

/** The words that stand for the whole tree: `.`, and Go's `./...`. */
const WHOLE_TREE = /^(?:\.|\.\/\.\.\.)$/;
/** A Go package pattern (`./pkg/...`): the packages under a directory. */
const GO_PATTERN = /^(?:\.\/)?(.*?)\/?\.\.\.$/;

/**
 * Whether `word`, after a flag, is that flag's value (`--allowUnreachableCode false`, as
 * tsc takes one) rather than a path: read as a path, `false` would be dropped and the
 * flag kept turned on.
 */
function booleanValue(word: string | undefined, project?: ProjectFacts): boolean {
  return (word === 'true' || word === 'false') && !project?.exists(word);
}

/**
 * Splits a command's arguments: options the tool's knowledge keeps (with their values),
 * the paths it names, and what is left out. A word after a left-out option is taken as
 * its value, never as a path: `--cache-dir .cache` does not make `.cache` a target.
 */
function sortArguments(
  args: readonly string[],
  check: readonly string[],
  keepOptions: readonly string[],
  project: ProjectFacts,
  positionals: ToolCheckOptions['positionals'],
): { kept: string[]; targets: string[]; dropped: string[] } {
  const kept: string[] = [];
  const targets: string[] = [];
  const dropped: string[] = [];
  let afterDropped = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg.startsWith('-') && arg !== '-') {
      const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
      const name = equals === -1 ? arg : arg.slice(0, equals);
      afterDropped = false;
      // What the check already has (`--check` of `ruff format --check`) is neither kept again nor left out.
      if (equals === -1 && check.includes(arg)) continue;
      if (keepOptions.includes(`${name}=`)) {
        const value = equals === -1 ? args[index + 1] : undefined;
        if (equals !== -1) kept.push(arg);
        else if (value !== undefined && !value.startsWith('-')) {
          kept.push(arg, value);
          index += 1;
        } else dropped.push(`\`${arg}\` (no value)`);
      } else if (equals === -1 && keepOptions.includes(name)) {
        kept.push(arg);
        if (booleanValue(args[index + 1], project)) kept.push(args[(index += 1)]!);
      } else {
        dropped.push(`\`${arg}\``);
        afterDropped = equals === -1 && !FLAGS.has(name);
      }
      continue;
    }
    const pattern = GO_PATTERN.exec(arg);
    const path = pattern ? pattern[1] || '.' : arg.replace(/\/+$/, '') || arg;
    if (afterDropped) dropped.push(`\`${arg}\` (taken as the value of the option before it)`);
    else if (positionals === 'drop') dropped.push(`\`${arg}\` (the hook is given file names)`);
    else if (path === '.')
      continue; // the whole project, as the check runs by default
    else if (project.exists(path)) targets.push(pattern ? arg : path);
    else dropped.push(`\`${arg}\` (no such path)`);
    afterDropped = false;
  }
  return { kept, targets, dropped };
}

/**
 * The check a command of a known tool stands for: the tool's own marker gate (its
 * read-only argv, its parser, its fix), with the options of the command that say what is
 * checked (the tool's `commands.keepOptions`: a config path, selected rules) and the
 * paths it names. Output, fixing and installing options are left out, so the check reads
 * as the tool's marker gate does and never writes. Undefined when no known tool runs the
 * command; a sentence when the tool is known but offers no check for it.
 */
export function toolCheck(
  argv: readonly string[],
  project: ProjectFacts,
  options: ToolCheckOptions,
): ToolCheck | string | undefined {
  const words = unwrap([...argv]);
  const tool = toolOfProgram(words[0] ?? '');
  if (!tool) return undefined;
  const gates = tool.gates?.(project, options.source) ?? [];
  if (gates.length === 0) return `mcp-gates knows ${tool.name} but has no check command for it yet`;
  const subcommand = subcommandOf(words);
  const usesSubcommands = gates.some((gate) => subcommandOf(gate.command) !== undefined);
  const gate = usesSubcommands
    ? (gates.find((candidate) => candidate.command[1] === subcommand) ??
      (subcommand === undefined
        ? undefined
        : tool.commands?.subcommandGate?.(subcommand, gates[0]!)))
    : gates[0];
  if (!gate)
    return `\`${words.join(' ')}\` is none of the ${tool.name} checks mcp-gates knows (${gates.map((known) => known.command.slice(0, 2).join(' ')).join(', ')})`;
  const args = words.slice(usesSubcommands ? 2 : 1);
  const sorted = sortArguments(
    args,
    gate.command,
    tool.commands?.keepOptions ?? [],
    project,
    options.positionals,
  );
  const fixes = !readOnlyProgram(words, options.ruffFixes);
  const command = withArguments(gate.command, sorted.kept, sorted.targets);
  const fix = gate.fix ? withArguments(gate.fix, sorted.kept, sorted.targets) : null;
  return {
    tool,
    // Named paths replace the whole project: a call's paths could not narrow them.
    gate: { ...gate!, command, fix, paths: sorted.targets.length > 0 ? 'none' : gate.paths },
    fixes,
    dropped: sorted.dropped,
    targets: sorted.targets,
  };
}

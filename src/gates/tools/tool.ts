import type { GateSpec } from '../gate-spec.js';
import type { Parser } from '../parsers/parser.js';
import type { ScriptKind } from '../script-kind.js';

/**
 * Everything the product knows about one external tool, in one typed descriptor: how a
 * repository shows it uses the tool, the commands it gets, the files it checks, where it
 * writes and how a check sends that elsewhere, which parsers read it, how its version is
 * asked, and whether it runs warm. Detection, changed scope, program lookup, locating,
 * doctor, list and the warm plan read these (tools/index.ts) instead of naming tools.
 */
export interface ToolDescriptor {
  /** The tool's name (unique in the registry; a marker gate's script may cover it by name). */
  name: string;
  /** The program names that run it (argv[0] without directory or Windows extension). */
  programs: readonly string[];
  recognise: Recognition;
  /**
   * The marker gates of a repository that uses the tool (`source` is what recognised it),
   * with the read-only check argv as `command` and the fixing argv as `fix`.
   */
  gates?(project: ProjectFacts, source: string): MarkerGate[];
  /**
   * JavaScript tools: no marker gate when a package.json script already runs the tool or
   * a script gate of the same name exists; `scriptGate` names the script gate that counts
   * as running it (`lint` for eslint).
   */
  yieldsToScripts?: { scriptGate?: string };
  /**
   * The file extensions (no dot, lower case) it checks: a changed scope passes it only
   * these, and an after-edit hook runs it when the edited file has one.
   */
  extensions?: readonly string[];
  /**
   * For a tool that takes no file list (a typecheck of the whole program): the extensions
   * of the files it reads, so an after-edit hook runs its gate when such a file is edited.
   * Without this or `extensions`, any edited file may concern it.
   */
  reads?: readonly string[];
  /**
   * Base names, anywhere in the tree, of files it reads as settings (beside
   * `recognise.configFiles`): an ignore file, another tsconfig. A change to one can change
   * the findings of files that did not change, so a hook runs the gate whole.
   */
  configNames?: readonly RegExp[];
  /**
   * How many warnings a check run with these arguments allows before it fails
   * (`--max-warnings N`), undefined for no limit. At 0 a hook blocks on a new warning as on
   * a new error; above 0 the count is the whole project's, so a hook runs the gate whole.
   */
  warningLimit?(argv: readonly string[]): number | undefined;
  /**
   * The word of its marker command that stands for the whole tree (a glob, for a tool
   * that takes no `.`): a call's paths replace it where it stands, so options and negated
   * globs after it stay (markdownlint-cli2 applies a negation only to the globs before it).
   */
  wholeTreeArgument?: RegExp;
  /**
   * Arguments given before explicit paths so the tool's own excludes still apply (ruff
   * lints an explicitly named excluded file unless told `--force-exclude`).
   */
  explicitPathArgs?: readonly string[];
  /** What a check run writes by default, and how a check sends it to a private directory. */
  writes?: readonly CacheWrite[];
  /** Its own result cache, which an option turns on (`--cache`), if it has one. */
  resultCache?: ResultCacheOptions;
  /** The parser modules that read its outputs (they stay in src/gates/parsers/). */
  outputs: readonly ToolOutput[];
  /** For a package.json script (scripts.ts): what its script words run and how they read. */
  script?: ScriptKnowledge;
  /** How to find the line of a whole-file format finding (locate-format.ts). */
  locate?: FormatLocator;
  /** How `doctor` asks its version (default `--version`). */
  versionArgs?: readonly string[];
  /** Whether it runs warm in `serve`: a worker (src/gates/warm/), or why it runs cold. */
  warm?: WarmKnowledge;
  /** How to get a missing program: its npm package, or an install hint. */
  install?: { npmPackage: string } | { hint: string };
  /**
   * How a command that runs it, written in a pre-commit hook, a tox env or a nox session,
   * becomes its check (detect/tool-command.ts); without it, that command keeps no arguments.
   */
  commands?: CommandKnowledge;
  /**
   * A tool that takes files, not a directory (shellcheck): a call with no paths whose
   * command names no file gets the files `list` finds at run time.
   */
  runTimeFiles?: RunTimeFiles;
  /**
   * A tool that reads each file on its own (a finding on a file comes from that file and
   * the settings alone): a whole-tree command of it written elsewhere (a package.json
   * script, a Makefile recipe) runs on given files instead for a changed scope, a hook or
   * a call's paths, its options kept and its path operands left out.
   */
  onFiles?: OnFiles;
}

/**
 * How a tool's command reads, for leaving out its path operands: its options that take
 * the next word as their value, those that take none, and words first that are no path
 * (`cspell lint`). Any other option makes the command one not narrowed: whether the word
 * after it is its value or a path cannot be told.
 */
export interface OnFiles {
  valueOptions: readonly string[];
  flags: readonly string[];
  subcommands?: readonly string[];
  /**
   * Where the command's own output is not read (shellcheck's default tty report): the
   * options that pick the format (left out, with their values) and what the narrowed
   * command prints instead, read by `parser`.
   */
  readable?: { formatOptions: readonly string[]; args: readonly string[]; parser: string };
}

export interface PreCommitHookKnowledge {
  entry: readonly string[];
  args?: readonly string[];
  /** The hook repository's `rev` is its own version, not the tool's: only `additional_dependencies` pins the tool. */
  revIsNotToolVersion?: boolean;
}

/**
 * The options of a tool's own result cache. A check keeps the cache in the run's private
 * directory (its `writes` redirect): the options that name another place are dropped, so a
 * script's `--cache-location .cache/x` writes nothing in the tree either. The private
 * directory is new for each run, so a cold run with the cache answers as one without it,
 * and a warm worker runs without these options (warm-plan.ts).
 */
export interface ResultCacheOptions {
  /** Options that turn it on. */
  on: readonly string[];
  /** Options that name where it is kept (each takes a value). */
  location: readonly string[];
  /** Its other options that take a value (`--cache-strategy`). */
  settings: readonly string[];
}

/** What a command of a tool, written elsewhere, keeps when it becomes the tool's check. */
export interface CommandKnowledge {
  /**
   * What a pre-commit hook of the tool runs, by hook id: its `entry`, and the `args` it
   * gets when the config gives none (from the hook repository's .pre-commit-hooks.yaml).
   */
  hooks?: Readonly<Record<string, PreCommitHookKnowledge>>;
  /**
   * Options a check keeps (`--config=` takes a value, given as `--config x` or
   * `--config=x`): settings of what is checked, never of output, fixing or installing.
   * Any other option is left out, and the gate's description names it.
   */
  keepOptions: readonly string[];
  /**
   * How a check leaves out what a pre-commit hook's `exclude` (a Python regex on paths
   * from the root) leaves out: an option taking that regex, or one taking directories
   * (used only when the regex is just `^dir/`).
   */
  exclude?: { option: string; takes: 'regex' | 'directories' };
  /** The check of a subcommand none of its marker gates runs (`biome lint`), from its first marker gate. */
  subcommandGate?(subcommand: string, gate: MarkerGate): MarkerGate | undefined;
}

/** How a tool that takes only files gets them when a call names none (run-time-files.ts). */
export interface RunTimeFiles {
  /** Whether the argv already names files (operands), so nothing is added. */
  namesFiles(argv: readonly string[]): boolean;
  /** Which files it checks, among the project's own files (git's tracked and unignored). */
  checks(file: string, head: () => string): boolean;
  /** What the files are, for the report (`shell scripts`). */
  what: string;
  /**
   * It walks directories itself: it gets the top-level entries holding such files instead
   * of the files (what git ignores at the top, `.venv` or `node_modules`, is never read,
   * and the command line stays short).
   */
  topLevel?: boolean;
}

/** How a repository shows it uses a tool; detection tries these in this order. */
export interface Recognition {
  /** Config files in the root; the first that exists is the gate's source. */
  configFiles?: readonly string[];
  /**
   * Config files that count in a directory below the root too (a Go module's go.mod in
   * `arc/`), when the root has none of `configFiles`: the first found is the gate's source.
   */
  nestedConfigFiles?: readonly string[];
  /** Files that count only when they hold the tool's section (`[tool.ruff]` in pyproject.toml). */
  configSections?: readonly { file: string; section: RegExp }[];
  /** Top-level package.json keys holding its config (`eslintConfig`, `prettier`). */
  packageJsonKeys?: readonly string[];
  /** package.json dependencies or devDependencies that mean the repository runs it. */
  dependencies?: readonly string[];
  /** Words in a package.json script body that run it (`next lint`). */
  scriptWords?: readonly string[];
  /** The pre-commit hook ids that run the tool. */
  preCommitHooks?: readonly string[];
}

/** What detection reads of the project root, once, for every tool. */
export interface ProjectFacts {
  root: string;
  packageJson: Record<string, unknown> | undefined;
  /** A root file's text, or undefined when missing or unreadable. */
  readText(relative: string): string | undefined;
  exists(relative: string): boolean;
  /**
   * The directories holding a file of this name, the root (`.`) and those below it
   * (root-relative, forward slashes, shallow first); dependencies, vendored code, fixtures
   * and hidden directories are not looked into.
   */
  directoriesWith(name: string): readonly string[];
  dependsOn(name: string): boolean;
  /** The ids of the hooks `.pre-commit-config.yaml` runs (none when it is absent or unreadable). */
  preCommitHookIds(): readonly string[];
}

/** A gate as a tool module proposes it; detection adds the timeout. */
export type MarkerGate = Omit<GateSpec, 'timeoutMs'>;

/**
 * A path a check run writes (relative to where it runs), and how a check sends it to a
 * private temporary directory: an environment variable set to that directory (or to a
 * value that turns the cache off), or
 * arguments naming a place inside it (`applies` says when: a version that has the option,
 * argv the user has not already set).
 */
export interface CacheWrite {
  path: string;
  why: string;
  redirect?:
    | {
        env: string;
        /**
         * What turns the cache off where it cannot be sent elsewhere (set for every gate
         * run, warm workers included); without it the variable names the private directory.
         */
        value?: string;
        /**
         * A build directory whose loss costs a whole build (cargo's target/): the variable
         * names a directory kept for the run's directory in the user's cache instead of
         * the run's temporary one, and a value the user set outside the tree is left as
         * it is. Not watched: the user's own builds write the in-tree place at any time.
         */
        kept?: true;
      }
    | {
        args: (privateDirectory: string) => string[];
        applies: (argv: readonly string[], version: string | undefined) => boolean;
      };
}

export interface ToolOutput {
  parser: Parser;
  /** A machine format (JSON): the report lists its findings as text instead of the raw output. */
  machineFormat?: boolean;
}

export interface ScriptKnowledge {
  /** The parser of its default text output, for a script that cannot be split. */
  textParser?: string;
  /** The parser for one command's own output, or undefined when it is no read-only check we read. */
  commandParser?(args: readonly string[]): string | undefined;
  /** What a script whose body runs only this tool is (`mutating`: it passes --fix, --write...). */
  kind?(body: string, mutating: boolean): ScriptKind | undefined;
  /**
   * Whether a script that is this one command runs as the gate's own step rather than
   * through the package manager: only then can a `writes` redirect by argument reach it
   * (stylelint deletes or writes .stylelintcache in the tree unless given --cache-location).
   */
  runsDirectly?(args: readonly string[]): boolean;
}

/**
 * A formatter whose check names files but no line: `argv` prints one file formatted
 * without writing it (the text on stdin when `feedsText`); `rule` is the finding's rule.
 */
export interface FormatLocator {
  rule: string;
  argv: (absolute: string) => string[];
  feedsText: boolean;
  /** A warm worker of the tool may print it (serve only). */
  warmWorker?: WarmTool;
}

/** The tools a warm worker runs (warm/warm-pool.ts). */
export type WarmTool = 'eslint' | 'prettier' | 'tsc';

export type WarmKnowledge =
  /**
   * The worker that runs it; whether the project's installed copy can run there is the
   * worker's own decision (warm/warm-entry.ts), asked by the warm plan.
   */
  { worker: WarmTool } | { cold: string };

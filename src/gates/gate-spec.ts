/** How a tool call's `paths` reach the command. */
export type PathsMode = 'append' | 'none';

/** One command of a multi-step check, read by its own parser. */
export interface GateStep {
  /** argv, never a shell string. */
  command: string[];
  parser: string;
}

/** One gate as served: from mcp-gates.json or from detection. */
export interface GateSpec {
  /** The tool name; its fix tool is `<name>_fix`. */
  name: string;
  description: string;
  /** argv, never a shell string. */
  command: string[];
  /** argv of the fixing command, or null when the gate cannot fix. */
  fix: string[] | null;
  /** A findings parser name (see parsers/index.ts). */
  parser: string;
  timeoutMs: number;
  /** The result budget in characters (mcp-gates.json `maxChars`); absent: the default. */
  maxChars?: number;
  /**
   * `append`: a call's paths go at the end of argv, replacing a final `.` (so `eslint .`
   * checks the whole project by default and only the given paths when called with some).
   * `none`: the gate always runs as configured and takes no paths.
   */
  paths: PathsMode;
  /**
   * Detection only, optional: the check runs these commands one after another instead of
   * `command` (a package.json script `a && b` split into its tools). Every step runs even
   * when an earlier one failed; the gate fails when any step fails. `command` stays the
   * script's own runner, for the description and for hosts that show it.
   */
  steps?: GateStep[];
  /**
   * Detection only, optional: where the gate runs, relative to the served root (a
   * workspace package's gates run in the package, the workspace root's in the root).
   * Findings stay relative to the served root.
   */
  cwd?: string;
  /** `config` or the file detection read (e.g. `package.json`, `eslint.config.js`). */
  source: string;
  /**
   * Set by detection only, for a check whose argv is completed at run time with a private
   * temporary directory outside the tree (run/tsc-build.ts): `tsc-build` (command
   * `[tsc | vue-tsc, '-b', <project>, ...]`) checks the project and everything it
   * references; `tsc-noemit` adds `--tsBuildInfoFile` so an incremental project writes
   * nothing into the tree.
   */
  prepare?: 'tsc-build' | 'tsc-noemit';
  /**
   * Files (relative to where the gate runs) that the tool writes as a by-product when they
   * are missing, e.g. the Cargo.lock cargo generates for a crate that commits none. A check
   * removes the ones it created, so it leaves the tree as it found it.
   */
  derivedFiles?: string[];
  /**
   * Detection only: the tool version the gate's source pins (a pre-commit hook's `rev`),
   * which `doctor` compares with the installed one.
   */
  pinned?: { tool: string; version: string; from: string };
  /**
   * Detection only: the command of the one tool a whole-project check runs (a package.json
   * script's, a Makefile target's), its own options kept and its path operands left out,
   * which a check on given files runs instead (a call's `paths`, a changed scope, a hook
   * after an edit): the tool reads each file on its own, so its findings on those files
   * are the whole run's. The whole run stays `command`, as CI runs it.
   */
  narrow?: { command: string[]; parser: string };
  /** mcp-gates.json `"warm": false`: never run this gate in a warm worker. */
  warm?: boolean;
  /**
   * Detection only: the files a pre-commit hook is given, which the check is given too
   * (run/run-time-files.ts): the project's files, listed with git when it runs (a call's
   * paths narrow them), that the hook's `files` pattern finds, its `exclude` pattern does
   * not, and that have one of the tool's extensions (the hook's `types`, as near as the
   * tool tells). The patterns are pre-commit's Python regexes, written for JavaScript.
   */
  fileFilter?: FileFilter;
}

/** A pre-commit hook's file selection (GateSpec.fileFilter). */
export interface FileFilter {
  include?: { source: string; flags: string };
  exclude?: { source: string; flags: string };
  extensions?: readonly string[];
  /** What selects the files, for the report (`the pre-commit hook's exclude: ^vendor/`). */
  what: string;
}

export const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;
export const MIN_TIMEOUT_MS = 1000;
export const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/** Tool-name safe, short, and leaves room for the `_fix` suffix. */
export const GATE_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,59}$/;

export function fixToolName(gateName: string): string {
  return `${gateName}_fix`;
}

/** Whether a check of the gate takes paths: its own command does, or its narrowed one. */
export function takesPaths(gate: GateSpec): boolean {
  return gate.paths === 'append' || gate.narrow !== undefined;
}

/**
 * The gate a check on given files runs: the narrowed tool command where the gate has one
 * (its own parser, paths appended, no steps), else the gate itself.
 */
export function gateOnFiles(gate: GateSpec): GateSpec {
  if (!gate.narrow || gate.paths === 'append') return gate;
  const { steps: _steps, narrow, ...rest } = gate;
  return { ...rest, command: narrow.command, parser: narrow.parser, paths: 'append' };
}

/** The argv for one call: the command with the call's paths applied per `paths` mode. */
export function commandWithPaths(argv: readonly string[], paths: readonly string[]): string[] {
  if (paths.length === 0) return [...argv];
  const base = argv.length > 1 && argv[argv.length - 1] === '.' ? argv.slice(0, -1) : [...argv];
  return [...base, ...paths];
}

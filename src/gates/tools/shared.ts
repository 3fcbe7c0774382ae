import fs from 'node:fs';
import path from 'node:path';
import type { ScriptKnowledge } from './tool.js';

/**
 * What several tool modules share: the file families they check and the words of an
 * option. Kept here so two tools that read the same files say so with one list.
 */

/** JavaScript and TypeScript sources. */
export const SCRIPT_EXTENSIONS = ['js', 'jsx', 'ts', 'tsx', 'mjs', 'cjs', 'mts', 'cts'];
export const PYTHON_EXTENSIONS = ['py', 'pyi'];

/**
 * Directories a marker gate over the whole tree never checks, whatever the ignore files
 * say: dependencies, Yarn's committed releases and plug-ins, build output, vendored code.
 */
export const NEVER_CHECKED = [
  'node_modules',
  '.yarn',
  'dist',
  'build',
  'coverage',
  'out',
  'vendor',
];

/** Flags that make a command write what it checks. */
export const MUTATING = /(^|\s)(--fix|--write|-w|--apply|--apply-unsafe)(\s|=|$)/;

/** The value of `--name value`, `--name=value` or `-n value` in args, if given. */
export function optionValue(
  args: readonly string[],
  long: string,
  short?: string,
): string | undefined {
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg.startsWith(`${long}=`)) return arg.slice(long.length + 1);
    if (arg === long || (short !== undefined && arg === short)) return args[index + 1] ?? '';
  }
  return undefined;
}

/** argv without `flags` and without `valued` options and their values (`--opt value`, `--opt=value`). */
export function withoutOptions(
  argv: readonly string[],
  flags: readonly string[],
  valued: readonly string[],
): string[] {
  const kept: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index]!;
    if (flags.includes(word) || valued.some((option) => word.startsWith(`${option}=`))) continue;
    if (valued.includes(word)) index += 1;
    else kept.push(word);
  }
  return kept;
}

/** `--max-warnings N` (or `=N`): the warnings the check allows (ESLint, stylelint, oxlint). */
export function maxWarnings(argv: readonly string[]): number | undefined {
  const value = optionValue(argv, '--max-warnings');
  const limit = value === undefined ? NaN : Number(value);
  // A negative limit (ESLint's -1) is no limit.
  return Number.isInteger(limit) && limit >= 0 ? limit : undefined;
}

/** Whether argv already sets `option` (`--opt value` or `--opt=value`). */
export function setsOption(argv: readonly string[], ...options: string[]): boolean {
  return argv.some((word) =>
    options.some((option) => word === option || word.startsWith(`${option}=`)),
  );
}

/** [major, minor] of a version string (pre-release tails ignored), or undefined. */
export function majorMinor(version: string | undefined): [number, number] | undefined {
  if (version === undefined) return undefined;
  const [major, minor] = version.split('.').map((part) => Number.parseInt(part, 10));
  if (major === undefined || Number.isNaN(major)) return undefined;
  return [major, Number.isNaN(minor) || minor === undefined ? 0 : minor];
}

/** A lint tool's script: `--fix` makes it a fixer. */
export function lintScriptKind(_body: string, mutating: boolean): 'lint' | 'lint-fix' {
  return mutating ? 'lint-fix' : 'lint';
}

/** The installed package's version (node_modules up from root), or undefined. */
export function installedVersion(root: string, name: string): string | undefined {
  for (let current = path.resolve(root); ; current = path.dirname(current)) {
    try {
      const manifest = JSON.parse(
        fs.readFileSync(path.join(current, 'node_modules', name, 'package.json'), 'utf8'),
      ) as { version?: unknown };
      if (typeof manifest.version === 'string') return manifest.version;
    } catch {
      // Not installed here: look further up.
    }
    if (path.dirname(current) === current) return undefined;
  }
}

/** The installed package's major version (node_modules up from root), or undefined. */
export function installedMajor(root: string, name: string): number | undefined {
  const version = installedVersion(root, name);
  return version === undefined ? undefined : Number.parseInt(version, 10);
}

/**
 * A pyproject.toml that declares `name` as a dependency: a quoted requirement opening a
 * line or following `[` or `,` in a PEP 621 or PEP 735 list (`"black>=23"`,
 * `'black[jupyter]'`; not `profile = "black"`), or a key of a Poetry dependency table
 * (`black = "^23"` under `[tool.poetry.group.dev.dependencies]`; not the console script
 * `yamllint = "yamllint.cli:run"` of `[project.scripts]`).
 */
export function pythonDependency(name: string): RegExp {
  return new RegExp(
    `(?:^|[[,])[ \\t]*["']${name}(?:\\[[^\\]"'\\n]*\\])?[ \\t]*(?:[<>=!~;@][^"'\\n]*)?["']|^\\[tool\\.poetry\\.(?:group\\.[^\\].\\n]+\\.)?(?:dev-)?dependencies\\][^\\n]*\\n(?:(?![ \\t]*\\[)[^\\n]*\\n)*?[ \\t]*${name}[ \\t]*=`,
    'm',
  );
}

/**
 * What a formatter's script is (black, isort): a check read by `parser` when it passes one
 * of its check options, else a rewrite (whose output is no check to read).
 */
export function formatterScript(parser: string, checkOptions: readonly string[]): ScriptKnowledge {
  return {
    textParser: parser,
    commandParser: (args) => (setsOption(args, ...checkOptions) ? parser : undefined),
    kind: (body) =>
      setsOption(body.split(/\s+/), ...checkOptions) ? 'format-check' : 'format-write',
  };
}

/**
 * Whether an argv running `program` names operands (files or directories): any word after
 * the program that is neither an option nor the value of one of `valueOptions`.
 */
export function namesOperands(
  program: string,
  valueOptions: ReadonlySet<string>,
): (argv: readonly string[]) => boolean {
  const isProgram = new RegExp(`(^|[\\\\/])${program}(\\.exe)?$`, 'i');
  return (argv) => {
    const start = argv.findIndex((word) => isProgram.test(word));
    for (let index = start + 1; index < argv.length; index += 1) {
      const word = argv[index]!;
      if (word === '--') return index + 1 < argv.length;
      if (!word.startsWith('-') || word === '-') return true;
      if (valueOptions.has(word)) index += 1;
    }
    return false;
  };
}

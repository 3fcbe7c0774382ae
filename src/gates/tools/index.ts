import path from 'node:path';
import { commandWithPaths } from '../gate-spec.js';
import { actionlint } from './actionlint.js';
import { biome } from './biome.js';
import { black } from './black.js';
import { clippy, rustfmt } from './cargo.js';
import { codespell } from './codespell.js';
import { editorconfigChecker } from './editorconfig-checker.js';
import { cspell } from './cspell.js';
import { eslint, eslintDaemon } from './eslint.js';
import { flake8 } from './flake8.js';
import { gofmt, goVet } from './go.js';
import { golangciLint } from './golangci-lint.js';
import { hadolint } from './hadolint.js';
import { isort } from './isort.js';
import { knip } from './knip.js';
import { markdownlintCli2 } from './markdownlint-cli2.js';
import { markdownlint } from './markdownlint.js';
import { mypy } from './mypy.js';
import { oxfmt } from './oxfmt.js';
import { oxlint } from './oxlint.js';
import { prettier } from './prettier.js';
import { pylint } from './pylint.js';
import { pyright } from './pyright.js';
import { ruff } from './ruff.js';
import { nextLint, standard } from './script-linters.js';
import { shellcheck } from './shellcheck.js';
import { shfmt } from './shfmt.js';
import { stylelint } from './stylelint.js';
import { tsc, vueTsc } from './tsc.js';
import type { CacheWrite, ToolDescriptor } from './tool.js';
import { tsd } from './tsd.js';
import { tsgo } from './tsgo.js';
import { vitest } from './vitest.js';
import { xo } from './xo.js';
import { yamllint } from './yamllint.js';

export type { ToolDescriptor } from './tool.js';

/**
 * Every tool the product knows, one module each. The order is the order detection
 * proposes marker gates and the order a script's tools are named (so a script running
 * several reads their outputs in this order). Adding a tool: one module, listed here.
 */
export const TOOLS: readonly ToolDescriptor[] = [
  eslint,
  prettier,
  // Before tsc: a project that depends on tsgo gets its typecheck from it.
  tsgo,
  tsc,
  biome,
  oxlint,
  vueTsc,
  stylelint,
  // Before markdownlint-cli: both read .markdownlint.* and serve the `markdownlint` gate.
  markdownlintCli2,
  markdownlint,
  cspell,
  knip,
  tsd,
  nextLint,
  xo,
  standard,
  vitest,
  oxfmt,
  clippy,
  rustfmt,
  ruff,
  mypy,
  pyright,
  goVet,
  gofmt,
  eslintDaemon,
  black,
  isort,
  flake8,
  pylint,
  codespell,
  shellcheck,
  shfmt,
  yamllint,
  actionlint,
  hadolint,
  editorconfigChecker,
  golangciLint,
];

/** The program's name without directory or Windows extension. */
export function programName(program: string): string {
  return path.basename(program).replace(/\.(cmd|exe|js|cjs|mjs)$/i, '');
}

const BY_PROGRAM = new Map(
  TOOLS.flatMap((tool) => tool.programs.map((program) => [program, tool] as const)),
);

/** The tool a program (a name or a path) runs, if the registry knows it. */
export function toolOfProgram(program: string): ToolDescriptor | undefined {
  return BY_PROGRAM.get(programName(program));
}

/**
 * The known tool a command runs, looking past runners (npx, pnpm exec, node_modules/.bin
 * paths) in its first four words; `wanted` skips tools that do not answer the question.
 */
export function toolOfCommand(
  argv: readonly string[],
  wanted: (tool: ToolDescriptor) => boolean = () => true,
): ToolDescriptor | undefined {
  for (const word of argv.slice(0, 4)) {
    const tool = toolOfProgram(word);
    if (tool && wanted(tool)) return tool;
  }
  return undefined;
}

/** What every tool reads as settings: the package's manifest and lockfiles (plugins, versions). */
const SHARED_SETTINGS =
  /^(package\.json|package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|pnpm-workspace\.yaml|yarn\.lock|bun\.lockb?|pyproject\.toml|setup\.cfg|tox\.ini|go\.mod|go\.sum|Cargo\.toml|Cargo\.lock)$/;

/**
 * Whether the tool reads `file` (a path relative to the root) as settings, so that its
 * change can change the findings of files that did not change: the tool's config files and
 * `configNames` anywhere in the tree, and the manifests and lockfiles every tool depends on.
 */
export function readsAsSettings(tool: ToolDescriptor, file: string): boolean {
  const name = path.basename(file);
  if (SHARED_SETTINGS.test(name)) return true;
  const { configFiles = [], configSections = [] } = tool.recognise;
  if (configFiles.some((config) => path.basename(config) === name)) return true;
  if (configSections.some((section) => path.basename(section.file) === name)) return true;
  return (tool.configNames ?? []).some((pattern) => pattern.test(name));
}

/** A script word and the tool it runs, in registry order. */
export const SCRIPT_WORDS: readonly { word: string; tool: ToolDescriptor }[] = TOOLS.flatMap(
  (tool) => (tool.recognise.scriptWords ?? []).map((word) => ({ word, tool })),
);

/** The tool a script word names. */
export function toolOfScriptWord(word: string): ToolDescriptor | undefined {
  return SCRIPT_WORDS.find((entry) => entry.word === word)?.tool;
}

/** Parsers whose raw output is a machine format: the report lists their findings as text. */
export const MACHINE_FORMAT_PARSERS: ReadonlySet<string> = new Set(
  TOOLS.flatMap((tool) =>
    tool.outputs.filter((output) => output.machineFormat).map((output) => output.parser.name),
  ),
);

/**
 * Every place a known tool writes during a check, relative to where it runs (for the tree
 * watch); kept build directories are not: the user's own builds write them.
 */
export const KNOWN_WRITES: readonly string[] = [
  ...new Set(
    TOOLS.flatMap((tool) =>
      (tool.writes ?? [])
        .filter((write) => !(write.redirect && 'kept' in write.redirect))
        .map((write) => write.path),
    ),
  ),
];

/** The writes of the tools that set an environment variable to redirect them. */
export const ENV_REDIRECTS: readonly CacheWrite[] = TOOLS.flatMap((tool) =>
  (tool.writes ?? []).filter((write) => write.redirect && 'env' in write.redirect),
);

/**
 * A command given explicit paths, with the arguments its tool needs so its own excludes
 * still apply to them (ruff's --force-exclude), unless the command already has them. The
 * paths replace a final `.`, or the tool's whole-tree glob where it stands.
 */
export function commandForPaths(argv: readonly string[], paths: readonly string[]): string[] {
  if (paths.length === 0) return [...argv];
  const wholeTree = toolOfCommand(
    argv,
    (tool) => tool.wholeTreeArgument !== undefined,
  )?.wholeTreeArgument;
  const target = wholeTree ? argv.findIndex((word) => wholeTree.test(word)) : -1;
  const command =
    target === -1
      ? commandWithPaths(argv, paths)
      : [...argv.slice(0, target), ...paths, ...argv.slice(target + 1)];
  const at = target === -1 ? command.length - paths.length : target;
  const extra = (
    toolOfCommand(argv, (tool) => tool.explicitPathArgs !== undefined)?.explicitPathArgs ?? []
  ).filter((arg) => !argv.includes(arg));
  if (extra.length === 0) return command;
  return [...command.slice(0, at), ...extra, ...command.slice(at)];
}

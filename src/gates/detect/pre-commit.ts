import { TOOLS } from '../tools/index.js';
import type { FileFilter } from '../gate-spec.js';
import type { MarkerGate, ProjectFacts, ToolDescriptor } from '../tools/tool.js';
import { splitChain } from './scripts.js';
import { checkIdentity, toolCheck, withArguments, type NotServed } from './tool-command.js';
import { unwrap } from './read-only-program.js';
import { parseSource } from './source-document.js';
import { runnerTask } from './workflows.js';

export const PRE_COMMIT_CONFIG = '.pre-commit-config.yaml';

/** One hook of a .pre-commit-config.yaml, with the repository that provides it. */
export interface PreCommitHook {
  /** The hook repository's URL, `local` or `meta`. */
  repo: string;
  rev?: string;
  /** The tag a commit `rev` was frozen from (`# frozen: v0.15.9`, written by `pre-commit autoupdate --freeze`). */
  frozen?: string;
  id: string;
  /** The name `pre-commit run <alias>` also runs it by. */
  alias?: string;
  entry?: string;
  args?: string[];
  files?: string;
  exclude?: string;
  /** `types`, `types_or` and `exclude_types` the config sets, as written. */
  types: string[];
  language?: string;
  additionalDependencies: string[];
  passFilenames: boolean;
}

/** A gate a hook of a known tool gives, and the tool version the hook pins, if any. */
export interface HookGate {
  tool: ToolDescriptor;
  gate: MarkerGate;
}

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.map(String) : undefined;
const text = (value: unknown): string | undefined =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;

/** The hooks of a .pre-commit-config.yaml, in order, or why it cannot be read. */
export function parsePreCommitConfig(source: string): PreCommitHook[] | string {
  const document = parseSource(source, 'yaml');
  if ('problem' in document) return document.problem;
  const repos = (document.value as { repos?: unknown } | null)?.repos;
  if (!Array.isArray(repos)) return 'it has no `repos` list';
  // A frozen rev's tag lives in a YAML comment, which the parsed document no longer has.
  const frozen = new Map(
    [...source.matchAll(/\brev:\s*['"]?([0-9a-f]{7,40})['"]?\s+#\s*frozen:\s*(\S+)/g)].map(
      (match) => [match[1]!, match[2]!] as const,
    ),
  );
  const hooks: PreCommitHook[] = [];
  for (const repo of repos as Record<string, unknown>[]) {
    if (!repo || typeof repo !== 'object' || !Array.isArray(repo.hooks)) continue;
    for (const hook of repo.hooks as Record<string, unknown>[]) {
      const id = text(hook?.id);
      if (!id) continue;
      const types = ['types', 'types_or', 'exclude_types'].flatMap((key) =>
        hook[key] === undefined ? [] : [`${key}: [${(strings(hook[key]) ?? []).join(', ')}]`],
      );
      hooks.push({
        repo: text(repo.repo) ?? '',
        ...(text(repo.rev) !== undefined ? { rev: text(repo.rev)! } : {}),
        ...(frozen.has(text(repo.rev) ?? '') ? { frozen: frozen.get(text(repo.rev)!)! } : {}),
        id,
        ...(text(hook.alias) !== undefined ? { alias: text(hook.alias)! } : {}),
        ...(text(hook.entry) !== undefined ? { entry: text(hook.entry)! } : {}),
        ...(strings(hook.args) ? { args: strings(hook.args)! } : {}),
        ...(text(hook.files) !== undefined ? { files: text(hook.files)! } : {}),
        ...(text(hook.exclude) !== undefined ? { exclude: text(hook.exclude)! } : {}),
        types,
        ...(text(hook.language) !== undefined ? { language: text(hook.language)! } : {}),
        additionalDependencies: strings(hook.additional_dependencies) ?? [],
        passFilenames: hook.pass_filenames !== false,
      });
    }
  }
  return hooks;
}

/**
 * The directories a hook's `files` pattern keeps (`^src/`, `^(src|tests)/`), when it is only
 * that; with `extensions` (the tool's), also the files of those under them (`^src/.*\.py$`).
 */
export function filesAsDirectories(
  pattern: string,
  project: ProjectFacts,
  extensions?: readonly string[],
): string[] | undefined {
  let directoryPattern = pattern.replace(/\\\//g, '/');
  const files = /\/\.\*(?:\\\.([a-z0-9]+))?\$?$/.exec(directoryPattern);
  if (files && extensions && (files[1] === undefined || extensions.includes(files[1])))
    directoryPattern = directoryPattern.slice(0, files.index + 1);
  const match = /^\^(?:\(([^()]+)\)|([^()|]+))\/?$/.exec(directoryPattern);
  const body = match?.[1] ?? match?.[2];
  if (body === undefined) return undefined;
  const directories = body.split('|').map((part) => part.replace(/\/$/, ''));
  const plain = directories.every(
    (directory) => /^[\w-]+(\/[\w-]+)*$/.test(directory) && project.exists(directory),
  );
  return plain ? directories : undefined;
}

/** A pattern written over several lines (a YAML block), on one line for a description. */
function oneLine(pattern: string): string {
  return pattern.replace(/\s+/g, ' ').trim();
}

/** Python's verbose-mode pattern without its whitespace and comments (outside classes and escapes). */
function withoutVerboseSpace(pattern: string): string {
  let result = '';
  let inClass = false;
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index]!;
    if (char === '\\') {
      result += char + (pattern[index + 1] ?? '');
      index += 1;
    } else if (inClass) {
      if (char === ']') inClass = false;
      result += char;
    } else if (char === '[') {
      inClass = true;
      result += char;
    } else if (char === '#') {
      while (index < pattern.length && pattern[index] !== '\n') index += 1;
    } else if (!/\s/.test(char)) result += char;
  }
  return result;
}

/**
 * A pre-commit pattern (a Python regex, searched in a root-relative path) as a JavaScript
 * one with the same matches: leading inline flags (`(?x)` verbose, `(?i)`), named groups
 * `(?P<name>…)`, `(?P=name)`, `\A` and `\Z`. Undefined when JavaScript reads it otherwise
 * or not at all.
 */
export function pythonPattern(pattern: string): { source: string; flags: string } | undefined {
  let source = pattern;
  let flags = '';
  const inline = /^\(\?([aiLmsux]+)\)/.exec(source);
  if (inline) {
    source = source.slice(inline[0].length);
    if (inline[1]!.includes('L')) return undefined;
    if (inline[1]!.includes('x')) source = withoutVerboseSpace(source);
    flags = [...new Set(inline[1]!.replace(/[aux]/g, ''))].join('');
  }
  // A flag group anywhere else, a possessive or atomic group: read otherwise, or not at all.
  if (/\(\?[aiLmsux-]+[:)]|\(\?>|[*+?}]\+/.test(source)) return undefined;
  source = source
    .replace(/\(\?P</g, '(?<')
    .replace(/\(\?P=(\w+)\)/g, '\\k<$1>')
    .replace(/\\A/g, '^')
    .replace(/\\Z/g, '$(?![\\s\\S])');
  try {
    new RegExp(source, flags);
  } catch {
    return undefined;
  }
  return { source, flags };
}

/** The tool's options that exclude what a hook's `exclude` does, when the tool can say it. */
function excludeArguments(
  pattern: string,
  tool: ToolDescriptor,
  project: ProjectFacts,
): string[] | undefined {
  const exclude = tool.commands?.exclude;
  if (exclude?.takes === 'regex') return [exclude.option, pattern];
  const directories = exclude && filesAsDirectories(pattern, project);
  return directories?.flatMap((directory) => [exclude!.option, directory]);
}

/** The tool version a hook pins: a matching `additional_dependencies` entry, else its `rev`. */
function pinnedVersion(
  hook: PreCommitHook,
  tool: ToolDescriptor,
): { version: string; from: string } | undefined {
  const names = new Set([
    tool.name,
    ...tool.programs,
    ...(tool.install && 'npmPackage' in tool.install ? [tool.install.npmPackage] : []),
  ]);
  for (const dependency of hook.additionalDependencies) {
    const match = /^(@?[^@=<>~!\s]+)(?:@|==)v?(\d[^\s,;]*)$/.exec(dependency);
    if (match && names.has(match[1]!))
      return { version: match[2]!, from: `additional_dependencies ${dependency}` };
  }
  const knowledge = tool.commands?.hooks?.[hook.id];
  if (hook.rev === undefined || knowledge?.revIsNotToolVersion) return undefined;
  const tag = hook.frozen ?? hook.rev;
  const rev = /^v?(\d+(?:\.\d+)+(?:[-.+][\w.]+)?)$/.exec(tag);
  const written = hook.frozen ? `${hook.rev} # frozen: ${hook.frozen}` : hook.rev;
  return rev ? { version: rev[1]!, from: `rev ${written} of ${hook.repo}` } : undefined;
}

/**
 * A hook gate's name: its check's (`mypy`), or for a second hook of that check with other
 * options or files, `<check>.<alias or id>` (`mypy.mypy-tests`), numbered when that is
 * taken too; stable while the config's hooks keep their order.
 */
function hookGateName(check: string, hook: PreCommitHook, taken: readonly string[]): string {
  if (!taken.includes(check)) return check;
  const base = `${check}.${(hook.alias ?? hook.id).replace(/[^A-Za-z0-9_.-]/g, '_')}`.slice(0, 56);
  let name = base;
  for (let index = 2; taken.includes(name); index += 1) name = `${base}.${index}`;
  return name;
}

/** Programs that run a script named as their first argument. */
const INTERPRETERS = new Set(['sh', 'bash', 'python', 'python3', 'node', 'perl', 'ruby']);

/**
 * A local hook whose entry runs a script of the repository (`./scripts/check.sh`, `python
 * tools/lint.py`): a gate read by the generic parser, given what pre-commit would give it
 * (no files with `pass_filenames: false`, else the files its `files`/`exclude` select,
 * listed with git). Undefined when the entry names no file of the repository; why not,
 * when its file selection cannot be followed.
 */
function ownScriptHook(
  hook: PreCommitHook,
  argv: readonly string[],
  project: ProjectFacts,
): MarkerGate | string | undefined {
  const [first, second] = argv;
  const file = first !== undefined && INTERPRETERS.has(first) ? second : first;
  if (file === undefined || file.startsWith('-')) return undefined;
  const relative = file.replace(/^\.\//, '');
  if (relative.startsWith('/') || relative.split('/').includes('..') || !project.exists(relative))
    return undefined;
  const base = {
    name: hook.id.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^[^A-Za-z]+/, '') || 'hook',
    command: [...argv],
    fix: null,
    parser: 'generic',
    source: PRE_COMMIT_CONFIG,
  };
  const what = `the repository's own script ${relative}, run by the local pre-commit hook "${hook.id}"; its output read as file:line findings; it is no known read-only check: a run that changes the tree fails`;
  if (!hook.passFilenames) return { ...base, description: what, paths: 'none' };
  if (hook.types.length > 0)
    return `it is given the files of its ${hook.types.join(', ')}, which a gate cannot select for a program it does not know (set pass_filenames: false, or name the files in mcp-gates.json)`;
  const include = hook.files === undefined ? undefined : pythonPattern(hook.files);
  const exclude =
    hook.exclude === undefined || hook.exclude === '^$' ? undefined : pythonPattern(hook.exclude);
  if (
    (hook.files !== undefined && !include) ||
    (hook.exclude !== undefined && hook.exclude !== '^$' && !exclude)
  )
    return 'its files or exclude pattern is one JavaScript reads otherwise: the files it is given cannot be selected';
  const selects = [
    ...(hook.files !== undefined ? [`files: ${oneLine(hook.files)}`] : []),
    ...(exclude ? [`exclude: ${oneLine(hook.exclude!)}`] : []),
  ];
  return {
    ...base,
    description: `${what}; given the files ${selects.length > 0 ? `the hook's ${selects.join(', ')} selects` : 'git lists'}, as pre-commit gives them`,
    paths: 'append',
    fileFilter: {
      ...(include ? { include } : {}),
      ...(exclude ? { exclude } : {}),
      what:
        selects.length > 0
          ? `the pre-commit hook's ${selects.join(', ')}`
          : 'the local pre-commit hook (every file)',
    },
  };
}

/** A local hook whose entry runs one of the project's tasks (`make lint`, `npm run lint`). */
export interface TaskHook {
  name: string;
  words: string[];
  task: { runner: string; task: string };
}

/** The tool whose pre-commit hook this is: by hook id for a hook repository, by entry for a local hook. */
function toolOfHook(hook: PreCommitHook): ToolDescriptor | undefined {
  return TOOLS.find((tool) => tool.recognise.preCommitHooks?.includes(hook.id));
}

/**
 * Gates from the hooks of the root's .pre-commit-config.yaml that run a known tool:
 * each runs the tool as installed in the project (its environment first, then PATH),
 * never `pre-commit run`, which would install the hook's environment from the network
 * and let a fixing hook rewrite the tree. A read-only hook becomes the tool's check; a
 * fixing one (ruff with `--fix`, ruff-format, prettier, black...) its read-only check
 * with the tool's fix as the gate's fix. Every other hook is listed as not served.
 */
export function preCommitGates(
  project: ProjectFacts,
  ruffFixes: boolean,
): {
  gates: HookGate[];
  notServed: NotServed[];
  unappliedChecks: string[][];
  tasks: TaskHook[];
  scripts: MarkerGate[];
} {
  const gates: HookGate[] = [];
  const notServed: NotServed[] = [];
  const unappliedChecks: string[][] = [];
  const tasks: TaskHook[] = [];
  const scripts: MarkerGate[] = [];
  const configText = project.readText(PRE_COMMIT_CONFIG);
  if (configText === undefined) return { gates, notServed, unappliedChecks, tasks, scripts };
  const hooks = parsePreCommitConfig(configText);
  const skip = (name: string, why: string) =>
    notServed.push({ source: PRE_COMMIT_CONFIG, name, why });
  if (typeof hooks === 'string') {
    skip('(all hooks)', `${PRE_COMMIT_CONFIG} is not read: ${hooks}`);
    return { gates, notServed, unappliedChecks, tasks, scripts };
  }
  for (const hook of hooks) {
    const name = `hook ${hook.id}`;
    if (hook.repo === 'meta') {
      skip(name, "pre-commit's own meta hook: it checks the pre-commit config, not the code");
      continue;
    }
    const local = hook.repo === 'local';
    if (local && ['pygrep', 'fail'].includes(hook.language ?? '')) {
      skip(
        name,
        `a \`language: ${hook.language}\` hook is pre-commit's own check, with no program to run`,
      );
      continue;
    }
    const tool = local ? undefined : toolOfHook(hook);
    const knowledge = tool?.commands?.hooks?.[hook.id];
    const entry =
      hook.entry !== undefined
        ? splitChain(hook.entry)
        : tool
          ? [[...(knowledge?.entry ?? [tool.programs[0]!])]]
          : undefined;
    if (!local && !tool) {
      skip(name, `mcp-gates knows no tool that the hook runs (from ${hook.repo})`);
      continue;
    }
    if (!entry || entry.length !== 1) {
      skip(name, `its entry \`${hook.entry}\` is not one plain command`);
      continue;
    }
    const argv = [...entry[0]!, ...(hook.args ?? knowledge?.args ?? [])];
    // `entry: make lint`: the project's task, whose gate (if any) detection finds later.
    const words = unwrap([...argv]);
    const task = local ? runnerTask(words) : undefined;
    if (task && task.runner !== 'pre-commit') {
      tasks.push({ name, words, task });
      continue;
    }
    const check = toolCheck(argv, project, {
      source: PRE_COMMIT_CONFIG,
      ruffFixes,
      positionals: hook.passFilenames ? 'drop' : 'targets',
    });
    if (check === undefined) {
      const script = local ? ownScriptHook(hook, argv, project) : undefined;
      if (typeof script === 'object') scripts.push(script);
      else skip(name, script ?? `its entry \`${argv.join(' ')}\` runs no tool mcp-gates knows`);
      continue;
    }
    if (typeof check === 'string') {
      skip(name, check);
      continue;
    }
    const notes: string[] = [];
    let { command, fix, paths } = check.gate;
    const filter: Omit<FileFilter, 'what'> = {};
    const selects: string[] = [];
    const unapplied: string[] = [];
    // Without file names, `files` and `exclude` only decide whether pre-commit runs the hook.
    const fileNames = hook.passFilenames && check.targets.length === 0;
    const directories =
      hook.files === undefined || !fileNames
        ? undefined
        : filesAsDirectories(hook.files, project, check.tool.extensions);
    const include = hook.files === undefined ? undefined : pythonPattern(hook.files);
    if (directories) {
      // `files: ^src/` keeps the hook to src: so does the check.
      command = withArguments(command, [], directories);
      fix = fix && withArguments(fix, [], directories);
      paths = 'none';
      notes.push(`checks ${directories.join(', ')} (the hook's files)`);
    } else if (hook.files !== undefined && fileNames) {
      if (include && paths === 'append') {
        filter.include = include;
        selects.push(`files: ${oneLine(hook.files)}`);
      } else unapplied.push(`\`files: ${oneLine(hook.files)}\``);
    }
    const excluded = hook.exclude !== undefined && hook.exclude !== '^$' && fileNames;
    const exclude =
      excluded && !filter.include
        ? excludeArguments(hook.exclude!, check.tool, project)
        : undefined;
    if (exclude) {
      command = withArguments(command, exclude, []);
      fix = fix && withArguments(fix, exclude, []);
      notes.push(
        `leaves out what the hook's \`exclude: ${hook.exclude}\` does (${exclude.join(' ')})`,
      );
    } else if (excluded) {
      const pattern = pythonPattern(hook.exclude!);
      if (pattern && paths === 'append') {
        filter.exclude = pattern;
        selects.push(`exclude: ${oneLine(hook.exclude!)}`);
      } else unapplied.push(`\`exclude: ${oneLine(hook.exclude!)}\``);
    }
    if (unapplied.length > 0) {
      // Checking what the hook leaves out would fail a tree the hook passes.
      skip(
        name,
        `the hook's ${unapplied.join(' and ')} cannot be applied (${paths === 'append' ? 'a pattern JavaScript reads otherwise' : 'the hook names its paths'}): its check would fail on files the hook leaves out`,
      );
      unappliedChecks.push(check.gate.command);
      continue;
    }
    const fileFilter: FileFilter | undefined =
      selects.length > 0
        ? {
            ...filter,
            ...(check.tool.extensions ? { extensions: check.tool.extensions } : {}),
            what: `the pre-commit hook's ${selects.join(', ')}`,
          }
        : undefined;
    if (fileFilter)
      notes.push(
        `checks the files ${fileFilter.what} selects${check.tool.extensions ? ` with ${check.tool.name}'s extensions` : ''} (listed with git when it runs), as pre-commit gives the hook`,
      );
    if (hook.types.length > 0)
      notes.push(
        `the hook's ${hook.types.join(', ')} are not applied: ${check.tool.name} picks its own files`,
      );
    if (check.dropped.length > 0) notes.push(`leaves out ${check.dropped.join(', ')} of the hook`);
    // Two hooks of one tool are one check only when options, paths and files agree.
    const identity = JSON.stringify([checkIdentity(command), fileFilter]);
    const same = gates.find(
      (found) =>
        JSON.stringify([checkIdentity(found.gate.command), found.gate.fileFilter]) === identity,
    );
    if (same) {
      skip(name, `it runs the check of gate \`${same.gate.name}\`, which an earlier hook gives`);
      continue;
    }
    const gateName = hookGateName(
      check.gate.name,
      hook,
      gates.map((found) => found.gate.name),
    );
    const pin = pinnedVersion(hook, check.tool);
    const origin = local ? 'a local hook' : `${hook.repo}${hook.rev ? ` ${hook.rev}` : ''}`;
    gates.push({
      tool: check.tool,
      gate: {
        ...check.gate,
        name: gateName,
        command,
        fix: check.fixes ? fix : null,
        paths,
        description: [
          `${check.gate.description}: the pre-commit hook "${hook.id}" (${origin}), run with the project's ${check.tool.name}, not pre-commit's environment`,
          check.fixes
            ? `the hook fixes; the check only reads, and the fix tool runs \`${(fix ?? []).join(' ')}\``
            : 'the hook only reads',
          ...notes,
        ].join('; '),
        ...(pin ? { pinned: { tool: check.tool.name, ...pin } } : {}),
        ...(fileFilter ? { fileFilter } : {}),
      },
    });
  }
  return { gates, notServed, unappliedChecks, tasks, scripts };
}

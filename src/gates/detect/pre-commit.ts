import { TOOLS } from '../tools/index.js';
import type { MarkerGate, ProjectFacts, ToolDescriptor } from '../tools/tool.js';
import { splitChain } from './scripts.js';
import { toolCheck, withArguments, type NotServed } from './tool-command.js';
import { parseSource } from './source-document.js';

export const PRE_COMMIT_CONFIG = '.pre-commit-config.yaml';

/** One hook of a .pre-commit-config.yaml, with the repository that provides it. */
export interface PreCommitHook {
  /** The hook repository's URL, `local` or `meta`. */
  repo: string;
  rev?: string;
  /** The tag a commit `rev` was frozen from (`# frozen: v0.15.9`, written by `pre-commit autoupdate --freeze`). */
  frozen?: string;
  id: string;
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
): { gates: HookGate[]; notServed: NotServed[] } {
  const gates: HookGate[] = [];
  const notServed: NotServed[] = [];
  const configText = project.readText(PRE_COMMIT_CONFIG);
  if (configText === undefined) return { gates, notServed };
  const hooks = parsePreCommitConfig(configText);
  const skip = (name: string, why: string) =>
    notServed.push({ source: PRE_COMMIT_CONFIG, name, why });
  if (typeof hooks === 'string') {
    skip('(all hooks)', `${PRE_COMMIT_CONFIG} is not read: ${hooks}`);
    return { gates, notServed };
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
    const check = toolCheck(argv, project, {
      source: PRE_COMMIT_CONFIG,
      ruffFixes,
      positionals: hook.passFilenames ? 'drop' : 'targets',
    });
    if (check === undefined) {
      skip(name, `its entry \`${argv.join(' ')}\` runs no tool mcp-gates knows`);
      continue;
    }
    if (typeof check === 'string') {
      skip(name, check);
      continue;
    }
    const other = gates.find((found) => found.gate.name === check.gate.name);
    if (other) {
      skip(name, `it runs the check of gate \`${check.gate.name}\`, which an earlier hook gives`);
      continue;
    }
    const notes: string[] = [];
    let { command, fix, paths } = check.gate;
    const directories =
      hook.files === undefined
        ? undefined
        : filesAsDirectories(hook.files, project, check.tool.extensions);
    if (directories && check.targets.length === 0) {
      // `files: ^src/` keeps the hook to src: so does the check.
      command = withArguments(command, [], directories);
      fix = fix && withArguments(fix, [], directories);
      paths = 'none';
      notes.push(`checks ${directories.join(', ')} (the hook's files)`);
    } else if (hook.files !== undefined)
      notes.push(
        `the hook's \`files: ${hook.files}\` is not applied: the gate checks what ${check.tool.name}'s own config selects`,
      );
    const exclude =
      hook.exclude === undefined || hook.exclude === '^$'
        ? undefined
        : excludeArguments(hook.exclude, check.tool, project);
    if (exclude) {
      command = withArguments(command, exclude, []);
      fix = fix && withArguments(fix, exclude, []);
      notes.push(
        `leaves out what the hook's \`exclude: ${hook.exclude}\` does (${exclude.join(' ')})`,
      );
    } else if (hook.exclude !== undefined && hook.exclude !== '^$')
      notes.push(
        `the hook's \`exclude: ${hook.exclude}\` is not applied (use ${check.tool.name}'s own exclude)`,
      );
    if (hook.types.length > 0)
      notes.push(
        `the hook's ${hook.types.join(', ')} are not applied: ${check.tool.name} picks its own files`,
      );
    if (check.dropped.length > 0) notes.push(`leaves out ${check.dropped.join(', ')} of the hook`);
    const pin = pinnedVersion(hook, check.tool);
    const origin = local ? 'a local hook' : `${hook.repo}${hook.rev ? ` ${hook.rev}` : ''}`;
    gates.push({
      tool: check.tool,
      gate: {
        ...check.gate,
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
      },
    });
  }
  return { gates, notServed };
}

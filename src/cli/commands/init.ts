import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_FILE } from '../../gates/config.js';
import { detectGates } from '../../gates/detect/detect.js';
import { DEFAULT_TIMEOUT_MS, type GateSpec } from '../../gates/gate-spec.js';
import { GatesError } from '../../gates/gates-error.js';
import type { CliArguments } from '../cli-arguments.js';
import type { CliOutput } from '../cli-output.js';
import {
  SERVER_NAME,
  codexTable,
  hostProjectFile,
  hostSnippet,
  hostTitle,
  hostWhere,
  pathsNote,
  serverEntry,
  serverLaunch,
  serversKey,
  type HostName,
} from '../host-config.js';
import { hookSettings, hooksPortable, isOwnHook } from '../hook-config.js';
import { addMember, hasComments, JsoncError, parseJsonc } from '../jsonc-edit.js';
import type { HookHost } from '../../gates/hooks/hook-hosts.js';
import { packageVersion } from '../package-version.js';
import { resolveProjectRoot } from '../project-root.js';
import { notServedText } from './list.js';

/** The schema this package ships (dist/cli/commands → schema/). */
const SCHEMA_FILE = fileURLToPath(
  new URL('../../../schema/mcp-gates.schema.json', import.meta.url),
);

/**
 * `$schema` for a config at `root`, so editors validate offline against the version that
 * runs: the project's own node_modules/mcp-gates (a stable path, also through pnpm's
 * links), else the shipped file when it lies inside the project (this repository), else
 * (npx from a cache) the published URL.
 */
export function schemaReference(root: string): string {
  const installed = path.join('node_modules', 'mcp-gates', 'schema', 'mcp-gates.schema.json');
  if (fs.existsSync(path.join(root, installed))) return `./${installed.split(path.sep).join('/')}`;
  const relative = path.relative(root, SCHEMA_FILE);
  if (relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative))
    return `./${relative.split(path.sep).join('/')}`;
  return `https://unpkg.com/mcp-gates@${packageVersion()}/schema/mcp-gates.schema.json`;
}

function configEntry(gate: GateSpec): Record<string, unknown> {
  const entry: Record<string, unknown> = { description: gate.description, command: gate.command };
  if (gate.fix) entry.fix = gate.fix;
  entry.parser = gate.parser;
  entry.paths = gate.paths;
  if (gate.timeoutMs !== DEFAULT_TIMEOUT_MS) entry.timeoutMs = gate.timeoutMs;
  return entry;
}

/**
 * The config gates of a detected gate. A config gate runs one argv, so a tox env or nox
 * session of several commands (steps, with `tox -e <env>` as its command only to name
 * it: running tox would create .tox/ in the tree) becomes one gate per step, named
 * `<gate>.<n>`. A package.json script's steps stay one gate: its command runs the script.
 */
function configGates(gate: GateSpec): [string, Record<string, unknown>][] {
  if (!gate.steps || gate.source === 'package.json') return [[gate.name, configEntry(gate)]];
  return gate.steps.map((step, index) => [
    `${gate.name}.${index + 1}`.slice(0, 60),
    configEntry({
      ...gate,
      description: `${gate.description} (step ${index + 1} of ${gate.steps!.length})`,
      command: step.command,
      parser: step.parser,
      fix: null,
    }),
  ]);
}

/** Prettier's default line width, which its JSON output keeps an array within. */
const PRETTIER_PRINT_WIDTH = 80;

/**
 * JSON as Prettier writes it with its defaults (two spaces, arrays of strings on one line
 * when the line fits in 80 columns), so a repository's own format gate passes it.
 */
export function formatConfig(document: unknown): string {
  const text = JSON.stringify(document, null, 2);
  const joined = text.replace(
    /^( *)(.*)\[\s*\n((?:\s*"(?:[^"\\]|\\.)*",?\s*\n)+)\s*\](,?)$/gm,
    (match, indent: string, head: string, body: string, comma: string) => {
      const items = body
        .split('\n')
        .map((line) => line.trim().replace(/,$/, ''))
        .filter(Boolean);
      const line = `${indent}${head}[${items.join(', ')}]${comma}`;
      return line.length <= PRETTIER_PRINT_WIDTH ? line : match;
    },
  );
  return `${joined}\n`;
}

/**
 * Formats the written config with the project's own Prettier when it has one, so its
 * options (tabs, print width...) apply too; says why not when that fails.
 */
function formatWithProjectPrettier(root: string, file: string): string | undefined {
  const manifest = path.join(root, 'node_modules', 'prettier', 'package.json');
  let bin: unknown;
  try {
    bin = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { bin?: unknown }).bin;
  } catch {
    return undefined;
  }
  const script = typeof bin === 'string' ? bin : (bin as Record<string, string> | null)?.prettier;
  if (typeof script !== 'string') return undefined;
  const result = spawnSync(
    process.execPath,
    [path.resolve(path.dirname(manifest), script), '--write', file],
    { cwd: root, encoding: 'utf8', timeout: 30_000 },
  );
  if (result.status === 0) return "Formatted it with the project's Prettier.";
  const why = (result.stderr || result.error?.message || `exit ${String(result.status)}`).trim();
  return `The project's Prettier could not format it (${why.split('\n')[0]}); it is left as init wrote it.`;
}

/** Throws when anything, even a symlink to nowhere, already sits where the config goes. */
function refuseExisting(file: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return;
  }
  if (stat.isSymbolicLink() && !fs.existsSync(file)) {
    const target = fs.readlinkSync(file);
    throw new GatesError(
      'EGATES_EXISTS',
      `is a symlink to ${target}, which does not exist; init writes through no link`,
      {
        file,
        fix: `remove the link (rm ${file}) and run \`mcp-gates init\` again, or create ${path.resolve(path.dirname(file), target)}`,
      },
    );
  }
  throw new GatesError('EGATES_EXISTS', 'already exists; init never overwrites it', {
    file,
    fix: 'edit it by hand, or delete it and run `mcp-gates init` again',
  });
}

/** `init --host`: the host's config on stdout, or (`--write`) into its project file. */
function initHost(host: HostName, write: boolean, root: string, output: CliOutput): number {
  const launch = serverLaunch(root);
  if (!write) {
    output.out(hostSnippet(host, launch, formatConfig));
    output.err(`mcp-gates: put this in ${hostWhere(host)}.`);
    output.err(`mcp-gates: ${pathsNote(host, launch)}`);
    return 0;
  }
  const relative = hostProjectFile(host);
  if (relative === undefined) {
    throw new GatesError('EGATES_USAGE', `${hostTitle(host)} has no project file to write`, {
      fix: `run \`mcp-gates init --host ${host}\` without --write and put what it prints in ${hostWhere(host)}`,
    });
  }
  const file = path.join(root, relative);
  const key = serversKey(host);
  let text: string;
  if (key === undefined) {
    const existing = readIfExists(file) ?? '';
    if (existing.includes(`[mcp_servers.${SERVER_NAME}]`)) refuseEntry(file, host);
    text = `${existing}${existing === '' || existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n'}${codexTable(launch)}`;
  } else {
    const existing = readIfExists(file);
    if (existing === undefined || existing.trim() === '') {
      text = formatConfig({ [key]: { [SERVER_NAME]: serverEntry(host, launch) } });
    } else {
      // Edited in place, not rewritten: the file may be JSONC (VS Code reads .vscode/mcp.json
      // with comments and trailing commas), and its comments and layout are the user's.
      let servers: unknown;
      try {
        const document = parseJsonc(existing);
        if (typeof document !== 'object' || document === null || Array.isArray(document))
          throw new JsoncError('the file is not a JSON object');
        servers = (document as Record<string, unknown>)[key];
        if (servers !== undefined && (typeof servers !== 'object' || servers === null))
          throw new JsoncError(`"${key}" is not an object`);
      } catch (error) {
        throw notJson(file, host, error);
      }
      if ((servers as Record<string, unknown> | undefined)?.[SERVER_NAME] !== undefined)
        refuseEntry(file, host);
      try {
        // A file on one line without comments is written out whole, as Prettier would.
        text =
          !existing.trim().includes('\n') && !hasComments(existing)
            ? formatConfig({
                ...(parseJsonc(existing) as Record<string, unknown>),
                [key]: { ...(servers as object), [SERVER_NAME]: serverEntry(host, launch) },
              })
            : addMember(existing, [key], SERVER_NAME, serverEntry(host, launch), (value, unit) =>
                unit === '  ' ? formatConfig(value).trimEnd() : JSON.stringify(value, null, unit),
              );
      } catch (error) {
        throw notJson(file, host, error);
      }
    }
  }
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  } catch (error) {
    throw new GatesError('EGATES_ROOT', `cannot write: ${(error as Error).message}`, {
      file,
      fix: `run \`mcp-gates init --host ${host}\` without --write and put what it prints in ${hostWhere(host)}`,
    });
  }
  output.out(`Wrote the "${SERVER_NAME}" server for ${hostTitle(host)} into ${file}.`);
  output.out(pathsNote(host, launch));
  if (key !== undefined) {
    const formatted = formatWithProjectPrettier(root, file);
    if (formatted) output.out(formatted);
  }
  return 0;
}

function notJson(file: string, host: HostName, error: unknown): GatesError {
  return new GatesError('EGATES_ROOT', `is not JSON or JSONC: ${(error as Error).message}`, {
    file,
    fix: `fix it, or run \`mcp-gates init --host ${host}\` without --write and add what it prints by hand`,
  });
}

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new GatesError('EGATES_ROOT', `cannot read: ${(error as Error).message}`, { file });
  }
}

function refuseEntry(file: string, host: HostName): never {
  throw new GatesError(
    'EGATES_EXISTS',
    `already has a "${SERVER_NAME}" server; init never overwrites it`,
    {
      file,
      fix: `remove that entry and run \`mcp-gates init --host ${host} --write\` again, or edit it by hand (\`mcp-gates init --host ${host}\` prints the entry)`,
    },
  );
}

/** Reads a JSON settings file for init to extend ({} when there is none). */
function readSettings(file: string, fix: string): Record<string, unknown> {
  const existing = readIfExists(file);
  if (existing === undefined) return {};
  try {
    const document: unknown = JSON.parse(existing);
    if (typeof document === 'object' && document !== null && !Array.isArray(document))
      return document as Record<string, unknown>;
    throw new Error('not a JSON object');
  } catch (error) {
    throw new GatesError('EGATES_ROOT', `is not a JSON object: ${(error as Error).message}`, {
      file,
      fix,
    });
  }
}

/**
 * `init --hooks`: adds the host's hooks (after every edit, before a stop) to its settings
 * file, keeping everything else there; refuses when hooks of its own are there already.
 */
function initHooks(host: HookHost, root: string, output: CliOutput): number {
  const launch = serverLaunch(root);
  const settings = hookSettings(host, launch);
  const file = path.join(root, settings.file);
  const fix = `fix ${settings.file}, or add the hooks by hand (see docs/hooks.md in the package)`;
  const document = { ...settings.leading, ...readSettings(file, fix) };
  const hooks = (document.hooks ?? {}) as Record<string, unknown>;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks))
    throw new GatesError('EGATES_ROOT', '"hooks" is not an object', { file, fix });
  for (const [event, group] of Object.entries(settings.groups)) {
    const list = hooks[event] ?? [];
    if (!Array.isArray(list))
      throw new GatesError('EGATES_ROOT', `"hooks.${event}" is not an array`, { file, fix });
    if (list.some(isOwnHook))
      throw new GatesError(
        'EGATES_EXISTS',
        `already has mcp-gates hooks for ${event}; init never overwrites them`,
        {
          file,
          fix: `remove them and run \`mcp-gates init --hooks ${host}\` again, or edit them by hand`,
        },
      );
    hooks[event] = [...list, group];
  }
  document.hooks = hooks;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, formatConfig(document));
  } catch (error) {
    throw new GatesError('EGATES_ROOT', `cannot write: ${(error as Error).message}`, { file, fix });
  }
  output.out(
    `Wrote ${hostTitle(host)} hooks into ${file}: the gates run after every edit and before the agent stops, and report only what is new.`,
  );
  const formatted = formatWithProjectPrettier(root, file);
  if (formatted) output.out(formatted);
  output.out(
    host === 'claude-code'
      ? `They call the "${SERVER_NAME}" server's session_start, after_edit and before_stop tools, warm (Claude Code 2.1.118 or later): configure the server too if it is not (\`mcp-gates init --host claude-code --write\`).`
      : `They run \`mcp-gates hook\`, which asks the "${SERVER_NAME}" server running for this root (warm) and runs the gates itself, cold, only when none runs; ${hostTitle(host)} may ask you to trust the new hooks first.`,
  );
  output.out(
    host === 'claude-code'
      ? 'They name no path, so the file can be committed.'
      : hooksPortable(host, launch)
        ? `They name no path of this machine (node from PATH, ${host === 'codex' ? 'node_modules/mcp-gates relative to the directory Codex runs in: start it at the project root' : 'node_modules/mcp-gates under $GEMINI_PROJECT_DIR, which Gemini CLI fills in'}), so the file can be committed.`
        : launch.installed
          ? `They name this machine's paths (node, the script, --root): ${hostTitle(host)} documents no project directory for a hook that we could verify. Run this again on another machine, or keep ${settings.file} out of the repository.`
          : `They name this machine's paths (node, the script, --root): ${root} has no node_modules/mcp-gates. Install it in the project (npm install --save-dev mcp-gates) and run this again for hooks without them.`,
  );
  return 0;
}

export function initCommand(args: CliArguments, output: CliOutput): number {
  const root = resolveProjectRoot({ root: args.root, env: process.env, cwd: process.cwd() });
  if (args.hooks !== undefined) return initHooks(args.hooks, root, output);
  if (args.host !== undefined) return initHost(args.host, args.write, root, output);
  const file = path.join(root, CONFIG_FILE);
  refuseExisting(file);
  const detected = detectGates(root);
  // A config gate cannot say which files a pre-commit hook is given: written, it would
  // check what the hook leaves out. It stays detection's.
  const gates = detected.gates.filter((gate) => !gate.fileFilter);
  const notServed = [
    ...detected.notServed,
    ...detected.gates
      .filter((gate) => gate.fileFilter)
      .map((gate) => ({
        source: gate.source,
        name: `gate ${gate.name}`,
        why: `not written to ${CONFIG_FILE}: it checks the files ${gate.fileFilter!.what} selects, which a config gate cannot say (delete ${CONFIG_FILE} to serve it from detection)`,
      })),
  ];
  if (gates.length === 0) {
    throw new GatesError(
      'EGATES_NOTHING_DETECTED',
      detected.gates.length > 0
        ? `detection's gates in ${root} check the files pre-commit hooks select, which ${CONFIG_FILE} cannot say, so there is nothing to write (they are served without it)`
        : `detection found no gates in ${root}, so there is nothing to write`,
      {
        fix: `write ${CONFIG_FILE} by hand, e.g. {"gates": {"lint": {"command": ["eslint", "--format", "json", "."], "parser": "eslint-json"}}}`,
      },
    );
  }
  const written = gates.flatMap(configGates);
  const document = { $schema: schemaReference(root), gates: Object.fromEntries(written) };
  // 'wx': fail rather than overwrite a file created since the check above.
  try {
    fs.writeFileSync(file, formatConfig(document), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') refuseExisting(file);
    throw new GatesError('EGATES_ROOT', `cannot write: ${(error as Error).message}`, {
      file,
      fix: `check that ${root} is writable, or write ${CONFIG_FILE} by hand`,
    });
  }
  const formatted = formatWithProjectPrettier(root, file);
  output.out(
    `Wrote ${file} with ${written.length} gate${written.length === 1 ? '' : 's'}: ${written.map(([name]) => name).join(', ')}.`,
  );
  if (formatted) output.out(formatted);
  if (notServed.length > 0) output.out(notServedText(notServed));
  output.out('Edit it as you like, then check it with `mcp-gates list` and `mcp-gates doctor`.');
  return 0;
}

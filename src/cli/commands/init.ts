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
import { packageVersion } from '../package-version.js';
import { resolveProjectRoot } from '../project-root.js';

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
  return `The project's Prettier could not format it (${why.split('\n')[0]}); it is written with Prettier's defaults.`;
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

export function initCommand(args: CliArguments, output: CliOutput): number {
  const root = resolveProjectRoot({ root: args.root, env: process.env, cwd: process.cwd() });
  const file = path.join(root, CONFIG_FILE);
  refuseExisting(file);
  const { gates } = detectGates(root);
  if (gates.length === 0) {
    throw new GatesError(
      'EGATES_NOTHING_DETECTED',
      `detection found no gates in ${root}, so there is nothing to write`,
      {
        fix: `write ${CONFIG_FILE} by hand, e.g. {"gates": {"lint": {"command": ["eslint", "--format", "json", "."], "parser": "eslint-json"}}}`,
      },
    );
  }
  const document = {
    $schema: schemaReference(root),
    gates: Object.fromEntries(gates.map((gate) => [gate.name, configEntry(gate)])),
  };
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
    `Wrote ${file} with ${gates.length} gate${gates.length === 1 ? '' : 's'}: ${gates.map((gate) => gate.name).join(', ')}.`,
  );
  if (formatted) output.out(formatted);
  output.out('Edit it as you like, then check it with `mcp-gates list` and `mcp-gates doctor`.');
  return 0;
}

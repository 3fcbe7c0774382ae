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

/** JSON with arrays of strings kept on one line, the way people write argv by hand. */
function formatConfig(document: unknown): string {
  const text = JSON.stringify(document, null, 2);
  return text.replace(/\[\s*\n((?:\s*"(?:[^"\\]|\\.)*",?\s*\n)+)\s*\]/g, (_match, body: string) => {
    const items = body
      .split('\n')
      .map((line) => line.trim().replace(/,$/, ''))
      .filter(Boolean);
    return `[${items.join(', ')}]`;
  });
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
    fs.writeFileSync(file, `${formatConfig(document)}\n`, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') refuseExisting(file);
    throw new GatesError('EGATES_ROOT', `cannot write: ${(error as Error).message}`, {
      file,
      fix: `check that ${root} is writable, or write ${CONFIG_FILE} by hand`,
    });
  }
  output.out(
    `Wrote ${file} with ${gates.length} gate${gates.length === 1 ? '' : 's'}: ${gates.map((gate) => gate.name).join(', ')}.`,
  );
  output.out('Edit it as you like, then check it with `mcp-gates list` and `mcp-gates doctor`.');
  return 0;
}

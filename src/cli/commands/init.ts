import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE } from '../../gates/config.js';
import { detectGates } from '../../gates/detect/detect.js';
import { DEFAULT_TIMEOUT_MS, type GateSpec } from '../../gates/gate-spec.js';
import { GatesError } from '../../gates/gates-error.js';
import type { CliArguments } from '../cli-arguments.js';
import type { CliOutput } from '../cli-output.js';
import { resolveProjectRoot } from '../project-root.js';

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

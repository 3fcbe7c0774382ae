import fs from 'node:fs';
import path from 'node:path';
import { GatesError } from '../gates/gates-error.js';

const ROOT_MARKERS = [
  'mcp-gates.json',
  'package.json',
  'Cargo.toml',
  'pyproject.toml',
  'go.mod',
  '.git',
];

function existingDirectory(directory: string, from: string): string {
  const absolute = path.resolve(directory);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absolute);
  } catch {
    throw new GatesError(
      'EGATES_ROOT',
      `the project root ${absolute} (from ${from}) does not exist`,
      {
        fix: `pass --root with an existing project directory`,
      },
    );
  }
  if (!stat.isDirectory()) {
    throw new GatesError(
      'EGATES_ROOT',
      `the project root ${absolute} (from ${from}) is not a directory`,
      {
        fix: 'pass --root with the project directory, not a file',
      },
    );
  }
  return absolute;
}

/**
 * The project root: --root, else CLAUDE_PROJECT_DIR (Claude Code sets it; hosts start
 * servers in /, $HOME or System32), else the nearest ancestor of `cwd` holding a
 * project marker. Never a directory without a marker.
 */
export function resolveProjectRoot(options: {
  root: string | undefined;
  env: NodeJS.ProcessEnv;
  cwd: string;
}): string {
  // One spelling of the root: tools report real paths (a symlinked workspace, /tmp as
  // /private/tmp), which findings and a hook's edited files are then taken relative to.
  const found = findProjectRoot(options);
  try {
    return fs.realpathSync(found);
  } catch {
    return found;
  }
}

function findProjectRoot(options: {
  root: string | undefined;
  env: NodeJS.ProcessEnv;
  cwd: string;
}): string {
  if (options.root !== undefined)
    return existingDirectory(path.resolve(options.cwd, options.root), '--root');
  const fromHost = options.env.CLAUDE_PROJECT_DIR;
  if (fromHost) return existingDirectory(fromHost, 'CLAUDE_PROJECT_DIR');
  let directory = path.resolve(options.cwd);
  for (;;) {
    if (ROOT_MARKERS.some((marker) => fs.existsSync(path.join(directory, marker))))
      return directory;
    const parent = path.dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  throw new GatesError(
    'EGATES_ROOT',
    `no project found in ${options.cwd} or above it (looked for ${ROOT_MARKERS.join(', ')})`,
    {
      fix: 'pass --root /path/to/project (MCP hosts often start servers in / or your home directory)',
    },
  );
}

import fs from 'node:fs';
import path from 'node:path';
import { GatesError } from '../gates-error.js';

/**
 * At most this many paths per call, and this many characters in all: the OS caps a
 * command line (Windows at 32,767 characters; POSIX at ARG_MAX, shared with the
 * environment), and a gate run on thousands of files is better run on the project.
 */
export const MAX_PATHS = 1000;
export const MAX_PATHS_TOTAL_LENGTH = process.platform === 'win32' ? 24_000 : 128 * 1024;

/** Throws when `paths` are too many or too long for one call. */
function checkPathsLimit(paths: readonly unknown[]): void {
  const fix =
    'call without paths to check the whole project, or call several times with smaller batches';
  if (paths.length > MAX_PATHS)
    throw new GatesError(
      'EGATES_PATH',
      `${paths.length} paths in one call is over the limit of ${MAX_PATHS}`,
      { fix },
    );
  let total = 0;
  for (const given of paths) total += typeof given === 'string' ? given.length + 1 : 0;
  if (total > MAX_PATHS_TOTAL_LENGTH)
    throw new GatesError(
      'EGATES_PATH',
      `the paths add up to ${total} characters, over the limit of ${MAX_PATHS_TOTAL_LENGTH} per call`,
      { fix },
    );
}

/** Only a `..` segment leaves `parent`: `..foo` and `...` are names inside it. */
function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  if (relative === '') return true;
  if (path.isAbsolute(relative)) return false;
  return relative !== '..' && !relative.startsWith(`..${path.sep}`);
}

function reject(given: string, problem: string, fix: string): never {
  throw new GatesError('EGATES_PATH', `path ${JSON.stringify(given)} ${problem}`, { fix });
}

/** The real path of `target`, or of its nearest existing ancestor joined with the rest. */
function realPathOfExistingPart(target: string): string {
  let existing = target;
  const rest: string[] = [];
  while (!fs.existsSync(existing)) {
    rest.unshift(path.basename(existing));
    const parent = path.dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  return path.join(fs.realpathSync(existing), ...rest);
}

/**
 * Checks a tool call's `paths` and returns them as argv entries relative to the root.
 * Rejected: anything starting with `-` (it would read as an option), `..` escapes,
 * absolute paths outside the root, paths that leave it through a symlink, and paths
 * that do not exist; and more than MAX_PATHS or MAX_PATHS_TOTAL_LENGTH in all. Paths never
 * pass through a shell.
 */
export function confinePaths(root: string, paths: readonly unknown[]): string[] {
  checkPathsLimit(paths);
  const realRoot = fs.realpathSync(root);
  return paths.map((given) => {
    if (typeof given !== 'string' || given.trim() === '') {
      throw new GatesError(
        'EGATES_PATH',
        `each path is a non-empty string; got ${JSON.stringify(given)}`,
        {
          fix: 'pass file or directory paths relative to the project root, e.g. ["src/index.ts"]',
        },
      );
    }
    if (given.includes('\0')) reject(given, 'contains a NUL byte', 'pass a plain file path');
    if (given.startsWith('-')) {
      reject(
        given,
        'starts with "-" and would be read as an option',
        'pass file paths only; for a file whose name starts with "-", write "./-name"',
      );
    }
    const absolute = path.resolve(root, given);
    if (!isInside(path.resolve(root), absolute)) {
      reject(
        given,
        `is outside the project root ${root}`,
        'pass paths inside the project root (relative paths are resolved against it)',
      );
    }
    if (!fs.existsSync(absolute)) {
      reject(
        given,
        'does not exist',
        'pass an existing file or directory, relative to the project root',
      );
    }
    if (!isInside(realRoot, realPathOfExistingPart(absolute))) {
      reject(
        given,
        'leads outside the project root through a symlink',
        'pass paths whose real location is inside the project root',
      );
    }
    const relative = path.relative(path.resolve(root), absolute) || '.';
    return relative.startsWith('-') ? `.${path.sep}${relative}` : relative;
  });
}

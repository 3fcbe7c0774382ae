import fs from 'node:fs';
import path from 'node:path';

/** How deep below the root a nested config file is looked for (`arc/go.mod` is depth 1). */
const MAX_DEPTH = 4;
/** How many directories one look reads at most: a huge tree is not walked to its end. */
const MAX_DIRECTORIES = 4000;
/**
 * Directories no project keeps its own config in: dependencies, vendored code, fixtures
 * (Go's build ignores `testdata` and names starting with `_` or `.` too).
 */
const SKIPPED = new Set(['node_modules', 'vendor', 'testdata', 'third_party', 'dist', 'build']);

/** The directories holding `name` below the root, and whether the look stopped at its limit. */
export interface NestedFiles {
  /** Root-relative with forward slashes, `.` for the root itself, in walk order (shallow first). */
  directories: string[];
  /** The look stopped at MAX_DIRECTORIES: directories past it were not read. */
  capped: boolean;
}

/**
 * The directories of the tree, the root first and then breadth first to MAX_DEPTH, that
 * hold a file called `name` (a Go module's go.mod). Hidden directories, `_`-prefixed ones
 * and SKIPPED are not entered; symbolic links are not followed.
 */
export function nestedFiles(root: string, name: string): NestedFiles {
  const directories: string[] = [];
  let queue: string[] = ['.'];
  let read = 0;
  for (let depth = 0; depth <= MAX_DEPTH && queue.length > 0; depth += 1) {
    const next: string[] = [];
    for (const relative of queue) {
      if (read >= MAX_DIRECTORIES) return { directories, capped: true };
      read += 1;
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(path.join(root, relative), { withFileTypes: true });
      } catch {
        continue;
      }
      if (entries.some((entry) => entry.name === name && entry.isFile()))
        directories.push(relative);
      for (const entry of entries) {
        if (!entry.isDirectory() || /^[._]/.test(entry.name) || SKIPPED.has(entry.name)) continue;
        next.push(relative === '.' ? entry.name : `${relative}/${entry.name}`);
      }
    }
    queue = next.sort();
  }
  return { directories, capped: false };
}

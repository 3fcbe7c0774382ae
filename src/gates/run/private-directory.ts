import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The user's cache directory: `$XDG_CACHE_HOME` when absolute (as the XDG spec says), else
 * `%LOCALAPPDATA%` on Windows, else `~/.cache`. What mcp-gates keeps there lives under
 * `mcp-gates/`, outside every repository: a check never changes the tree.
 */
export function userCacheHome(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && path.isAbsolute(xdg)) return xdg;
  if (process.platform === 'win32' && env.LOCALAPPDATA) return env.LOCALAPPDATA;
  return path.join(os.homedir(), '.cache');
}

/** Why a directory is not private to this user, or undefined when it is. */
export function notPrivate(directory: string): string | undefined {
  if (typeof process.getuid !== 'function') return 'no user id to check on this platform';
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(directory);
  } catch (error) {
    return `cannot read ${directory}: ${(error as NodeJS.ErrnoException).code}`;
  }
  if (!stat.isDirectory()) return `${directory} is not a directory (a symlink?)`;
  if (stat.uid !== process.getuid()) return `${directory} belongs to another user`;
  if ((stat.mode & 0o077) !== 0)
    return `${directory} is open to other users (mode ${(stat.mode & 0o777).toString(8)})`;
  return undefined;
}

/** Creates `directory` (0700) when absent; why it is not private to this user, or undefined. */
export function makePrivateDirectory(directory: string): string | undefined {
  try {
    fs.mkdirSync(directory, { mode: 0o700, recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      return `cannot create ${directory}: ${(error as Error).message}`;
  }
  return notPrivate(directory);
}

/** What mcp-gates keeps in the user's cache and nothing used for this long is removed. */
const STALE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Removes the entries of `directory` (files or whole directories) untouched for STALE_MS:
 * trees gone, gates changed, crashed copies. `keep` is spared whatever its age.
 */
export function removeStale(directory: string, keep?: string): void {
  const now = Date.now();
  for (const name of fs.readdirSync(directory)) {
    const entry = path.join(directory, name);
    try {
      if (entry !== keep && now - fs.lstatSync(entry).mtimeMs > STALE_MS)
        fs.rmSync(entry, { recursive: true, force: true });
    } catch {
      // gone meanwhile (another server's cleanup)
    }
  }
}

import fs from 'node:fs';
import path from 'node:path';

export type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun';

const KNOWN: readonly PackageManager[] = ['npm', 'pnpm', 'yarn', 'bun'];

/** `packageManager` field, then the lockfile, then npm (npm-run-mcp-server's order). */
export function detectPackageManager(
  root: string,
  packageJson: Record<string, unknown> | undefined,
): PackageManager {
  const field = packageJson?.packageManager;
  if (typeof field === 'string') {
    const name = field.split('@')[0] as PackageManager;
    if (KNOWN.includes(name)) return name;
  }
  const has = (file: string) => fs.existsSync(path.join(root, file));
  if (has('pnpm-lock.yaml')) return 'pnpm';
  if (has('yarn.lock')) return 'yarn';
  if (has('bun.lockb') || has('bun.lock')) return 'bun';
  return 'npm';
}

/**
 * How to run a package.json script. `--silent` drops npm's `> pkg@1.0 lint` banner (the
 * script is known to exist, so the "missing script" message it also hides never applies).
 * It is left out when `keepNestedOutput` is set (scripts.ts `silenceHidesOutput`): the
 * script itself runs a tool that reads the silence from its environment and then prints
 * nothing of what it ran (a nested `pnpm -r check`).
 */
export function scriptCommand(
  manager: PackageManager,
  script: string,
  options: { keepNestedOutput?: boolean } = {},
): string[] {
  if (manager === 'yarn' || options.keepNestedOutput) return [manager, 'run', script];
  return [manager, 'run', '--silent', script];
}

/** `npm run --silent lint`, `pnpm run lint`, `yarn run lint`: the script a command runs, if that is all it does. */
export function scriptOfCommand(command: readonly string[]): string | undefined {
  const [manager, run, ...rest] = command;
  if (!KNOWN.includes(manager as PackageManager) || run !== 'run') return undefined;
  const words = rest.filter((word) => word !== '--silent' && word !== '-s');
  return words.length === 1 && !words[0]!.startsWith('-') ? words[0] : undefined;
}

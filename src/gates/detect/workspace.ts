import fs from 'node:fs';
import path from 'node:path';
import { readJson } from './source-document.js';

/** A workspace root above a package directory, and the package's name for gate prefixes. */
export interface WorkspaceMembership {
  /** Absolute path of the workspace root. */
  root: string;
  /** Where the workspace is declared: `pnpm-workspace.yaml` or `package.json`. */
  source: string;
  /** A gate-name-safe short name of the package (`@scope/app` gives `app`). */
  packageName: string;
}

/** `packages:` entries of a pnpm-workspace.yaml (a list of quoted or plain globs). */
function pnpmPatterns(text: string): string[] {
  const patterns: string[] = [];
  let inPackages = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^packages:\s*$/.test(line)) inPackages = true;
    else if (/^\S/.test(line)) inPackages = false;
    else if (inPackages) {
      const item = /^\s+-\s+(['"]?)([^'"#]+)\1\s*(?:#.*)?$/.exec(line);
      if (item) patterns.push(item[2]!.trim());
    }
  }
  return patterns;
}

/** `workspaces` of a package.json: an array, or `{packages: [...]}` (yarn classic). */
function packageJsonPatterns(packageJson: Record<string, unknown>): string[] | undefined {
  const field = packageJson.workspaces;
  const list = Array.isArray(field)
    ? field
    : field && typeof field === 'object'
      ? (field as { packages?: unknown }).packages
      : undefined;
  return Array.isArray(list)
    ? list.filter((item): item is string => typeof item === 'string')
    : undefined;
}

/** A workspace glob (`packages/*`, `apps/**`) as a whole-path matcher, built without backtracking traps. */
function globMatcher(pattern: string): RegExp {
  const parts = pattern
    .replace(/^\.\//, '')
    .replace(/\/+$/, '')
    .split('/')
    .map((part) =>
      part === '**'
        ? '(?:[^/]+/)*'
        : `${part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}/`,
    );
  return new RegExp(`^${parts.join('')}$`);
}

function isMember(relative: string, patterns: readonly string[]): boolean {
  const target = `${relative.split(path.sep).join('/')}/`;
  const included = patterns
    .filter((p) => !p.startsWith('!'))
    .some((p) => globMatcher(p).test(target));
  const excluded = patterns
    .filter((p) => p.startsWith('!'))
    .some((p) => globMatcher(p.slice(1)).test(target));
  return included && !excluded;
}

function shortName(packageJson: Record<string, unknown>, directory: string): string {
  const name = typeof packageJson.name === 'string' ? packageJson.name : path.basename(directory);
  const last = name.split('/').pop() ?? name;
  const safe = last.replace(/[^A-Za-z0-9_-]/g, '_').replace(/^[^A-Za-z]+/, '');
  return (safe || 'package').slice(0, 30);
}

/**
 * The workspace `directory` belongs to, when it is a package of a pnpm workspace
 * (pnpm-workspace.yaml) or an npm / yarn / bun one (`workspaces` in package.json) declared
 * in an ancestor. Undefined for a directory that is no package or no member.
 */
export function findWorkspace(directory: string): WorkspaceMembership | undefined {
  const start = path.resolve(directory);
  const own = readJson(path.join(start, 'package.json'));
  if (!own) return undefined;
  let candidate = path.dirname(start);
  for (;;) {
    const relative = path.relative(candidate, start);
    const pnpm = path.join(candidate, 'pnpm-workspace.yaml');
    let patterns: string[] | undefined;
    let source = 'pnpm-workspace.yaml';
    if (fs.existsSync(pnpm)) patterns = pnpmPatterns(fs.readFileSync(pnpm, 'utf8'));
    else {
      const rootJson = readJson(path.join(candidate, 'package.json'));
      patterns = rootJson ? packageJsonPatterns(rootJson) : undefined;
      source = 'package.json';
    }
    if (patterns) {
      return isMember(relative, patterns)
        ? { root: candidate, source, packageName: shortName(own, start) }
        : undefined;
    }
    const parent = path.dirname(candidate);
    // Never climb out of the repository the package is in.
    if (parent === candidate || fs.existsSync(path.join(candidate, '.git'))) return undefined;
    candidate = parent;
  }
}

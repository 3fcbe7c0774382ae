import { readFileSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import type { Kind } from './read-surface.js';

/**
 * Module resolution as questions a ledger can check. Node resolves `require` by probing
 * the disk through bindings JavaScript cannot wrap (internalModuleStat), and keeps what it
 * found in its caches for the rest of the process. So each resolution is recorded as the
 * directories whose entries decide it (a file appearing beside an optional `require` that
 * failed, a package installed higher up) and the package.json files that steer it; a
 * change to any of them means a fresh process would resolve differently.
 */

type Ask = (kind: Kind, file: string) => void;

/** The package directory a bare request names under one node_modules: `a` or `@s/a`. */
function packagePart(request: string): string | undefined {
  const parts = request.split(/[\\/]/);
  if (parts[0] === '' || parts[0] === '.' || parts[0] === '..') return undefined;
  return parts[0]!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The questions one resolution of `request` under `bases` (the directories searched:
 * node_modules paths for a bare request, the parent's directory for a relative one) asks,
 * up to the base where it was found (later ones were not probed).
 */
export function resolutionQuestions(
  request: string,
  bases: readonly string[],
  found: string | false | undefined,
  ask: Ask,
): void {
  const searched = path.isAbsolute(request) ? [path.parse(request).root] : bases;
  const bare = packagePart(request);
  for (const base of searched) {
    const target = path.resolve(base, request);
    const top = path.resolve(base);
    // The target (a file, or a directory with an index or package.json) and every
    // directory from it up to the base: each decides whether the next one exists.
    ask('entries', target);
    const inside = target.startsWith(top + path.sep);
    for (let directory = path.dirname(target); ; directory = path.dirname(directory)) {
      ask('entries', directory);
      if (!inside || directory === top || directory === path.dirname(directory)) break;
    }
    if (bare !== undefined && !path.isAbsolute(request))
      ask('content', path.join(base, bare, 'package.json'));
    if (found && found.startsWith(target)) break;
  }
}

/** The node_modules directories a bare specifier is looked up in from `directory`, nearest first. */
export function nodeModulesPaths(directory: string): string[] {
  const lookup = (Module as unknown as { _nodeModulePaths(from: string): string[] })
    ._nodeModulePaths;
  return lookup(directory);
}

/**
 * The questions one ESM resolution asked: relative and absolute specifiers name one file
 * (no extension probing); bare ones search node_modules upward from the importer;
 * `#imports` read the nearest package.json.
 */
export function esmResolutionQuestions(
  specifier: string,
  parent: string | undefined,
  found: string | undefined,
  ask: Ask,
): void {
  if (parent === undefined || /^(node|data|https?):/.test(specifier)) return;
  if (Module.isBuiltin(specifier)) return;
  const from = path.dirname(parent);
  if (specifier.startsWith('#')) {
    for (let directory = from; ; directory = path.dirname(directory)) {
      ask('content', path.join(directory, 'package.json'));
      if (directory === path.dirname(directory)) return;
    }
  }
  if (/^(\.{0,2}\/|file:)/.test(specifier) || path.isAbsolute(specifier)) {
    if (found !== undefined) ask('entries', path.dirname(found));
    else ask('entries', from);
    return;
  }
  resolutionQuestions(specifier, nodeModulesPaths(from), found ?? false, ask);
}

/**
 * Whether a module resolution could have looked for `file`, given every path the worker
 * recorded (the questions resolution asked, the files it loaded, what calls read): a
 * recorded path or a directory on the way to one; a recorded path with an extension added
 * (`./x` finds x.js); a directory's index file or package.json; and what a package.json
 * beside it names (main, exports and the like lead anywhere in its package). Anything
 * else (a tool's own state file written into node_modules) no resolution looked for.
 * Reads without recording; the set is built on first use.
 */
export function resolutionMayProbe(recorded: () => Iterable<string>): (file: string) => boolean {
  let paths: Set<string> | undefined;
  const named = new Map<string, Set<string>>();
  return (file) => {
    if (paths === undefined) {
      paths = new Set();
      for (const each of recorded())
        for (let at = each; !paths.has(at); at = path.dirname(at)) {
          paths.add(at);
          if (path.dirname(at) === at) break;
        }
    }
    if (paths.has(file)) return true;
    const directory = path.dirname(file);
    const name = path.basename(file);
    if (/^(index(\..*)?|package\.json)$/.test(name)) return true;
    for (let dot = name.indexOf('.', 1); dot > 0; dot = name.indexOf('.', dot + 1))
      if (paths.has(path.join(directory, name.slice(0, dot)))) return true;
    let names = named.get(directory);
    if (names === undefined) named.set(directory, (names = namedByManifest(directory)));
    return names.has(name);
  };
}

/** The first parts of every path a directory's package.json names (main, exports, imports...). */
function namedByManifest(directory: string): Set<string> {
  const names = new Set<string>();
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8'));
  } catch {
    return names;
  }
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      const first = value.replace(/^\.\//, '').split(/[\\/]/)[0];
      if (first) names.add(first);
    } else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(manifest);
  return names;
}

let installed = false;

/**
 * Records every CommonJS resolution of this process from now on (Module._findPath).
 * Returns why it cannot, when this Node has no such seam: nothing may then run warm.
 */
export function recordModuleResolution(ask: Ask): string | undefined {
  if (installed) return undefined;
  const moduleInternals = Module as unknown as {
    _findPath?: (request: string, paths: string[] | null, isMain: boolean) => string | false;
  };
  const findPath = moduleInternals._findPath;
  if (typeof findPath !== 'function')
    return `Node ${process.version} has no Module._findPath, so module resolution cannot be recorded`;
  installed = true;
  moduleInternals._findPath = function (request, paths, isMain) {
    const found = findPath.call(this, request, paths, isMain);
    resolutionQuestions(request, paths ?? [], found, ask);
    return found;
  };
  return undefined;
}

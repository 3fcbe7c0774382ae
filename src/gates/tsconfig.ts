import fs from 'node:fs';
import path from 'node:path';

/**
 * Reading a tsconfig as TypeScript does, as far as the product needs it: comments, the
 * extends chain, references. Below tools/ and run/: the tsc marker gate (tools/tsc.ts)
 * asks whether the root needs build mode, and run/tsc-build.ts wraps the configs.
 */

/** Comments and trailing commas out of a tsconfig (JSONC), strings left intact. */
export function stripJsonComments(text: string): string {
  let out = '';
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"') {
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      out += text.slice(index, end + 1);
      index = end + 1;
    } else if (char === '/' && text[index + 1] === '/') {
      while (index < text.length && text[index] !== '\n') index += 1;
    } else if (char === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      index = end === -1 ? text.length : end + 2;
    } else {
      out += char;
      index += 1;
    }
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

export type Json = Record<string, unknown>;

export function readTsconfig(file: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(stripJsonComments(fs.readFileSync(file, 'utf8')));
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Json)
      : undefined;
  } catch {
    return undefined;
  }
}

export function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Where an `extends` entry points: a path, or a package in node_modules up from `directory`. */
function resolveExtends(specifier: string, directory: string): string | undefined {
  if (specifier.startsWith('.') || path.isAbsolute(specifier)) {
    const base = path.resolve(directory, specifier);
    return [base, `${base}.json`].find(isFile);
  }
  for (let current = directory; ; current = path.dirname(current)) {
    const base = path.join(current, 'node_modules', specifier);
    const manifest = readTsconfig(path.join(base, 'package.json'));
    const viaManifest =
      typeof manifest?.tsconfig === 'string' ? path.join(base, manifest.tsconfig) : undefined;
    const found = [base, `${base}.json`, viaManifest, path.join(base, 'tsconfig.json')]
      .filter((candidate): candidate is string => candidate !== undefined)
      .find(isFile);
    if (found) return found;
    if (path.dirname(current) === current) return undefined;
  }
}

/** What the extends chain of one tsconfig settles, as far as the wrapper needs it. */
export interface ResolvedOptions {
  compilerOptions: Json;
  hasFiles: boolean;
  hasInclude: boolean;
  hasExclude: boolean;
  /** include / files / exclude as written, where one holds `${configDir}`. */
  topLevel: Json;
  /** outDir made absolute against the config that set it. */
  outDir?: string;
  /** The "files" list in force (own or inherited), when there is one. */
  files?: unknown[];
}

export function resolveChain(file: string, seen = new Set<string>()): ResolvedOptions {
  const resolved: ResolvedOptions = {
    compilerOptions: {},
    hasFiles: false,
    hasInclude: false,
    hasExclude: false,
    topLevel: {},
  };
  if (seen.has(file)) return resolved;
  seen.add(file);
  const config = readTsconfig(file);
  if (!config) return resolved;
  const directory = path.dirname(file);
  const bases = Array.isArray(config.extends)
    ? config.extends
    : config.extends === undefined
      ? []
      : [config.extends];
  for (const base of bases) {
    if (typeof base !== 'string') continue;
    const baseFile = resolveExtends(base, directory);
    if (!baseFile) continue;
    const inherited = resolveChain(baseFile, seen);
    Object.assign(resolved.compilerOptions, inherited.compilerOptions);
    resolved.hasFiles ||= inherited.hasFiles;
    resolved.hasInclude ||= inherited.hasInclude;
    resolved.hasExclude ||= inherited.hasExclude;
    Object.assign(resolved.topLevel, inherited.topLevel);
    if (inherited.outDir !== undefined) resolved.outDir = inherited.outDir;
    if (inherited.files !== undefined) resolved.files = inherited.files;
  }
  const own = config.compilerOptions;
  if (own && typeof own === 'object' && !Array.isArray(own)) {
    Object.assign(resolved.compilerOptions, own);
    const outDir = (own as Json).outDir;
    if (typeof outDir === 'string') resolved.outDir = path.resolve(directory, outDir);
  }
  for (const key of ['files', 'include', 'exclude'] as const) {
    if (config[key] === undefined) continue;
    if (key === 'files') {
      resolved.hasFiles = true;
      resolved.files = Array.isArray(config.files) ? config.files : [];
    }
    if (key === 'include') resolved.hasInclude = true;
    if (key === 'exclude') resolved.hasExclude = true;
    if (JSON.stringify(config[key]).includes('${configDir}')) resolved.topLevel[key] = config[key];
    else delete resolved.topLevel[key];
  }
  return resolved;
}

/** A tsconfig reference: a directory holding tsconfig.json, or a config file. */
export function resolveReference(reference: unknown, directory: string): string | undefined {
  if (!reference || typeof reference !== 'object') return undefined;
  const target = (reference as Json).path;
  if (typeof target !== 'string') return undefined;
  const base = path.resolve(directory, target);
  return [path.join(base, 'tsconfig.json'), base, `${base}.json`].find(isFile);
}

/** Whether a tsconfig needs build mode: it references projects, or its "files" list is empty. */
export function usesProjectReferences(configFile: string): boolean {
  const config = readTsconfig(configFile);
  if (!config) return false;
  const chain = resolveChain(configFile);
  return (
    (Array.isArray(config.references) && config.references.length > 0) ||
    (chain.files !== undefined && chain.files.length === 0)
  );
}

/** The major version of the typescript package the root resolves (node_modules up from it); 6 when none. */
export function installedTypescriptMajor(root: string): number {
  for (let current = path.resolve(root); ; current = path.dirname(current)) {
    const manifest = readTsconfig(path.join(current, 'node_modules', 'typescript', 'package.json'));
    if (typeof manifest?.version === 'string') return Number.parseInt(manifest.version, 10) || 6;
    if (path.dirname(current) === current) return 6;
  }
}

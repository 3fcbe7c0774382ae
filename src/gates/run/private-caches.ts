import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ENV_REDIRECTS, toolOfProgram } from '../tools/index.js';
import { withoutOptions } from '../tools/shared.js';
import type { ToolDescriptor } from '../tools/tool.js';
import { makePrivateDirectory, removeStale, userCacheHome } from './private-directory.js';

/**
 * A cold run's private cache directory: every cache a known tool would write under the
 * root (tools/*.ts `writes`) goes there instead, and is removed after the run. A check
 * writes nothing under the root, ignored paths included.
 */
export interface PrivateCaches {
  /** The arguments to run the program with (the tool's own redirect options added). */
  args: string[];
  /** Variables to add to the run's environment. */
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

/** Directories of runs still going: a server that exits mid-run removes them too. */
const live = new Set<string>();
let exitHookInstalled = false;

function removeAtExit(directory: string): void {
  live.add(directory);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const left of live) fs.rmSync(left, { recursive: true, force: true });
  });
}

function isUnder(file: string, directory: string): boolean {
  const relative = path.relative(directory, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Whether `directory` is in a git work tree (a hook's copy of the start tree is not). */
function inWorkTree(directory: string): boolean {
  for (let current = directory; ; current = path.dirname(current)) {
    if (fs.existsSync(path.join(current, '.git'))) return true;
    if (path.dirname(current) === current) return false;
  }
}

/**
 * The directory kept for a build cache of the tree at `runDir` (a kept redirect, tools/*.ts):
 * `<user cache>/mcp-gates/<variable>/<name>-<hash of the tree's path>`, outside every tree,
 * so the next check builds incrementally as it would in the tree. Undefined (the run's
 * temporary directory: a whole build, removed after) outside a git work tree, where a
 * tree is a passing copy whose kept build would never serve again, and when the user's
 * cache is not private to this user. Each use marks it; those unused for 30 days go.
 */
function keptDirectory(
  variable: string,
  runDir: string,
  env: NodeJS.ProcessEnv,
): string | undefined {
  let real: string;
  try {
    real = fs.realpathSync(runDir);
  } catch {
    return undefined; // gone: the run fails on its own
  }
  if (!inWorkTree(real)) return undefined;
  const parent = path.join(userCacheHome(env), 'mcp-gates', variable.toLowerCase());
  if (makePrivateDirectory(parent) !== undefined) return undefined;
  const key = createHash('sha256').update(real).digest('hex').slice(0, 24);
  const kept = path.join(parent, `${path.basename(real) || 'root'}-${key}`);
  removeStale(parent, kept);
  try {
    const now = new Date();
    fs.utimesSync(kept, now, now);
  } catch {
    // not there yet: cargo makes it (and tags it CACHEDIR.TAG, as it does target/)
  }
  return kept;
}

/** How many bytes of a bin entry are read for a shell shim's target. */
const SHIM_HEAD_BYTES = 4096;

/**
 * The script a POSIX shell shim runs (pnpm's and cmd-shim's `.bin` entries: `exec node
 * "$basedir/../.pnpm/typescript@6.0.3/node_modules/typescript/bin/tsc" "$@"`), or `file`
 * itself when it is no such shim.
 */
function shimTarget(file: string): string {
  let head: string;
  let descriptor: number | undefined;
  try {
    descriptor = fs.openSync(file, 'r');
    const buffer = Buffer.alloc(SHIM_HEAD_BYTES);
    head = buffer.toString('utf8', 0, fs.readSync(descriptor, buffer, 0, SHIM_HEAD_BYTES, 0));
  } catch {
    return file;
  } finally {
    if (descriptor !== undefined) fs.closeSync(descriptor);
  }
  if (!head.startsWith('#!/bin/sh')) return file;
  const target = [...head.matchAll(/"\$basedir\/([^"$]+)"/g)]
    .map((match) => match[1]!)
    .find((relative) => relative !== 'node');
  return target === undefined ? file : path.resolve(path.dirname(file), target);
}

/** The version of the npm package `name` that holds `file` (its bin script, or a shim's), if it is one. */
function packageVersionOf(file: string, name: string): string | undefined {
  let directory: string;
  try {
    directory = path.dirname(fs.realpathSync(shimTarget(fs.realpathSync(file))));
  } catch {
    return undefined;
  }
  for (let depth = 0; depth < 4; depth += 1) {
    try {
      const manifest = JSON.parse(
        fs.readFileSync(path.join(directory, 'package.json'), 'utf8'),
      ) as { name?: unknown; version?: unknown };
      if (manifest.name === name && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // No manifest here: one level up.
    }
    directory = path.dirname(directory);
  }
  return undefined;
}

/**
 * The redirect options of the tool `argv[0]` runs (a real install of it: its version is
 * read from its package, so a look-alike script gets nothing added), and whether the
 * options naming its result cache's place are dropped for them.
 */
function redirectArgs(
  tool: ToolDescriptor | undefined,
  argv: readonly string[],
  script: string,
  directory: string,
): { extra: string[]; dropLocation: boolean } {
  const npmPackage = tool?.install && 'npmPackage' in tool.install ? tool.install.npmPackage : '';
  const version = npmPackage ? packageVersionOf(script, npmPackage) : undefined;
  if (version === undefined) return { extra: [], dropLocation: false };
  const location = tool?.resultCache?.location ?? [];
  const own = withoutOptions(argv, [], location);
  const extra = (tool?.writes ?? []).flatMap((write) =>
    write.redirect && 'args' in write.redirect && write.redirect.applies(own, version)
      ? write.redirect.args(directory)
      : [],
  );
  return { extra, dropLocation: extra.length > 0 && location.length > 0 };
}

/**
 * Sets up the private caches of one cold run of `argv`, resolved to `file` run with
 * `args` (on Windows the script a shim names is args[0] of node). Every known tool's
 * environment redirect is set (a script may run any of them); the program's own
 * redirect options are put right after the program.
 */
export function privateCaches(
  argv: readonly string[],
  resolved: { file: string; args: readonly string[] },
  where: { runDir: string; env: NodeJS.ProcessEnv },
): PrivateCaches {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-gates-caches-'));
  removeAtExit(directory);
  const env: NodeJS.ProcessEnv = {};
  const tool = toolOfProgram(argv[0] ?? '');
  for (const write of ENV_REDIRECTS) {
    if (!write.redirect || !('env' in write.redirect)) continue;
    const name = write.redirect.env;
    if (write.redirect.kept) {
      const own = where.env[name];
      if (
        own !== undefined &&
        own !== '' &&
        !isUnder(path.resolve(where.runDir, own), where.runDir)
      )
        continue; // the user's own place, outside the tree
      // Kept for the tool's own command; a script that may run it builds in the run's
      // temporary directory (whole, but outside the tree), and other runs make no directory.
      const ownCommand = tool?.writes?.includes(write) === true;
      env[name] = (ownCommand && keptDirectory(name, where.runDir, where.env)) || directory;
      continue;
    }
    env[name] = write.redirect.value ?? directory;
  }
  const viaNode = resolved.args.length > argv.length - 1;
  const script = viaNode ? resolved.args[0]! : resolved.file;
  const { extra, dropLocation } = redirectArgs(tool, argv, script, directory);
  const before = viaNode ? 1 : 0;
  // The user's cache place (`--cache-location .cache/eslint`) would win over ours, and is
  // in the tree: the check keeps its cache in the private directory instead.
  const rest = resolved.args.slice(before);
  const own = dropLocation ? withoutOptions(rest, [], tool!.resultCache!.location) : rest;
  return {
    args: [...resolved.args.slice(0, before), ...extra, ...own],
    env,
    cleanup: () => {
      live.delete(directory);
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

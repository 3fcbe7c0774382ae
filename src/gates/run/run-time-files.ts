import fs from 'node:fs';
import path from 'node:path';
import type { FileFilter, GateSpec } from '../gate-spec.js';
import { toolOfCommand } from '../tools/index.js';
import { ChangedFilesError, listProjectFiles } from './changed-files.js';

/** How many bytes of a file without an extension are read for its `#!` line. */
const HEAD_BYTES = 256;

/** The first bytes of a file as text (empty when unreadable). */
export function fileHead(file: string): string {
  let descriptor: number | undefined;
  try {
    descriptor = fs.openSync(file, 'r');
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = fs.readSync(descriptor, buffer, 0, HEAD_BYTES, 0);
    return buffer.toString('latin1', 0, read);
  } catch {
    return '';
  } finally {
    if (descriptor !== undefined) fs.closeSync(descriptor);
  }
}

interface RunWhere {
  root: string;
  runDir: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** The root's files, given where the root is no git work tree (GateToolOptions.projectFiles). */
  projectFiles?: readonly string[];
}

/** The project's files where the gate runs, listed with git (runDir-relative), or why not. */
async function projectFiles(where: RunWhere, what: string): Promise<string[] | { error: string }> {
  if (where.projectFiles)
    return where.projectFiles
      .map((file) => path.relative(where.runDir, path.join(where.root, file)))
      .filter((file) => file !== '' && !file.startsWith('..') && !path.isAbsolute(file))
      .map((file) => file.split(path.sep).join('/'));
  try {
    return await listProjectFiles(where.runDir, { env: where.env, signal: where.signal });
  } catch (error) {
    if (!(error instanceof ChangedFilesError)) throw error;
    const cause =
      error.code === 'EGIT_NOT_REPOSITORY'
        ? `${where.runDir} is not inside a git work tree`
        : error.code === 'EGIT_NOT_FOUND'
          ? 'git was not found on PATH'
          : error.message;
    return {
      error: `the ${what} to check are listed with git, and ${cause}; call the gate with paths, or name the files in its command (mcp-gates.json)`,
    };
  }
}

/**
 * The files a pre-commit hook's gate checks (GateSpec.fileFilter): the project's files
 * that pass the hook's patterns, as pre-commit selects them; with a call's paths, those of
 * them under the paths. None is `nothing` (the gate checked nothing, no pass).
 */
async function filteredFiles(
  filter: FileFilter,
  paths: readonly string[],
  where: RunWhere,
): Promise<RunTimeFilesAnswer> {
  const files = await projectFiles(where, `files ${filter.what} selects`);
  if (!Array.isArray(files)) return files;
  const include = filter.include && new RegExp(filter.include.source, filter.include.flags);
  const exclude = filter.exclude && new RegExp(filter.exclude.source, filter.exclude.flags);
  const fromRoot = (file: string) =>
    path.relative(where.root, path.join(where.runDir, file)).split(path.sep).join('/');
  const under = paths.map((given) => given.replace(/\/+$/, ''));
  const chosen = files.map(fromRoot).filter((file) => {
    const extension = path.extname(file).slice(1).toLowerCase();
    return (
      (under.length === 0 ||
        under.some((given) => given === '.' || file === given || file.startsWith(`${given}/`))) &&
      (filter.extensions === undefined || filter.extensions.includes(extension)) &&
      (include === undefined || include.test(file)) &&
      (exclude === undefined || !exclude.test(file))
    );
  });
  if (chosen.length === 0)
    return {
      nothing: `none of the ${files.length} files git tracks or does not ignore${under.length > 0 ? ` under ${under.join(', ')}` : ''} passes ${filter.what}`,
    };
  return {
    paths: chosen,
    listed: `checked the ${chosen.length} files ${filter.what} selects, listed with git`,
  };
}

/** The files a call runs on: the call's own, or those listed now; or why there are none. */
export type RunTimeFilesAnswer =
  { paths: string[]; listed?: string } | { nothing: string } | { error: string };

/**
 * The paths a call passes to a tool that takes only files (tools/*.ts `runTimeFiles`):
 * with no paths and a command naming no file, the project's files it checks, listed with
 * git now (root-relative); none of them is `nothing` (the gate checked nothing, no pass).
 * Any other gate, or a call with paths, keeps its paths.
 */
export async function runTimeFiles(
  gate: GateSpec,
  paths: string[],
  where: RunWhere,
): Promise<RunTimeFilesAnswer> {
  if (gate.fileFilter) return filteredFiles(gate.fileFilter, paths, where);
  const spec = toolOfCommand(gate.command, (tool) => tool.runTimeFiles !== undefined)?.runTimeFiles;
  if (!spec || paths.length > 0 || gate.steps || spec.namesFiles(gate.command)) return { paths };
  const files = await projectFiles(where, spec.what);
  if (!Array.isArray(files)) return files;
  const chosen = files.filter((file) =>
    spec.checks(file, () => fileHead(path.join(where.runDir, file))),
  );
  if (chosen.length === 0)
    return {
      nothing: `the project has no ${spec.what} (none among the ${files.length} files git tracks or does not ignore)`,
    };
  const given = spec.topLevel
    ? [...new Set(chosen.map((file) => file.split('/')[0]!))].sort()
    : chosen;
  return {
    paths: given.map((file) =>
      path.relative(where.root, path.join(where.runDir, file)).split(path.sep).join('/'),
    ),
    listed: spec.topLevel
      ? `checked the ${given.length} top-level entries holding the project's ${chosen.length} ${spec.what}, listed with git`
      : `checked the project's ${chosen.length} ${spec.what}, listed with git`,
  };
}

import path from 'node:path';
import type { ToolContext, ToolResult } from '../../server/tool.js';
import type { GateSpec } from '../gate-spec.js';
import { failureResult, nothingChangedResult, type ResultView } from '../report/gate-result.js';
import { toolOfCommand, type ToolDescriptor } from '../tools/index.js';
import { ChangedFilesError, listChangedFiles } from './changed-files.js';
import { fileHead } from './run-time-files.js';

/**
 * The known tool a gate's command runs (through npx, pnpm exec, node_modules/.bin...) that
 * says which files it checks, so a changed-scope call passes it only files it reads
 * (eslint given a .md file reports "no matching configuration"). A tool that does not
 * say gets every changed file.
 */
export function gateTool(gate: GateSpec): ToolDescriptor | undefined {
  return toolOfCommand(gate.command, (tool) => tool.extensions !== undefined);
}

/**
 * The changed files the gate's tool can check (all of them for an unknown tool). With the
 * root, a tool that picks its files by their first line too (shellcheck's extensionless
 * `#!/usr/bin/env bash` scripts) is asked about each file as it picks them at run time.
 */
export function filesTheToolChecks(
  gate: GateSpec,
  files: readonly string[],
  root?: string,
): string[] {
  const tool = gateTool(gate);
  if (tool === undefined) return [...files];
  const extensions = new Set(tool.extensions);
  const picks = tool.runTimeFiles;
  return files.filter(
    (file) =>
      extensions.has(path.extname(file).slice(1).toLowerCase()) ||
      (root !== undefined &&
        picks !== undefined &&
        picks.checks(file, () => fileHead(path.join(root, file)))),
  );
}

/** For the report: the extensions the gate's tool checks, or null for any. */
export function checkedExtensions(gate: GateSpec): readonly string[] | null {
  return gateTool(gate)?.extensions ?? null;
}

/**
 * The scope of a `scope: "changed"` call and the paths the gate checks, or the result to
 * return: a failure, or "nothing to check" when no file the tool checks changed. A gate
 * that takes no paths gets none (it runs on the whole project; the report lists the
 * changed files' findings first), unless nothing changed at all.
 */
export async function changedScope(
  gate: GateSpec,
  toolName: string,
  base: readonly string[],
  changed: { base: string | null },
  context: Pick<ToolContext, 'signal'>,
  options: { root: string; env?: NodeJS.ProcessEnv },
): Promise<{ scope: NonNullable<ResultView['scope']>; paths: string[] } | ToolResult> {
  let files: string[];
  try {
    files = await listChangedFiles(options.root, {
      ...(changed.base ? { base: changed.base } : {}),
      signal: context.signal,
      ...(options.env ? { env: options.env } : {}),
    });
  } catch (error) {
    if (error instanceof ChangedFilesError) return failureResult(toolName, base, error.message);
    throw error;
  }
  const paths = gate.paths === 'append' ? filesTheToolChecks(gate, files, options.root) : [];
  const scope = {
    base: changed.base,
    changedFiles: files,
    checkedFiles: gate.paths === 'append' ? paths.length : null,
  };
  // Nothing changed: nothing to say about the changes, whether or not the gate takes paths.
  if ((gate.paths === 'append' || files.length === 0) && paths.length === 0) {
    const extensions = checkedExtensions(gate);
    const why =
      files.length === 0
        ? `no files changed against ${changed.base ? `the merge-base with ${changed.base}` : 'HEAD'}`
        : `none of the ${files.length} changed files is one the tool checks (${extensions ? extensions.map((ext) => `.${ext}`).join(' ') : 'any'})`;
    return nothingChangedResult(toolName, base, { ...scope, checkedFiles: 0 }, why);
  }
  return { scope, paths };
}

import type { ToolResult } from '../../server/tool.js';
import { takesPaths, type GateSpec } from '../gate-spec.js';
import { GatesError } from '../gates-error.js';
import { MIN_MAX_CHARS } from '../report/budget.js';
import { failureResult } from '../report/gate-result.js';
import { confinePaths } from './confine-paths.js';

/** A call's arguments, checked. */
export interface CallArguments {
  paths: string[];
  maxChars?: number;
  /** Paging: a path or glob the listed findings are filtered to. */
  file?: string;
  offset?: number;
  /** Changed scope: `base` null compares with HEAD. */
  changed?: { base: string | null };
  newOnly: boolean;
  recordBaseline: boolean;
}

/** What a check's tool takes, and a fix's: a fix neither pages nor uses a baseline. */
const CHECK_ARGUMENTS = ['paths', 'maxChars', 'file', 'offset', 'scope', 'base', 'new', 'baseline'];
const FIX_ARGUMENTS = ['paths', 'maxChars', 'scope', 'base'];

/** The argument names a gate's tool takes (paths only when the gate takes paths). */
export function argumentNames(gate: GateSpec, fixing: boolean): string[] {
  const names = fixing ? FIX_ARGUMENTS : CHECK_ARGUMENTS;
  // A fix runs the gate's own fix command, which a narrowed check does not change.
  return (fixing ? gate.paths === 'append' : takesPaths(gate))
    ? names
    : names.filter((name) => name !== 'paths');
}

/** Checks a call's arguments: the confined paths and options, or the failure result to return. */
export function parseCallArguments(
  gate: GateSpec,
  fixing: boolean,
  toolName: string,
  base: readonly string[],
  args: Record<string, unknown>,
  root: string,
): CallArguments | ToolResult {
  const fail = (message: string) => failureResult(toolName, base, message);
  const allowed = fixing ? FIX_ARGUMENTS : CHECK_ARGUMENTS;
  const unknown = Object.keys(args).filter((key) => !allowed.includes(key));
  if (unknown.length > 0)
    return fail(
      `unknown argument ${unknown.map((key) => `"${key}"`).join(', ')}; this tool takes ${argumentNames(
        gate,
        fixing,
      )
        .map((key) => `"${key}"`)
        .join(', ')}`,
    );
  const parsed: CallArguments = { paths: [], newOnly: false, recordBaseline: false };
  if (args.maxChars !== undefined) {
    if (!Number.isSafeInteger(args.maxChars) || (args.maxChars as number) < MIN_MAX_CHARS)
      return fail(`"maxChars" is a whole number of characters, at least ${MIN_MAX_CHARS}`);
    parsed.maxChars = args.maxChars as number;
  }
  if (args.file !== undefined) {
    if (typeof args.file !== 'string' || args.file.trim() === '')
      return fail(
        '"file" is a path or glob relative to the project root, e.g. "src/a.ts" or "src/**/*.ts"',
      );
    parsed.file = args.file;
  }
  if (args.offset !== undefined) {
    if (!Number.isSafeInteger(args.offset) || (args.offset as number) < 0)
      return fail('"offset" is a whole number of findings to skip, 0 or more');
    parsed.offset = args.offset as number;
  }
  for (const flag of ['new', 'baseline'] as const) {
    if (args[flag] !== undefined && typeof args[flag] !== 'boolean')
      return fail(`"${flag}" is true or false`);
  }
  parsed.newOnly = args.new === true;
  parsed.recordBaseline = args.baseline === true;
  if (parsed.newOnly && parsed.recordBaseline)
    return fail(
      '"new" and "baseline" do not go together: "baseline" records the findings, "new" compares with them',
    );
  if (args.scope !== undefined && args.scope !== 'changed' && args.scope !== 'all')
    return fail(
      '"scope" is "changed" (the files changed against HEAD, or against "base") or "all"',
    );
  if (args.base !== undefined && (typeof args.base !== 'string' || args.base === ''))
    return fail('"base" is a git ref, e.g. "main"');
  if (args.base !== undefined && args.scope !== 'changed')
    return fail('"base" goes with "scope": "changed"');
  if (args.scope === 'changed')
    parsed.changed = { base: (args.base as string | undefined) ?? null };
  const partial =
    parsed.changed !== undefined ||
    parsed.file !== undefined ||
    parsed.offset !== undefined ||
    (Array.isArray(args.paths) && args.paths.length > 0);
  if (parsed.recordBaseline && partial)
    return fail(
      '"baseline" records the findings of a whole run: it goes without "paths", "scope", "file" and "offset"',
    );
  if (args.paths === undefined) return parsed;
  if (!Array.isArray(args.paths))
    return fail(`"paths" is an array of strings (got ${typeof args.paths})`);
  if (!argumentNames(gate, fixing).includes('paths') && args.paths.length > 0) {
    return fail(
      `this gate always runs on the whole project and takes no paths (set "paths": "append" for gate "${gate.name}" in mcp-gates.json to change that)`,
    );
  }
  if (parsed.changed && args.paths.length > 0)
    return fail(
      '"paths" and "scope": "changed" do not go together: the changed scope picks the paths',
    );
  try {
    parsed.paths = confinePaths(root, args.paths);
    return parsed;
  } catch (error) {
    if (error instanceof GatesError) return fail(error.message);
    throw error;
  }
}

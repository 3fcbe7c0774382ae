import path from 'node:path';
import { gateCommands } from '../detect/gate-commands.js';
import { gateOnFiles, takesPaths, type GateSpec } from '../gate-spec.js';
import { filesTheToolChecks } from '../run/changed-scope.js';
import { fileHead } from '../run/run-time-files.js';
import { MAX_PATHS, MAX_PATHS_TOTAL_LENGTH } from '../run/confine-paths.js';
import { readsAsSettings, type ToolDescriptor } from '../tools/index.js';

/** One gate's run in a hook call: its arguments, and what it covers (for the session's memory). */
export interface PlannedRun {
  gate: GateSpec;
  args: Record<string, unknown>;
  /** The files the run checks, or 'all' for a whole-project run. */
  scope: readonly string[] | 'all';
  /** Why it runs whole where it could take paths (a settings file changed, a file was deleted...). */
  whole?: string;
  /** A tool of the gate fails on any warning (`--max-warnings 0`): a new warning blocks. */
  strict?: boolean;
}

/** What a hook call plans for: files changed (existing) and files gone. */
export interface PlannedChange {
  files: readonly string[];
  deleted: readonly string[];
}

export interface Plan {
  runs: PlannedRun[];
  /** After an edit: the edited files no gate reads, and the tools that were asked. */
  unread: { files: string[]; tools: string[] };
}

/** Whether a tool reads files with this one's extension (a tool that says nothing reads any). */
function readsExtension(tool: ToolDescriptor, file: string): boolean {
  if (tool.extensions === undefined && tool.reads === undefined) return true;
  const extension = path.extname(file).slice(1).toLowerCase();
  return (tool.extensions ?? []).includes(extension) || (tool.reads ?? []).includes(extension);
}

/** A path as an argument no tool reads as an option: `-x.js` is given as `./-x.js`. */
export function pathArgument(file: string): string {
  return file.startsWith('-') ? `./${file}` : file;
}

/** Whether these paths fit one call (confine-paths.ts's limits). */
function fitsOneCall(paths: readonly string[]): boolean {
  if (paths.length > MAX_PATHS) return false;
  return paths.reduce((total, file) => total + file.length + 1, 0) <= MAX_PATHS_TOTAL_LENGTH;
}

/**
 * The gates to run for a change. A gate concerns a file when a tool it runs reads such
 * files or reads that file as settings, when the file is the gate's own source, or when
 * part of its check is opaque (a custom script may read anything), whatever the gate's
 * shape: a tool's own command, a package.json script (one command or a chain), a
 * Makefile/justfile target, a tox env, a configured gate.
 *
 * After an edit (`afterEdit`) only the gates the edited files concern run; before a stop
 * every gate runs once anything changed. A gate that takes paths runs on the changed files
 * its tool checks, and whole when a settings file changed, a file it could check is gone
 * (what imported it may break), or the paths do not fit one call; any other gate runs whole.
 */
export function planRuns(
  gates: readonly GateSpec[],
  root: string,
  change: PlannedChange,
  afterEdit: boolean,
): Plan {
  const runs: PlannedRun[] = [];
  const read = new Set<string>();
  const asked = new Set<string>();
  for (const gate of gates) {
    const { tools, opaque, warningLimit } = gateCommands(gate, root);
    for (const tool of tools) asked.add(tool.name);
    const settings = (file: string) =>
      file === gate.source || tools.some((tool) => readsAsSettings(tool, file));
    const concerns = (file: string) =>
      opaque ||
      settings(file) ||
      tools.some(
        (tool) =>
          readsExtension(tool, file) ||
          // An extensionless script a tool picks by its `#!` line (shellcheck).
          (tool.runTimeFiles?.checks(file, () => fileHead(path.join(root, file))) ?? false),
      );
    const files = change.files.filter(concerns);
    const deleted = change.deleted.filter(concerns);
    for (const file of [...files, ...deleted]) read.add(file);
    const anything = change.files.length + change.deleted.length > 0;
    if (afterEdit ? files.length + deleted.length === 0 : !anything) continue;
    if (!takesPaths(gate)) {
      runs.push({ gate, args: {}, scope: 'all', strict: warningLimit === 0 });
      continue;
    }
    const changedSettings = [...files, ...deleted].find(settings);
    // A narrowed gate's tool says which files it checks.
    const checked = filesTheToolChecks(gateOnFiles(gate), files, root);
    const paths = checked.map(pathArgument);
    // A deleted file has no first line to read: its name alone says.
    const gone = filesTheToolChecks(gateOnFiles(gate), deleted);
    const whole = changedSettings
      ? `${changedSettings} is read as settings`
      : warningLimit !== undefined && warningLimit > 0
        ? `--max-warnings ${warningLimit} counts the whole project's warnings`
        : gone.length > 0
          ? `${gone[0]} is gone`
          : fitsOneCall(paths)
            ? undefined
            : `${paths.length} files do not fit one call`;
    if (whole) runs.push({ gate, args: {}, scope: 'all', whole, strict: warningLimit === 0 });
    else if (paths.length > 0)
      runs.push({ gate, args: { paths }, scope: checked, strict: warningLimit === 0 });
  }
  const unread = afterEdit
    ? [...change.files, ...change.deleted].filter((file) => !read.has(file))
    : [];
  return { runs, unread: { files: unread, tools: [...asked].sort() } };
}

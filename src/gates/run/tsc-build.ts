import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  installedTypescriptMajor,
  type Json,
  readTsconfig,
  resolveChain,
  resolveReference,
  type ResolvedOptions,
} from '../tsconfig.js';
import type { BuildInfoStore } from './tsc-incremental.js';

/**
 * Typecheck through project references without writing into the tree.
 *
 * `tsc --noEmit` on a solution tsconfig (`"files": []` + `references`, Vite's react-ts
 * template, composite monorepos) checks nothing. `tsc -b` checks every referenced
 * project, but writes .tsbuildinfo and, for composite projects, declarations into the
 * tree, and build mode refuses --tsBuildInfoFile / --outDir on the command line. So each
 * project of the reference graph gets a wrapper config in a private temporary directory:
 * it extends the original (its files, options and paths stay the original's) and moves
 * every output (outDir, declarationDir, outFile, tsBuildInfoFile) into that directory;
 * its references point at the wrappers of the referenced projects. `tsc -b --force` on
 * the root wrapper then checks the whole graph, composite dependencies first.
 */

/** Whether a project names inputs of its own: a non-empty "files", an "include", or the default. */
function hasInputSpec(chain: ResolvedOptions): boolean {
  return chain.hasInclude || !chain.hasFiles || (chain.files?.length ?? 0) > 0;
}

/** Planning found that the typecheck would check nothing; the message says why and what to do. */
export class TscPlanError extends Error {}

const forwardSlashes = (file: string) => file.split(path.sep).join('/');

/** `${configDir}` stands for the final config's directory, which would be the wrapper's. */
function substituteConfigDir(value: unknown, directory: string): unknown {
  const dir = forwardSlashes(directory);
  if (typeof value === 'string') return value.split('${configDir}').join(dir);
  if (Array.isArray(value)) return value.map((item) => substituteConfigDir(item, directory));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, substituteConfigDir(item, directory)]),
    );
  }
  return value;
}

/** What one planning pass carries through the reference graph. */
interface PlanState {
  root: string;
  /** The project the gate checks (its own package is not imported by name). */
  rootConfig: string;
  cacheDirectory: string;
  /** Original config -> its wrapper, so a shared or cyclic reference is written once. */
  wrappers: Map<string, string>;
  typescriptMajor: number;
  /** Projects that name input files of their own. */
  withInputs: Set<string>;
  /** Packages whose package.json points its types into their (unwritten) build output. */
  typesFromOutput: string[];
  /** Project directory -> the private directory its wrapper is written to. */
  wrapperDirectories: Map<string, string>;
  /** node_modules/.cache directories this plan created (removed again when left empty). */
  createdCaches: string[];
}

/** A wrapper directory's name: the prefix, the pid of the process that made it, a random part. */
const WRAPPER_PREFIX = 'mcp-gates-tsc-';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the wrapper directories a killed run left in `cache` (a host that kills a hook at its
 * timeout, SIGTERM or SIGKILL, ends the run before its cleanup): those whose process is gone.
 * A live process's (a server's run going on) are left alone.
 */
function sweepLeftWrappers(cache: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(cache);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = new RegExp(`^${WRAPPER_PREFIX}(\\d+)-`).exec(name)?.[1];
    if (pid === undefined || alive(Number(pid))) continue;
    fs.rmSync(path.join(cache, name), { recursive: true, force: true });
  }
}

/**
 * Where a project's wrapper config goes. TypeScript resolves `types` entries and the
 * automatic `@types` packages from the directory of the config it was given, so a
 * wrapper in the system temp directory fails with TS2688 for `"types": ["vite/client"]`.
 * A private directory under the nearest node_modules/.cache (never tracked, by every
 * convention) resolves exactly as the original config does; outputs still go to the
 * plan's temporary directory. Without a writable node_modules, the temp directory.
 */
function wrapperDirectory(projectDirectory: string, state: PlanState): string {
  const known = state.wrapperDirectories.get(projectDirectory);
  if (known) return known;
  let chosen = state.cacheDirectory;
  for (let current = projectDirectory; ; current = path.dirname(current)) {
    const modules = path.join(current, 'node_modules');
    if (fs.existsSync(modules)) {
      try {
        const cache = path.join(modules, '.cache');
        if (!fs.existsSync(cache)) {
          fs.mkdirSync(cache);
          state.createdCaches.push(cache);
        }
        sweepLeftWrappers(cache);
        chosen = fs.mkdtempSync(path.join(cache, `${WRAPPER_PREFIX}${process.pid}-`));
      } catch {
        // read-only node_modules: the temp directory still works for projects without `types`
      }
      break;
    }
    if (path.dirname(current) === current || current === state.root) break;
  }
  state.wrapperDirectories.set(projectDirectory, chosen);
  return chosen;
}

/** A package.json "types" / "typings" / "exports" target inside one of `outputs`, if any. */
function typesInOutput(directory: string, outputs: readonly string[]): string | undefined {
  const manifest = readTsconfig(path.join(directory, 'package.json'));
  if (!manifest || outputs.length === 0) return undefined;
  const targets: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') targets.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect([manifest.types, manifest.typings, manifest.exports]);
  return targets
    .filter((target) => /\.d\.[cm]?ts$/.test(target))
    .find((target) =>
      outputs.some((output) => {
        const relative = path.relative(output, path.resolve(directory, target));
        return !relative.startsWith('..') && !path.isAbsolute(relative);
      }),
    );
}

/**
 * Writes the wrapper of `configFile` (and, first, of every project it references) into
 * the plan's directory; returns the wrapper's path.
 */
function writeWrapper(configFile: string, state: PlanState): string {
  const { cacheDirectory, wrappers, typescriptMajor, withInputs } = state;
  const known = wrappers.get(configFile);
  if (known) return known;
  const index = wrappers.size;
  const directory = path.dirname(configFile);
  const wrapper = path.join(wrapperDirectory(directory, state), `project-${index}.tsconfig.json`);
  wrappers.set(configFile, wrapper);
  const own = readTsconfig(configFile) ?? {};
  const chain = resolveChain(configFile);
  if (hasInputSpec(chain)) withInputs.add(configFile);
  const options = chain.compilerOptions;
  const declarationDir =
    typeof options.declarationDir === 'string'
      ? path.resolve(directory, options.declarationDir)
      : undefined;
  const types = typesInOutput(
    directory,
    [chain.outDir, declarationDir].filter((dir): dir is string => dir !== undefined),
  );
  if (types && configFile !== state.rootConfig)
    state.typesFromOutput.push(
      forwardSlashes(path.join(path.relative(state.root, directory), types)),
    );
  const output = path.join(cacheDirectory, `project-${index}`);

  const compilerOptions: Json = {};
  for (const [key, value] of Object.entries(options)) {
    if (JSON.stringify(value).includes('${configDir}'))
      compilerOptions[key] = substituteConfigDir(value, directory);
  }
  Object.assign(compilerOptions, {
    outDir: forwardSlashes(path.join(output, 'out')),
    tsBuildInfoFile: forwardSlashes(path.join(output, 'tsconfig.tsbuildinfo')),
    incremental: true,
  });
  // TypeScript 6 defaults rootDir to the final config's directory, the wrapper's: keep the
  // original's. Older versions default to the common source directory, wherever the config is.
  if (options.rootDir === undefined && typescriptMajor >= 6)
    compilerOptions.rootDir = forwardSlashes(directory);
  if (options.declarationDir !== undefined)
    compilerOptions.declarationDir = forwardSlashes(path.join(output, 'types'));
  if (options.outFile !== undefined)
    compilerOptions.outFile = forwardSlashes(path.join(output, 'out.js'));
  // Referenced composite projects must emit their declarations; JavaScript is not needed.
  if ((options.composite === true || options.declaration === true) && options.noEmit !== true)
    compilerOptions.emitDeclarationOnly = true;

  const wrapperConfig: Json = { extends: forwardSlashes(configFile), compilerOptions };
  Object.assign(wrapperConfig, substituteConfigDir(chain.topLevel, directory));
  // The config's own "files", absolute: an inherited empty list would not raise TS18002.
  if (Array.isArray(own.files)) {
    wrapperConfig.files = own.files.map((file) =>
      typeof file === 'string' && !file.includes('${configDir}')
        ? forwardSlashes(path.resolve(directory, file))
        : substituteConfigDir(file, directory),
    );
  }
  // Defaults resolve against the final config's directory (the wrapper's): spell them out.
  if (!chain.hasFiles && !chain.hasInclude)
    wrapperConfig.include = [forwardSlashes(path.join(directory, '**', '*'))];
  if (!chain.hasExclude) {
    wrapperConfig.exclude = ['node_modules', 'bower_components', 'jspm_packages']
      .map((name) => path.join(directory, name))
      .concat(chain.outDir ? [chain.outDir] : [])
      .map(forwardSlashes);
  }
  const references = Array.isArray(own.references) ? own.references : [];
  // Only where the original has references: an empty list would hush TS18002 ("files" empty).
  if (references.length > 0) {
    wrapperConfig.references = references
      .map((reference) => resolveReference(reference, directory))
      .filter((file): file is string => file !== undefined)
      .map((file) => ({
        path: forwardSlashes(writeWrapper(file, state)),
      }));
  }
  fs.writeFileSync(wrapper, `${JSON.stringify(wrapperConfig, null, 2)}\n`);
  return wrapper;
}

export interface TscBuildPlan {
  argv: string[];
  /** The private directory holding every output; remove it after the run. */
  cacheDirectory: string;
  /** Removes every private directory of the plan (outputs and wrappers); call after the run. */
  cleanup: () => void;
  /** What the report should say about the check's reach. */
  notes: string[];
}

/**
 * `tsc --noEmit` still writes tsconfig.tsbuildinfo beside the config when the project is
 * incremental or composite; --tsBuildInfoFile moves it into a fresh private directory
 * (and writes nothing for a project that is neither). With `incremental` (TypeScript's
 * native compiler in `serve`: run/tsc-incremental.ts), the run is incremental from the
 * build info the store kept of the gate's last call, and its own goes back to the store.
 */
export function planTscNoEmit(
  command: readonly string[],
  incremental?: { store: BuildInfoStore; runDir: string },
): TscBuildPlan {
  const cacheDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-gates-tsc-'));
  const remove = () => fs.rmSync(cacheDirectory, { recursive: true, force: true });
  if (incremental) {
    const { argv, keep } = incremental.store.prepare(incremental.runDir, command, cacheDirectory);
    return {
      argv,
      cacheDirectory,
      cleanup: () => {
        keep();
        remove();
      },
      notes: [
        "incremental: TypeScript's native compiler rechecks what changed since this gate's last call (its build info is kept in a directory private to this server, never in the tree)",
      ],
    };
  }
  return {
    argv: [...command, '--tsBuildInfoFile', path.join(cacheDirectory, 'tsconfig.tsbuildinfo')],
    cacheDirectory,
    cleanup: remove,
    notes: [],
  };
}

/**
 * The argv that checks `project` (relative to root) and everything it references with
 * `<program> -b --force`, outputs in a fresh private directory outside the tree.
 * `--force`: an up-to-date skip would report clean without checking.
 */
export function planTscBuild(root: string, program: string, project: string): TscBuildPlan {
  const cacheDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-gates-tsc-'));
  const rootConfig = path.resolve(root, project);
  const state: PlanState = {
    root,
    rootConfig,
    cacheDirectory,
    wrappers: new Map(),
    typescriptMajor: installedTypescriptMajor(root),
    withInputs: new Set(),
    typesFromOutput: [],
    wrapperDirectories: new Map(),
    createdCaches: [],
  };
  const removeAll = () => {
    for (const dir of new Set([cacheDirectory, ...state.wrapperDirectories.values()]))
      fs.rmSync(dir, { recursive: true, force: true });
    for (const cache of state.createdCaches) {
      try {
        fs.rmdirSync(cache); // only when empty: other tools may have cached there meanwhile
      } catch {
        // not empty, or already gone
      }
    }
  };
  let rootWrapper: string;
  try {
    rootWrapper = writeWrapper(rootConfig, state);
  } catch (error) {
    removeAll();
    throw error;
  }
  const { wrappers, withInputs } = state;
  // tsc itself passes a config that inherits "files": [] and references nothing.
  if (withInputs.size === 0) {
    removeAll();
    throw new TscPlanError(
      `${project} and the ${wrappers.size - 1} project(s) it references list no input files ("files": [] and no "include"), so a typecheck would check nothing; add "include" (e.g. ["src"]) or "references" to the projects that hold the sources`,
    );
  }
  // pinia's `tsc --build ./tsconfig.json` references nothing: "and the 0 project(s)" read oddly.
  const referenced = wrappers.size - 1;
  const projects =
    referenced === 0
      ? `${project} (it references no other project) through a wrapper config (in a private directory`
      : `${project} and the ${referenced} project(s) it references through wrapper configs (in private directories`;
  const notes = [
    `checks ${projects} under node_modules/.cache, where TypeScript resolves "types" as from the original configs) whose every output goes to a private temporary directory; all are removed after the run`,
  ];
  if (state.typesFromOutput.length > 0)
    notes.push(
      `${state.typesFromOutput.join(', ')}: imports of these packages by name resolve to their build output as it is on disk (this check writes no build output into the tree); build them first, or point "types" at the sources, for their consumers to be checked against the current code`,
    );
  return {
    argv: [program, '-b', rootWrapper, '--force', '--pretty', 'false'],
    cacheDirectory,
    cleanup: removeAll,
    notes,
  };
}

/**
 * The run-time preparation a configured typecheck command gets, as detection gives it: a
 * `tsc -b <project> --force ...` (what `init` writes for a project with references) runs
 * through private wrappers, and a `tsc --noEmit` without its own --tsBuildInfoFile gets one
 * in a private directory; anything else runs exactly as written.
 */
export function inferTscPrepare(
  command: readonly string[],
): 'tsc-build' | 'tsc-noemit' | undefined {
  const program = path.basename(command[0] ?? '').replace(/\.(cmd|exe)$/i, '');
  if (program !== 'tsc' && program !== 'vue-tsc' && program !== 'tsgo') return undefined;
  if (command.includes('--tsBuildInfoFile')) return undefined;
  if (
    (command[1] === '-b' || command[1] === '--build') &&
    command[2] !== undefined &&
    !command[2].startsWith('-')
  )
    return 'tsc-build';
  if (command.includes('--noEmit') && !command.includes('-b') && !command.includes('--build'))
    return 'tsc-noemit';
  return undefined;
}

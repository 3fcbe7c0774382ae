import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TypeScript from 'typescript';
import {
  optionValues,
  resolveInstalledPackage,
  type ToolAdapter,
  type ToolOutcome,
} from './tool-adapter.js';

/**
 * tsc --noEmit kept warm (TypeScript up to 6, whose JS compiler API exists): the builder
 * program `tsc --incremental` uses kept in memory. Each call re-reads the tsconfig
 * (so the file set follows new, deleted and renamed files), re-reads every source text
 * and reparses only the files whose text changed, and the builder rechecks only what
 * those changes can affect. Diagnostics are reported by TypeScript's own
 * emitFilesAndReportErrorsAndGetExitStatus and non-pretty reporter, as tsc does.
 * TypeScript 7 ships only a native tsc, which starts fast: it runs cold.
 */

type DiagnosticReporter = (diagnostic: TypeScript.Diagnostic) => void;

/**
 * Functions tsc itself reports with: present at run time in TypeScript 5 and 6 though
 * absent from its .d.ts; checked before use.
 */
interface TscReporting {
  emitFilesAndReportErrorsAndGetExitStatus(
    program: TypeScript.BuilderProgram,
    reportDiagnostic: DiagnosticReporter,
    write: (text: string) => void,
  ): number;
  createDiagnosticReporter(system: TypeScript.System, pretty: boolean): DiagnosticReporter;
}

type TS = typeof TypeScript & Partial<TscReporting> & { BuilderState?: BuilderStateInternals };

/** The builder's per-file records, internal to TypeScript: checked before use. */
interface BuilderStateInternals {
  computeDtsSignature(
    program: TypeScript.Program,
    sourceFile: TypeScript.SourceFile,
    cancellationToken: undefined,
    host: TypeScript.CompilerHost,
    onSignature: (signature: string) => void,
  ): void;
}
interface BuilderProgramState {
  program?: TypeScript.Program;
  fileInfos: Map<string, { signature?: string }>;
}

/** What a program copy is made and checked with (programCopy), internal to TypeScript. */
interface ProgramInternals {
  getMissingFilePaths?(): { values(): Iterable<string> };
  structureIsReused?: number;
}
interface HostInternals {
  hasChangedAutomaticTypeDirectiveNames?(): boolean;
}

interface SourceFileEntry {
  text: string;
  /** The file's own creation options (CreateSourceFileOptions), as JSON. */
  key: string;
  file: TypeScript.SourceFile;
}

/** A source file with the fields the builder keys and versions it by (internal). */
const internal = (file: TypeScript.SourceFile) =>
  file as TypeScript.SourceFile & { resolvedPath: string; version?: string };

/** Options with which tsc prints or does something other than the diagnostics. */
const COLD_ONLY_OPTIONS = [
  'help',
  'all',
  'version',
  'init',
  'watch',
  'build',
  'showConfig',
  'listFiles',
  'listFilesOnly',
  'explainFiles',
  'traceResolution',
  'diagnostics',
  'extendedDiagnostics',
  'generateCpuProfile',
  'generateTrace',
  'locale',
  'listEmittedFiles',
] as const;

/**
 * How far V8 may grow the heap past what survived its last full collection (worker-main.ts).
 * A check keeps most of what it allocates (its checker's types) and the worker holds its
 * program between calls: with V8's default growth the worker peaked above `tsc
 * --incremental` on vuejs/core's exported-type edits (861-919 MB against 854-856 MB); at
 * 1.3x it peaks at 843-860 MB, with no CPU cost beyond the noise (bench/RESULTS.md).
 */
const TSC_HEAP_GROWING_PERCENT = 30;

/** tsc's own default for the JSDoc it parses (ParseForTypeErrors). */
const TSC_JSDOC_PARSING_MODE = 2;

/**
 * Option sets whose source files are kept at once (two gates of one project); past it, the
 * least recently used set goes (a tsconfig edit leaves one behind). Each holds a program's
 * syntax trees, lib files included: more would crowd the worker's memory cap.
 */
const MAX_OPTION_SETS = 2;

/**
 * Options a source file is parsed and bound under, named even where a TypeScript version
 * does not mark them: the language version, module detection (setExternalModuleIndicator,
 * a function that no key can hold, is made from these) and jsx.
 */
const SOURCE_FILE_OPTIONS = ['target', 'module', 'moduleDetection', 'jsx'];

/**
 * A key of everything in `options` that changes how a source file is parsed or bound:
 * the options TypeScript itself marks as affecting source files or bind diagnostics
 * (read from this TypeScript's optionDeclarations, so a later version's new ones count;
 * TypeScript makes new source files when one of them changes, shouldCreateNewSourceFile),
 * each as written and as it takes effect (`strict` sets `alwaysStrict`; `module` sets
 * `moduleDetection`), and the options named above; every option, where this TypeScript
 * does not say.
 */
function sourceFileOptionsKey(ts: TS, options: TypeScript.CompilerOptions): string {
  const declarations = (
    ts as {
      optionDeclarations?: readonly {
        name: string;
        affectsSourceFile?: true;
        affectsBindDiagnostics?: true;
      }[];
    }
  ).optionDeclarations;
  // A TypeScript that does not say which options count: all of them do.
  if (!Array.isArray(declarations)) return JSON.stringify(options);
  const names = new Set(SOURCE_FILE_OPTIONS);
  const effective = new Map<string, unknown>();
  const { getCompilerOptionValue } = ts as {
    getCompilerOptionValue?: (options: TypeScript.CompilerOptions, declaration: unknown) => unknown;
  };
  for (const declaration of declarations) {
    if (!declaration.affectsSourceFile && !declaration.affectsBindDiagnostics) continue;
    names.add(declaration.name);
    if (typeof getCompilerOptionValue === 'function')
      effective.set(declaration.name, getCompilerOptionValue(options, declaration));
  }
  return JSON.stringify(
    [...names].sort().map((name) => [name, options[name] ?? null, effective.get(name) ?? null]),
  );
}

function sourceVersion(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * `collectGarbage`: a full collection, called once a call's builder has replaced the last
 * one (worker-main.ts gives the worker's own).
 */
export function loadTscAdapter(root: string, collectGarbage?: () => void): ToolAdapter | string {
  const installed = resolveInstalledPackage(root, 'typescript');
  if (typeof installed === 'string') return installed;
  if (installed.major >= 7) {
    return `typescript ${installed.version} ships the native tsc, which starts fast: it runs cold`;
  }
  const ts = createRequire(path.join(root, 'package.json'))('typescript') as TS;
  const reporting = ts as Partial<TscReporting>;
  if (
    typeof reporting.emitFilesAndReportErrorsAndGetExitStatus !== 'function' ||
    typeof reporting.createDiagnosticReporter !== 'function'
  ) {
    return `typescript ${installed.version} lacks the reporting functions tsc uses`;
  }
  const report = reporting as TscReporting;

  /**
   * Source files already parsed and bound, by the option set they were made under
   * (sourceFileOptionsKey), then by name: a file bound under one set is never handed to a
   * program of another (two gates of one project, a tsconfig or an extended config that
   * changed), whose binder would have reported otherwise (unreachable code, unused labels,
   * switch fallthrough) or made the file a module or a script.
   */
  const sourceFiles = new Map<string, Map<string, SourceFileEntry>>();
  const sourceFilesOf = (optionsKey: string): Map<string, SourceFileEntry> => {
    let files = sourceFiles.get(optionsKey);
    // The most recently used set goes last: eviction takes the oldest.
    sourceFiles.delete(optionsKey);
    files ??= new Map();
    sourceFiles.set(optionsKey, files);
    while (sourceFiles.size > MAX_OPTION_SETS) sourceFiles.delete(sourceFiles.keys().next().value!);
    return files;
  };
  /**
   * What module resolution asked, node_modules included (a package's "types" can move
   * without an install): existence probes, path -> answer, and files read other than
   * source files (package.json), path -> text. The builder keeps resolutions across
   * calls, so any changed answer starts a new one.
   */
  const probes = new Map<string, boolean>();
  const resolutionReads = new Map<string, string | undefined>();
  let previous:
    | {
        key: string;
        builder: TypeScript.EmitAndSemanticDiagnosticsBuilderProgram;
        /** Its program was replaced by a copy without a checker, and collected (releaseChecker). */
        released?: true;
      }
    | undefined;
  /** Source texts read at the start of this call (signChangedFiles), for the host to use. */
  let textsOfThisCall: Map<string, string | undefined> | undefined;

  /**
   * The builder rechecks a changed file's importers when the file's declaration signature
   * changed, and a builder started without an old one records each file's text version as
   * its signature: the first edit of any file then compares a .d.ts hash with a text hash,
   * finds them different and rechecks every importer, transitively (600 of 640 files on
   * the bench project, for an edit inside a function body). Before the new builder is
   * made, each changed file whose signature is still its version gets its real one,
   * computed on the program it had, exactly as the builder computes it
   * (BuilderState.computeDtsSignature): the edit is then compared with the declarations
   * the file had. Only changed files: the builder itself keeps version signatures for the
   * importers it invalidates, and compares those with each other.
   */
  const signChangedFiles = (
    old: TypeScript.EmitAndSemanticDiagnosticsBuilderProgram,
    host: TypeScript.CompilerHost,
  ): void => {
    const state = (old as { state?: BuilderProgramState }).state;
    const program = state?.program;
    const compute = ts.BuilderState?.computeDtsSignature;
    if (!state || !(state.fileInfos instanceof Map) || !program || typeof compute !== 'function')
      return;
    textsOfThisCall = new Map();
    for (const file of program.getSourceFiles()) {
      if (file.isDeclarationFile) continue;
      const text = ts.sys.readFile(file.fileName);
      textsOfThisCall.set(file.fileName, text);
      const info = state.fileInfos.get(internal(file).resolvedPath);
      if (text === file.text || !info) continue;
      if (info.signature !== undefined && info.signature !== internal(file).version) continue;
      compute(program, file, undefined, host, (signature) => {
        info.signature = signature;
      });
    }
  };

  const makeHost = (
    options: TypeScript.CompilerOptions,
    sourceFilesOfOptions: Map<string, SourceFileEntry>,
  ): TypeScript.CompilerHost => {
    const host = ts.createCompilerHost(options);
    const readFile = host.readFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    const directoryExists = host.directoryExists?.bind(host);
    (host as { jsDocParsingMode?: number }).jsDocParsingMode = TSC_JSDOC_PARSING_MODE;
    host.fileExists = (file) => {
      const exists = fileExists(file);
      probes.set(`f:${file}`, exists);
      return exists;
    };
    if (directoryExists) {
      host.directoryExists = (directory) => {
        const exists = directoryExists(directory);
        probes.set(`d:${directory}`, exists);
        return exists;
      };
    }
    host.readFile = (file) => {
      const text = readFile(file);
      resolutionReads.set(file, text);
      return text;
    };
    host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNew) => {
      const text = textsOfThisCall?.has(fileName)
        ? textsOfThisCall.get(fileName)
        : readFile(fileName);
      if (text === undefined) {
        sourceFilesOfOptions.delete(fileName);
        onError?.(`File not found: ${fileName}`);
        return undefined;
      }
      // The language version, the file's module format and package.json scope, its JSDoc
      // mode (the function that sets its module indicator is made from the option set).
      const key = JSON.stringify(languageVersionOrOptions);
      const cached = sourceFilesOfOptions.get(fileName);
      // TypeScript asks for a new file when an option that affects source files or binding
      // changed since the old program.
      if (!shouldCreateNew && cached && cached.text === text && cached.key === key)
        return cached.file;
      const file = ts.createSourceFile(fileName, text, languageVersionOrOptions, false);
      (file as { version?: string }).version = sourceVersion(text);
      sourceFilesOfOptions.set(fileName, { text, key, file });
      return file;
    };
    // A check never changes the tree (no .tsbuildinfo either).
    host.writeFile = () => undefined;
    return host;
  };

  /** Whether any file or directory resolution looked for appeared or disappeared. */
  const resolutionsMoved = (): boolean => {
    for (const [probe, existed] of probes) {
      const target = probe.slice(2);
      const exists = probe.startsWith('f:')
        ? ts.sys.fileExists(target)
        : ts.sys.directoryExists(target);
      if (exists !== existed) return true;
    }
    for (const [file, text] of resolutionReads) if (ts.sys.readFile(file) !== text) return true;
    return false;
  };

  /**
   * A copy of `kept` without its checker, or why there is none: the same root names,
   * options, SourceFile objects, resolutions and diagnostics, made by TypeScript's own
   * reuse (createProgram with `kept` as the old program) from a host that answers only what
   * `kept` was made from: its own SourceFile objects, the existence probes and files module
   * resolution recorded (probes, resolutionReads) and its missing files as missing.
   * Anything else ends the copy unmade: it reads nothing, so the ledgers have nothing to
   * see, and the next call starts from what `kept` knew, as it would from `kept` itself.
   * Once made, its host reads as the call's host does (a changed file's old signature is
   * computed on it: signChangedFiles).
   */
  const programCopy = (kept: TypeScript.Program): TypeScript.Program | string => {
    const options = kept.getCompilerOptions();
    const files = new Map<string, TypeScript.SourceFile>();
    for (const file of kept.getSourceFiles()) {
      const { redirectInfo } = file as { redirectInfo?: { unredirected: TypeScript.SourceFile } };
      files.set(file.fileName, redirectInfo?.unredirected ?? file);
    }
    // Asked as listed: a map of path to name, or (older versions) a list of paths.
    const missingFiles = (kept as ProgramInternals).getMissingFilePaths?.();
    if (!missingFiles) return 'this TypeScript does not say which files its program missed';
    const missing = new Set<string>(missingFiles.values());
    let copying = true;
    const refused = (question: string): never => {
      throw new CopyRefused(question);
    };
    const host = makeHost(options, new Map());
    const { fileExists, directoryExists, readFile, getSourceFile } = host;
    host.fileExists = (file) => {
      if (!copying) return fileExists(file);
      if (missing.has(file)) return false;
      return probes.get(`f:${file}`) ?? refused(`whether ${file} exists`);
    };
    host.directoryExists = (directory) => {
      if (!copying) return directoryExists!(directory);
      return probes.get(`d:${directory}`) ?? refused(`whether ${directory} exists`);
    };
    host.readFile = (file) => {
      if (!copying) return readFile(file);
      return resolutionReads.has(file) ? resolutionReads.get(file) : refused(`${file}`);
    };
    host.getSourceFile = (fileName, ...rest) => {
      if (!copying) return getSourceFile(fileName, ...rest);
      return files.get(fileName) ?? refused(`the source file ${fileName}`);
    };
    for (const name of ['getDirectories', 'realpath', 'readDirectory'] as const) {
      const ask = host[name] as ((...args: unknown[]) => unknown) | undefined;
      if (ask)
        (host as unknown as Record<string, unknown>)[name] = (...args: unknown[]) =>
          copying ? refused(`${name}(${String(args[0])})`) : ask(...args);
    }
    // The automatic type directives are those `kept` found (TypeScript reads @types otherwise).
    (host as HostInternals).hasChangedAutomaticTypeDirectiveNames = () => false;
    let copy: TypeScript.Program;
    try {
      copy = ts.createProgram({
        rootNames: kept.getRootFileNames(),
        options,
        host,
        oldProgram: kept,
        projectReferences: kept.getProjectReferences(),
        configFileParsingDiagnostics: kept.getConfigFileParsingDiagnostics(),
      });
    } catch (error) {
      if (error instanceof CopyRefused) return `it would ask ${error.question}`;
      // Idle work has no call to fail: the builder keeps the program it had.
      return `TypeScript failed to make it: ${(error as Error)?.message ?? String(error)}`;
    } finally {
      copying = false;
    }
    const reused = (copy as ProgramInternals).structureIsReused;
    if (reused !== STRUCTURE_REUSED_COMPLETELY)
      return `its structure was reused ${reused}, not completely`;
    const keptFiles = kept.getSourceFiles();
    const copyFiles = copy.getSourceFiles();
    if (keptFiles.length !== copyFiles.length || keptFiles.some((file, i) => copyFiles[i] !== file))
      return 'its source files are not the same objects';
    return copy;
  };

  /**
   * Once a call's answer is sent: the kept builder's program is replaced by its copy
   * without a checker (programCopy), so the collection that follows (worker-main.ts)
   * frees every type the last check made while the worker idles, not at the start of the
   * next call. The next builder is made from the copy as from the program it copies.
   */
  const releaseChecker = (): void => {
    const state = (previous?.builder as { state?: BuilderProgramState } | undefined)?.state;
    const kept = state?.program;
    if (!previous || previous.released || !state || !kept) return;
    const copy = programCopy(kept);
    if (typeof copy === 'string') return;
    // The build info the builder hangs on its program, as on the one it replaces.
    (copy as { getBuildInfo?: unknown }).getBuildInfo = (
      kept as { getBuildInfo?: unknown }
    ).getBuildInfo;
    state.program = copy;
    previous.released = true;
  };

  /** The builder of this call, from the last one where it still applies (kept as `previous`). */
  const nextBuilder = (
    parsed: TypeScript.ParsedCommandLine,
    sourceFilesOfOptions: Map<string, SourceFileEntry>,
  ): TypeScript.EmitAndSemanticDiagnosticsBuilderProgram => {
    // Options or the file set changed, or a file resolution looked for came or went:
    // start a new builder (source files already parsed are still reused).
    const key = JSON.stringify({ options: parsed.options, files: parsed.fileNames });
    const reuse = previous && previous.key === key && !resolutionsMoved();
    if (!reuse) {
      probes.clear();
      resolutionReads.clear();
    }
    const host = makeHost(parsed.options, sourceFilesOfOptions);
    if (reuse && previous) signChangedFiles(previous.builder, host);
    // The emit builder, as tsc --incremental's: a project that emits declarations (composite,
    // `declaration`) gets declaration diagnostics under --noEmit too, and only this builder
    // keeps them per file across calls. The semantic-diagnostics builder asks the program
    // for all of them on every call, checking every file again (all 440 of vuejs/core's
    // after a body edit, or with nothing changed). It writes nothing: noEmit, and the host's
    // writeFile drops the build info.
    let builder: TypeScript.EmitAndSemanticDiagnosticsBuilderProgram;
    try {
      builder = ts.createEmitAndSemanticDiagnosticsBuilderProgram(
        parsed.fileNames,
        parsed.options,
        host,
        reuse ? previous?.builder : undefined,
        ts.getConfigFileParsingDiagnostics(parsed),
        parsed.projectReferences,
      );
    } finally {
      textsOfThisCall = undefined;
    }
    previous = { key, builder };
    return builder;
  };

  const run = async (args: string[]): Promise<ToolOutcome> => {
    if (args.some((argument) => /^(-b|--build|-w|--watch)$/.test(argument))) {
      return { notWarmable: 'tsc --build/--watch runs cold' };
    }
    const commandLine = ts.parseCommandLine(args);
    if (commandLine.errors.length > 0 || commandLine.fileNames.length > 0) {
      return { notWarmable: 'tsc with file arguments or argument errors runs cold' };
    }
    const coldOnly = COLD_ONLY_OPTIONS.find((option) => commandLine.options[option] !== undefined);
    if (coldOnly) return { notWarmable: `tsc --${coldOnly} runs cold` };

    // The config file tsc would pick (executeCommandLine's own rules).
    let configFile: string | undefined;
    const project = commandLine.options.project;
    if (project) {
      const fileOrDirectory = ts.sys.resolvePath(project);
      configFile = ts.sys.directoryExists(fileOrDirectory)
        ? path.join(fileOrDirectory, 'tsconfig.json')
        : fileOrDirectory;
      if (!ts.sys.fileExists(configFile)) return { notWarmable: `no tsconfig at ${project}` };
    } else {
      configFile = ts.findConfigFile(root, ts.sys.fileExists);
    }
    if (!configFile) return { notWarmable: 'no tsconfig.json: tsc prints its help' };

    let unrecoverable = false;
    const parsed = ts.getParsedCommandLineOfConfigFile(configFile, commandLine.options, {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {
        unrecoverable = true;
      },
    });
    if (!parsed || unrecoverable) return { notWarmable: `tsc cannot read ${configFile}` };
    if (parsed.options.pretty === true) return { notWarmable: 'tsc --pretty output runs cold' };
    if (!parsed.options.noEmit)
      return { notWarmable: 'tsc without --noEmit writes files: runs cold' };

    const sourceFilesOfOptions = sourceFilesOf(sourceFileOptionsKey(ts, parsed.options));
    // Its checker's types were collected while the worker idled (releaseChecker).
    const replaced = previous !== undefined && !previous.released;
    const builder = nextBuilder(parsed, sourceFilesOfOptions);
    // The last program and every type its checker made (vuejs/core: about half the heap)
    // are garbage now: collected before the check allocates the new ones, the worker's peak
    // holds one checker's types, not two. (nextBuilder is a frame of its own: a register of
    // this one holding the last builder would keep it alive through the collection.)
    if (replaced) collectGarbage?.();
    // Deleted and renamed files leave the cache with the program.
    const inProgram = new Set(builder.getSourceFiles().map((file) => file.fileName));
    for (const fileName of sourceFilesOfOptions.keys())
      if (!inProgram.has(fileName)) sourceFilesOfOptions.delete(fileName);

    const written: string[] = [];
    const system = { ...ts.sys, write: (text: string) => void written.push(text) };
    // tsc's exit status follows its emit's emitSkipped (1 rather than 2 with errors). Cold,
    // the emit under --noEmit always emits the build info (a plain program's, or a fresh
    // incremental builder's, always pending): a kept builder skips it when nothing changed
    // since its last call. So the emit is the program's own, as a cold run's; it writes
    // through the host's writeFile, which drops it.
    const coldEmit = { ...builder, emit: builder.getProgram().emit.bind(builder.getProgram()) };
    const exitCode = report.emitFilesAndReportErrorsAndGetExitStatus(
      coldEmit,
      report.createDiagnosticReporter(system, false),
      (text: string) => system.write(text + system.newLine),
    );
    return { exitCode, stdout: written.join(''), stderr: '' };
  };
  // The tsconfig chain itself is re-read on every call; a project file under any name is
  // still recorded so that its edit restarts the worker like any config edit.
  const configFilesNamed = (args: string[]) => optionValues(root, args, ['--project', '-p']);
  return {
    run,
    configFilesNamed,
    releaseAfterCall: collectGarbage !== undefined,
    beforeRelease: releaseChecker,
    heapGrowingPercent: TSC_HEAP_GROWING_PERCENT,
  };
}

/** TypeScript's StructureIsReused.Completely. */
const STRUCTURE_REUSED_COMPLETELY = 2;

/** A question the host of a program copy may not answer (programCopy). */
class CopyRefused extends Error {
  constructor(readonly question: string) {
    super(`a program copy may not ask ${question}`);
  }
}

import path from 'node:path';
import { tscParser } from '../parsers/tsc.js';
import { usesProjectReferences } from '../tsconfig.js';
import { optionValue, SCRIPT_EXTENSIONS, setsOption } from './shared.js';
import type {
  CommandKnowledge,
  MarkerGate,
  ProjectFacts,
  ScriptKnowledge,
  ToolDescriptor,
} from './tool.js';

/** The compiler a marker typecheck runs, and how its description names it. */
export interface TypecheckCompiler {
  program: string;
  what: string;
}

/** tsc, or vue-tsc where the repository uses it. */
function tscCompiler(project: ProjectFacts): TypecheckCompiler {
  return project.dependsOn('vue-tsc')
    ? { program: 'vue-tsc', what: 'TypeScript and Vue typecheck (vue-tsc)' }
    : { program: 'tsc', what: 'TypeScript typecheck' };
}

/**
 * The marker typecheck: `tsc --noEmit` (or the compiler given: vue-tsc, tsgo). A root
 * tsconfig with references or `"files": []` checks nothing under --noEmit: it runs in
 * build mode through every referenced project instead, outputs kept out of the tree.
 */
export function typecheckGate(
  project: ProjectFacts,
  source: string,
  { program, what }: TypecheckCompiler = tscCompiler(project),
): MarkerGate {
  if (usesProjectReferences(path.join(project.root, 'tsconfig.json'))) {
    return {
      name: 'typecheck',
      description: `${what} of tsconfig.json and every project it references (build mode; .tsbuildinfo and declarations go to a private temporary directory, never into the tree)`,
      command: [program, '-b', 'tsconfig.json', '--force', '--pretty', 'false'],
      fix: null,
      parser: tscParser.name,
      paths: 'none',
      prepare: 'tsc-build',
      source,
    };
  }
  return {
    name: 'typecheck',
    description: `${what} (any .tsbuildinfo goes to a private temporary directory, never into the tree)`,
    command: [program, '--noEmit', '--pretty', 'false'],
    fix: null,
    parser: tscParser.name,
    paths: 'none',
    prepare: 'tsc-noemit',
    source,
  };
}

/** tsc, vue-tsc and tsgo read alike: a check only with --noEmit, and only the plain output. */
export const TSC_SCRIPT: ScriptKnowledge = {
  textParser: tscParser.name,
  commandParser(args) {
    const pretty = optionValue(args, '--pretty');
    if (!args.includes('--noEmit') || (pretty !== undefined && pretty !== 'false'))
      return undefined;
    return tscParser.name;
  },
  // Plain `tsc` emits files: a build, not a gate.
  kind: (body) => (/--noEmit/.test(body) ? 'typecheck' : undefined),
};

/** What a tsc command written in a source keeps as its check (tsgo takes the same options). */
export const TSC_COMMANDS: CommandKnowledge = {
  // The project and the options that change what is found (a boolean one may be given
  // its value: `--allowUnreachableCode false`); never emit or output options.
  keepOptions: [
    '-p=',
    '--project=',
    '--target=',
    '-t=',
    '--module=',
    '-m=',
    '--moduleResolution=',
    '--moduleDetection=',
    '--lib=',
    '--jsx=',
    '--types=',
    '--strict',
    '--noImplicitAny',
    '--strictNullChecks',
    '--strictFunctionTypes',
    '--strictBindCallApply',
    '--strictPropertyInitialization',
    '--noImplicitThis',
    '--useUnknownInCatchVariables',
    '--alwaysStrict',
    '--exactOptionalPropertyTypes',
    '--noUncheckedIndexedAccess',
    '--noImplicitOverride',
    '--noImplicitReturns',
    '--noFallthroughCasesInSwitch',
    '--noPropertyAccessFromIndexSignature',
    '--noUnusedLocals',
    '--noUnusedParameters',
    '--allowUnreachableCode',
    '--allowUnusedLabels',
    '--allowJs',
    '--checkJs',
    '--skipLibCheck',
    '--isolatedModules',
    '--verbatimModuleSyntax',
    '--esModuleInterop',
    '--allowSyntheticDefaultImports',
    '--resolveJsonModule',
  ],
};

/** tsconfig.json, tsconfig.build.json, jsconfig.json...: any of them may be a project or extended. */
export const TSCONFIG_NAME = /^[jt]sconfig(\..+)?\.json$/;

export const tsc: ToolDescriptor = {
  name: 'tsc',
  programs: ['tsc'],
  recognise: { configFiles: ['tsconfig.json'], scriptWords: ['tsc'] },
  gates: (project, source) => [typecheckGate(project, source)],
  yieldsToScripts: { scriptGate: 'typecheck' },
  outputs: [{ parser: tscParser }],
  extensions: SCRIPT_EXTENSIONS,
  reads: [...SCRIPT_EXTENSIONS, 'json'],
  configNames: [TSCONFIG_NAME],
  // `tsc --incremental --noEmit` (a script's) writes its build info beside the tsconfig. A
  // marker or config gate gets a private --tsBuildInfoFile from run/tsc-build.ts instead.
  writes: [
    {
      path: 'tsconfig.tsbuildinfo',
      why: 'tsc --incremental writes its build info next to the tsconfig, even with --noEmit',
      redirect: {
        args: (directory) => ['--tsBuildInfoFile', path.join(directory, 'tsbuildinfo')],
        applies: (argv) =>
          setsOption(argv, '--incremental', '-i') && !setsOption(argv, '--tsBuildInfoFile'),
      },
    },
  ],
  // A script that turns it on runs as its own step, so the redirect reaches it.
  script: { ...TSC_SCRIPT, runsDirectly: (args) => setsOption(args, '--incremental', '-i') },
  commands: TSC_COMMANDS,
  warm: { worker: 'tsc' },
  install: { npmPackage: 'typescript' },
};

/** vue-tsc: tsc for Vue single-file components; the tsc marker gate runs it when declared. */
export const vueTsc: ToolDescriptor = {
  name: 'vue-tsc',
  programs: ['vue-tsc'],
  recognise: { scriptWords: ['vue-tsc'] },
  outputs: [{ parser: tscParser }],
  extensions: [...SCRIPT_EXTENSIONS, 'vue'],
  reads: [...SCRIPT_EXTENSIONS, 'vue', 'json'],
  configNames: [TSCONFIG_NAME],
  script: TSC_SCRIPT,
};

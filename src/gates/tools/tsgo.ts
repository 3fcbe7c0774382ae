import { tscParser } from '../parsers/tsc.js';
import { SCRIPT_EXTENSIONS } from './shared.js';
import { TSC_COMMANDS, TSC_SCRIPT, TSCONFIG_NAME, typecheckGate } from './tsc.js';
import type { ToolDescriptor } from './tool.js';

/**
 * tsgo, TypeScript 7's native compiler as previewed in @typescript/native-preview: tsc's
 * options and output. A project that depends on it gets its typecheck from it (the tsc
 * marker then yields, the gate name being taken); a cold check gets a private
 * --tsBuildInfoFile, and `serve` runs it --incremental with build info kept outside the
 * tree (run/tsc-incremental.ts).
 */
export const tsgo: ToolDescriptor = {
  name: 'tsgo',
  programs: ['tsgo'],
  recognise: {
    dependencies: ['@typescript/native-preview'],
    scriptWords: ['tsgo'],
  },
  // tsgo reads tsconfig.json like tsc; vue-tsc (Vue files) has no native counterpart yet.
  gates: (project, source) =>
    project.exists('tsconfig.json') && !project.dependsOn('vue-tsc')
      ? [
          typecheckGate(project, source, {
            program: 'tsgo',
            what: 'TypeScript 7 typecheck (tsgo, @typescript/native-preview)',
          }),
        ]
      : [],
  yieldsToScripts: { scriptGate: 'typecheck' },
  outputs: [{ parser: tscParser }],
  reads: [...SCRIPT_EXTENSIONS, 'json'],
  configNames: [TSCONFIG_NAME],
  script: TSC_SCRIPT,
  commands: TSC_COMMANDS,
  warm: {
    cold: 'native compiler, starts fast; serve runs it --incremental with its build info kept outside the tree',
  },
  install: { npmPackage: '@typescript/native-preview' },
};

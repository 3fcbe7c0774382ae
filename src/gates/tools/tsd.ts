import { tsdParser } from '../parsers/stylish.js';
import { SCRIPT_EXTENSIONS } from './shared.js';
import type { ToolDescriptor } from './tool.js';
import { TSCONFIG_NAME } from './tsc.js';

/** tsd: the type tests of a package's declarations (index.test-d.ts, or its `tsd.directory`). */
export const tsd: ToolDescriptor = {
  name: 'tsd',
  programs: ['tsd'],
  recognise: {
    configFiles: ['index.test-d.ts', 'index.test-d.tsx'],
    packageJsonKeys: ['tsd'],
    dependencies: ['tsd'],
    scriptWords: ['tsd'],
  },
  gates: (_project, source) => [
    {
      name: 'tsd',
      description: "tsd: the package's type tests against its declarations (writes nothing)",
      command: ['tsd'],
      fix: null,
      parser: tsdParser.name,
      // It checks the test files its config names, with the whole declaration program.
      paths: 'none',
      source,
    },
  ],
  yieldsToScripts: {},
  outputs: [{ parser: tsdParser }],
  reads: [...SCRIPT_EXTENSIONS, 'json'],
  configNames: [TSCONFIG_NAME],
  script: {
    textParser: tsdParser.name,
    commandParser: () => tsdParser.name,
    kind: () => 'typecheck',
  },
  warm: { cold: 'no warm worker yet: each call builds its TypeScript program afresh' },
  install: { npmPackage: 'tsd' },
};

import { xoParser } from '../parsers/stylish.js';
import { lintScriptKind, optionValue } from './shared.js';
import type { ToolDescriptor } from './tool.js';

export const xo: ToolDescriptor = {
  name: 'xo',
  programs: ['xo'],
  recognise: { packageJsonKeys: ['xo'], dependencies: ['xo'], scriptWords: ['xo'] },
  gates: (_project, source) => [
    {
      name: 'xo',
      description: 'xo over the project',
      command: ['xo'],
      fix: ['xo', '--fix'],
      parser: xoParser.name,
      paths: 'append',
      source,
    },
  ],
  yieldsToScripts: {},
  writes: [
    {
      // xo finds its cache with find-cache-dir, which honours CACHE_DIR.
      path: 'node_modules/.cache/xo-linter',
      why: "xo always lints with ESLint's result cache on",
      redirect: { env: 'CACHE_DIR' },
    },
  ],
  outputs: [{ parser: xoParser }],
  script: {
    textParser: xoParser.name,
    commandParser: (args) =>
      optionValue(args, '--reporter') === undefined ? xoParser.name : undefined,
    kind: lintScriptKind,
  },
  warm: {
    cold: "always lints with ESLint's result cache on (written under node_modules/.cache) and, for TypeScript, with type information from a tsconfig it generates there; warm gates keep both cold, as eslint --cache and type-aware configs are",
  },
  install: { npmPackage: 'xo' },
};

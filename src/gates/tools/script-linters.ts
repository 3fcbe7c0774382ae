import { lintScriptKind } from './shared.js';
import type { ToolDescriptor } from './tool.js';

/**
 * Linters known only as words in a package.json script: a script running one of them is
 * a lint gate, read by the generic parser (their output has no parser of its own yet).
 */
export const nextLint: ToolDescriptor = {
  name: 'next lint',
  programs: [],
  recognise: { scriptWords: ['next lint'] },
  outputs: [],
  script: { kind: lintScriptKind },
};

export const standard: ToolDescriptor = {
  name: 'standard',
  programs: [],
  recognise: { scriptWords: ['standard'] },
  outputs: [],
  script: { kind: lintScriptKind },
};

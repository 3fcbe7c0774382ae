import { vitestTypecheckParser } from '../parsers/vitest-typecheck.js';
import { SCRIPT_EXTENSIONS } from './shared.js';
import type { ToolDescriptor } from './tool.js';
import { TSCONFIG_NAME } from './tsc.js';

/** vitest: a gate only as `vitest typecheck` (or --typecheck); its tests are not a gate. */
export const vitest: ToolDescriptor = {
  name: 'vitest',
  programs: ['vitest'],
  recognise: { scriptWords: ['vitest'] },
  outputs: [{ parser: vitestTypecheckParser }],
  // As a gate it typechecks (`vitest typecheck`): the program's sources and settings.
  reads: [...SCRIPT_EXTENSIONS, 'json'],
  configNames: [TSCONFIG_NAME, /^vit(est|e)\.config\./],
  script: {
    textParser: vitestTypecheckParser.name,
    commandParser: (args) =>
      args[0] === 'typecheck' || args.some((arg) => arg.startsWith('--typecheck'))
        ? vitestTypecheckParser.name
        : undefined,
    kind: (body) => (/(^|\s)(typecheck|--typecheck)/.test(body) ? 'typecheck' : undefined),
  },
  install: { npmPackage: 'vitest' },
};

// radashi-org/radashi (aee41713, pnpm): biome lints and formats the TypeScript (biome.json
// extends a config package linked from scripts/), prettier the rest; tsc typechecks src; the
// "lint" script is the repository's own runner (`node scripts/run lint`: biome, cspell, jsr,
// tsc per directory). Setup: radashi-helper dropped from devDependencies (its ^0.1.11 is
// unpublished), `pnpm install`, and `INSTALL_ONLY=true node scripts/run.js lint` (the install the
// first `pnpm lint` does into scripts/), each committed.
import { append, replace, remove, lines, commitStep } from './lib.mjs';
const root = '/work/outside/radashi';
const lintLine = lines(root, 'src/array/cartesianProduct.ts') + 2;
const typeLine = lines(root, 'src/array/castArray.ts') + 2;
export default {
  root,
  branch: 'main',
  gates: ['lint', 'format', 'typecheck', 'biome', 'cspell'],
  steps: [
    {
      name: 'lint-error',
      files: ['src/array/cartesianProduct.ts'],
      apply: (r) => append(r, 'src/array/cartesianProduct.ts', '\ndebugger\n'),
      expect: [{ file: 'src/array/cartesianProduct.ts', line: lintLine, text: 'noDebugger' }],
    },
    {
      name: 'type-error',
      files: ['src/array/castArray.ts'],
      apply: (r) =>
        append(r, 'src/array/castArray.ts', "\nexport const broken: number = 'not a number'\n"),
      expect: [{ file: 'src/array/castArray.ts', line: typeLine, text: 'TS2322' }],
    },
    {
      name: 'bad-format',
      files: ['src/array/alphabetical.ts'],
      apply: (r) => append(r, 'src/array/alphabetical.ts', '\nexport const  spaced = [1,2 ,3]\n'),
      expect: [{ file: 'src/array/alphabetical.ts', text: 'biome' }],
    },
    {
      name: 'delete-imported',
      apply: (r) => remove(r, 'src/array/castArrayIfExists.ts'),
      expect: [{ file: 'src/mod.ts', text: 'TS2307' }],
    },
    commitStep,
    {
      name: 'config-rule-on',
      files: ['biome.json'],
      apply: (r) =>
        replace(
          r,
          'biome.json',
          '"suspicious": {',
          '"complexity": { "noForEach": "error" },\n      "suspicious": {',
        ),
      expect: [{ file: 'src/oop/Semaphore.ts', line: 122, text: 'noForEach' }],
    },
  ],
};

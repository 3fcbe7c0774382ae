// vuejs/pinia (254eec76, pnpm workspace; the snapshot issue 31 took), its dependencies
// installed: the "lint" script is prettier -c over globs (--parser typescript), the
// typecheck is "test:types", `tsc --build ./tsconfig.json`. No linter besides prettier.
import { append, replace, remove, lines, commitStep } from './lib.mjs';
const root = '/work/outside/pinia';
const typeLine = lines(root, 'packages/testing/src/testing.ts') + 2;
export default {
  root,
  branch: 'main',
  gates: ['lint', 'typecheck'],
  steps: [
    {
      name: 'type-error',
      files: ['packages/testing/src/testing.ts'],
      apply: (r) =>
        append(
          r,
          'packages/testing/src/testing.ts',
          "\nexport const broken: number = 'not a number'\n",
        ),
      expect: [{ file: 'packages/testing/src/testing.ts', line: typeLine, text: 'TS2322' }],
    },
    {
      name: 'bad-format',
      files: ['packages/pinia/src/store.ts'],
      apply: (r) => append(r, 'packages/pinia/src/store.ts', '\nexport const  spaced = [1,2 ,3]\n'),
      expect: [{ file: 'packages/pinia/src/store.ts' }],
    },
    {
      name: 'delete-imported',
      apply: (r) => remove(r, 'packages/pinia/src/hmr.ts'),
      expect: [{ file: 'packages/pinia/src/store.ts', line: 54, text: 'TS2307' }],
    },
    commitStep,
    {
      // Prettier's config: semicolons everywhere, in files the session never touched.
      name: 'config-rule-on',
      files: ['.prettierrc.js'],
      apply: (r) => replace(r, '.prettierrc.js', 'semi: false', 'semi: true'),
      expect: [{ file: 'packages/testing/src/index.ts' }],
    },
  ],
};

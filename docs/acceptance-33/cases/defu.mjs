// unjs/defu (80c0146, pnpm): the lint script is a chain, `oxlint src && oxfmt --check src test`
// (oxlint's findings are warnings: the config turns no rule to error); the typecheck is the
// "test:types" script, `tsgo --noEmit`.
import { append, replace, remove, lines, commitStep } from './lib.mjs';
const root = '/work/outside/defu';
const lintLine = lines(root, 'src/types.ts') + 2;
const typeLine = lines(root, 'src/_utils.ts') + 2;
export default {
  root,
  branch: 'main',
  gates: ['lint', 'typecheck'],
  steps: [
    {
      // oxlint warns (no rule is an error here): a warning, told, not blocking.
      name: 'lint-error',
      files: ['src/types.ts'],
      apply: (r) => append(r, 'src/types.ts', '\ndebugger;\n'),
      expect: [{ file: 'src/types.ts', line: lintLine, text: 'no-debugger' }],
    },
    {
      name: 'type-error',
      files: ['src/_utils.ts'],
      apply: (r) => append(r, 'src/_utils.ts', '\nexport const broken: number = "not a number";\n'),
      expect: [{ file: 'src/_utils.ts', line: typeLine, text: 'TS2322' }],
    },
    {
      name: 'bad-format',
      files: ['src/defu.ts'],
      apply: (r) => append(r, 'src/defu.ts', '\nexport const  spaced = [1,2 ,3]\n'),
      expect: [{ file: 'src/defu.ts' }],
    },
    {
      name: 'delete-imported',
      apply: (r) => remove(r, 'src/_utils.ts'),
      expect: [{ file: 'src/defu.ts', line: 1, text: 'TS2307' }],
    },
    commitStep,
    {
      // oxfmt's config: every file of src and test is now misformatted.
      name: 'config-rule-on',
      files: ['.oxfmtrc.json'],
      apply: (r) => replace(r, '.oxfmtrc.json', '"$schema"', '"semi": false,\n  "$schema"'),
      expect: [{ file: 'test/utils.test.ts' }],
    },
  ],
};

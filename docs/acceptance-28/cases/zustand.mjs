import { append, replace, remove, lines } from './lib.mjs';
const root = '/work/accept/zustand';
const lintLine = lines(root, 'src/vanilla.ts') + 2;
const typeLine = lines(root, 'src/traditional.ts') + 2;
export default {
  root,
  branch: 'main',
  gates: ['lint', 'format', 'typecheck'],
  steps: [
    {
      name: 'lint-error',
      files: ['src/vanilla.ts'],
      apply: (r) => append(r, 'src/vanilla.ts', '\nconst unusedThing = 1\n'),
      expect: [{ file: 'src/vanilla.ts', line: lintLine, text: 'no-unused-vars' }],
    },
    {
      name: 'type-error',
      files: ['src/traditional.ts'],
      apply: (r) =>
        append(r, 'src/traditional.ts', "\nexport const broken: number = 'not a number'\n"),
      expect: [{ file: 'src/traditional.ts', line: typeLine, text: 'TS2322' }],
    },
    {
      name: 'bad-format',
      files: ['src/react.ts'],
      apply: (r) => append(r, 'src/react.ts', '\nexport const  spaced = [1,2 ,3]\n'),
      expect: [{ file: 'src/react.ts' }],
    },
    {
      name: 'delete-imported',
      apply: (r) => remove(r, 'src/vanilla/shallow.ts'),
      expect: [{ file: 'src/shallow.ts', text: 'TS2307' }],
    },
    {
      name: 'commit-default',
      apply: (r, git) => {
        git('add', '-A');
        git('-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-qm', 'agent work');
      },
    },
    {
      name: 'config-rule-on',
      files: ['eslint.config.mjs'],
      apply: (r) =>
        replace(
          r,
          'eslint.config.mjs',
          "eqeqeq: 'error',",
          "eqeqeq: 'error',\n      'no-plusplus': 'error',",
        ),
      expect: [{ file: 'src/middleware/persist.ts', line: 262, text: 'no-plusplus' }],
    },
  ],
};

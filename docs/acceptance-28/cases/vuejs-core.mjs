import { append, replace, remove, lines } from './lib.mjs';
const root = '/work/accept/vuejs-core';
const lintLine = lines(root, 'packages/runtime-core/src/apiWatch.ts') + 2;
const typeLine = lines(root, 'packages/shared/src/general.ts') + 2;
export default {
  root,
  branch: 'main',
  gates: ['lint', 'format', 'check'],
  steps: [
    {
      name: 'lint-error',
      files: ['packages/runtime-core/src/apiWatch.ts'],
      apply: (r) =>
        append(r, 'packages/runtime-core/src/apiWatch.ts', "\nconsole.log('debugging')\n"),
      expect: [
        { file: 'packages/runtime-core/src/apiWatch.ts', line: lintLine, text: 'no-console' },
      ],
    },
    {
      name: 'type-error',
      files: ['packages/shared/src/general.ts'],
      apply: (r) =>
        append(
          r,
          'packages/shared/src/general.ts',
          "\nexport const broken: number = 'not a number'\n",
        ),
      expect: [{ file: 'packages/shared/src/general.ts', line: typeLine, text: 'TS2322' }],
    },
    {
      name: 'bad-format',
      files: ['packages/reactivity/src/ref.ts'],
      apply: (r) =>
        append(r, 'packages/reactivity/src/ref.ts', '\nexport const  spaced = [1,2 ,3]\n'),
      expect: [{ file: 'packages/reactivity/src/ref.ts' }],
    },
    {
      name: 'delete-imported',
      apply: (r) => remove(r, 'packages/shared/src/looseEqual.ts'),
      expect: [{ file: 'packages/shared/src/index.ts', line: 12, text: 'TS2307' }],
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
      files: ['eslint.config.js'],
      apply: (r) =>
        replace(
          r,
          'eslint.config.js',
          "'no-debugger': 'error',",
          "'no-debugger': 'error',\n      'no-plusplus': 'error',",
        ),
      expect: [{ file: 'packages/shared/src/general.ts', text: 'no-plusplus' }],
    },
  ],
};

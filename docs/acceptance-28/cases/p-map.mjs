import { append, replace, remove, lines } from './lib.mjs';
const root = '/work/accept/p-map';
const lintLine = lines(root, 'index.js') + 2;
const typeLine = lines(root, 'index.test-d.ts') + 2;
const fmtLine = lines(root, 'test.js') + 2;
export default {
  root,
  branch: 'main',
  gates: ['xo', 'tsd'],
  steps: [
    {
      name: 'lint-error',
      files: ['index.js'],
      apply: (r) => append(r, 'index.js', '\nconst unusedThing = 1;\n'),
      expect: [{ file: 'index.js', line: lintLine, text: 'no-unused-vars' }],
    },
    {
      name: 'type-error',
      files: ['index.test-d.ts'],
      apply: (r) =>
        append(
          r,
          'index.test-d.ts',
          '\nexpectType<string>(await pMap(sites, async url => url.length));\n',
        ),
      expect: [{ file: 'index.test-d.ts', line: typeLine }],
    },
    {
      name: 'bad-format',
      files: ['test.js'],
      apply: (r) => append(r, 'test.js', '\nconst  spaced = [1,2 ,3]\n'),
      expect: [{ file: 'test.js', line: fmtLine }],
    },
    {
      name: 'delete-imported',
      apply: (r) => remove(r, 'assert-in-range.js'),
      expect: [{ file: 'test.js', line: 6 }],
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
      files: ['package.json'],
      apply: (r) =>
        replace(
          r,
          'package.json',
          '\t"devDependencies": {',
          '\t"xo": {\n\t\t"rules": {\n\t\t\t"no-plusplus": "error"\n\t\t}\n\t},\n\t"devDependencies": {',
        ),
      expect: [{ file: 'index.js', text: 'no-plusplus' }],
    },
  ],
};

// prettier/eslint-config-prettier (bd6e617), its dependencies installed by its own yarn 4
// (`.yarn/releases`, node-modules linker; the prepare script's patch-package run by hand):
// eslint.config.mjs imports .eslintrc.js and takes its rules, so editing .eslintrc.js changes
// the flat config's rules. No typecheck gate (no tsconfig).
import { append, replace, remove, lines, commitStep } from './lib.mjs';
const root = '/work/outside/eslint-config-prettier';
const lintLine = lines(root, 'bin/cli.js') + 2;
const fmtLine = lines(root, 'bin/validators.js') + 2;
export default {
  root,
  branch: 'main',
  gates: ['lint', 'format'],
  steps: [
    {
      name: 'lint-error',
      files: ['bin/cli.js'],
      apply: (r) => append(r, 'bin/cli.js', '\nconsole.log(undefinedThing);\n'),
      expect: [{ file: 'bin/cli.js', line: lintLine, text: 'no-undef' }],
    },
    {
      name: 'bad-format',
      files: ['bin/validators.js'],
      apply: (r) =>
        append(r, 'bin/validators.js', '\nconst  spaced = [1,2 ,3]\nexports.spaced = spaced\n'),
      expect: [{ file: 'bin/validators.js', line: fmtLine }],
    },
    {
      name: 'delete-imported',
      apply: (r) => remove(r, 'prettier.js'),
      expect: [],
    },
    commitStep,
    {
      // .eslintrc.js is the legacy config, but eslint.config.mjs imports its rules.
      name: 'config-rule-on',
      files: ['.eslintrc.js'],
      apply: (r) =>
        replace(
          r,
          '.eslintrc.js',
          '"no-undef": "error",',
          '"no-undef": "error",\n        "no-ternary": "error",',
        ),
      expect: [{ file: 'bin/cli.js', line: 41, text: 'no-ternary' }],
    },
  ],
};

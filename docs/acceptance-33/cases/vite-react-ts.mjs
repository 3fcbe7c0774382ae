// create-vite's template-react-ts (vitejs/vite a98c8d95d5): `tsc -b` over project references
// (tsconfig.json has no files, only references to tsconfig.app.json and tsconfig.node.json, which
// keep their .tsbuildinfo in node_modules/.tmp), oxlint through the package.json "lint" script.
import { append, replace, remove, lines, commitStep } from './lib.mjs';
const root = '/work/outside/vite-react-ts';
const hookLine = lines(root, 'src/main.tsx') + 4;
const typeLine = lines(root, 'vite.config.ts') + 2;
export default {
  root,
  branch: 'main',
  gates: ['lint', 'typecheck'],
  steps: [
    {
      name: 'lint-error',
      files: ['src/main.tsx'],
      apply: (r) =>
        append(
          r,
          'src/main.tsx',
          "\nimport { useState } from 'react'\nexport function Broken({ on }: { on: boolean }) {\n  if (on) useState(0)\n  return null\n}\n",
        ),
      expect: [{ file: 'src/main.tsx', line: hookLine, text: 'rules-of-hooks' }],
    },
    {
      // The node project (tsconfig.node.json), not the app's.
      name: 'type-error',
      files: ['vite.config.ts'],
      apply: (r) => append(r, 'vite.config.ts', "\nexport const broken: number = 'not a number'\n"),
      expect: [{ file: 'vite.config.ts', line: typeLine, text: 'TS2322' }],
    },
    {
      name: 'delete-imported',
      apply: (r) => remove(r, 'src/App.tsx'),
      expect: [{ file: 'src/main.tsx', line: 4, text: 'TS2307' }],
    },
    commitStep,
    {
      name: 'config-rule-on',
      files: ['.oxlintrc.json'],
      apply: (r) =>
        replace(
          r,
          '.oxlintrc.json',
          '"rules": {',
          '"rules": {\n    "typescript/no-non-null-assertion": "error",',
        ),
      expect: [{ file: 'src/main.tsx', line: 6, text: 'no-non-null-assertion' }],
    },
  ],
};

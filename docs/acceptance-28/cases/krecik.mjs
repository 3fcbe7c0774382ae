import { append, prepend, replace, remove, lines } from './lib.mjs';
const root = '/work/accept/krecik';
const typeLine = lines(root, 'src/board/krecik.py') + 4;
export default {
  root,
  branch: 'master',
  gates: ['ruff', 'mypy', 'black'],
  steps: [
    {
      name: 'lint-error',
      files: ['src/board/tile.py'],
      apply: (r) => prepend(r, 'src/board/tile.py', 'import os\n'),
      expect: [{ file: 'src/board/tile.py', line: 1, text: 'F401' }],
    },
    {
      name: 'type-error',
      files: ['src/board/krecik.py'],
      apply: (r) =>
        append(r, 'src/board/krecik.py', '\n\ndef broken() -> int:\n    return "not an int"\n'),
      expect: [{ file: 'src/board/krecik.py', line: typeLine }],
    },
    {
      name: 'bad-format',
      files: ['src/board/board.py'],
      apply: (r) => append(r, 'src/board/board.py', '\n\nSPACED = [1,2 ,3]\n'),
      expect: [{ file: 'src/board/board.py' }],
    },
    { name: 'delete-imported', apply: (r) => remove(r, 'src/board/inventory_mixin.py') },
    {
      name: 'commit-default',
      apply: (r, git) => {
        git('add', '-A');
        git('-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-qm', 'agent work');
      },
    },
    {
      name: 'config-rule-on',
      files: ['pyproject.toml'],
      apply: (r) =>
        replace(
          r,
          'pyproject.toml',
          '[tool.ruff]\n',
          '[tool.ruff]\nselect = ["E4", "E7", "E9", "F", "T20"]\n',
        ),
      expect: [{ file: 'src/display/terminal_display.py', text: 'T201' }],
    },
  ],
};

import { append, replace, remove, lines } from './lib.mjs';
const root = '/work/accept/itsdangerous';
const lintLine = lines(root, 'src/itsdangerous/timed.py') + 2;
const typeLine = lines(root, 'src/itsdangerous/encoding.py') + 4;
export default {
  root,
  branch: 'main',
  gates: ['ruff', 'ruff_format', 'mypy', 'pyright'],
  steps: [
    {
      name: 'lint-error',
      files: ['src/itsdangerous/timed.py'],
      apply: (r) => append(r, 'src/itsdangerous/timed.py', '\nimport os\n'),
      expect: [{ file: 'src/itsdangerous/timed.py', line: lintLine, text: 'F401' }],
    },
    {
      name: 'type-error',
      files: ['src/itsdangerous/encoding.py'],
      apply: (r) =>
        append(
          r,
          'src/itsdangerous/encoding.py',
          '\n\ndef broken() -> int:\n    return "not an int"\n',
        ),
      expect: [{ file: 'src/itsdangerous/encoding.py', line: typeLine }],
    },
    {
      name: 'bad-format',
      files: ['src/itsdangerous/exc.py'],
      apply: (r) => append(r, 'src/itsdangerous/exc.py', '\n\nSPACED = [1,2 ,3]\n'),
      expect: [{ file: 'src/itsdangerous/exc.py' }],
    },
    {
      name: 'delete-imported',
      apply: (r) => remove(r, 'src/itsdangerous/url_safe.py'),
      expect: [{ file: 'src/itsdangerous/__init__.py', line: 16 }],
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
      files: ['pyproject.toml'],
      apply: (r) =>
        replace(r, 'pyproject.toml', 'select = [\n    "B",', 'select = [\n    "D",\n    "B",'),
      expect: [{ file: 'src/itsdangerous/signer.py', text: 'ruff:D' }],
    },
  ],
};

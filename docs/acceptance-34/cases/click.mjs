// pallets/click (Python, stdlib only): pre-commit's ruff, ruff-format and codespell, and mypy and
// pyright (strict) from the tox typing env; no PyPI dependency installed.
import { lines, moves } from './lib.mjs';
const root = '/work/outside2/click';
const lintLine = lines(root, 'src/click/_textwrap.py') + 2;
export default {
  root,
  branch: 'main',
  gates: ['ruff', 'ruff_format', 'codespell', 'mypy', 'pyright'],
  clean: ['src/click/__pycache__'],
  steps: moves({
    lint: {
      file: 'src/click/_textwrap.py',
      text: '\nimport os\n',
      expect: [{ file: 'src/click/_textwrap.py', line: lintLine, text: 'F401' }],
    },
    fixAgain: { file: 'src/click/globals.py', text: '\n\ndef broken() -> int:\n    return "x"\n' },
    branch: { file: 'src/click/formatting.py', text: '\n\nON_SIDE: int = "x"\n' },
    stash: true,
    sed: {
      file: 'src/click/utils.py',
      script: '$a\\\nSEDDED: int = "s"',
      expect: [{ file: 'src/click/utils.py', line: lines(root, 'src/click/utils.py') + 1 }],
    },
    mv: {
      from: 'src/click/_textwrap.py',
      to: 'src/click/textwrap_impl.py',
      expect: [{ file: 'src/click/formatting.py', line: 62 }],
    },
    untracked: {
      file: 'src/click/extra.py',
      text: 'def extra() -> int:\n    return "s"\n',
      expect: [{ file: 'src/click/extra.py', line: 2 }],
    },
    ignored: {
      file: 'src/click/__pycache__/bad.py',
      text: 'import os\n\n\ndef f() -> int:\n    return "s"\n',
    },
  }),
};

import { blackParser } from '../parsers/black.js';
import { formatterScript, PYTHON_EXTENSIONS, pythonDependency } from './shared.js';
import type { ToolDescriptor } from './tool.js';

/** The options that make black only check (anything else rewrites files). */
const CHECKS = ['--check', '--diff'];

export const black: ToolDescriptor = {
  name: 'black',
  programs: ['black'],
  recognise: {
    configSections: [
      { file: 'pyproject.toml', section: /^\s*\[tool\.black\]/m },
      // A development dependency: PEP 621/735 lists, or Poetry's `black = "..."` tables.
      { file: 'pyproject.toml', section: pythonDependency('black') },
    ],
    scriptWords: ['black'],
    preCommitHooks: ['black', 'black-jupyter'],
  },
  // --diff prints each change with its lines (the finding's line); `would reformat` alone
  // names only the file.
  gates: (_project, source) => [
    {
      name: 'black',
      description: 'black format check (the diff black would apply)',
      command: ['black', '--check', '--diff', '.'],
      fix: ['black', '.'],
      parser: blackParser.name,
      paths: 'append',
      source,
    },
  ],
  extensions: PYTHON_EXTENSIONS,
  // black caches what it checked in the user cache directory (~/.cache/black/<version>,
  // BLACK_CACHE_DIR), never the tree, and only without --diff: a check neither reads nor
  // writes it, so a rerun equals a cold run.
  outputs: [{ parser: blackParser }],
  script: formatterScript(blackParser.name, CHECKS),
  warm: { cold: 'a Python program; it runs cold' },
  commands: {
    // psf/black-pre-commit-mirror: black rewrites. Its --exclude options are regexes on
    // paths with a leading `/`, not pre-commit's, so a hook's exclude is only named.
    hooks: { black: { entry: ['black'] }, 'black-jupyter': { entry: ['black'] } },
    keepOptions: [
      '--config=',
      '--line-length=',
      '-l=',
      '--target-version=',
      '-t=',
      '--skip-string-normalization',
      '-S',
      '--skip-magic-trailing-comma',
      '-C',
      '--preview',
      '--unstable',
      '--pyi',
      '--ipynb',
      '--python-cell-magics=',
    ],
  },
  install: {
    hint: 'install black in the project (uv add --dev black, or pip install black; Debian: apt-get install black) and put its bin directory on PATH',
  },
};

import { isortParser } from '../parsers/isort.js';
import { formatterScript, PYTHON_EXTENSIONS, pythonDependency } from './shared.js';
import type { ToolDescriptor } from './tool.js';

/** The options that make isort only check (anything else rewrites files). */
const CHECKS = ['--check-only', '--check', '-c', '--diff'];

export const isort: ToolDescriptor = {
  name: 'isort',
  programs: ['isort'],
  recognise: {
    configFiles: ['.isort.cfg'],
    configSections: [
      { file: 'pyproject.toml', section: /^\s*\[tool\.isort\]/m },
      { file: 'setup.cfg', section: /^\s*\[(?:tool:)?isort\]/m },
      { file: 'tox.ini', section: /^\s*\[(?:tool:)?isort\]/m },
      { file: 'pyproject.toml', section: pythonDependency('isort') },
    ],
    scriptWords: ['isort'],
    preCommitHooks: ['isort'],
  },
  gates: (_project, source) => [
    {
      name: 'isort',
      description: 'isort import order check (the diff isort would apply)',
      command: ['isort', '--check-only', '--diff', '.'],
      fix: ['isort', '.'],
      parser: isortParser.name,
      paths: 'append',
      source,
    },
  ],
  extensions: PYTHON_EXTENSIONS,
  // Named files are sorted even when the config skips them, unless told --filter-files.
  explicitPathArgs: ['--filter-files'],
  // isort keeps no cache: a check writes nothing anywhere.
  outputs: [{ parser: isortParser }],
  script: formatterScript(isortParser.name, CHECKS),
  // `--version` prints a banner first; isort 5 has the number alone.
  versionArgs: ['--version-number'],
  warm: { cold: 'a Python program; it runs cold' },
  commands: {
    // PyCQA/isort's hook rewrites, with `--filter-files` by default.
    hooks: { isort: { entry: ['isort'], args: ['--filter-files'] } },
    keepOptions: [
      '--profile=',
      '--settings-path=',
      '--sp=',
      '--settings-file=',
      '--line-length=',
      '-l=',
      '--filter-files',
      '--skip=',
      '-s=',
      '--skip-glob=',
      '--extend-skip=',
      '--extend-skip-glob=',
      '--multi-line=',
      '-m=',
      '--trailing-comma',
      '--force-single-line-imports',
      '--sl',
      '--known-first-party=',
      '-p=',
      '--src=',
      '--float-to-top',
      '--combine-as',
      '--ca',
      '--python-version=',
      '--py=',
    ],
  },
  install: {
    hint: 'install isort in the project (uv add --dev isort, or pip install isort; Debian: apt-get install isort) and put its bin directory on PATH',
  },
};

import { flake8Parser } from '../parsers/flake8.js';
import { lintScriptKind, namesOperands, optionValue, pythonDependency } from './shared.js';
import type { ToolDescriptor } from './tool.js';

/** flake8's options that take the next word as their value. */
const VALUE_OPTIONS = new Set([
  '--config',
  '--append-config',
  '--format',
  '--select',
  '--ignore',
  '--extend-select',
  '--extend-ignore',
  '--exclude',
  '--extend-exclude',
  '--filename',
  '--per-file-ignores',
  '--max-line-length',
  '--max-doc-length',
  '--max-complexity',
  '--output-file',
  '--jobs',
  '-j',
]);

export const flake8: ToolDescriptor = {
  name: 'flake8',
  programs: ['flake8'],
  recognise: {
    configFiles: ['.flake8'],
    configSections: [
      { file: 'setup.cfg', section: /^\s*\[flake8\]/m },
      { file: 'tox.ini', section: /^\s*\[flake8\]/m },
      { file: 'pyproject.toml', section: pythonDependency('flake8') },
    ],
    scriptWords: ['flake8'],
    preCommitHooks: ['flake8'],
  },
  // Run bare it walks `.`, a local .venv included (its default exclude names no
  // environment): it gets the top-level entries holding Python files git lists, and its
  // exclude still applies inside them. --benchmark counts the files it processed, so a
  // run that excluded every one is nothing checked, not a pass.
  gates: (_project, source) => [
    {
      name: 'flake8',
      description: 'flake8 lint (pycodestyle, pyflakes, mccabe and its plugins; rule codes)',
      command: ['flake8', '--benchmark'],
      fix: null,
      parser: flake8Parser.name,
      paths: 'append',
      source,
    },
  ],
  extensions: ['py'],
  runTimeFiles: {
    namesFiles: namesOperands('flake8', VALUE_OPTIONS),
    checks: (file) => file.endsWith('.py'),
    what: 'Python files',
    topLevel: true,
  },
  // It writes nothing and keeps no cache.
  outputs: [{ parser: flake8Parser }],
  script: {
    textParser: flake8Parser.name,
    // Another --format (pylint, a plugin's) is read as plain located lines.
    commandParser: (args) => {
      const format = optionValue(args, '--format');
      return format === undefined || format === 'default' ? flake8Parser.name : 'generic';
    },
    kind: lintScriptKind,
  },
  warm: { cold: 'a Python program; it runs cold' },
  commands: {
    // pycqa/flake8's own hook: its rev is flake8's version.
    hooks: { flake8: { entry: ['flake8'] } },
    keepOptions: [
      '--config=',
      '--append-config=',
      '--isolated',
      '--select=',
      '--ignore=',
      '--extend-select=',
      '--extend-ignore=',
      '--exclude=',
      '--extend-exclude=',
      '--filename=',
      '--per-file-ignores=',
      '--max-line-length=',
      '--max-doc-length=',
      '--max-complexity=',
    ],
  },
  install: {
    hint: 'install flake8 in the project (uv add --dev flake8, or pip install flake8; Debian: apt-get install flake8) and put its bin directory on PATH',
  },
};

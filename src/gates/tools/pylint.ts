import { pylintJsonParser, pylintTextParser } from '../parsers/pylint.js';
import { lintScriptKind, namesOperands, optionValue, pythonDependency } from './shared.js';
import type { ToolDescriptor } from './tool.js';

/** pylint's options that take the next word as their value. */
const VALUE_OPTIONS = new Set([
  '--rcfile',
  '--output-format',
  '-f',
  '--disable',
  '-d',
  '--enable',
  '-e',
  '--ignore',
  '--ignore-patterns',
  '--ignore-paths',
  '--load-plugins',
  '--jobs',
  '-j',
  '--fail-under',
  '--fail-on',
  '--recursive',
  '--py-version',
  '--max-line-length',
  '--init-hook',
  '--output',
]);

export const pylint: ToolDescriptor = {
  name: 'pylint',
  programs: ['pylint'],
  recognise: {
    configFiles: ['.pylintrc', 'pylintrc'],
    configSections: [
      { file: 'pyproject.toml', section: /^\s*\[tool\.pylint[.\]]/m },
      { file: 'setup.cfg', section: /^\s*\[pylint\./m },
      { file: 'tox.ini', section: /^\s*\[pylint\./m },
      { file: 'pyproject.toml', section: pythonDependency('pylint') },
    ],
    scriptWords: ['pylint'],
    preCommitHooks: ['pylint'],
  },
  // Given directories it walks them (--recursive=y), a local .venv included: it gets the
  // top-level entries holding Python files git lists instead, its ignore settings still
  // applying inside them. --persistent=n: it keeps no score history in the user's cache
  // (and prints no "previous run" comparison a rerun would change).
  gates: (_project, source) => [
    {
      name: 'pylint',
      description: 'pylint lint (JSON output: symbol and message id per finding)',
      command: ['pylint', '--recursive=y', '--persistent=n', '--output-format=json'],
      fix: null,
      parser: pylintJsonParser.name,
      paths: 'append',
      source,
    },
  ],
  extensions: ['py'],
  runTimeFiles: {
    namesFiles: namesOperands('pylint', VALUE_OPTIONS),
    checks: (file) => file.endsWith('.py'),
    what: 'Python files',
    topLevel: true,
  },
  outputs: [{ parser: pylintJsonParser, machineFormat: true }, { parser: pylintTextParser }],
  script: {
    textParser: pylintTextParser.name,
    commandParser(args) {
      const format = optionValue(args, '--output-format', '-f');
      if (format === 'json' || format === 'json2') return pylintJsonParser.name;
      if (format === undefined || format === 'text') return pylintTextParser.name;
      // parseable, msvs, colorized: located lines.
      return 'generic';
    },
    kind: lintScriptKind,
  },
  warm: { cold: 'a Python program; it runs cold' },
  commands: {
    // pycqa/pylint's hook, or a local one (`entry: pylint`, language system).
    hooks: { pylint: { entry: ['pylint'] } },
    keepOptions: [
      '--rcfile=',
      '--disable=',
      '-d=',
      '--enable=',
      '-e=',
      '--errors-only',
      '-E',
      '--ignore=',
      '--ignore-patterns=',
      '--ignore-paths=',
      '--load-plugins=',
      '--fail-under=',
      '--fail-on=',
      '--py-version=',
      '--max-line-length=',
      '--init-hook=',
    ],
  },
  install: {
    hint: 'install pylint in the project (uv add --dev pylint, or pip install pylint; Debian: apt-get install pylint) and put its bin directory on PATH',
  },
};

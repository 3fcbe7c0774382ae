import { codespellParser } from '../parsers/codespell.js';
import { lintScriptKind, namesOperands, pythonDependency, setsOption } from './shared.js';
import type { ToolDescriptor } from './tool.js';

const TOOL_SECTION = /^\s*\[tool\.codespell\]/m;

/** codespell's options that take the next word as their value. */
const VALUE_OPTIONS = new Set([
  '--toml',
  '--config',
  '-S',
  '--skip',
  '-L',
  '--ignore-words-list',
  '-I',
  '--ignore-words',
  '-D',
  '--dictionary',
  '--builtin',
  '-x',
  '--exclude-file',
  '-i',
  '--interactive',
  '--ignore-regex',
  '--ignore-multiline-regex',
  '--uri-ignore-words-list',
  '--regex',
  '-A',
  '--after-context',
  '-B',
  '--before-context',
  '-C',
  '--context',
  '-q',
  '--quiet-level',
]);

export const codespell: ToolDescriptor = {
  name: 'codespell',
  programs: ['codespell'],
  recognise: {
    configFiles: ['.codespellrc'],
    configSections: [
      { file: 'setup.cfg', section: /^\s*\[codespell\]/m },
      { file: 'pyproject.toml', section: TOOL_SECTION },
      { file: 'pyproject.toml', section: pythonDependency('codespell') },
    ],
    scriptWords: ['codespell'],
    preCommitHooks: ['codespell'],
  },
  // Read-only unless -w; it reads .codespellrc and setup.cfg where it runs, and skips hidden
  // and binary files. codespell before 2.3 reads [tool.codespell] only with tomli and
  // silently not without: `--toml` makes it say so instead of checking with other settings.
  gates: (project, source) => {
    const toml = TOOL_SECTION.test(project.readText('pyproject.toml') ?? '')
      ? ['--toml', 'pyproject.toml']
      : [];
    return [
      {
        name: 'codespell',
        description: 'codespell spelling check',
        command: ['codespell', ...toml],
        fix: ['codespell', ...toml, '--write-changes'],
        parser: codespellParser.name,
        // It skips a named file its config skips without a word: given only such files it
        // would pass having checked nothing. So it always checks the project (a changed
        // scope lists the changed files' findings first).
        paths: 'none',
        source,
      },
    ];
  },
  // Run bare it walks the directory, git-ignored ones included (a local .venv or
  // node_modules, which CI's checkout lacks); so it gets the top-level entries git tracks
  // or does not ignore, and walks those. A named file its config skips is still skipped.
  runTimeFiles: {
    namesFiles: namesOperands('codespell', VALUE_OPTIONS),
    checks: () => true,
    what: 'files',
    topLevel: true,
  },
  // It checks every text file: no extension list, so a changed scope gives it every file.
  // It writes nothing but what -w fixes: no cache.
  outputs: [{ parser: codespellParser }],
  script: {
    textParser: codespellParser.name,
    commandParser: (args) =>
      setsOption(args, '-w', '--write-changes') ? undefined : codespellParser.name,
    kind: (body, mutating) => lintScriptKind(body, mutating || /--write-changes/.test(body)),
  },
  warm: { cold: 'a Python program; it runs cold' },
  commands: {
    hooks: { codespell: { entry: ['codespell'] } },
    keepOptions: [
      '--ignore-words-list=',
      '-L=',
      '--ignore-words=',
      '-I=',
      '--skip=',
      '-S=',
      '--builtin=',
      '-D=',
      '--dictionary=',
      '--ignore-regex=',
      '--uri-ignore-words-list=',
      '--check-filenames',
      '-f',
      '--check-hidden',
      '-H',
      '--toml=',
      '--config=',
    ],
  },
  install: {
    hint: 'install codespell (pip install codespell; Debian: apt-get install codespell) and put it on PATH',
  },
};

import { editorconfigCheckerParser } from '../parsers/editorconfig-checker.js';
import { lintScriptKind, optionValue } from './shared.js';
import type { ToolDescriptor } from './tool.js';

export const editorconfigChecker: ToolDescriptor = {
  name: 'editorconfig-checker',
  // `ec` is the npm package's and the release archives' name for it.
  programs: ['editorconfig-checker', 'ec'],
  recognise: {
    configFiles: ['.editorconfig-checker.json', '.ecrc'],
    dependencies: ['editorconfig-checker'],
    scriptWords: ['editorconfig-checker'],
    // editorconfig-checker/editorconfig-checker.python's hook.
    preCommitHooks: ['editorconfig-checker', 'editorconfig-checker-system'],
  },
  // Run bare it checks the files git lists (tracked and not ignored); given paths, those.
  gates: (_project, source) => [
    {
      name: 'editorconfig-checker',
      description:
        'editorconfig-checker: the files git lists against their .editorconfig (indentation, line endings, final newline, trailing whitespace, line length)',
      command: ['editorconfig-checker', '-format', 'gcc', '-no-color'],
      fix: null,
      parser: editorconfigCheckerParser.name,
      paths: 'append',
      source,
    },
  ],
  configNames: [/^\.editorconfig$/],
  // It writes nothing and keeps no cache.
  outputs: [{ parser: editorconfigCheckerParser }],
  script: {
    textParser: editorconfigCheckerParser.name,
    commandParser(args) {
      const format = optionValue(args, '-format', '-f');
      return format === undefined || format === 'default' || format === 'gcc'
        ? editorconfigCheckerParser.name
        : 'generic';
    },
    kind: lintScriptKind,
  },
  warm: { cold: 'native (Go), starts fast' },
  commands: {
    hooks: {
      'editorconfig-checker': { entry: ['editorconfig-checker'] },
      'editorconfig-checker-system': { entry: ['editorconfig-checker'] },
    },
    keepOptions: [
      '-config=',
      '-exclude=',
      '-ignore-defaults',
      '-disable-trim-trailing-whitespace',
      '-disable-end-of-line',
      '-disable-insert-final-newline',
      '-disable-indentation',
      '-disable-indent-size',
      '-disable-max-line-length',
      '-disable-charset',
    ],
  },
  install: {
    hint: 'install editorconfig-checker (its release binary from github.com/editorconfig-checker/editorconfig-checker, macOS: brew install editorconfig-checker, pip install editorconfig-checker, or go install github.com/editorconfig-checker/editorconfig-checker/v3/cmd/editorconfig-checker@latest) and put it on PATH',
  },
};

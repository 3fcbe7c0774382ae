import path from 'node:path';
import { cspellParser } from '../parsers/cspell.js';
import { lintScriptKind, setsOption } from './shared.js';
import type { ToolDescriptor } from './tool.js';

/** cspell's commands that are no spelling check of the tree (`cspell lint` and bare globs are). */
const NOT_A_CHECK = new Set(['trace', 'check', 'suggest', 'link', 'dictionaries', 'init', 'help']);

export const cspell: ToolDescriptor = {
  name: 'cspell',
  programs: ['cspell', 'cspell-cli'],
  recognise: {
    configFiles: [
      'cspell.json',
      '.cspell.json',
      'cspell.jsonc',
      '.cspell.jsonc',
      'cSpell.json',
      '.cSpell.json',
      'cspell.config.js',
      'cspell.config.cjs',
      'cspell.config.mjs',
      'cspell.config.json',
      'cspell.config.yaml',
      'cspell.config.yml',
      'cspell.yaml',
      'cspell.yml',
      // cspell also reads these (cspell-lib's search list); a repository with only one of
      // them, spell-checking through a GitHub action or npx, had no gate.
      '.cspell.yaml',
      '.cspell.yml',
      '.cspell.config.js',
      '.cspell.config.cjs',
      '.cspell.config.mjs',
      '.cspell.config.json',
      '.cspell.config.yaml',
      '.cspell.config.yml',
    ],
    dependencies: ['cspell'],
    scriptWords: ['cspell', 'cspell-cli'],
    preCommitHooks: ['cspell'],
  },
  gates: (_project, source) => [
    {
      name: 'cspell',
      description:
        'cspell spelling check of the tree (skips what .gitignore lists; no cache is read or written)',
      // The summary stays on (stderr): its file count tells a run that checked nothing.
      command: ['cspell', 'lint', '--no-progress', '--no-color', '--no-cache', '--gitignore', '.'],
      fix: null,
      parser: cspellParser.name,
      paths: 'append',
      source,
    },
  ],
  yieldsToScripts: {},
  onFiles: {
    subcommands: ['lint'],
    valueOptions: [
      '-c',
      '--config',
      '-e',
      '--exclude',
      '--locale',
      '--language-id',
      '--cache-location',
      '--cache-strategy',
      '-r',
      '--root',
      '--gitignore-root',
    ],
    flags: [
      '--no-progress',
      '--progress',
      '--no-color',
      '--color',
      '--no-cache',
      '--cache',
      '--gitignore',
      '--no-gitignore',
      '--no-summary',
      '--summary',
      '--show-context',
      '--show-suggestions',
      '--no-show-suggestions',
      '--unique',
      '--words-only',
      '--relative',
      '--no-relative',
      '--dot',
      '--no-must-find-files',
      '--must-find-files',
      '--quiet',
      '--strict',
      '--no-strict',
      '-u',
      '-v',
      '--verbose',
    ],
  },
  writes: [
    {
      // With --cache, or `useCache` in its config, cspell writes .cspellcache where it runs.
      path: '.cspellcache',
      why: 'cspell writes its cache file with --cache or a config that turns it on',
      redirect: {
        args: (directory) => ['--cache-location', path.join(directory, '.cspellcache')],
        applies: (argv) => !setsOption(argv, '--no-cache'),
      },
    },
  ],
  resultCache: { on: ['--cache'], location: ['--cache-location'], settings: ['--cache-strategy'] },
  outputs: [{ parser: cspellParser }],
  script: {
    textParser: cspellParser.name,
    commandParser: (args) => (NOT_A_CHECK.has(args[0] ?? '') ? undefined : cspellParser.name),
    kind: lintScriptKind,
  },
  warm: { cold: 'no warm worker yet: each call starts it' },
  install: { npmPackage: 'cspell' },
};

import path from 'node:path';
import { eslintJsonParser } from '../parsers/eslint-json.js';
import { eslintStylishParser } from '../parsers/stylish.js';
import { lintScriptKind, maxWarnings, optionValue, SCRIPT_EXTENSIONS } from './shared.js';
import type { ToolDescriptor } from './tool.js';
import { TSCONFIG_NAME } from './tsc.js';

/** ESLint's flat config files (eslint 9+), in the order ESLint looks for them. */
export const FLAT_ESLINT_CONFIGS = [
  'eslint.config.js',
  'eslint.config.mjs',
  'eslint.config.cjs',
  'eslint.config.ts',
  'eslint.config.mts',
  'eslint.config.cts',
];
export const ESLINT_CONFIGS = [
  ...FLAT_ESLINT_CONFIGS,
  '.eslintrc.js',
  '.eslintrc.cjs',
  '.eslintrc.json',
  '.eslintrc.yml',
  '.eslintrc.yaml',
  '.eslintrc',
];

export const ESLINT_EXTENSIONS = [...SCRIPT_EXTENSIONS, 'vue'];

export const eslint: ToolDescriptor = {
  name: 'eslint',
  programs: ['eslint'],
  recognise: {
    configFiles: ESLINT_CONFIGS,
    packageJsonKeys: ['eslintConfig'],
    scriptWords: ['eslint'],
    preCommitHooks: ['eslint'],
  },
  gates: (_project, source) => [
    {
      name: 'lint',
      description: 'ESLint over the project',
      command: ['eslint', '--format', 'json', '.'],
      fix: ['eslint', '--fix', '.'],
      parser: eslintJsonParser.name,
      paths: 'append',
      source,
    },
  ],
  yieldsToScripts: { scriptGate: 'lint' },
  extensions: ESLINT_EXTENSIONS,
  writes: [
    {
      path: 'node_modules/.cache/jiti',
      why: 'jiti, which compiles eslint.config.ts (ESLint 9.18 on), caches what it compiled there (it takes no other place)',
      redirect: { env: 'JITI_FS_CACHE', value: 'false' },
    },
    {
      // ESLint 8 (eslintrc) unlinks its cache file on every run without --cache; with
      // --cache every ESLint writes it.
      path: '.eslintcache',
      why: 'ESLint writes its cache file with --cache (ESLint 8 deletes it without)',
      redirect: {
        args: (directory) => ['--cache-location', path.join(directory, '.eslintcache')],
        applies: () => true,
      },
    },
  ],
  resultCache: {
    on: ['--cache'],
    location: ['--cache-location', '--cache-file'],
    settings: ['--cache-strategy'],
  },
  outputs: [{ parser: eslintJsonParser, machineFormat: true }, { parser: eslintStylishParser }],
  // Type-aware rules read the tsconfig; .eslintignore and eslintrc files in subdirectories.
  warningLimit: maxWarnings,
  configNames: [/^\.eslintignore$/, /^\.eslintrc(\..+)?$/, /^eslint\.config\./, TSCONFIG_NAME],
  script: {
    textParser: eslintStylishParser.name,
    commandParser(args) {
      const format = optionValue(args, '--format', '-f');
      if (format === undefined || format === 'stylish') return eslintStylishParser.name;
      return format === 'json' ? eslintJsonParser.name : undefined;
    },
    kind: lintScriptKind,
  },
  warm: { worker: 'eslint' },
  commands: {
    hooks: { eslint: { entry: ['eslint'] } },
    keepOptions: [
      '--config=',
      '-c=',
      '--max-warnings=',
      '--ext=',
      '--rulesdir=',
      '--ignore-path=',
      '--ignore-pattern=',
      '--no-eslintrc',
      '--no-config-lookup',
      '--resolve-plugins-relative-to=',
      '--report-unused-disable-directives',
      '--quiet',
    ],
  },
  install: { npmPackage: 'eslint' },
};

/** eslint_d, the ESLint daemon: the same files, run by the repository's own config. */
export const eslintDaemon: ToolDescriptor = {
  name: 'eslint_d',
  programs: ['eslint_d'],
  recognise: {},
  extensions: ESLINT_EXTENSIONS,
  outputs: [],
};

import path from 'node:path';
import { prettierParser } from '../parsers/prettier.js';
import { installedMajor, majorMinor, NEVER_CHECKED, SCRIPT_EXTENSIONS } from './shared.js';
import type { ProjectFacts, ToolDescriptor } from './tool.js';

const PRETTIER_CONFIGS = [
  '.prettierrc',
  '.prettierrc.json',
  '.prettierrc.json5',
  '.prettierrc.yml',
  '.prettierrc.yaml',
  '.prettierrc.toml',
  '.prettierrc.js',
  '.prettierrc.cjs',
  '.prettierrc.mjs',
  '.prettierrc.ts',
  'prettier.config.js',
  'prettier.config.cjs',
  'prettier.config.mjs',
  'prettier.config.ts',
];

/** What a marker prettier gate never checks or rewrites, whatever the ignore files say. */
export const PRETTIER_NEVER = NEVER_CHECKED;

/**
 * The root .gitignore as prettier negative patterns, for prettier 2 (which reads one
 * ignore file only). Negations (`!keep`) are left out: the gate then skips a little more
 * than git does, never less. Nested .gitignore files are not read.
 */
export function gitignoreAsNegativePatterns(text: string): string[] {
  const patterns: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim().replace(/\/+$/, '');
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const anchored = line.slice(0, -1).includes('/') || line.startsWith('/');
    const pattern = line.replace(/^\/+/, '');
    if (pattern === '' || pattern === '**') continue;
    const base = anchored || pattern.startsWith('**/') ? pattern : `**/${pattern}`;
    patterns.push(`!${base}`, `!${base}/**`);
  }
  return [...new Set(patterns)];
}

/**
 * The marker prettier gate, scoped as the repository scopes it: its .gitignore and
 * .prettierignore, plus PRETTIER_NEVER, for check and fix alike. Prettier 3 reads both
 * ignore files when told; prettier 2 reads one, so .gitignore becomes negative patterns.
 */
function prettierGate(project: ProjectFacts, source: string) {
  const never = PRETTIER_NEVER.map((name) => `!**/${name}/**`);
  const major = installedMajor(project.root, 'prettier');
  const scope =
    major !== undefined && major < 3
      ? [
          '--ignore-path',
          '.prettierignore',
          ...gitignoreAsNegativePatterns(project.readText('.gitignore') ?? ''),
          ...never,
        ]
      : ['--ignore-path', '.gitignore', '--ignore-path', '.prettierignore', ...never];
  return {
    name: 'format',
    description: `Prettier format check (skips what .gitignore and .prettierignore list, and ${PRETTIER_NEVER.join(', ')})`,
    command: ['prettier', '--check', ...scope, '.'],
    fix: ['prettier', '--write', ...scope, '.'],
    parser: prettierParser.name,
    paths: 'append' as const,
    source,
  };
}

/** Prettier 2.7 added --cache-location; older versions refuse it. */
function hasCacheLocation(version: string | undefined): boolean {
  const known = majorMinor(version);
  return known !== undefined && (known[0] > 2 || (known[0] === 2 && known[1] >= 7));
}

export const prettier: ToolDescriptor = {
  name: 'prettier',
  programs: ['prettier'],
  recognise: {
    configFiles: PRETTIER_CONFIGS,
    packageJsonKeys: ['prettier'],
    scriptWords: ['prettier'],
    preCommitHooks: ['prettier'],
  },
  gates: (project, source) => [prettierGate(project, source)],
  yieldsToScripts: { scriptGate: 'format' },
  extensions: [
    ...SCRIPT_EXTENSIONS,
    'json',
    'json5',
    'jsonc',
    'css',
    'scss',
    'less',
    'md',
    'mdx',
    'markdown',
    'yaml',
    'yml',
    'html',
    'htm',
    'vue',
    'graphql',
    'gql',
    'hbs',
    'handlebars',
  ],
  writes: [
    {
      // 2.8 to 3.x look their cache directory up with create: true even without --cache,
      // and unlink .prettier-cache there; given a --cache-location they only stat it.
      path: 'node_modules/.cache/prettier',
      why: 'prettier creates its cache directory on every run, even without --cache',
      redirect: {
        args: (directory) => ['--cache-location', path.join(directory, '.prettier-cache')],
        applies: (_argv, version) => hasCacheLocation(version),
      },
    },
    {
      // find-cache-dir, which prettier vendors, honours CACHE_DIR: this reaches a
      // prettier that a script runs, whose argv we cannot extend.
      path: 'node_modules/.cache/prettier',
      why: 'prettier run by a script creates its cache directory too',
      redirect: { env: 'CACHE_DIR' },
    },
  ],
  resultCache: { on: ['--cache'], location: ['--cache-location'], settings: ['--cache-strategy'] },
  // A file's check reads that file and the settings alone: `prettier --check .` in a script
  // checks an edited file as `prettier --check <file>` does (a file it ignores is skipped
  // either way). --write and the options that need one file (--stdin-filepath, ranges,
  // --cursor-offset) are left out: a command with them stays whole.
  onFiles: {
    valueOptions: [
      '--arrow-parens',
      '--embedded-language-formatting',
      '--end-of-line',
      '--experimental-operator-position',
      '--html-whitespace-sensitivity',
      '--object-wrap',
      '--parser',
      '--print-width',
      '--prose-wrap',
      '--quote-props',
      '--tab-width',
      '--trailing-comma',
      '--config',
      '--config-precedence',
      '--plugin',
      '--ignore-path',
      '--cache-location',
      '--cache-strategy',
      '--log-level',
    ],
    flags: [
      '--check',
      '-c',
      '--list-different',
      '-l',
      '--cache',
      '--ignore-unknown',
      '-u',
      '--no-config',
      '--no-editorconfig',
      '--no-error-on-unmatched-pattern',
      '--with-node-modules',
      '--color',
      '--no-color',
      '--bracket-same-line',
      '--no-bracket-spacing',
      '--experimental-ternaries',
      '--jsx-single-quote',
      '--no-semi',
      '--single-attribute-per-line',
      '--single-quote',
      '--use-tabs',
      '--vue-indent-script-and-style',
      '--require-pragma',
      '--insert-pragma',
    ],
  },
  outputs: [{ parser: prettierParser }],
  configNames: [
    /^\.prettierignore$/,
    /^\.prettierrc(\..+)?$/,
    /^prettier\.config\./,
    /^\.editorconfig$/,
  ],
  script: {
    textParser: prettierParser.name,
    commandParser(args) {
      const has = (flag: string) => args.includes(flag);
      return has('--check') || has('-c') || has('--list-different') || has('-l')
        ? prettierParser.name
        : undefined;
    },
    kind(body, mutating) {
      if (/--check|--list-different|(^|\s)-l(\s|$)|-c(\s|$)/.test(body)) return 'format-check';
      return mutating ? 'format-write' : undefined;
    },
  },
  locate: {
    rule: 'prettier',
    argv: (absolute) => ['prettier', absolute],
    feedsText: false,
    warmWorker: 'prettier',
  },
  warm: { worker: 'prettier' },
  commands: {
    // pre-commit/mirrors-prettier (and its forks) write.
    hooks: { prettier: { entry: ['prettier', '--write', '--ignore-unknown'] } },
    keepOptions: [
      '--config=',
      '--ignore-path=',
      '--ignore-unknown',
      '-u',
      '--plugin=',
      '--parser=',
      '--print-width=',
      '--tab-width=',
      '--use-tabs',
      '--single-quote',
      '--no-semi',
      '--trailing-comma=',
      '--prose-wrap=',
      '--end-of-line=',
    ],
  },
  install: { npmPackage: 'prettier' },
};

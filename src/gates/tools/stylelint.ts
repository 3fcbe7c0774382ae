import path from 'node:path';
import { stylelintJsonParser } from '../parsers/stylelint-json.js';
import { stylelintParser } from '../parsers/stylish.js';
import {
  installedMajor,
  lintScriptKind,
  maxWarnings,
  NEVER_CHECKED,
  optionValue,
} from './shared.js';
import type { ProjectFacts, ToolDescriptor } from './tool.js';

const STYLELINT_CONFIGS = [
  '.stylelintrc',
  '.stylelintrc.json',
  '.stylelintrc.yml',
  '.stylelintrc.yaml',
  '.stylelintrc.js',
  '.stylelintrc.cjs',
  '.stylelintrc.mjs',
  'stylelint.config.js',
  'stylelint.config.cjs',
  'stylelint.config.mjs',
  'stylelint.config.ts',
];

/**
 * The style sheet syntaxes beside CSS a project lints, told by the packages that parse
 * them: linting .scss or .less with no such syntax installed reports parse errors for
 * valid code, so those files are left to a project that declares their syntax.
 */
const SYNTAX_PACKAGES: readonly { extension: string; packages: readonly string[] }[] = [
  {
    extension: 'scss',
    packages: [
      'postcss-scss',
      'stylelint-scss',
      'stylelint-config-standard-scss',
      'stylelint-config-recommended-scss',
      'stylelint-config-sass-guidelines',
    ],
  },
  { extension: 'sass', packages: ['postcss-sass'] },
  {
    extension: 'less',
    packages: [
      'postcss-less',
      'stylelint-less',
      'stylelint-config-standard-less',
      'stylelint-config-recommended-less',
    ],
  },
];

function styleExtensions(project: ProjectFacts): string[] {
  return [
    'css',
    ...SYNTAX_PACKAGES.filter(({ packages }) =>
      packages.some((name) => project.dependsOn(name)),
    ).map(({ extension }) => extension),
  ];
}

/**
 * The marker stylelint gate over the style sheets of the tree, scoped as the repository
 * scopes it: .stylelintignore and (stylelint 16 on, which reads several ignore files)
 * .gitignore, plus NEVER_CHECKED. A glob that matches nothing fails as nothing checked.
 */
function stylelintGate(project: ProjectFacts, source: string) {
  const extensions = styleExtensions(project);
  const glob = extensions.length === 1 ? '**/*.css' : `**/*.{${extensions.join(',')}}`;
  const major = installedMajor(project.root, 'stylelint');
  const ignoreFiles =
    major === undefined || major >= 16
      ? ['--ignore-path', '.gitignore', '--ignore-path', '.stylelintignore']
      : [];
  const scope = [
    ...ignoreFiles,
    ...NEVER_CHECKED.flatMap((name) => ['--ignore-pattern', `${name}/`]),
  ];
  return {
    name: 'stylelint',
    description: `stylelint over ${glob} (skips what ${ignoreFiles.length > 0 ? '.gitignore and ' : ''}.stylelintignore list, and ${NEVER_CHECKED.join(', ')}; its cache goes to a private temporary directory, never into the tree)`,
    command: ['stylelint', '--formatter', 'json', ...scope, glob],
    fix: ['stylelint', '--fix', ...scope, glob],
    parser: stylelintJsonParser.name,
    paths: 'append' as const,
    source,
  };
}

export const stylelint: ToolDescriptor = {
  name: 'stylelint',
  programs: ['stylelint'],
  recognise: {
    configFiles: STYLELINT_CONFIGS,
    packageJsonKeys: ['stylelint'],
    scriptWords: ['stylelint'],
    preCommitHooks: ['stylelint'],
  },
  gates: (project, source) => [stylelintGate(project, source)],
  yieldsToScripts: {},
  extensions: ['css', 'scss', 'sass', 'less'],
  onFiles: {
    valueOptions: [
      '-c',
      '--config',
      '--config-basedir',
      '-i',
      '--ignore-path',
      '--ignore-pattern',
      '--ip',
      '-f',
      '--formatter',
      '--custom-formatter',
      '--custom-syntax',
      '--max-warnings',
      '--mw',
      '--cache-location',
      '--cache-strategy',
    ],
    flags: [
      '-q',
      '--quiet',
      '--allow-empty-input',
      '--aei',
      '--cache',
      '--color',
      '--no-color',
      '--report-needless-disables',
      '--rd',
      '--report-invalid-scope-disables',
      '--risd',
      '--report-descriptionless-disables',
      '--rdd',
      '--ignore-disables',
      '--id',
      '--disable-default-ignores',
      '--di',
    ],
  },
  // It takes no directory: its marker command names the tree by a glob.
  wholeTreeArgument: /^\*\*\/\*\.(css|\{[a-z,]+\})$/,
  writes: [
    {
      // Without --cache stylelint deletes its cache file; with it (option or config) it
      // writes one. Given --cache-location it does either there instead.
      path: '.stylelintcache',
      why: 'stylelint writes its cache file with --cache and deletes it without',
      redirect: {
        args: (directory) => ['--cache-location', path.join(directory, '.stylelintcache')],
        applies: () => true,
      },
    },
  ],
  resultCache: { on: ['--cache'], location: ['--cache-location'], settings: ['--cache-strategy'] },
  outputs: [{ parser: stylelintJsonParser, machineFormat: true }, { parser: stylelintParser }],
  warningLimit: maxWarnings,
  configNames: [/^\.stylelintignore$/, /^\.stylelintrc(\..+)?$/, /^stylelint\.config\./],
  script: {
    textParser: stylelintParser.name,
    commandParser(args) {
      const formatter = optionValue(args, '--formatter', '-f');
      if (formatter === undefined || formatter === 'string') return stylelintParser.name;
      return formatter === 'json' ? stylelintJsonParser.name : undefined;
    },
    kind: lintScriptKind,
    // Without --cache it deletes .stylelintcache where it runs: every stylelint script.
    runsDirectly: () => true,
  },
  warm: { cold: 'no warm worker yet: each call starts it' },
  install: { npmPackage: 'stylelint' },
};

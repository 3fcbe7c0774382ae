import { mypyParser } from '../parsers/mypy.js';
import { PYTHON_EXTENSIONS } from './shared.js';
import type { ToolDescriptor } from './tool.js';

/** mypy's flags for one `file:line:col: severity: message  [code]` line per problem. */
const MYPY_FLAGS = [
  '--show-column-numbers',
  '--no-error-summary',
  '--no-pretty',
  '--no-color-output',
];

export const mypy: ToolDescriptor = {
  name: 'mypy',
  programs: ['mypy'],
  recognise: {
    configSections: [
      { file: 'mypy.ini', section: /^\s*\[mypy\]/m },
      { file: '.mypy.ini', section: /^\s*\[mypy\]/m },
      { file: 'pyproject.toml', section: /^\s*\[tool\.mypy\]/m },
      { file: 'setup.cfg', section: /^\s*\[mypy\]/m },
    ],
    preCommitHooks: ['mypy'],
  },
  // A config that names the files to check (`files = ...`): mypy then runs with no target.
  gates: (project, source) => [
    {
      name: 'mypy',
      description: 'mypy typecheck',
      command: [
        'mypy',
        ...MYPY_FLAGS,
        ...(/^\s*files\s*=/m.test(project.readText(source) ?? '') ? [] : ['.']),
      ],
      fix: null,
      parser: mypyParser.name,
      paths: 'append',
      source,
    },
  ],
  extensions: PYTHON_EXTENSIONS,
  // MYPY_CACHE_DIR outranks the config's cache_dir; the command line would outrank both.
  writes: [
    {
      path: '.mypy_cache',
      why: 'mypy caches module analysis',
      redirect: { env: 'MYPY_CACHE_DIR' },
    },
  ],
  outputs: [{ parser: mypyParser }],
  commands: {
    // pre-commit/mirrors-mypy's default args.
    hooks: {
      mypy: { entry: ['mypy'], args: ['--ignore-missing-imports', '--scripts-are-modules'] },
    },
    // mypy's --exclude is a regex searched in paths from the root, as pre-commit's is.
    exclude: { option: '--exclude', takes: 'regex' },
    // Never --install-types (it installs from the network) nor output options (the parser's).
    keepOptions: [
      '--config-file=',
      '--strict',
      '--ignore-missing-imports',
      '--scripts-are-modules',
      '--explicit-package-bases',
      '--namespace-packages',
      '--no-namespace-packages',
      '--python-version=',
      '--platform=',
      '--follow-imports=',
      '--exclude=',
      '--disable-error-code=',
      '--enable-error-code=',
      '--check-untyped-defs',
      '--disallow-untyped-defs',
      '--disallow-incomplete-defs',
      '--disallow-any-generics',
      '--warn-unused-ignores',
      '--no-warn-unused-ignores',
      '--warn-return-any',
      '--warn-redundant-casts',
      '--no-implicit-optional',
      '--strict-optional',
      '--no-strict-optional',
      '--allow-redefinition',
      '--no-site-packages',
      '--package=',
      '-p=',
      '--module=',
      '-m=',
    ],
  },
  install: {
    hint: 'install mypy in the project (uv add --dev mypy, or pip install mypy) and put its bin directory on PATH',
  },
};

import { yamllintParser } from '../parsers/yamllint.js';
import { lintScriptKind, namesOperands, pythonDependency } from './shared.js';
import type { ToolDescriptor } from './tool.js';

/** yamllint's options that take the next word as their value. */
const VALUE_OPTIONS = new Set(['-c', '--config-file', '-d', '--config-data', '-f', '--format']);
/** Its default `yaml-files`. */
const YAML_EXTENSIONS = ['yaml', 'yml'];

export const yamllint: ToolDescriptor = {
  name: 'yamllint',
  programs: ['yamllint'],
  recognise: {
    configFiles: ['.yamllint', '.yamllint.yaml', '.yamllint.yml'],
    configSections: [{ file: 'pyproject.toml', section: pythonDependency('yamllint') }],
    scriptWords: ['yamllint'],
    preCommitHooks: ['yamllint'],
  },
  // It walks directories itself, node_modules included: it gets the YAML files git lists.
  gates: (_project, source) => [
    {
      name: 'yamllint',
      description:
        'yamllint over the YAML files (*.yaml, *.yml, .yamllint) git tracks or does not ignore',
      command: ['yamllint', '-f', 'parsable'],
      fix: null,
      parser: yamllintParser.name,
      paths: 'append',
      source,
    },
  ],
  extensions: YAML_EXTENSIONS,
  configNames: [/^\.yamllint(\.ya?ml)?$/],
  runTimeFiles: {
    namesFiles: namesOperands('yamllint', VALUE_OPTIONS),
    checks: (file) => /(^|\/)\.yamllint$|\.ya?ml$/i.test(file),
    what: 'YAML files',
  },
  // It writes nothing and keeps no cache.
  outputs: [{ parser: yamllintParser }],
  script: {
    textParser: yamllintParser.name,
    commandParser: () => yamllintParser.name,
    kind: lintScriptKind,
  },
  warm: { cold: 'a Python program; it runs cold' },
  commands: {
    // adrienverge/yamllint's hook: its rev is yamllint's version.
    hooks: { yamllint: { entry: ['yamllint'] } },
    keepOptions: [
      '-c=',
      '--config-file=',
      '-d=',
      '--config-data=',
      '-s',
      '--strict',
      '--no-warnings',
    ],
  },
  install: {
    hint: 'install yamllint (pip install yamllint; Debian/Ubuntu: apt-get install yamllint) and put it on PATH',
  },
};

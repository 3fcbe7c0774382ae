import { actionlintJsonParser, actionlintParser } from '../parsers/actionlint.js';
import { lintScriptKind, optionValue } from './shared.js';
import type { ToolDescriptor } from './tool.js';

const JSON_FORMAT = '{{json .}}';

export const actionlint: ToolDescriptor = {
  name: 'actionlint',
  programs: ['actionlint'],
  recognise: {
    configFiles: ['.github/actionlint.yaml', '.github/actionlint.yml'],
    scriptWords: ['actionlint'],
    // rhysd/actionlint's hooks.
    preCommitHooks: ['actionlint', 'actionlint-docker', 'actionlint-system'],
  },
  // Run bare it finds the repository's .github/workflows itself. It takes no paths: any
  // YAML file it is given is read as a workflow, so a changed scope runs it whole.
  gates: (_project, source) => [
    {
      name: 'actionlint',
      description: 'actionlint over the GitHub Actions workflows (.github/workflows)',
      command: ['actionlint', '-format', JSON_FORMAT],
      fix: null,
      parser: actionlintJsonParser.name,
      paths: 'none',
      source,
    },
  ],
  reads: ['yml', 'yaml'],
  // It writes nothing and keeps no cache (shellcheck and pyflakes, when on PATH, neither).
  outputs: [{ parser: actionlintJsonParser, machineFormat: true }, { parser: actionlintParser }],
  script: {
    textParser: actionlintParser.name,
    commandParser(args) {
      const format = optionValue(args, '-format');
      if (format === undefined) return actionlintParser.name;
      return format.trim() === JSON_FORMAT ? actionlintJsonParser.name : undefined;
    },
    kind: lintScriptKind,
  },
  warm: { cold: 'native (Go), starts fast' },
  commands: {
    hooks: {
      actionlint: { entry: ['actionlint'] },
      'actionlint-docker': { entry: ['actionlint'] },
      'actionlint-system': { entry: ['actionlint'] },
    },
    keepOptions: ['-config-file=', '-ignore=', '-shellcheck=', '-pyflakes='],
  },
  install: {
    hint: 'install actionlint (go install github.com/rhysd/actionlint/cmd/actionlint@latest; macOS: brew install actionlint; or its release binary) and put it on PATH',
  },
};

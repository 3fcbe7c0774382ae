import { oxlintJsonParser } from '../parsers/oxlint-json.js';
import { oxlintTextParser } from '../parsers/oxlint-text.js';
import { lintScriptKind, maxWarnings, optionValue, SCRIPT_EXTENSIONS } from './shared.js';
import type { ToolDescriptor } from './tool.js';

export const oxlint: ToolDescriptor = {
  name: 'oxlint',
  programs: ['oxlint'],
  recognise: {
    configFiles: ['.oxlintrc.json', '.oxlintrc.jsonc', 'oxlint.config.ts'],
    scriptWords: ['oxlint'],
  },
  gates: (_project, source) => [
    {
      name: 'oxlint',
      description: 'oxlint over the project',
      command: ['oxlint', '--format', 'json'],
      fix: ['oxlint', '--fix'],
      parser: oxlintJsonParser.name,
      paths: 'append',
      source,
    },
  ],
  yieldsToScripts: {},
  extensions: [...SCRIPT_EXTENSIONS, 'vue', 'svelte', 'astro'],
  warningLimit: (argv) => (argv.includes('--deny-warnings') ? 0 : maxWarnings(argv)),
  outputs: [{ parser: oxlintJsonParser, machineFormat: true }, { parser: oxlintTextParser }],
  script: {
    textParser: oxlintTextParser.name,
    commandParser(args) {
      const format = optionValue(args, '--format', '-f');
      if (format === undefined || format === 'default') return oxlintTextParser.name;
      return format === 'json' ? oxlintJsonParser.name : undefined;
    },
    kind: lintScriptKind,
  },
  warm: { cold: 'Rust-based, starts fast' },
  install: { npmPackage: 'oxlint' },
};

import { biomeJsonParser } from '../parsers/biome-json.js';
import { biomeTextParser } from '../parsers/biome-text.js';
import { optionValue, SCRIPT_EXTENSIONS } from './shared.js';
import type { ToolDescriptor } from './tool.js';

/** What every biomejs/pre-commit hook passes: no error for a file biome does not handle. */
const BIOME_HOOK_OPTIONS = ['--files-ignore-unknown=true', '--no-errors-on-unmatched'];

export const biome: ToolDescriptor = {
  name: 'biome',
  programs: ['biome'],
  recognise: {
    configFiles: ['biome.json', 'biome.jsonc'],
    scriptWords: ['biome'],
    preCommitHooks: ['biome-ci', 'biome-check', 'biome-lint', 'biome-format'],
  },
  gates: (_project, source) => [
    {
      name: 'biome',
      description: 'Biome lint, format and import check (biome ci)',
      // `biome ci` is the read-only form of `biome check`: it never writes, whatever the flags.
      command: ['biome', 'ci', '--reporter=json'],
      fix: ['biome', 'check', '--write'],
      parser: biomeJsonParser.name,
      paths: 'append',
      source,
    },
  ],
  yieldsToScripts: {},
  extensions: [
    ...SCRIPT_EXTENSIONS,
    'json',
    'jsonc',
    'css',
    'graphql',
    'gql',
    'html',
    'vue',
    'svelte',
    'astro',
  ],
  outputs: [{ parser: biomeJsonParser, machineFormat: true }, { parser: biomeTextParser }],
  script: {
    textParser: biomeTextParser.name,
    commandParser(args) {
      if (!['check', 'ci', 'lint', 'format'].includes(args[0] ?? '')) return undefined;
      const reporter = optionValue(args, '--reporter');
      if (reporter === undefined) return biomeTextParser.name;
      return reporter === 'json' ? biomeJsonParser.name : undefined;
    },
    kind(body, mutating) {
      const command = /\bbiome\s+(ci|check|lint|format)\b/.exec(body)?.[1];
      if (command === 'format') return mutating ? 'format-write' : 'format-check';
      if (command === 'lint') return mutating ? 'lint-fix' : 'lint';
      // `biome ci` and `biome check` are the umbrella check; `check --write` is no gate.
      return command && !mutating ? 'check' : undefined;
    },
  },
  // biome's format check names files; its formatter prints one from stdin.
  locate: {
    rule: 'format',
    argv: (absolute) => ['biome', 'format', `--stdin-file-path=${absolute}`],
    feedsText: true,
  },
  warm: { cold: 'Rust-based, starts fast' },
  commands: {
    // biomejs/pre-commit: every hook but biome-ci writes (--write).
    hooks: {
      'biome-ci': { entry: ['biome', 'ci', ...BIOME_HOOK_OPTIONS], revIsNotToolVersion: true },
      'biome-check': {
        entry: ['biome', 'check', '--write', ...BIOME_HOOK_OPTIONS],
        revIsNotToolVersion: true,
      },
      'biome-lint': {
        entry: ['biome', 'lint', '--write', ...BIOME_HOOK_OPTIONS],
        revIsNotToolVersion: true,
      },
      'biome-format': {
        entry: ['biome', 'format', '--write', ...BIOME_HOOK_OPTIONS],
        revIsNotToolVersion: true,
      },
    },
    keepOptions: [
      '--config-path=',
      '--files-ignore-unknown=',
      '--no-errors-on-unmatched',
      '--diagnostic-level=',
      '--error-on-warnings',
      '--formatter-enabled=',
      '--linter-enabled=',
      '--assists-enabled=',
    ],
    // `biome lint` and `biome format` check less than `biome ci`: their own read-only forms.
    subcommandGate(subcommand, gate) {
      if (subcommand !== 'lint' && subcommand !== 'format') return undefined;
      return {
        ...gate,
        name: `biome_${subcommand}`,
        description: `Biome ${subcommand === 'lint' ? 'lint' : 'format check'} (biome ${subcommand})`,
        command: ['biome', subcommand, '--reporter=json'],
        fix: ['biome', subcommand, '--write'],
      };
    },
  },
  install: { npmPackage: '@biomejs/biome' },
};

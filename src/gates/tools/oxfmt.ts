import { oxfmtParser } from '../parsers/oxfmt.js';
import type { ToolDescriptor } from './tool.js';

export const oxfmt: ToolDescriptor = {
  name: 'oxfmt',
  programs: ['oxfmt'],
  recognise: {
    configFiles: ['.oxfmtrc.json', '.oxfmtrc.jsonc'],
    dependencies: ['oxfmt'],
    scriptWords: ['oxfmt'],
  },
  gates: (_project, source) => [
    {
      name: 'oxfmt',
      description: 'oxfmt format check',
      command: ['oxfmt', '--check'],
      fix: ['oxfmt'],
      parser: oxfmtParser.name,
      paths: 'append',
      source,
    },
  ],
  yieldsToScripts: {},
  outputs: [{ parser: oxfmtParser }],
  script: {
    textParser: oxfmtParser.name,
    commandParser: (args) =>
      args.includes('--check') || args.includes('--list-different') ? oxfmtParser.name : undefined,
    kind: (body) => (/--check|--list-different/.test(body) ? 'format-check' : 'format-write'),
  },
  // oxfmt's check names files; given --stdin-filepath it prints one formatted from stdin.
  locate: {
    rule: 'oxfmt',
    argv: (absolute) => ['oxfmt', `--stdin-filepath=${absolute}`],
    feedsText: true,
  },
  warm: { cold: 'Rust-based, starts fast' },
  install: { npmPackage: 'oxfmt' },
};

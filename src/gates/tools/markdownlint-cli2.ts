import { markdownlintTextParser } from '../parsers/markdownlint.js';
import { MARKDOWN_EXTENSIONS } from './markdownlint.js';
import { lintScriptKind, NEVER_CHECKED } from './shared.js';
import type { ToolDescriptor } from './tool.js';

/** The tree's Markdown files: a call's paths replace this glob. */
const MARKDOWN_GLOB = `**/*.{${MARKDOWN_EXTENSIONS.join(',')}}`;

/**
 * markdownlint-cli2 over the tree's Markdown files. It would lint node_modules too: its
 * globs take `#` for negation, which applies only to the globs before it. Globs in its
 * config file are added to these.
 */
const SCOPE = [MARKDOWN_GLOB, ...NEVER_CHECKED.map((name) => `#${name}`)];

export const markdownlintCli2: ToolDescriptor = {
  name: 'markdownlint-cli2',
  programs: ['markdownlint-cli2'],
  recognise: {
    configFiles: [
      '.markdownlint-cli2.jsonc',
      '.markdownlint-cli2.yaml',
      '.markdownlint-cli2.cjs',
      '.markdownlint-cli2.mjs',
    ],
    dependencies: ['markdownlint-cli2'],
    scriptWords: ['markdownlint-cli2'],
    preCommitHooks: ['markdownlint-cli2'],
  },
  gates: (_project, source) => [
    {
      name: 'markdownlint',
      description: `markdownlint-cli2 over the Markdown files of the tree (skips ${NEVER_CHECKED.join(', ')})`,
      command: ['markdownlint-cli2', ...SCOPE],
      fix: ['markdownlint-cli2', '--fix', ...SCOPE],
      parser: markdownlintTextParser.name,
      paths: 'append',
      source,
    },
  ],
  yieldsToScripts: {},
  extensions: MARKDOWN_EXTENSIONS,
  wholeTreeArgument: /^\*\*\/\*\.\{md,markdown\}$/,
  outputs: [{ parser: markdownlintTextParser }],
  configNames: [/^\.markdownlint(-cli2)?(\..+)?$/, /^\.markdownlintignore$/],
  script: {
    textParser: markdownlintTextParser.name,
    commandParser: () => markdownlintTextParser.name,
    kind: lintScriptKind,
  },
  warm: { cold: 'no warm worker yet: each call starts it' },
  install: { npmPackage: 'markdownlint-cli2' },
};

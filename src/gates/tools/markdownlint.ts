import { markdownlintJsonParser, markdownlintTextParser } from '../parsers/markdownlint.js';
import { lintScriptKind, NEVER_CHECKED } from './shared.js';
import type { ProjectFacts, ToolDescriptor } from './tool.js';

/** The Markdown extensions markdownlint-cli lints in a directory (its own list). */
export const MARKDOWN_EXTENSIONS = ['md', 'markdown'];

/** markdownlint-cli's `-f`, the short form of --fix, which MUTATING does not know. */
const SHORT_FIX = /(^|\s)-f(\s|$)/;

/**
 * The marker gate of markdownlint-cli over the tree: .markdownlintignore when there is
 * one (its default), else .gitignore (it reads a single ignore file), plus NEVER_CHECKED,
 * which it would otherwise lint (node_modules included).
 */
function markdownlintGate(project: ProjectFacts, source: string) {
  const ignoreFile =
    !project.exists('.markdownlintignore') && project.exists('.gitignore')
      ? ['--ignore-path', '.gitignore']
      : [];
  const scope = [...ignoreFile, ...NEVER_CHECKED.flatMap((name) => ['--ignore', name])];
  return {
    name: 'markdownlint',
    description: `markdownlint-cli over the Markdown files of the tree (skips what ${ignoreFile.length > 0 ? '.gitignore' : '.markdownlintignore'} lists, and ${NEVER_CHECKED.join(', ')})`,
    command: ['markdownlint', '--json', ...scope, '.'],
    fix: ['markdownlint', '--fix', ...scope, '.'],
    parser: markdownlintJsonParser.name,
    paths: 'append' as const,
    source,
  };
}

/** markdownlint-cli (program `markdownlint`); markdownlint-cli2 has a module of its own. */
export const markdownlint: ToolDescriptor = {
  name: 'markdownlint',
  programs: ['markdownlint'],
  recognise: {
    configFiles: [
      '.markdownlint.jsonc',
      '.markdownlint.json',
      '.markdownlint.yaml',
      '.markdownlint.yml',
      '.markdownlintrc',
    ],
    dependencies: ['markdownlint-cli'],
    scriptWords: ['markdownlint'],
    preCommitHooks: ['markdownlint'],
  },
  // markdownlint-cli2 reads the same .markdownlint.* files: a project that has only it runs that.
  gates: (project, source) =>
    project.dependsOn('markdownlint-cli2') && !project.dependsOn('markdownlint-cli')
      ? []
      : [markdownlintGate(project, source)],
  yieldsToScripts: {},
  extensions: MARKDOWN_EXTENSIONS,
  // --enable and --disable take a list of rules: a command with them is not narrowed.
  onFiles: {
    valueOptions: ['-c', '--config', '-i', '--ignore', '-p', '--ignore-path', '-r', '--rules'],
    flags: ['-d', '--dot', '-j', '--json', '-q', '--quiet'],
  },
  outputs: [
    { parser: markdownlintJsonParser, machineFormat: true },
    { parser: markdownlintTextParser },
  ],
  script: {
    textParser: markdownlintTextParser.name,
    commandParser(args) {
      // --output writes the report into a file; -f fixes.
      if (args.some((arg) => ['-o', '--output', '-f', '--fix', '-s', '--stdin'].includes(arg)))
        return undefined;
      return args.includes('--json') || args.includes('-j')
        ? markdownlintJsonParser.name
        : markdownlintTextParser.name;
    },
    kind: (body, mutating) => lintScriptKind(body, mutating || SHORT_FIX.test(body)),
  },
  warm: { cold: 'no warm worker yet: each call starts it' },
  install: { npmPackage: 'markdownlint-cli' },
};

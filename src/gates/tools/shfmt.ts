import { shfmtParser } from '../parsers/shfmt.js';
import { namesOperands, setsOption } from './shared.js';
import { isShellScript, SHELL_EXTENSIONS } from './shellcheck.js';
import type { ToolDescriptor } from './tool.js';

/** shfmt's options that take the next word as their value (`-i 2`, `-ln bash`). */
const VALUE_OPTIONS = new Set(['-i', '--indent', '-ln', '--language-dialect', '--filename']);
/** The options that make it only report: the diff, or the files' names. */
const CHECKS = ['-d', '--diff', '-l', '--list'];
// shfmt's own keys in an .editorconfig: a repository that sets them formats with shfmt.
const EDITORCONFIG_KEYS =
  /^\s*(shell_variant|binary_next_line|switch_case_indent|space_redirects|keep_padding|function_next_line)\s*=/m;

export const shfmt: ToolDescriptor = {
  name: 'shfmt',
  programs: ['shfmt'],
  recognise: {
    configSections: [{ file: '.editorconfig', section: EDITORCONFIG_KEYS }],
    scriptWords: ['shfmt'],
    // scop/pre-commit-shfmt.
    preCommitHooks: ['shfmt', 'shfmt-docker', 'shfmt-src'],
  },
  // It walks directories itself (node_modules and .venv included): it is given the shell
  // scripts git lists instead (runTimeFiles), formatted as .editorconfig says for each.
  gates: (_project, source) => [
    {
      name: 'shfmt',
      description:
        "shfmt format check (the diff shfmt would apply) of the project's shell scripts (*.sh, *.bash, *.ksh, and files with a sh/bash/dash/ksh #! line that git tracks or does not ignore)",
      command: ['shfmt', '-d'],
      // Bare `shfmt -w` would read stdin: the fix too gets the files listed when it runs
      // (or the call's paths), and none is nothing checked, before anything runs.
      fix: ['shfmt', '-w'],
      parser: shfmtParser.name,
      paths: 'append',
      source,
    },
  ],
  extensions: SHELL_EXTENSIONS,
  configNames: [/^\.editorconfig$/],
  runTimeFiles: {
    namesFiles: namesOperands('shfmt', VALUE_OPTIONS),
    checks: isShellScript,
    what: 'shell scripts',
  },
  // It keeps no cache; only -w writes.
  outputs: [{ parser: shfmtParser }],
  script: {
    textParser: shfmtParser.name,
    commandParser: (args) =>
      setsOption(args, ...CHECKS) && !setsOption(args, '-w', '--write')
        ? shfmtParser.name
        : undefined,
    kind: (body) => (setsOption(body.split(/\s+/), ...CHECKS) ? 'format-check' : 'format-write'),
  },
  locate: { rule: 'shfmt', argv: (absolute) => ['shfmt', absolute], feedsText: false },
  warm: { cold: 'native (Go), starts fast' },
  commands: {
    // The hook rewrites (`shfmt -w -s`): its check is `shfmt -d` with the format options.
    hooks: {
      shfmt: { entry: ['shfmt'], args: ['-w', '-s'] },
      'shfmt-docker': { entry: ['shfmt'], args: ['-w', '-s'] },
      'shfmt-src': { entry: ['shfmt'], args: ['-w', '-s'] },
    },
    keepOptions: [
      '-i=',
      '--indent=',
      '-ln=',
      '--language-dialect=',
      '-bn',
      '--binary-next-line',
      '-ci',
      '--case-indent',
      '-sr',
      '--space-redirects',
      '-kp',
      '--keep-padding',
      '-fn',
      '--func-next-line',
      '-s',
      '--simplify',
      '-mn',
      '--minify',
      '-p',
      '--posix',
    ],
  },
  install: {
    hint: 'install shfmt (Debian/Ubuntu: apt-get install shfmt; macOS: brew install shfmt; Go: go install mvdan.cc/sh/v3/cmd/shfmt@latest) and put it on PATH',
  },
};

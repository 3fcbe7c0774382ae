import { shellcheckJsonParser } from '../parsers/shellcheck-json.js';
import { lintScriptKind, namesOperands, optionValue } from './shared.js';
import type { ToolDescriptor } from './tool.js';

/** shellcheck's options that take the next word as their value (`-f json1`, `--shell bash`). */
const VALUE_OPTIONS = new Set([
  '-i',
  '--include',
  '-e',
  '--exclude',
  '-f',
  '--format',
  '-o',
  '--enable',
  '-P',
  '--source-path',
  '-s',
  '--shell',
  '-S',
  '--severity',
  '-W',
  '--wiki-link-count',
  '--rcfile',
  '--extended-analysis',
]);

export const SHELL_EXTENSIONS = ['sh', 'bash', 'ksh', 'dash'];
// `#!/bin/sh`, `#!/usr/bin/env bash`, `#!/usr/bin/env -S bash -e`: the dialects it reads.
const SHEBANG =
  /^#![ \t]*(?:\S*\/)?(?:env[ \t]+(?:-\S+[ \t]+)*)?(?:sh|bash|dash|ksh|ash)(?:[ \t\r\n]|$)/;

/** A shell script by its extension, or, without one, by its `#!` line (shfmt finds the same). */
export function isShellScript(file: string, head: () => string): boolean {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot > 0) return SHELL_EXTENSIONS.includes(base.slice(dot + 1).toLowerCase());
  return SHEBANG.test(head());
}

export const shellcheck: ToolDescriptor = {
  name: 'shellcheck',
  programs: ['shellcheck'],
  recognise: {
    configFiles: ['.shellcheckrc'],
    scriptWords: ['shellcheck'],
    preCommitHooks: ['shellcheck'],
  },
  // It takes files, not a directory: the gate's files are listed when it runs (runTimeFiles).
  gates: (_project, source) => [
    {
      name: 'shellcheck',
      description:
        "shellcheck over the project's shell scripts (*.sh, *.bash, *.ksh, and files with a sh/bash/dash/ksh #! line that git tracks or does not ignore)",
      command: ['shellcheck', '--format', 'json1'],
      fix: null,
      parser: shellcheckJsonParser.name,
      paths: 'append',
      source,
    },
  ],
  extensions: SHELL_EXTENSIONS,
  onFiles: {
    valueOptions: [...VALUE_OPTIONS],
    flags: ['-a', '--check-sourced', '-x', '--external-sources', '--norc'],
    readable: {
      formatOptions: ['-f', '--format'],
      args: ['--format', 'json1'],
      parser: shellcheckJsonParser.name,
    },
  },
  runTimeFiles: {
    namesFiles: namesOperands('shellcheck', VALUE_OPTIONS),
    checks: isShellScript,
    what: 'shell scripts',
  },
  // It keeps no cache and writes nothing: its only fix is a patch (-f diff) to apply by hand.
  outputs: [{ parser: shellcheckJsonParser, machineFormat: true }],
  script: {
    // Its default (tty) report spreads one finding over several lines: not read as such.
    commandParser(args) {
      const format = optionValue(args, '--format', '-f');
      if (format === 'json1' || format === 'json') return shellcheckJsonParser.name;
      return format === 'gcc' ? 'generic' : undefined;
    },
    kind: lintScriptKind,
  },
  warm: { cold: 'native (Haskell), starts fast' },
  commands: {
    hooks: { shellcheck: { entry: ['shellcheck'] } },
    // `--exclude` here names rule codes, not paths.
    keepOptions: [
      '--severity=',
      '-S=',
      '--exclude=',
      '-e=',
      '--enable=',
      '-o=',
      '--shell=',
      '-s=',
      '--external-sources',
      '-x',
      '--source-path=',
      '-P=',
      '--rcfile=',
      '--norc',
    ],
  },
  install: {
    hint: 'install ShellCheck (Debian/Ubuntu: apt-get install shellcheck; macOS: brew install shellcheck) and put it on PATH',
  },
};

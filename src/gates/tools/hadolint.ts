import { hadolintParser } from '../parsers/hadolint.js';
import { lintScriptKind, namesOperands, optionValue } from './shared.js';
import type { ToolDescriptor } from './tool.js';

/** hadolint's options that take the next word as their value. */
const VALUE_OPTIONS = new Set([
  '-c',
  '--config',
  '-f',
  '--format',
  '-t',
  '--failure-threshold',
  '--ignore',
  '--error',
  '--warning',
  '--info',
  '--style',
  '--trusted-registry',
  '--require-label',
  '--file-path-in-report',
]);
// Dockerfile, Dockerfile.dev, Containerfile, app.dockerfile.
const DOCKERFILE = /(^|\/)(Dockerfile|Containerfile)(\.[^/]+)?$|\.(dockerfile|containerfile)$/i;

export const hadolint: ToolDescriptor = {
  name: 'hadolint',
  programs: ['hadolint'],
  recognise: {
    configFiles: ['.hadolint.yaml', '.hadolint.yml'],
    scriptWords: ['hadolint'],
    // hadolint/hadolint's hooks.
    preCommitHooks: ['hadolint', 'hadolint-docker'],
  },
  // It takes files: the gate gets the Dockerfiles git lists when it runs.
  gates: (_project, source) => [
    {
      name: 'hadolint',
      description:
        'hadolint over the Dockerfiles (Dockerfile, Dockerfile.*, Containerfile, *.dockerfile) git tracks or does not ignore',
      command: ['hadolint', '--no-color'],
      fix: null,
      parser: hadolintParser.name,
      paths: 'append',
      source,
    },
  ],
  configNames: [/^\.hadolint\.ya?ml$/],
  runTimeFiles: {
    namesFiles: namesOperands('hadolint', VALUE_OPTIONS),
    checks: (file) => DOCKERFILE.test(file),
    what: 'Dockerfiles',
  },
  // It writes nothing and keeps no cache.
  outputs: [{ parser: hadolintParser }],
  script: {
    textParser: hadolintParser.name,
    // Another --format (json, sarif, gnu...) is another printer: read as located lines.
    commandParser(args) {
      const format = optionValue(args, '--format', '-f');
      return format === undefined || format === 'tty' ? hadolintParser.name : 'generic';
    },
    kind: lintScriptKind,
  },
  warm: { cold: 'native (Haskell), starts fast' },
  commands: {
    hooks: { hadolint: { entry: ['hadolint'] }, 'hadolint-docker': { entry: ['hadolint'] } },
    keepOptions: [
      '--config=',
      '-c=',
      '--failure-threshold=',
      '-t=',
      '--ignore=',
      '--error=',
      '--warning=',
      '--info=',
      '--style=',
      '--trusted-registry=',
      '--require-label=',
      '--strict-labels',
    ],
  },
  install: {
    hint: 'install hadolint (its release binary from github.com/hadolint/hadolint, macOS: brew install hadolint, or run it with Docker: docker run --rm -i hadolint/hadolint) and put it on PATH',
  },
};

// 89luca89/distrobox (POSIX sh scripts beside a Go module; .shellcheckrc with enable=all): the
// shell moves. Go's dependencies are not installed (no module proxy here: run with GOPROXY=off),
// so vet errs at the start and at the end: no verdict, and not the session's doing.
import { lines, moves } from './lib.mjs';
const root = '/work/outside2/distrobox';
const lintLine = lines(root, 'extras/docker-host') + 2;
export default {
  root,
  branch: 'main',
  gates: ['shellcheck', 'ci.shellcheck', 'codespell', 'markdownlint', 'gofmt', 'vet'],
  clean: ['bin'],
  steps: moves({
    lint: {
      file: 'extras/docker-host',
      text: '\necho $UNQUOTED\n',
      expect: [{ file: 'extras/docker-host', line: lintLine, text: 'SC2086' }],
    },
    fixAgain: { file: 'uninstall', text: '\ncd /tmp\nls $HOME\n' },
    branch: { file: 'install', text: '\nrm -rf $ON_SIDE/\n' },
    stash: true,
    sed: {
      file: 'extras/podman-host',
      script: '$a\\\necho $SEDDED',
      expect: [{ file: 'extras/podman-host', line: lines(root, 'extras/podman-host') + 1 }],
    },
    mv: {
      from: 'extras/vscode-distrobox',
      to: 'extras/vscode/distrobox-code',
      expect: [],
    },
    untracked: {
      file: 'hack/new.sh',
      text: '#!/bin/sh\necho $1\n',
      expect: [{ file: 'hack/new.sh', line: 2 }],
    },
    ignored: { file: 'bin/scratch.sh', text: '#!/bin/sh\necho $1\n' },
  }),
};

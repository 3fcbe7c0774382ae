// google/uuid (Go, no dependencies): go vet over ./... and gofmt -l -d (go 1.19's gofmt finds 12
// files misformatted at the start: a failing gate before the session).
import { lines, moves } from './lib.mjs';
const root = '/work/outside2/uuid';
const lintLine = lines(root, 'uuid.go') + 2;
export default {
  root,
  branch: 'main',
  gates: ['vet', 'gofmt'],
  clean: ['scratch'],
  steps: moves({
    lint: {
      file: 'uuid.go',
      text: '\nfunc badPrintf() { fmt.Printf("%d\\n", "x") }\n',
      expect: [{ file: 'uuid.go', line: lintLine, text: 'printf' }],
    },
    fixAgain: { file: 'version4.go', text: '\nvar fixedLater int = "x"\n' },
    branch: { file: 'time.go', text: '\nvar onSide int = "x"\n' },
    stash: true,
    sed: {
      file: 'null.go',
      script: 's/^package uuid$/package  uuid/',
      expect: [{ file: 'null.go' }],
    },
    mv: { from: 'util.go', to: 'sub/util.go', expect: [{ file: 'uuid.go', text: 'xtob' }] },
    untracked: {
      file: 'extra.go',
      text: 'package uuid\n\nfunc extra() int { return "s" }\n',
      expect: [{ file: 'extra.go', line: 3 }],
    },
    ignored: {
      exclude: 'scratch/',
      file: 'scratch/bad.go',
      text: 'package scratch\n\nfunc f() int { return "s" }\n',
    },
  }),
};

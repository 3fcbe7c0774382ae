// alexcrichton/scoped-tls (Rust, no dependency: cargo runs offline): cargo clippy --all-targets
// -D warnings and cargo fmt --check. One source file, so the moves are lib.rs edits, a lint turned
// on in Cargo.toml on a side branch, and an integration test no hook saw (clippy --all-targets
// builds tests/*.rs).
import { lines, moves } from './lib.mjs';
const root = '/work/outside2/scoped-tls';
const lintLine = lines(root, 'src/lib.rs') + 2;
export default {
  root,
  branch: 'main',
  gates: ['clippy', 'rustfmt'],
  steps: moves({
    lint: {
      file: 'src/lib.rs',
      text: '\npub fn same(x: u32) -> bool {\n    x == x\n}\n',
      expect: [{ file: 'src/lib.rs', line: lintLine + 1, text: 'eq_op' }],
    },
    fixAgain: {
      file: 'src/lib.rs',
      text: '\npub fn later() -> u32 {\n    "x"\n}\n',
      absent: [{ file: 'src/lib.rs', text: 'E0308' }],
    },
    branch: { file: 'Cargo.toml', text: '\n[lints.rust]\nunsafe_code = "forbid"\n' },
    stash: true,
    sed: {
      file: 'src/lib.rs',
      script: 's/^    pub fn set<F, R>/    pub fn  set<F, R>/',
      expect: [{ file: 'src/lib.rs', text: 'rustfmt' }],
    },
    untracked: {
      file: 'tests/extra.rs',
      text: '#[test]\nfn extra() {\n    let n: u32 = "s";\n    assert_eq!(n, 1);\n}\n',
      expect: [{ file: 'tests/extra.rs', line: 3 }],
    },
    ignored: { file: 'target/scratch.rs', text: 'fn main() { let x: u32 = "s"; }\n' },
  }),
};

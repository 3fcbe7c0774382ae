import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { append, read, write } from '../../acceptance-28/cases/lib.mjs';
export * from '../../acceptance-28/cases/lib.mjs';

/** Every session commits its work on the default branch before its last edit. */
export const commitStep = {
  name: 'commit-default',
  apply: (r, git) => {
    git('add', '-A');
    git('-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-qm', 'agent work');
  },
};

const gitEnv = ['-c', 'user.name=a', '-c', 'user.email=a@b'];

/**
 * The moves acceptance-28 lacked, as steps in a fixed order (each optional):
 * lint (an edit the after-edit hook sees), fixAgain (an error added, told, then taken out: not
 * new at the stop), branch (git switch -c, an edit told on that branch, committed there, git
 * switch - back: not in the tree at the stop), stash (git stash -u, git stash pop: the same tree
 * again), sed (sed -i, no hook), mv (git mv leaving its importers broken, no hook), nested (an edit
 * in a package with its own config), commit, untracked (a new file no hook saw), ignored (an edit
 * under a gitignored path, told to after-edit: in the stop's verdict only if the gates check it).
 */
export function moves(o) {
  const steps = [];
  if (o.lint)
    steps.push({
      name: 'lint-error',
      files: [o.lint.file],
      apply: (r) => (o.lint.at = append(r, o.lint.file, o.lint.text)),
      expect: o.lint.expect,
    });
  if (o.fixAgain) {
    let before;
    steps.push({
      name: 'error-added',
      files: [o.fixAgain.file],
      atStop: false,
      apply: (r) => {
        before = read(r, o.fixAgain.file);
        append(r, o.fixAgain.file, o.fixAgain.text);
      },
      expect: [{ file: o.fixAgain.file }],
    });
    steps.push({
      name: 'error-fixed',
      files: [o.fixAgain.file],
      apply: (r) => write(r, o.fixAgain.file, before),
      // Where the file keeps another finding of the session, `absent` names the fixed one.
      absent: o.fixAgain.absent ?? [{ file: o.fixAgain.file }],
    });
  }
  if (o.branch) {
    steps.push({
      name: 'branch-edit',
      files: [o.branch.file],
      atStop: false,
      apply: (r, git) => {
        git('switch', '-q', '-c', 'side');
        append(r, o.branch.file, o.branch.text);
      },
      expect: [{ file: o.branch.file }],
    });
    steps.push({
      name: 'branch-back',
      apply: (r, git) => {
        git(...gitEnv, 'commit', '-qm', 'on side', '--', o.branch.file);
        git('switch', '-q', '-');
      },
      absent: [{ file: o.branch.file }],
    });
  }
  if (o.stash)
    steps.push({
      name: 'stash-pop',
      apply: (r, git) => {
        git('stash', 'push', '-q', '-u');
        git('stash', 'pop', '-q');
      },
    });
  if (o.sed)
    steps.push({
      name: 'sed-edit',
      apply: (r) =>
        execFileSync('sed', ['-i', o.sed.script, o.sed.file], { cwd: r, encoding: 'utf8' }),
      expect: o.sed.expect,
    });
  if (o.mv)
    steps.push({
      name: 'git-mv',
      apply: (r, git) => {
        fs.mkdirSync(path.join(r, path.dirname(o.mv.to)), { recursive: true });
        git('mv', o.mv.from, o.mv.to);
      },
      expect: o.mv.expect,
    });
  if (o.nested)
    steps.push({
      name: 'nested-edit',
      files: [o.nested.file],
      apply: (r) => append(r, o.nested.file, o.nested.text),
      expect: o.nested.expect,
    });
  steps.push(commitStep);
  if (o.untracked)
    steps.push({
      name: 'untracked',
      apply: (r) => {
        fs.mkdirSync(path.join(r, path.dirname(o.untracked.file)), { recursive: true });
        write(r, o.untracked.file, o.untracked.text);
      },
      expect: o.untracked.expect,
    });
  if (o.ignored)
    steps.push({
      name: 'ignored-edit',
      files: [o.ignored.file],
      atStop: false,
      apply: (r) => {
        if (o.ignored.exclude)
          fs.appendFileSync(path.join(r, '.git/info/exclude'), `${o.ignored.exclude}\n`);
        fs.mkdirSync(path.join(r, path.dirname(o.ignored.file)), { recursive: true });
        write(r, o.ignored.file, o.ignored.text);
      },
      expect: o.ignored.expect ?? [],
    });
  return steps;
}

export * from '../../acceptance-28/cases/lib.mjs';

/** Every session commits its work on the default branch before its last edit. */
export const commitStep = {
  name: 'commit-default',
  apply: (r, git) => {
    git('add', '-A');
    git('-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-qm', 'agent work');
  },
};

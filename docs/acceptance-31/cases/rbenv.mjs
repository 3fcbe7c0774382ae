import path from 'node:path';
import { ACCEPT, env as toolsEnv, appended } from './common.mjs';
export const root = path.join(ACCEPT, 'rbenv');
export const env = toolsEnv;
export const cases = [
  appended('shellcheck', root, 'libexec/rbenv-accept', ['#!/usr/bin/env bash', 'echo $1'], {
    offset: 1,
  }),
  appended('shellcheck', root, 'libexec/rbenv-accept', ['#!/usr/bin/env bash', 'echo $1'], {
    offset: 1,
    args: ['--changed'],
  }),
];

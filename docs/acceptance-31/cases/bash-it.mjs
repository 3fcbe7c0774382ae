import path from 'node:path';
import { ACCEPT, env as toolsEnv, appended } from './common.mjs';
export const root = path.join(ACCEPT, 'bash-it');
export const env = toolsEnv;
export const cases = [
  appended('shellcheck', root, 'lib/accept.bash', ['#!/usr/bin/env bash', 'echo $1'], {
    offset: 1,
  }),
  appended('shellcheck', root, 'lib/accept.bash', ['#!/usr/bin/env bash', 'echo $1'], {
    offset: 1,
    args: ['--changed'],
  }),
  appended('ci.shellcheck', root, 'accept-install.sh', ['#!/bin/sh', 'echo $1'], { offset: 1 }),
  appended(
    'shfmt',
    root,
    'lib/accept.bash',
    ['#!/usr/bin/env bash', 'if true;   then echo "$1"; fi'],
    { offset: 1 },
  ),
];

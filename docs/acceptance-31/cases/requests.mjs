import path from 'node:path';
import { ACCEPT, env as toolsEnv, appended } from './common.mjs';
export const root = path.join(ACCEPT, 'requests');
export const env = toolsEnv;
export const cases = [
  appended('ruff', root, 'src/requests/_accept.py', ['import os']),
  appended('ruff_format', root, 'src/requests/_accept.py', ['x = [1,2 ,3]']),
  appended('ci.pyright', root, 'src/requests/_accept.py', ["x: int = 'accept'"]),
];

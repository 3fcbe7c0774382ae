import path from 'node:path';
import { ACCEPT, env as toolsEnv, appended } from './common.mjs';
export const root = path.join(ACCEPT, 'eslint-config-prettier');
export const env = toolsEnv;
export const cases = [
  appended('lint', root, 'index.js', ['const acceptUnused = 1;']),
  appended('format', root, 'index.js', ['const acceptList = [1,2 ,3]']),
];

import path from 'node:path';
import { ACCEPT, env as toolsEnv, appended } from './common.mjs';
export const root = path.join(ACCEPT, 'pure');
export const env = toolsEnv;
export const cases = [appended('lint', root, 'index.js', ['var acceptUnused = 1;'])];

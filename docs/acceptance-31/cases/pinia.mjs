import path from 'node:path';
import { ACCEPT, env as toolsEnv, appended } from './common.mjs';
export const root = path.join(ACCEPT, 'pinia');
export const env = { ...toolsEnv, npm_config_manage_package_manager_versions: 'false' }; // pnpm 10 here, pinia pins 9.4.0
export const cases = [
  appended('lint', root, 'packages/pinia/src/accept.ts', ['export const acceptList = [1,2 ,3]']),
  appended('typecheck', root, 'packages/pinia/src/accept.ts', [
    "export const acceptN: number = 'x'",
  ]),
];

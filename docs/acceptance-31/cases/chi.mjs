import path from 'node:path';
import { ACCEPT, env as toolsEnv, appended, goPrintf, goUnformatted } from './common.mjs';
export const root = path.join(ACCEPT, 'chi');
export const env = toolsEnv;
export const cases = [
  appended('vet', root, 'accept.go', goPrintf('chi'), { offset: 4 }),
  appended('gofmt', root, 'accept.go', goUnformatted('chi'), { offset: 2 }),
];

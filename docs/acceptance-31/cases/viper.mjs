import path from 'node:path';
import { ACCEPT, env as toolsEnv, appended, goPrintf, goUnformatted } from './common.mjs';
export const root = path.join(ACCEPT, 'viper');
export const env = toolsEnv;
export const cases = [
  appended('vet', root, 'accept.go', goPrintf('viper'), { offset: 4 }),
  appended('vet.remote', root, 'remote/accept.go', goPrintf('remote'), { offset: 4 }),
  appended('gofmt', root, 'remote/accept.go', goUnformatted('remote'), {
    offset: 2,
  }),
  appended('golangci-lint', root, 'accept.go', ['package viper']),
  appended('lint', root, 'accept.go', ['package viper']),
  appended('yamllint', root, 'accept.yaml', ['key: value', 'key: again'], { offset: 1 }),
];

import fs from 'node:fs';
import path from 'node:path';
import { ACCEPT, env as toolsEnv, appended } from './common.mjs';
globalThis.__fs = fs;
globalThis.__path = path;
export const root = path.join(ACCEPT, 'viper');
export const env = toolsEnv;
export const cases = [
  appended(
    'vet',
    root,
    'accept.go',
    ['package viper', '', 'import "fmt"', '', 'func acceptF() { fmt.Printf("%d", "x") }'],
    { offset: 4 },
  ),
  appended(
    'vet.remote',
    root,
    'remote/accept.go',
    ['package remote', '', 'import "fmt"', '', 'func acceptF() { fmt.Printf("%d", "x") }'],
    { offset: 4 },
  ),
  appended('gofmt', root, 'remote/accept.go', ['package remote', '', 'func  acceptG() {}'], {
    offset: 2,
  }),
  appended('golangci-lint', root, 'accept.go', ['package viper']),
  appended('lint', root, 'accept.go', ['package viper']),
  appended('yamllint', root, 'accept.yaml', ['key: value', 'key: again'], { offset: 1 }),
];

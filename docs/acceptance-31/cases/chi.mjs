import fs from 'node:fs';
import path from 'node:path';
import { ACCEPT, env as toolsEnv, appended } from './common.mjs';
globalThis.__fs = fs;
globalThis.__path = path;
export const root = path.join(ACCEPT, 'chi');
export const env = toolsEnv;
export const cases = [
  appended(
    'vet',
    root,
    'accept.go',
    ['package chi', '', 'import "fmt"', '', 'func acceptF() { fmt.Printf("%d", "x") }'],
    { offset: 4 },
  ),
  appended('gofmt', root, 'accept.go', ['package chi', '', 'func  acceptG() {}'], { offset: 2 }),
];

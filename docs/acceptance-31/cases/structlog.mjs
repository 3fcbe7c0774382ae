import path from 'node:path';
import { ACCEPT, env as toolsEnv, appended } from './common.mjs';
export const root = path.join(ACCEPT, 'structlog');
export const env = toolsEnv;
export const cases = [
  appended('ruff', root, 'src/structlog/_accept.py', ['import os']),
  appended('ruff_format', root, 'src/structlog/_accept.py', ['x = [1,2 ,3]']),
  appended('codespell', root, 'src/structlog/_accept.py', ['# teh accept comment']),
  appended('typing-mypy', root, 'src/structlog/_accept.py', ["x: int = 'accept'"]),
];

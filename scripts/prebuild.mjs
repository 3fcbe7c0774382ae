#!/usr/bin/env node
// Builds the N-API prebuild for this platform with prebuildify. A script rather than
// an npm one-liner: `$(node -p ...)` does not run under cmd.exe, npm's shell on Windows.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const prebuildify = require.resolve('prebuildify/bin.js');
const args = ['--napi', '--strip', '--target', process.versions.node];
// The libc tag tells glibc and musl builds apart; it means nothing elsewhere.
if (process.platform === 'linux') args.push('--tag-libc');
const result = spawnSync(process.execPath, [prebuildify, ...args, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);

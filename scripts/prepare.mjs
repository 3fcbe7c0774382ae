#!/usr/bin/env node
// npm's `prepare`: builds dist/ (clean, then tsc) in a clone, on `npm ci` or `npm install`,
// before `npm pack`, and for an install from git. An installed package has no src/ and
// nothing to build: npm also runs `prepare` when a folder is installed (an unpacked
// tarball), so this file is shipped and does nothing there. Packing says when the tarball
// carries no prebuild: an install from it then compiles the addon, or runs degraded.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!fs.existsSync(path.join(root, 'src'))) process.exit(0);

await import('./clean-dist.mjs');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

if (process.env.npm_command === 'pack' || process.env.npm_command === 'publish') {
  const prebuilds = path.join(root, 'prebuilds');
  const platforms = fs.existsSync(prebuilds) ? fs.readdirSync(prebuilds) : [];
  process.stderr.write(
    platforms.length === 0
      ? "mcp-gates: packing without prebuilds/: an install from this tarball compiles the native addon (a C++ toolchain), or installs with capture degraded; run `npm run build:prebuilds` first to ship this platform's addon.\n"
      : `mcp-gates: packing the prebuilds for ${platforms.join(', ')}; other platforms compile the addon or run degraded.\n`,
  );
}

#!/usr/bin/env node
// The package's `install` script. The capture addon comes from a prebuild or a build
// from source; without either, mcp-gates still works with capture degraded (docs/platforms.md),
// so a missing toolchain must never fail the user's `npm install`.
//   1. A build or prebuild that loads: done.
//   2. No C++ toolchain: one line saying what is missing and how to get native capture.
//   3. A toolchain: `node-gyp rebuild`, its output shown. A failed build is visible but
//      not fatal (an offline machine cannot fetch node headers, a half-set-up
//      compiler...), unless MCP_GATES_NATIVE=required (CI, packagers) makes it fatal.
// A degraded install leaves build/install-status.json, which `mcp-gates doctor` shows.
// No shell: every program is spawned with argv.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Read by src/cli/install-status.ts: keep the two in step.
const STATUS_FILE = path.join(packageRoot, 'build', 'install-status.json');
const REQUIRED = process.env.MCP_GATES_NATIVE === 'required';
const windows = process.platform === 'win32';

function platformName() {
  return `${process.platform}-${process.arch}`;
}

/** The addon that node-gyp-build would load at run time, if it loads. */
function loadableAddon() {
  try {
    const nodeGypBuild = require('node-gyp-build');
    const file = nodeGypBuild.path(packageRoot);
    require(file);
    return file;
  } catch {
    return null;
  }
}

/** The first of `names` found as a file on PATH (with PATHEXT on Windows), else null. */
function onPath(names) {
  const extensions = windows ? (process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const directory of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of names) {
      for (const extension of extensions) {
        const file = path.join(directory, name + extension);
        try {
          if (fs.statSync(file).isFile()) return file;
        } catch {
          // not here
        }
      }
    }
  }
  return null;
}

/**
 * What a POSIX build lacks (node-gyp's own lookup: $CXX, make, python 3). On Windows
 * node-gyp finds Visual Studio itself, so the build is simply tried.
 */
function missingToolchain() {
  if (windows) return [];
  const missing = [];
  const compiler = process.env.CXX?.trim().split(/\s+/).pop();
  if (!(compiler && (path.isAbsolute(compiler) ? fs.existsSync(compiler) : onPath([compiler])))) {
    if (!onPath(['c++', 'g++', 'clang++'])) missing.push('C++ compiler (c++, g++ or clang++)');
  }
  if (!onPath(['make', 'gmake'])) missing.push('make');
  const python = process.env.npm_config_python || process.env.PYTHON;
  if (!(python ? fs.existsSync(python) || onPath([python]) : onPath(['python3', 'python'])))
    missing.push('python 3');
  return missing;
}

/** node-gyp as [script]: npm's and pnpm's bundled one, else a local install. */
function nodeGypScript() {
  const bundled = process.env.npm_config_node_gyp;
  if (bundled && fs.existsSync(bundled)) return bundled;
  try {
    const manifest = require.resolve('node-gyp/package.json');
    const { bin } = require(manifest);
    return path.join(path.dirname(manifest), typeof bin === 'string' ? bin : bin['node-gyp']);
  } catch {
    return null;
  }
}

function writeStatus(reason) {
  try {
    fs.mkdirSync(path.dirname(STATUS_FILE), { recursive: true });
    const status = { capture: 'degraded', reason, node: process.version, platform: platformName() };
    fs.writeFileSync(STATUS_FILE, `${JSON.stringify(status, null, 2)}\n`);
  } catch {
    // A read-only package directory: the line on stderr is all there is.
  }
}

function degrade(what) {
  const reason = `${what}: installed with output capture degraded (children through explicit fds, JS writes through patched streams). For native capture, install a C++ compiler, make and python 3, then run \`npm rebuild mcp-gates\`.`;
  process.stderr.write(`mcp-gates: ${reason}\n`);
  writeStatus(reason);
  process.exit(REQUIRED ? 1 : 0);
}

function main() {
  const fromSource = process.env.npm_config_build_from_source === 'true';
  if (!fromSource && loadableAddon()) {
    fs.rmSync(STATUS_FILE, { force: true });
    return;
  }
  const noPrebuild = `no prebuilt capture addon for ${platformName()} (Node ${process.version})`;
  const missing = missingToolchain();
  if (missing.length > 0) degrade(`${noPrebuild} and no ${missing.join(', no ')} to build one`);
  const script = nodeGypScript();
  if (!script) degrade(`${noPrebuild}, and node-gyp was not found to build one`);
  // stdout too goes to stderr: the package manager's own output stays clean.
  const build = spawnSync(process.execPath, [script, 'rebuild'], {
    cwd: packageRoot,
    stdio: ['ignore', 2, 2],
    windowsHide: true,
  });
  if (build.status !== 0 || !loadableAddon()) {
    const how = build.error
      ? `could not start node-gyp (${build.error.message})`
      : build.status !== 0
        ? `node-gyp rebuild failed (exit ${build.status ?? build.signal}; its output is above)`
        : 'the addon built but does not load';
    degrade(`${noPrebuild}, and the build from source failed: ${how}`);
  }
  fs.rmSync(STATUS_FILE, { force: true });
}

main();

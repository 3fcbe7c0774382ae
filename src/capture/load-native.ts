import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NativeCaptureBinding } from './native-binding.js';

/** The one place the addon is loaded. */
const require = createRequire(import.meta.url);
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export type NativeLoadResult =
  { ok: true; binding: NativeCaptureBinding; bindingPath: string } | { ok: false; reason: string };

function platformTuple(): string {
  const libc =
    process.platform === 'linux'
      ? (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)
          ?.header?.glibcVersionRuntime
        ? 'glibc'
        : 'musl'
      : undefined;
  return [
    process.platform,
    os.arch(),
    libc,
    `node ${process.versions.node}`,
    `napi ${process.versions.napi}`,
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * Loads the addon through node-gyp-build (build/Release first, then prebuilds/). Never
 * throws: a failure is reported with the platform tuple tried and how to fix it.
 */
export function loadNativeCapture(): NativeLoadResult {
  let bindingPath: string | undefined;
  try {
    const nodeGypBuild = require('node-gyp-build') as { path(dir: string): string };
    bindingPath = nodeGypBuild.path(packageRoot);
    const binding = require(bindingPath) as NativeCaptureBinding;
    return { ok: true, binding, bindingPath };
  } catch (error) {
    const cause = error instanceof Error ? error.message.split('\n')[0] : String(error);
    const where = bindingPath ?? `${packageRoot}/build/Release and ${packageRoot}/prebuilds`;
    return {
      ok: false,
      reason:
        `no usable capture addon for ${platformTuple()} (looked in ${where}: ${cause}). ` +
        'Fix: install a C++ toolchain, make and python, then run `npm rebuild mcp-gates`, ' +
        'or use a release whose tarball has a prebuild for this platform.',
    };
  }
}

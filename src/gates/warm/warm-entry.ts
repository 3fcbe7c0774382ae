import { existsSync } from 'node:fs';
import path from 'node:path';
import type { WarmTool } from '../tools/tool.js';
import { type InstalledPackage, resolveInstalledPackage } from './tool-adapter.js';

/**
 * Whether the project's own eslint or prettier can run warm, and through which of its
 * files. One decision for all: warm-plan.ts asks it for `list`, `doctor` and every `serve`
 * call, and the worker's adapter loads exactly the files it names, so a gate shown as warm
 * is one the worker can load, and a cold one says what is missing.
 */

export interface EslintEntry {
  installed: InstalledPackage;
  /** lib/cli.js: what bin/eslint.js runs, so the output is the command's by construction. */
  cliFile: string;
  /** The modules cli.js takes its engine classes from (wrapped before cli.js loads). */
  engineModules: string[];
}

export interface PrettierEntry {
  installed: InstalledPackage;
  /** The CLI module bin/prettier runs, and whether it is imported or required. */
  cliFile: string;
  format: 'esm' | 'cjs';
}

/** Where ESLint 8.57 to 10 keep the engine classes cli.js constructs, leaves first. */
const ESLINT_ENGINE_MODULES = [
  'lib/eslint/eslint.js',
  'lib/eslint/flat-eslint.js',
  'lib/eslint/legacy-eslint.js',
  'lib/eslint/index.js',
];

/** [major, minor] of a version string (pre-release tails ignored). */
function majorMinor(version: string): [number, number] {
  const [major, minor] = version.split('.').map((part) => Number.parseInt(part, 10));
  return [major ?? 0, minor ?? 0];
}

function missingFiles(directory: string, files: readonly string[]): string[] {
  return files.filter((file) => !existsSync(path.join(directory, file)));
}

export function eslintEntry(runDir: string, env: NodeJS.ProcessEnv): EslintEntry | string {
  const installed = resolveInstalledPackage(runDir, 'eslint');
  if (typeof installed === 'string') return installed;
  const { version, directory } = installed;
  const [major, minor] = majorMinor(version);
  // 8.57 is the first 8.x whose cli.js runs both eslintrc and flat config the way 9 does,
  // and the oldest version the warm differential test installs.
  if (major < 8 || (major === 8 && minor < 57))
    return `eslint ${version}: warm covers eslint 8.57 and later (the versions its output is tested against)`;
  // ESLint 9 prints "(node:<pid>) ESLintRCWarning" for eslintrc: the cold run's process id,
  // which a worker cannot print, and only once per process.
  if (major === 9 && env.ESLINT_USE_FLAT_CONFIG === 'false')
    return `eslint ${version} with ESLINT_USE_FLAT_CONFIG=false: its eslintrc deprecation warning names the cold process ("(node:<pid>) ESLintRCWarning"), which a warm worker cannot reproduce`;
  const missing = missingFiles(directory, ['lib/cli.js', 'lib/options.js', 'lib/eslint/eslint.js']);
  if (missing.length > 0)
    return `eslint ${version}: warm needs ${missing.join(' and ')} (ESLint's CLI, option parser and engine modules), which this install lacks`;
  return {
    installed,
    cliFile: path.join(directory, 'lib/cli.js'),
    engineModules: ESLINT_ENGINE_MODULES.filter((file) =>
      existsSync(path.join(directory, file)),
    ).map((file) => path.join(directory, file)),
  };
}

export function prettierEntry(runDir: string, env: NodeJS.ProcessEnv): PrettierEntry | string {
  const installed = resolveInstalledPackage(runDir, 'prettier');
  if (typeof installed === 'string') return installed;
  const { version, directory } = installed;
  const [major, minor] = majorMinor(version);
  if (major < 2 || (major === 2 && minor < 8))
    return `prettier ${version}: warm covers prettier 2.8 and 3 (the versions its output is tested against)`;
  if (major === 2) {
    if (!existsSync(path.join(directory, 'cli.js')))
      return `prettier ${version}: warm needs cli.js (prettier 2's CLI module), which this install lacks`;
    return { installed, cliFile: path.join(directory, 'cli.js'), format: 'cjs' };
  }
  // bin/prettier.cjs runs internal/legacy-cli.mjs from 3.6 (internal/cli.mjs before), and
  // the experimental CLI instead when PRETTIER_EXPERIMENTAL_CLI is set to anything.
  const legacy = path.join(directory, 'internal', 'legacy-cli.mjs');
  const older = path.join(directory, 'internal', 'cli.mjs');
  if (existsSync(legacy)) {
    if (env.PRETTIER_EXPERIMENTAL_CLI)
      return `prettier ${version} with PRETTIER_EXPERIMENTAL_CLI set: its experimental CLI runs cold`;
    return { installed, cliFile: legacy, format: 'esm' };
  }
  if (existsSync(older)) return { installed, cliFile: older, format: 'esm' };
  return `prettier ${version}: warm needs its CLI module, internal/legacy-cli.mjs (3.6 and later) or internal/cli.mjs (3.0 to 3.5), and this install has neither`;
}

/** Why the project's typescript cannot run warm, if it cannot. */
function tscUnsupported(runDir: string): string | undefined {
  const installed = resolveInstalledPackage(runDir, 'typescript');
  if (typeof installed === 'string') return installed;
  // The worker's own wording (tsc-adapter.ts).
  if (installed.major >= 7)
    return `typescript ${installed.version} ships the native tsc, which starts fast: it runs cold`;
  return undefined;
}

/** Why the project's own copy of a warm tool cannot run in its worker, or undefined. */
export function warmUnsupported(
  tool: WarmTool,
  runDir: string,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (tool === 'tsc') return tscUnsupported(runDir);
  const entry = tool === 'eslint' ? eslintEntry(runDir, env) : prettierEntry(runDir, env);
  return typeof entry === 'string' ? entry : undefined;
}

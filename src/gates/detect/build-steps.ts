import path from 'node:path';
import type { GateSpec } from '../gate-spec.js';
import { readJson } from './source-document.js';

/**
 * A package.json script whose `&&` chain starts by building (`pnpm build:packages && pnpm
 * -r check`) writes build outputs before it checks anything: it is served, but reported
 * as what it is (in its description and in `list`), never as a read-only check.
 */

/** Script names that build: build, compile, prepare, codegen and their `:`/`-` variants. */
const BUILD_SCRIPT = /^(pre)?(build|compile|prepare|prepack|codegen|generate|gen)([:-].*)?$/;
/** Programs that build when run at the start of a chain (tsc only without --noEmit). */
const BUILD_PROGRAM = /^(vite|rollup|webpack|tsup|esbuild|babel|swc|unbuild|microbundle)$/;

/** The words of a chain's first command, cut at `&&`, `;` or `||`. */
function firstCommand(body: string): string[] {
  return body
    .split(/&&|\|\||;/)[0]!
    .trim()
    .split(/\s+/)
    .filter((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
}

/**
 * The build step a script body starts with (the command as written), or undefined: a
 * package manager or task runner running a build-named script, a bundler, or `tsc` that
 * emits. A body of one command is not a chain that starts with a build.
 */
export function leadingBuildStep(body: string): string | undefined {
  if (!/&&|;|\|\|/.test(body)) return undefined;
  const words = firstCommand(body);
  const [program, ...rest] = words;
  if (program === undefined) return undefined;
  const args = rest.filter((word) => !word.startsWith('-'));
  const runs = (name: string | undefined) => name !== undefined && BUILD_SCRIPT.test(name);
  const shown = words.join(' ');
  if (['npm', 'pnpm', 'yarn', 'bun', 'turbo', 'nx', 'lerna'].includes(program)) {
    const script = ['run', 'run-script', 'exec'].includes(args[0] ?? '') ? args[1] : args[0];
    return runs(script) ? shown : undefined;
  }
  if (BUILD_PROGRAM.test(program)) return shown;
  if (
    (program === 'tsc' || program === 'vue-tsc') &&
    !rest.some((word) => /^--?noEmit$/.test(word))
  )
    return shown;
  return undefined;
}

/**
 * For `list`: the build step a package.json script gate starts with, read from the
 * package.json where the gate runs, or undefined (not a script gate, or no build step).
 */
export function gateBuildStep(gate: GateSpec, root: string): string | undefined {
  if (gate.source !== 'package.json') return undefined;
  const runDir = gate.cwd ? path.resolve(root, gate.cwd) : root;
  const scripts = readJson(path.join(runDir, 'package.json'))?.scripts;
  if (!scripts || typeof scripts !== 'object') return undefined;
  const body = (scripts as Record<string, unknown>)[gate.command[gate.command.length - 1]!];
  return typeof body === 'string' ? leadingBuildStep(body) : undefined;
}

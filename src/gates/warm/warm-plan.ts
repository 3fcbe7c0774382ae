import fs from 'node:fs';
import path from 'node:path';
import { ESLINT_CONFIGS } from '../tools/eslint.js';
import { programName, toolOfProgram } from '../tools/index.js';
import { withoutOptions } from '../tools/shared.js';
import { scriptOfCommand } from '../detect/package-manager.js';
import { splitChain } from '../detect/scripts.js';
import { objectOf, readSource } from '../detect/source-document.js';
import type { GateSpec } from '../gate-spec.js';
import { nodeModulesBins, resolveCommand, type ResolvedCommand } from '../run/resolve-command.js';
import { warmUnsupported } from './warm-entry.js';
import { warmToolOf } from './warm-pool.js';
import type { WarmTool } from './warm-protocol.js';

/**
 * Which commands may run warm, decided before any worker starts (and shown by `list` and
 * `doctor`). The worker decides the rest per call (options it does not model answer
 * not-warmable, and the call runs cold); this only keeps out what is known up front.
 */

export type WarmPlan =
  | {
      warm: true;
      /** What the worker runs: the command itself, or the one invocation a script runs. */
      argv: string[];
      tool: WarmTool;
      /** The program as the cold run would find it (the report's `resolved`). */
      resolved: ResolvedCommand;
    }
  | { warm: false; reason: string };

/** typescript-eslint's type-aware settings and presets, as a config file spells them. */
const TYPE_AWARE = /\bprojectService\b|\bproject\s*:|TypeChecked\b|type-checked/;

/**
 * Spellings that do not ask for type information here: a setting that is not a literal
 * yes (`projectService: false`, or a value the config computes as it loads: vite's
 * `projectService: inEditor`, on only inside VS Code), the preset that turns it off, and
 * a preset chosen by a condition (`inEditor ? tseslint.configs.strictTypeChecked : []`).
 * Whether those lint with types is the worker's to see: after each call it checks every
 * linted file's computed config and runs the call cold if any is type-aware
 * (eslint-adapter.ts), and the gate is then remembered cold (run-warm.ts).
 */
const NOT_DECIDED_BY_TEXT = [
  /\b(?:projectService|project)\s*:\s*(?=\S)(?!true\b|['"`[{])[^,}\n]*/g,
  /\bdisable-?type-?checked\b/gi,
  /(?:\?|&&)\s*(?:\.\.\.)?\s*[\w$.]*(?:TypeChecked|type-checked)[\w-]*/g,
];

/** Whether the root's eslint config (flat or eslintrc) asks for type information (then every call runs cold). */
function typeAwareEslintConfig(runDir: string): boolean {
  for (const name of ESLINT_CONFIGS) {
    let text: string;
    try {
      text = fs.readFileSync(path.join(runDir, name), 'utf8');
    } catch {
      continue;
    }
    for (const spelling of NOT_DECIDED_BY_TEXT) text = text.replace(spelling, '');
    return TYPE_AWARE.test(text);
  }
  return false;
}

/**
 * The single invocation a package.json script runs (`npm run --silent lint` whose body is
 * `eslint .`), or why it has none: the package manager runs the body through a shell and
 * adds the script's pre/post hooks, so only a plain one-command body is that command.
 */
function scriptInvocation(gate: GateSpec, runDir: string): string[] | { reason: string } {
  const scriptName = gate.command[gate.command.length - 1]!;
  const manifest = objectOf(readSource(path.join(runDir, 'package.json'), 'json'));
  if (!manifest) return { reason: 'package.json could not be read' };
  const scripts = (manifest.scripts ?? {}) as Record<string, unknown>;
  const body = scripts[scriptName];
  if (typeof body !== 'string') return { reason: `package.json has no script "${scriptName}"` };
  if ([`pre${scriptName}`, `post${scriptName}`].some((hook) => typeof scripts[hook] === 'string'))
    return { reason: 'script has pre/post hooks' };
  const segments = splitChain(body);
  if (!segments) return { reason: 'script has shell features' };
  if (segments.length !== 1) return { reason: 'script runs several commands' };
  return segments[0]!;
}

/**
 * Whether `argv` (a command of `gate`, run in `runDir`) may run warm, and what the worker
 * runs. Warm only for the eslint and prettier versions warm-entry.ts names and tsc up to 6,
 * found in the project's own node_modules/.bin (the workers load the project's own packages, which is what that
 * binary runs: a global eslint on PATH may be another version).
 */
export function warmPlanOf(
  gate: GateSpec,
  argv: readonly string[],
  runDir: string,
  env: NodeJS.ProcessEnv,
): WarmPlan {
  let command = [...argv];
  // A script gate runs `<manager> run [--silent] <script>`; a marker gate recognised from
  // package.json (a dependency, a config key) runs its tool.
  const isScript =
    (gate.source === 'package.json' || scriptOfCommand(gate.command) !== undefined) &&
    gate.command[1] === 'run' &&
    !gate.steps &&
    argv.length === gate.command.length &&
    argv.every((word, index) => word === gate.command[index]);
  if (isScript) {
    const invocation = scriptInvocation(gate, runDir);
    if (!Array.isArray(invocation)) return { warm: false, reason: invocation.reason };
    command = invocation;
  }
  const program = programName(command[0] ?? '');
  // A cold run keeps the tool's result cache in a directory new for each run, so it
  // answers as a run without the cache: so does the worker, which keeps none.
  const cache = toolOfProgram(program)?.resultCache;
  if (cache) command = withoutOptions(command, cache.on, [...cache.location, ...cache.settings]);
  const known = toolOfProgram(program)?.warm;
  if (known && 'cold' in known) return { warm: false, reason: `${program}: ${known.cold}` };
  const tool = warmToolOf(command);
  if (!tool) return { warm: false, reason: `${program || 'the command'} has no warm worker` };
  const resolved = resolveCommand(command, runDir, env);
  const ownBins = new Set(nodeModulesBins(runDir));
  if (!resolved.ok || !ownBins.has(path.dirname(resolved.via)))
    return { warm: false, reason: `${program} is not the project's own (node_modules/.bin)` };
  if (tool === 'tsc' && command.some((word) => /^(-b|--build)$/.test(word)))
    return { warm: false, reason: 'tsc --build runs cold' };
  // run/tsc-build.ts gives each cold run a fresh private --tsBuildInfoFile, written only
  // by an incremental project; the worker writes nothing, and a path new on every call
  // would make it rebuild its program each time.
  if (
    tool === 'tsc' &&
    gate.prepare === 'tsc-noemit' &&
    command[command.length - 2] === '--tsBuildInfoFile'
  )
    command = command.slice(0, -2);
  // The same decision the worker's adapter makes when it loads the tool (warm-entry.ts).
  const unsupported = warmUnsupported(tool, runDir, env);
  if (unsupported !== undefined) return { warm: false, reason: unsupported };
  if (tool === 'eslint' && typeAwareEslintConfig(runDir))
    return { warm: false, reason: 'type-aware ESLint config' };
  return { warm: true, argv: command, tool, resolved };
}

/** The directory a gate runs in (a workspace root's gates run there). */
export function gateRunDir(gate: GateSpec, root: string): string {
  return gate.cwd ? path.resolve(root, gate.cwd) : root;
}

/**
 * For `list` and `doctor`: whether a gate's check runs warm in `serve`, and why not.
 * A chain of steps is warm when at least one step is (the others run cold).
 */
export function gateWarmCapability(
  gate: GateSpec,
  root: string,
  env: NodeJS.ProcessEnv,
): { warm: boolean; reason?: string } {
  if (gate.warm === false) return { warm: false, reason: '"warm": false in mcp-gates.json' };
  const runDir = gateRunDir(gate, root);
  const commands = gate.steps ? gate.steps.map((step) => step.command) : [gate.command];
  const plans = commands.map((command) => warmPlanOf(gate, command, runDir, env));
  const cold = plans.flatMap((plan) => (plan.warm ? [] : [plan.reason]));
  const warm = plans.length > cold.length;
  if (cold.length === 0) return { warm };
  return { warm, reason: [...new Set(cold)].join('; ') };
}

/** `yes`, `no (reason)`, or `partly (reason)` for a chain with warm and cold steps. */
export function warmCapabilityText(capability: { warm: boolean; reason?: string }): string {
  if (!capability.reason) return capability.warm ? 'yes (in serve)' : 'no';
  return `${capability.warm ? 'some steps' : 'no'} (${capability.reason})`;
}

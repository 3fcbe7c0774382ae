import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_TIMEOUT_MS, type GateSpec } from '../gate-spec.js';
import { narrowLine, recipeGates, ruffConfigFixes } from './makefile.js';
import { narrowCommand } from './narrow-command.js';
import { unwrap } from './read-only-program.js';
import { parsePreCommitConfig, preCommitGates } from './pre-commit.js';
import { CheckCoverage, checkKey, inDirectory, type NotServed } from './tool-command.js';
import { ownScriptGates } from './own-scripts.js';
import { environmentGates } from './tox-nox.js';
import { taskServedBy, workflowGates } from './workflows.js';
import { objectOf, readSource, readSourceText } from './source-document.js';
import {
  detectPackageManager,
  scriptCommand,
  scriptOfCommand,
  type PackageManager,
} from './package-manager.js';
import { leadingBuildStep } from './build-steps.js';
import { nestedFiles } from './nested-files.js';
import {
  classifyScript,
  namesResultCache,
  planScript,
  silenceHidesOutput,
  type ScriptPlan,
  splitChain,
  toolsInBody,
} from './scripts.js';
import type { ScriptKind } from '../script-kind.js';
import { TOOLS } from '../tools/index.js';
import type { MarkerGate, ProjectFacts, ToolDescriptor } from '../tools/tool.js';

// Kept importable from here: the configs and prettier helpers now live with their tools.
export { ESLINT_CONFIGS, FLAT_ESLINT_CONFIGS } from '../tools/eslint.js';
export { gitignoreAsNegativePatterns, PRETTIER_NEVER } from '../tools/prettier.js';

export interface Detection {
  gates: GateSpec[];
  packageManager: PackageManager | null;
  /** What the gate sources name that is not served (unknown hooks, writing envs...), and why. */
  notServed: NotServed[];
}

interface ScriptInfo {
  name: string;
  body: string;
  kind: ScriptKind;
}

function gateName(scriptName: string): string {
  return (
    scriptName
      .replace(/[^A-Za-z0-9_.-]/g, '_')
      .replace(/^[^A-Za-z]+/, '')
      .slice(0, 60) || 'script'
  );
}

/** The `<name>:fix` script, when the package has one. */
function namedFix(
  scripts: Record<string, unknown>,
  name: string,
): { name: string; body: string } | undefined {
  const body = scripts[`${name}:fix`];
  return typeof body === 'string' ? { name: `${name}:fix`, body } : undefined;
}

function scriptGates(
  root: string,
  packageJson: Record<string, unknown>,
  manager: PackageManager,
): GateSpec[] {
  const rawScripts = packageJson.scripts;
  if (!rawScripts || typeof rawScripts !== 'object') return [];
  const scripts: ScriptInfo[] = [];
  for (const [name, body] of Object.entries(rawScripts as Record<string, unknown>)) {
    if (typeof body !== 'string') continue;
    const kind = classifyScript(name, body);
    if (kind) scripts.push({ name, body, kind });
  }
  const ofKind = (kind: ScriptKind) => scripts.filter((script) => script.kind === kind);
  const named = (name: string) => scripts.find((script) => script.name === name);
  const gates: GateSpec[] = [];
  const used = new Set<string>();

  /** The script run with its pre/post hooks, `--silent` only where it hides nothing. */
  const runScript = (name: string) =>
    scriptCommand(manager, name, {
      keepNestedOutput: [name, `pre${name}`, `post${name}`].some((hook) => {
        const body = (rawScripts as Record<string, unknown>)[hook];
        return typeof body === 'string' && silenceHidesOutput(body);
      }),
    });
  const add = (gate: string, script: ScriptInfo, fix: ScriptInfo | undefined, what: string) => {
    // `<name>:fix` is the repo's own fixer of `<name>` (`check:fix` for `check`).
    const pairedFix = fix ?? namedFix(rawScripts as Record<string, unknown>, script.name);
    used.add(script.name);
    if (pairedFix) used.add(pairedFix.name);
    const { plan, narrow, buildMode } = scriptShape(
      rawScripts as Record<string, unknown>,
      script.name,
      script.body,
    );
    const runs = plan.steps
      ? `; runs ${plan.steps.map((step) => `\`${step.command.join(' ')}\``).join(', then ')}, each to the end`
      : '';
    const cached = plan.steps?.some((step) => namesResultCache(step.command))
      ? "; the tool's cache goes to a private temporary directory, never into the tree"
      : '';
    const build = leadingBuildStep(script.body);
    const writes = build
      ? `; writes build outputs: it starts with the build step \`${build}\``
      : '';
    if (buildMode) {
      gates.push({
        name: gate,
        description: `${what}: the package.json script "${script.name}" (${script.body}), run in build mode with its outputs (declarations, .tsbuildinfo) in a private temporary directory, never the tree`,
        command: buildCommand(buildMode),
        fix: null,
        parser: 'tsc',
        prepare: 'tsc-build',
        timeoutMs: DEFAULT_TIMEOUT_MS,
        paths: 'none',
        source: 'package.json',
      });
      return;
    }
    gates.push({
      name: gate,
      description: `${what}: the package.json script "${script.name}" (${script.body})${runs}${cached}${writes}`,
      command: runScript(script.name),
      fix: pairedFix ? runScript(pairedFix.name) : null,
      parser: plan.parser,
      ...(plan.steps ? { steps: plan.steps } : {}),
      ...(narrow ? { narrow } : {}),
      timeoutMs: DEFAULT_TIMEOUT_MS,
      paths: 'none',
      source: 'package.json',
    });
  };

  const lint = named('lint')?.kind === 'lint' ? named('lint') : ofKind('lint')[0];
  if (lint) {
    const fix =
      [`${lint.name}:fix`, 'lint:fix', 'fix']
        .map(named)
        .find((script) => script?.kind === 'lint-fix') ?? ofKind('lint-fix')[0];
    add('lint', lint, fix, 'Lint');
  }
  const format = ofKind('format-check')[0];
  const formatWrite = ofKind('format-write')[0];
  if (format) add('format', format, formatWrite, 'Format check');
  const typecheck = ofKind('typecheck')[0];
  if (typecheck) add('typecheck', typecheck, undefined, 'Typecheck');
  const check = ofKind('check')[0];
  if (check) add('check', check, undefined, 'Project check');
  for (const extra of ofKind('lint')) {
    if (used.has(extra.name)) continue;
    const fix = named(`${extra.name}:fix`);
    add(gateName(extra.name), extra, fix?.kind === 'lint-fix' ? fix : undefined, 'Lint');
  }
  // A second typecheck (`typecheck:strict`, `types:node`) is a check of its own (another
  // config, other options): served beside the first, unless it only runs a served script.
  for (const extra of ofKind('typecheck')) {
    if (used.has(extra.name) || runsServedScript(extra.body, used)) continue;
    add(gateName(extra.name), extra, undefined, 'Typecheck');
  }
  return gates;
}

interface ScriptShape {
  plan: ScriptPlan;
  /** One command of a tool that reads each file on its own: a check on files runs it on them. */
  narrow?: GateSpec['narrow'];
  /** The script is only `tsc --build`: the gate runs build mode with private outputs. */
  buildMode?: { program: string; project: string };
}

/** How a package.json script is run as a gate: through its package manager, as steps, or in build mode. */
function scriptShape(scripts: Record<string, unknown>, name: string, body: string): ScriptShape {
  const hasHooks = [`pre${name}`, `post${name}`].some((hook) => typeof scripts[hook] === 'string');
  const plan = planScript(body, hasHooks);
  const narrow = hasHooks || (plan.steps && plan.steps.length > 1) ? undefined : narrowLine(body);
  const buildMode = hasHooks ? undefined : tscBuildScript(body);
  return {
    plan,
    ...(narrow ? { narrow } : {}),
    ...(buildMode ? { buildMode } : {}),
  };
}

const buildCommand = (mode: { program: string; project: string }) => [
  mode.program,
  '-b',
  mode.project,
  '--force',
  '--pretty',
  'false',
];

/**
 * A gate of mcp-gates.json that says `"paths": "none"` (the default) runs as detection
 * would run its command. One that runs a package.json script (`npm run --silent lint`, as
 * `init` writes a detected script) runs it as detection runs that script: a one-command
 * script that turns on its tool's cache (`eslint --cache .`) runs as its own step, so the
 * cache goes to a private directory instead of the tree (through the package manager,
 * nothing could redirect it); a `tsc --build` script runs build mode with private
 * outputs; a check on given files runs the script's tool on them. One that runs a tool's
 * whole-tree check itself (`eslint .`, `prettier --check .`) is narrowed as detection
 * narrows that command in a script: a check on given files (a hook after an edit, `paths`,
 * a changed scope) runs the tool on them, and the whole run stays as written. The gate is
 * unchanged otherwise.
 */
export function asDetected(gate: GateSpec, runDir: string): GateSpec {
  if (gate.steps || gate.paths !== 'none') return gate;
  const name = scriptOfCommand(gate.command);
  if (name === undefined) {
    const narrow = gate.narrow ?? narrowCommand(unwrap([...gate.command]));
    return narrow ? { ...gate, narrow } : gate;
  }
  // Paths given to the script go to its body's end: that is the user's command to keep.
  const scripts = objectOf(readSource(path.join(runDir, 'package.json'), 'json'))?.scripts;
  if (!scripts || typeof scripts !== 'object') return gate;
  const body = (scripts as Record<string, unknown>)[name];
  if (typeof body !== 'string') return gate;
  const { plan, narrow, buildMode } = scriptShape(scripts as Record<string, unknown>, name, body);
  if (buildMode) return { ...gate, command: buildCommand(buildMode), prepare: 'tsc-build' };
  return {
    ...gate,
    ...(plan.steps ? { steps: plan.steps } : {}),
    ...(narrow && !gate.narrow ? { narrow } : {}),
  };
}

/** Options of `tsc --build` that change nothing it checks. */
const BUILD_NEUTRAL = new Set(['--force', '-f', '--verbose', '-v', '--pretty', '--pretty=false']);

/**
 * A script that is only `tsc --build [project]` (or vue-tsc's): build mode writes its
 * outputs (declarations, .tsbuildinfo) into the tree, ignored or not, so the gate runs it
 * as the typecheck marker runs build mode, its outputs in a private directory
 * (run/tsc-build.ts). Undefined for any other script.
 */
function tscBuildScript(body: string): { program: string; project: string } | undefined {
  const words = body.trim().split(/\s+/);
  const [program, mode, ...rest] = words;
  if (!['tsc', 'vue-tsc'].includes(program ?? '') || !['-b', '--build'].includes(mode ?? ''))
    return undefined;
  const projects = rest.filter((word) => !BUILD_NEUTRAL.has(word));
  if (projects.length > 1 || projects.some((word) => /^-|[$`'"*?;&|<>(){}\\]/.test(word)))
    return undefined;
  return { program: program!, project: projects[0] ?? 'tsconfig.json' };
}

/** Whether a script body only runs scripts already served (`npm run typecheck`, `pnpm types`). */
function runsServedScript(body: string, served: ReadonlySet<string>): boolean {
  const runs = [...body.matchAll(/\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:--\S+\s+)*([\w:.-]+)/g)];
  return runs.length > 0 && runs.every((match) => served.has(match[1]!));
}

function markerGate(partial: MarkerGate): GateSpec {
  return { ...partial, timeoutMs: DEFAULT_TIMEOUT_MS };
}

/** Tools already run by a detected script: their marker gates would run them twice. */
function coveredTools(
  gates: readonly GateSpec[],
  packageJson: Record<string, unknown> | undefined,
): Set<string> {
  const covered = new Set<string>();
  const scripts = (packageJson?.scripts ?? {}) as Record<string, unknown>;
  for (const gate of gates) {
    const scriptName = gate.command[gate.command.length - 1]!;
    const body = scripts[scriptName];
    if (typeof body === 'string') for (const tool of toolsInBody(body)) covered.add(tool);
  }
  const kinds = new Set(gates.map((gate) => gate.name));
  for (const tool of TOOLS) {
    const scriptGate = tool.yieldsToScripts?.scriptGate;
    if (scriptGate !== undefined && kinds.has(scriptGate)) covered.add(tool.name);
  }
  return covered;
}

function hasDependency(packageJson: Record<string, unknown> | undefined, name: string): boolean {
  return ['devDependencies', 'dependencies'].some((field) => {
    const value = packageJson?.[field];
    return Boolean(value && typeof value === 'object' && name in value);
  });
}

/** What recognised the tool in the project (a file name, or package.json), if anything did. */
function recognisedBy(tool: ToolDescriptor, project: ProjectFacts): string | undefined {
  const {
    configFiles = [],
    configSections = [],
    packageJsonKeys = [],
    dependencies = [],
  } = tool.recognise;
  const file = configFiles.find((name) => project.exists(name));
  if (file) return file;
  for (const name of tool.recognise.nestedConfigFiles ?? []) {
    const directory = project.directoriesWith(name)[0];
    if (directory !== undefined) return directory === '.' ? name : `${directory}/${name}`;
  }
  const section = configSections.find(({ file: name, section: pattern }) => {
    const text = project.readText(name);
    return text !== undefined && pattern.test(text);
  });
  if (section) return section.file;
  if (packageJsonKeys.some((key) => project.packageJson?.[key])) return 'package.json';
  if (dependencies.some((name) => project.dependsOn(name))) return 'package.json';
  return undefined;
}

function hasName(gates: readonly GateSpec[], name: string): boolean {
  return gates.some((gate) => gate.name === name);
}

/** What a package.json script gate runs: its steps, else every tool its body names. */
function coverScript(
  coverage: CheckCoverage,
  gate: GateSpec,
  packageJson: Record<string, unknown> | undefined,
): void {
  if (gate.steps) {
    coverage.add(
      gate.name,
      gate.steps.map((step) => step.command),
    );
    return;
  }
  const body = ((packageJson?.scripts ?? {}) as Record<string, unknown>)[gate.command.at(-1)!];
  if (typeof body !== 'string') return;
  // A plain chain of known checks (`eslint src`) runs those checks and no others of their
  // tools: a tox env running `eslint --quiet src` is another check, served beside it.
  const commands = splitChain(body);
  if (commands && commands.every((command) => checkKey(command) !== undefined)) {
    coverage.add(gate.name, commands);
    return;
  }
  for (const tool of toolsInBody(body)) coverage.addTool(gate.name, tool);
}

/**
 * Finds a repository's gates with no config, one gate per check. Trust order: package.json
 * scripts (the repo's own way to run them); then pre-commit hooks of known tools, run
 * with the project's tool (pre-commit.ts); then config-file markers turned into default
 * commands for checks no script or hook already runs; then Makefile and justfile targets
 * and deno.json tasks named like checks (makefile.ts); then tox environments and nox
 * sessions named like checks (tox-nox.ts); then the checks CI workflows run
 * (.github/workflows, .gitlab-ci.yml: workflows.ts). A later gate whose every command is a check an
 * earlier gate runs (the same tool, options that change findings and paths:
 * tool-command.ts) is not served (`notServed` says so); one that runs a marker gate's
 * check on fewer paths replaces that marker gate, which detection only guessed; and a
 * later gate whose name is taken is named `<source>.<name>` (`pre-commit.ruff`,
 * `make.lint`, `tox.lint`).
 */
export function detectGates(
  root: string,
  options: {
    /** A workspace package's scripts run with the workspace's package manager. */
    packageManager?: PackageManager;
  } = {},
): Detection {
  const manifest = readSource(path.join(root, 'package.json'), 'json');
  const packageJson = objectOf(manifest);
  const notServed: NotServed[] = [];
  // A package.json that is not read serves no script; the other sources still serve.
  if (manifest && 'problem' in manifest)
    notServed.push({ source: 'package.json', name: '(all scripts)', why: manifest.problem });
  const manager = packageJson
    ? (options.packageManager ?? detectPackageManager(root, packageJson))
    : null;
  const gates = packageJson && manager ? scriptGates(root, packageJson, manager) : [];
  const covered = coveredTools(gates, packageJson);
  const coverage = new CheckCoverage();
  for (const gate of gates) coverScript(coverage, gate, packageJson);
  const texts = new Map<string, string | undefined>();
  const nested = new Map<string, string[]>();
  let hookIds: string[] | undefined;
  const project: ProjectFacts = {
    root,
    packageJson,
    readText(relative) {
      if (!texts.has(relative)) {
        const text = readSourceText(path.join(root, relative));
        // A file past the size limit is read by no tool and no source: list says so, once.
        if (typeof text === 'object')
          notServed.push({ source: relative, name: '(the whole file)', why: text.problem });
        texts.set(relative, typeof text === 'object' ? undefined : text);
      }
      return texts.get(relative);
    },
    exists: (relative) => fs.existsSync(path.join(root, relative)),
    directoriesWith(name) {
      if (!nested.has(name)) {
        const found = nestedFiles(root, name);
        if (found.capped)
          notServed.push({
            source: name,
            name: `(${name} files deep in the tree)`,
            why: `the look for ${name} files below the root stopped at its limit of directories; a ${name} past it is not served (write mcp-gates.json for it)`,
          });
        nested.set(name, found.directories);
      }
      return nested.get(name)!;
    },
    dependsOn: (name) => hasDependency(packageJson, name),
    preCommitHookIds() {
      if (hookIds === undefined) {
        const hooks = parsePreCommitConfig(project.readText('.pre-commit-config.yaml') ?? '');
        hookIds = typeof hooks === 'string' ? [] : hooks.map((hook) => hook.id);
      }
      return hookIds;
    },
  };

  const ruffFixes = ruffConfigFixes(root);

  // pre-commit hooks of known tools. A JavaScript tool's hook yields to a script that
  // already runs it, as its marker does.
  const hooks = preCommitGates(project, ruffFixes);
  notServed.push(...hooks.notServed);
  for (const { tool, gate } of hooks.gates) {
    const earlier = coverage.covering([gate.command]);
    if (earlier || (tool.yieldsToScripts && covered.has(tool.name))) {
      notServed.push({
        source: gate.source,
        name: `hook for ${gate.name}`,
        why: `it runs a check already run by ${earlier ?? 'a package.json script'}`,
      });
      continue;
    }
    const named = hasName(gates, gate.name) ? { ...gate, name: `pre-commit.${gate.name}` } : gate;
    // A hook given only some files (its `files` pattern) is no check of the whole selection.
    coverage.add(
      named.name,
      [named.command],
      named.fileFilter ? { environment: named.fileFilter.what } : {},
    );
    gates.push(markerGate(named));
  }
  // Local hooks that run a script of the repository.
  for (const gate of hooks.scripts)
    gates.push(
      markerGate(hasName(gates, gate.name) ? { ...gate, name: `pre-commit.${gate.name}` } : gate),
    );

  // Config-file markers, in registry order, for checks no script or hook runs. A
  // JavaScript tool yields to a script that already runs it (or a script gate of its name).
  for (const tool of TOOLS) {
    if (!tool.gates) continue;
    const source = recognisedBy(tool, project);
    if (!source) continue;
    for (const gate of tool.gates(project, source)) {
      if (tool.yieldsToScripts && (covered.has(tool.name) || hasName(gates, gate.name))) continue;
      // The hook's gate is this check, with the hook's options and pinned version; a hook
      // whose files cannot be applied keeps it out too (it would check what the hook does not).
      const hookChecks = [
        ...hooks.gates.map((hook) => hook.gate.command),
        ...hooks.unappliedChecks,
      ];
      if (
        checkKey(gate.command) !== undefined &&
        hookChecks.some((command) => checkKey(command) === checkKey(gate.command))
      )
        continue;
      coverage.add(gate.name, [gate.command], {
        marker: { source: gate.source },
        // A module's check in its own directory is no check of the root's.
        ...(gate.cwd !== undefined ? { environment: inDirectory(gate.cwd) } : {}),
      });
      gates.push(markerGate(gate));
    }
  }
  // Make and just targets and deno tasks named like checks, then tox envs and nox
  // sessions: after every other source (names taken first).
  const recipes = recipeGates(root, new Set(gates.map((gate) => gate.name)), coverage);
  gates.push(...recipes.gates);
  notServed.push(...recipes.notServed);
  const environments = environmentGates(
    project,
    ruffFixes,
    new Set(gates.map((gate) => gate.name)),
    coverage,
  );
  gates.push(...environments.gates);
  notServed.push(...environments.notServed);
  // The repository's own lint scripts that no source above runs.
  const own = ownScriptGates(project, new Set(gates.map((gate) => gate.name)));
  gates.push(...own.gates);
  notServed.push(...own.notServed);
  // A hook that runs a Make target, a script or a tox env is that source's gate, if served.
  for (const hook of hooks.tasks)
    notServed.push({
      source: '.pre-commit-config.yaml',
      name: hook.name,
      why: taskServedBy(hook.words, hook.task, gates),
    });
  // The CI workflows' check steps, last: a check they run that a source above serves is one gate.
  const workflows = workflowGates(project, ruffFixes, gates, coverage);
  gates.push(...workflows.gates);
  notServed.push(...workflows.notServed);
  // A marker gate whose check the project runs on fewer paths gives way to the project's.
  const replaced = coverage.replacedMarkers();
  notServed.push(...replaced.values());
  return {
    gates: gates.filter((gate) => replaced.get(gate.name)?.source !== gate.source),
    packageManager: manager,
    notServed,
  };
}

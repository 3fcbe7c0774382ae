import { captureMode } from '../../capture/index.js';
import { gateLifelineMode } from '../../gates/run/gate-lifeline.js';
import { CONFIG_FILE, loadConfig } from '../../gates/config.js';
import { detectGates } from '../../gates/detect/detect.js';
import type { GateSpec } from '../../gates/gate-spec.js';
import { GatesError } from '../../gates/gates-error.js';
import { resolveCommand } from '../../gates/run/resolve-command.js';
import type { CliArguments } from '../cli-arguments.js';
import type { CliOutput } from '../cli-output.js';
import { packageVersion } from '../package-version.js';
import { resolveProjectRoot } from '../project-root.js';

interface GateCheck {
  name: string;
  source: string;
  command: string[];
  fix: string[] | null;
  parser: string;
  /** The program that would run, or null with the reason and the fix. */
  program: { resolved: string | null; problem?: string; fix?: string };
}

function platformTuple(): string {
  if (process.platform !== 'linux') return `${process.platform}-${process.arch}`;
  const header = (
    process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined
  )?.header;
  return `${process.platform}-${process.arch}-${header?.glibcVersionRuntime ? 'glibc' : 'musl'}`;
}

function checkGate(gate: GateSpec, root: string): GateCheck {
  const resolved = resolveCommand(gate.command, root, process.env);
  return {
    name: gate.name,
    source: gate.source,
    command: gate.command,
    fix: gate.fix,
    parser: gate.parser,
    program: resolved.ok
      ? { resolved: resolved.via }
      : { resolved: null, problem: resolved.reason, fix: resolved.fix },
  };
}

export function doctorCommand(args: CliArguments, output: CliOutput): number {
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
  try {
    const gates = loadConfig(root);
    if (gates) {
      configured = gates.map((gate) => checkGate(gate, root));
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
  const detected = detection.gates.map((gate) => checkGate(gate, root));
  const served = config.status === 'absent' ? detected : (configured ?? []);
  const report = {
    version: packageVersion(),
    node: process.version,
    platform: platformTuple(),
    capture: captureMode(),
    lifeline: gateLifelineMode(),
    root,
    packageManager: detection.packageManager,
    config,
    served: config.status === 'absent' ? 'detection' : 'config',
    configured,
    detected,
  };
  const missing = served.filter((gate) => gate.program.resolved === null);
  const exitCode = config.status === 'error' ? 2 : missing.length > 0 ? 1 : 0;
  if (args.json) {
    output.out(JSON.stringify(report, null, 2));
    return exitCode;
  }
  const lines = [
    `mcp-gates ${report.version} on Node ${report.node} (${report.platform})`,
    `capture: ${report.capture.mode}${report.capture.binding ? ` (${report.capture.binding})` : ''}${report.capture.reason ? ` — ${report.capture.reason}` : ''}`,
    `lifeline: ${report.lifeline.mode === 'native' ? `native (${report.lifeline.mechanism}): no gate outlives the server` : `degraded — ${report.lifeline.reason}`}`,
    `root:    ${root}`,
    `config:  ${config.status === 'absent' ? `no ${CONFIG_FILE}: serving detected gates` : config.status === 'ok' ? `${CONFIG_FILE} (serving it; detection ignored)` : `${CONFIG_FILE} is invalid — the server will refuse to start`}`,
  ];
  if (config.error) lines.push(`  ${config.error.message.replace(/\n/g, '\n  ')}`);
  const describe = (title: string, checks: GateCheck[]) => {
    lines.push('', `${title}:`);
    if (checks.length === 0) lines.push('  (none)');
    for (const check of checks) {
      const status = check.program.resolved
        ? `ok   ${check.program.resolved}`
        : `MISSING  ${check.program.problem}\n         fix: ${check.program.fix}`;
      lines.push(`  ${check.name.padEnd(12)} ${status}`);
    }
  };
  if (configured) describe('configured gates', configured);
  describe(
    `detected gates${detection.packageManager ? ` (package manager: ${detection.packageManager})` : ''}`,
    detected,
  );
  lines.push(
    '',
    exitCode === 0
      ? 'All served gates can run.'
      : exitCode === 1
        ? `${missing.length} served gate(s) cannot find their program.`
        : 'Fix the config error above.',
  );
  output.out(lines.join('\n'));
  return exitCode;
}

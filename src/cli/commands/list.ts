import { loadGates } from '../../gates/load-gates.js';
import { gateBuildStep } from '../../gates/detect/build-steps.js';
import { fixToolName, takesPaths, type GateSpec } from '../../gates/gate-spec.js';
import type { CliArguments } from '../cli-arguments.js';
import type { CliOutput } from '../cli-output.js';
import { resolveProjectRoot } from '../project-root.js';
import type { NotServed } from '../../gates/detect/tool-command.js';
import { gateWarmCapability, warmCapabilityText } from '../../gates/warm/warm-plan.js';

/** What a gate's check writes, when it is not read-only: a script that starts by building. */
function writesOf(gate: GateSpec, root: string): string | null {
  const build = gateBuildStep(gate, root);
  return build ? `build outputs (its script starts with the build step \`${build}\`)` : null;
}

/** What the gate sources name that detection does not serve, one line each with why. */
export function notServedText(notServed: readonly NotServed[]): string {
  return [
    'Not served (named by a gate source, but no gate):',
    ...notServed.map((item) => `  ${item.source}: ${item.name} — ${item.why}`),
  ].join('\n');
}

export function listCommand(args: CliArguments, output: CliOutput): number {
  const root = resolveProjectRoot({ root: args.root, env: process.env, cwd: process.cwd() });
  const served = loadGates(root);
  if (args.json) {
    const rows = served.gates.map((gate) => {
      const writes = writesOf(gate, root);
      return {
        name: gate.name,
        description: gate.description,
        command: gate.command,
        fix: gate.fix,
        parser: gate.parser,
        source: gate.source,
        warm: gateWarmCapability(gate, root, process.env),
        // Only a gate that writes says so: a read-only check has no `writes`.
        ...(writes ? { writes } : {}),
      };
    });
    output.out(JSON.stringify(rows, null, 2));
    return 0;
  }
  const origin = served.origin === 'config' ? 'mcp-gates.json' : 'detection';
  if (served.gates.length === 0) {
    output.out(
      `No gates found in ${root}.\nAdd package.json scripts (lint, format:check, typecheck) or tool configs, or write mcp-gates.json (see \`mcp-gates init --help\`).`,
    );
    if (served.notServed.length > 0) output.out(`\n${notServedText(served.notServed)}`);
    return 0;
  }
  output.out(`Gates of ${root} (from ${origin}):\n`);
  for (const gate of served.gates) {
    const steps = gate.steps?.map((step) => step.command.join(' '));
    const tools = gate.fix ? `${gate.name}, ${fixToolName(gate.name)}` : gate.name;
    output.out(`  ${tools}`);
    output.out(`    ${gate.description}`);
    output.out(`    command: ${gate.command.join(' ')}`);
    if (steps) output.out(`    runs:    ${steps.join('; ')} (each step to the end)`);
    if (gate.fix) output.out(`    fix:     ${gate.fix.join(' ')}`);
    if (gate.narrow && gate.paths !== 'append')
      output.out(
        `    files:   ${gate.narrow.command.join(' ')} <files> (a check on files: paths, changed scope, hooks)`,
      );
    output.out(`    warm:    ${warmCapabilityText(gateWarmCapability(gate, root, process.env))}`);
    const writes = writesOf(gate, root);
    if (writes) output.out(`    writes:  ${writes}`);
    output.out(
      `    parser:  ${gate.parser}   source: ${gate.source}${takesPaths(gate) ? '   takes paths' : ''}\n`,
    );
  }
  if (served.notServed.length > 0) output.out(notServedText(served.notServed));
  return 0;
}

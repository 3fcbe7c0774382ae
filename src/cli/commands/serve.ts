import { createGateTools } from '../../gates/gate-tools.js';
import { loadGates } from '../../gates/load-gates.js';
import { gateLifelineMode } from '../../gates/run/gate-lifeline.js';
import { serveStdio } from '../../serve-stdio.js';
import { McpServer } from '../../server/server.js';
import type { CliArguments } from '../cli-arguments.js';
import { packageVersion } from '../package-version.js';
import { resolveProjectRoot } from '../project-root.js';

function instructions(root: string, names: string[]): string {
  if (names.length === 0) {
    return `No gates were found in ${root}. The user can add package.json scripts or tool configs, or write mcp-gates.json (\`npx mcp-gates init\`).`;
  }
  return [
    `These tools run the project's own quality gates in ${root}: ${names.join(', ')}.`,
    'Call a gate to check the project (or some paths, where the tool takes them); the result has the report and structured findings, and isError is true when the gate fails.',
    'A <gate>_fix tool applies the automatic fixes; run the gate again afterwards to see what is left.',
  ].join(' ');
}

/** `mcp-gates serve`: the stdio MCP server. Any config error stops it before it serves (exit 2). */
export async function serveCommand(args: CliArguments): Promise<number> {
  const root = resolveProjectRoot({ root: args.root, env: process.env, cwd: process.cwd() });
  const served = loadGates(root);
  const tools = createGateTools(served.gates, { root });
  if (served.gates.length === 0) {
    process.stderr.write(
      `mcp-gates: no gates found in ${root}; serving no tools (run \`mcp-gates doctor --root ${root}\`)\n`,
    );
  }
  const lifeline = gateLifelineMode();
  if (served.gates.length > 0 && lifeline.mode === 'degraded') {
    process.stderr.write(`mcp-gates: gate lifeline degraded: ${lifeline.reason}\n`);
  }
  if (process.stdin.isTTY) {
    process.stderr.write(
      'mcp-gates: serving MCP on stdin/stdout, for an MCP host to start. In a terminal, try `mcp-gates list` or `mcp-gates --help`.\n',
    );
  }
  const server = new McpServer({
    name: 'mcp-gates',
    version: packageVersion(),
    title: 'mcp-gates',
    description: "The repository's own lint, format and typecheck gates as tools",
    instructions: instructions(
      root,
      tools.map((tool) => tool.name),
    ),
    tools,
    log: (line) => void process.stderr.write(`${line}\n`),
  });
  await serveStdio(server);
  return 0;
}

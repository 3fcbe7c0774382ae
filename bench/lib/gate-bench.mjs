// Gate overhead: a gate called through MCP (`mcp-gates serve`) beside the same argv
// run directly, interleaved, in a temporary project root.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './stats.mjs';
import { RpcClient } from './rpc-client.mjs';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const GATES_CLI = path.join(REPO, 'dist', 'cli', 'main.js');
const FIXTURE = path.join(REPO, 'bench', 'fixtures', 'typecheck');
const TSC = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');

/** The gates measured, with how many interleaved pairs each gets. */
function gates(sizes) {
  return [
    {
      name: 'quick',
      label: 'node -e ""',
      command: ['node', '-e', ''],
      pairs: sizes.quickGatePairs,
    },
    {
      name: 'typecheck',
      label: 'tsc --noEmit -p .',
      note: 'bench/fixtures/typecheck, 2 files',
      command: [process.execPath, TSC, '--noEmit', '-p', '.'],
      pairs: sizes.tscGatePairs,
    },
  ];
}

function makeRoot(measured) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-gates-bench-gates-'));
  fs.cpSync(FIXTURE, root, { recursive: true });
  const config = {
    gates: Object.fromEntries(measured.map((gate) => [gate.name, { command: gate.command }])),
  };
  fs.writeFileSync(path.join(root, 'mcp-gates.json'), JSON.stringify(config, null, 2) + '\n');
  return root;
}

function runDirect(command, cwd) {
  const started = process.hrtime.bigint();
  const child = spawn(command[0], command.slice(1), { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.resume();
  child.stderr.resume();
  return new Promise((resolve, reject) => {
    child.on('error', reject).on('close', (code) => {
      if (code === 0) resolve(Number(process.hrtime.bigint() - started) / 1e6);
      else reject(new Error(`${command.join(' ')} exited with ${code} in ${cwd}`));
    });
  });
}

/** The MCP handshake a bench client makes before calling tools. */
export async function initializeClient(client) {
  await client.request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'mcp-gates-bench', version: '1.0.0' },
  });
  client.notify('notifications/initialized', {});
}

/** Wall time in ms of one tools/call of `name` (no arguments); a failed gate throws. */
export async function timedCall(client, name) {
  const started = process.hrtime.bigint();
  const { result, receivedAt } = await client.request('tools/call', { name, arguments: {} });
  if (result.isError) {
    throw new Error(`gate ${name} failed through MCP: ${result.content?.[0]?.text?.slice(0, 500)}`);
  }
  return Number(receivedAt - started) / 1e6;
}

/** `{[gate]: {label, directMs, mcpMs, addedMs, pairs}}`, or null when the CLI is not built. */
export async function benchGates(sizes) {
  if (!fs.existsSync(GATES_CLI)) return null;
  const measured = gates(sizes);
  const root = makeRoot(measured);
  const client = new RpcClient(GATES_CLI, ['serve', '--root', root], { cwd: root });
  try {
    await initializeClient(client);
    const figures = {};
    for (const gate of measured) {
      await timedCall(client, gate.name); // warm-up: first spawn, file cache
      await runDirect(gate.command, root);
      const direct = [];
      const viaMcp = [];
      for (let pair = 0; pair < gate.pairs; pair++) {
        direct.push(await runDirect(gate.command, root));
        viaMcp.push(await timedCall(client, gate.name));
      }
      figures[gate.name] = {
        label: gate.label,
        note: gate.note,
        pairs: gate.pairs,
        directMs: median(direct),
        mcpMs: median(viaMcp),
        // Pairwise, so drift between pairs cancels out.
        addedMs: median(viaMcp.map((ms, pair) => ms - direct[pair])),
      };
    }
    return figures;
  } finally {
    await client.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

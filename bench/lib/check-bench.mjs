// The `check` tool (every gate at once) beside each gate alone and the gates one after the
// other, all through one `mcp-gates serve` of a temporary root holding three gates of
// different lengths, interleaved per round: check, then each gate alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GATES_CLI, initializeClient, timedCall } from './gate-bench.mjs';
import { median } from './stats.mjs';
import { RpcClient } from './rpc-client.mjs';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = path.join(REPO, 'bench', 'fixtures', 'typecheck');
const TSC = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const PRETTIER = path.join(REPO, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
/** How long the script gate waits: an I/O-bound check (a service, a lock file, a network). */
const SCRIPT_WAIT_MS = 400;

/**
 * Three gates: two CPU-bound (tsc, the longest, first; prettier) and one that mostly waits.
 * check runs at most os.availableParallelism() gates at once: on a 2-core machine tsc holds
 * one slot while prettier then the waiting script share the other, and those two together
 * take less than tsc alone, so a perfect check equals the slowest gate alone. Warm workers
 * are off: this measures running the gates side by side, not reusing them.
 */
function checkGates() {
  const wait = `setTimeout(() => { for (let i = 0; i < 2e6; i++); }, ${SCRIPT_WAIT_MS})`;
  return {
    typecheck: { command: [process.execPath, TSC, '--noEmit', '-p', '.'], warm: false },
    format: { command: [process.execPath, PRETTIER, '--check', 'src'], warm: false },
    script: { command: [process.execPath, '-e', wait], warm: false },
  };
}

export const CHECK_GATE_LABELS = {
  typecheck: 'tsc --noEmit -p .',
  format: 'prettier --check src',
  script: `node -e (waits ${SCRIPT_WAIT_MS} ms)`,
};

function makeRoot() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-gates-bench-check-'));
  fs.cpSync(FIXTURE, root, { recursive: true });
  fs.copyFileSync(path.join(REPO, '.prettierrc.json'), path.join(root, '.prettierrc.json'));
  const config = { gates: checkGates() };
  fs.writeFileSync(path.join(root, 'mcp-gates.json'), JSON.stringify(config, null, 2) + '\n');
  return root;
}

/**
 * `{gates: {[name]: {label, aloneMs}}, checkMs, slowestAloneMs, sequentialMs, rounds,
 * parallelism}`, `{failed}` when the check tool fails, or null when the CLI is not built. `sequentialMs` is the median over
 * rounds of the round's single-gate calls, made one after the other, added up.
 */
export async function benchCheck(sizes) {
  if (!fs.existsSync(GATES_CLI)) return null;
  const root = makeRoot();
  const names = Object.keys(checkGates());
  const client = new RpcClient(GATES_CLI, ['serve', '--root', root], { cwd: root });
  try {
    await initializeClient(client);
    const { result: listed } = await client.request('tools/list', {});
    if (!listed.tools.some((tool) => tool.name === 'check'))
      throw new Error(`the serve of ${root} offers no check tool`);
    // Warm-up: first spawns, file cache. A check that fails is reported, not measured.
    try {
      await timedCall(client, 'check');
    } catch (error) {
      return { failed: error.message };
    }
    const check = [];
    const alone = Object.fromEntries(names.map((name) => [name, []]));
    const sequential = [];
    for (let round = 0; round < sizes.checkRounds; round++) {
      check.push(await timedCall(client, 'check'));
      let total = 0;
      for (const name of names) {
        const ms = await timedCall(client, name);
        alone[name].push(ms);
        total += ms;
      }
      sequential.push(total);
    }
    const gates = Object.fromEntries(
      names.map((name) => [name, { label: CHECK_GATE_LABELS[name], aloneMs: median(alone[name]) }]),
    );
    return {
      gates,
      rounds: sizes.checkRounds,
      parallelism: os.availableParallelism(),
      checkMs: median(check),
      slowestAloneMs: Math.max(...names.map((name) => gates[name].aloneMs)),
      sequentialMs: median(sequential),
    };
  } finally {
    await client.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

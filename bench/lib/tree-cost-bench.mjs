// The fixed cost of a gate call against tree size (issue 19): the same trivial gate
// (`node -e ""`) called through `mcp-gates serve` and run directly, in interleaved pairs, on
// git repositories of N tracked files (small files in directories of 500, committed in one
// commit; the tree is clean). What a call adds above the command is the gate's own work
// around it (tree fingerprints before and after, capture, parse, report), which grows with
// the tree when the fingerprint does.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GATES_CLI, initializeClient, timedCall } from './gate-bench.mjs';
import { git } from './large-bench.mjs';
import { RpcClient } from './rpc-client.mjs';
import { median } from './stats.mjs';

const COMMAND = ['node', '-e', ''];

/** A committed git repository of `files` tracked files (mcp-gates.json among them). */
function makeTree(files) {
  const root = fs.realpathSync(
    fs.mkdtempSync(path.join(os.tmpdir(), `mcp-gates-bench-tree-${files}-`)),
  );
  const config = { gates: { quick: { command: COMMAND } } };
  fs.writeFileSync(path.join(root, 'mcp-gates.json'), `${JSON.stringify(config, null, 2)}\n`);
  for (let index = 0; index < files - 1; index++) {
    const dir = path.join(root, `d${String(Math.floor(index / 500)).padStart(3, '0')}`);
    if (index % 500 === 0) fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, `f${index}.txt`), '');
  }
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', `${files} files`);
  const tracked = git(root, 'ls-files').split('\n').filter(Boolean).length;
  if (tracked !== files) throw new Error(`the ${files}-file tree tracks ${tracked} files`);
  return root;
}

function runDirect(cwd) {
  const started = process.hrtime.bigint();
  const child = spawn(COMMAND[0], COMMAND.slice(1), { cwd, stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.on('error', reject).on('close', (code) => {
      if (code === 0) resolve(Number(process.hrtime.bigint() - started) / 1e6);
      else reject(new Error(`${COMMAND.join(' ')} exited with ${code}`));
    });
  });
}

/** `[{files, pairs, directMs, mcpMs, addedMs, buildSeconds}]` for each tree size. */
export async function benchTreeCost({ sizes, pairs }, progress = () => {}) {
  const rows = [];
  for (const files of sizes) {
    progress(`treecost: building a ${files}-file git repository`);
    const built = Date.now();
    const root = makeTree(files);
    const buildSeconds = (Date.now() - built) / 1000;
    const client = new RpcClient(GATES_CLI, ['serve', '--root', root], { cwd: root });
    try {
      await initializeClient(client);
      progress(`treecost: ${files} files, ${pairs} pairs`);
      await timedCall(client, 'quick'); // warm-up: the first call's set-up, the file cache
      await runDirect(root);
      const direct = [];
      const viaMcp = [];
      for (let pair = 0; pair < pairs; pair++) {
        direct.push(await runDirect(root));
        viaMcp.push(await timedCall(client, 'quick'));
      }
      rows.push({
        files,
        pairs,
        directMs: median(direct),
        mcpMs: median(viaMcp),
        addedMs: median(viaMcp.map((ms, index) => ms - direct[index])),
        buildSeconds,
      });
    } finally {
      await client.close(30000);
      fs.rmSync(root, { recursive: true, force: true });
    }
  }
  return { command: 'node -e ""', rows };
}

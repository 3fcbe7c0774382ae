// Issue 31 acceptance driver: for one repository checkout and its cases, injects one
// violation per served gate, runs `node dist/cli/main.js run <gate> --json` and checks
// the finding's file:line, and proves the tree unchanged by the run (a full listing with
// hashes, ignored paths included, before and after; the injection is undone after).
//   node docs/acceptance-31/drive.mjs <case-file.mjs>
// A case file exports { root, cases: [{ gate, file, inject(text) => text, expect: 'file:line',
// args?: [...] }] }.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const CLI = path.resolve('dist/cli/main.js');

/** Every file under root (ignored ones and .git included), with its hash. */
function listing(root) {
  const rows = [];
  const walk = (directory) => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile())
        rows.push(
          `${path.relative(root, full)} ${crypto.createHash('sha1').update(fs.readFileSync(full)).digest('hex')}`,
        );
      else rows.push(`${path.relative(root, full)} (${entry.isSymbolicLink() ? 'link' : 'other'})`);
    }
  };
  walk(root);
  return rows.sort();
}

function differ(before, after) {
  const a = new Set(before);
  const b = new Set(after);
  return [...before.filter((row) => !b.has(row)), ...after.filter((row) => !a.has(row))];
}

const { root, cases, env = {} } = await import(pathToFileURL(path.resolve(process.argv[2])).href);
const original = listing(root);
for (const item of cases) {
  const file = path.join(root, item.file);
  const existed = fs.existsSync(file);
  const saved = existed ? fs.readFileSync(file) : undefined;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, item.inject(existed ? saved.toString('utf8') : ''));
  const before = listing(root);
  const started = Date.now();
  const run = spawnSync(
    process.execPath,
    [
      CLI,
      'run',
      item.gate,
      ...(item.args ?? []),
      '--json',
      '--max-chars',
      '1000000',
      '--root',
      root,
    ],
    { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const after = listing(root);
  let data;
  try {
    data = JSON.parse(run.stdout);
  } catch {
    data = { status: `unreadable output (exit ${run.status}): ${run.stderr.slice(0, 200)}` };
  }
  const found = (data.findings ?? []).filter(
    (finding) => `${finding.file}:${finding.line}` === item.expect,
  );
  const changed = differ(before, after);
  console.log(
    JSON.stringify({
      gate: item.gate,
      args: item.args ?? [],
      status: data.status,
      command: (data.command ?? []).join(' '),
      expect: item.expect,
      found: found.map((finding) => `${finding.rule ?? ''} ${finding.message.slice(0, 60)}`),
      findingCount: data.findingCount,
      note: data.note ?? null,
      seconds,
      treeChangedByRun: changed,
    }),
  );
  if (existed) fs.writeFileSync(file, saved);
  else fs.rmSync(file);
}
const restored = differ(original, listing(root));
console.log(JSON.stringify({ root, restored: restored.length === 0, left: restored.slice(0, 10) }));

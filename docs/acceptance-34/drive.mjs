// Acceptance driver of docs/acceptance-34.md: acceptance-33's driver (acceptance-28's scripted
// session through each host's hook entry point, cold and warm, against cold `run --json` ground
// truth, rule 1 checked around every hook and run), with the moves it lacked: a step without
// `files` is a shell move no hook sees (git mv, git switch, git stash, sed -i); a step's `expect`
// is also checked at the stop unless `atStop: false`; its `absent` must not be named at the stop.
// usage: node drive.mjs <case> [modes=cold,warm] [hosts=claude-code,codex,cursor,gemini]
// Results go to $ACCEPT_RESULTS/<case> (default /work/outside/results).
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { hookInput, blockText } from '../../test/fixtures/hook-formats.mjs';

const CLI = new URL('../../dist/cli/main.js', import.meta.url).pathname;
const [caseName, modesArg = 'cold,warm', hostsArg = 'claude-code,codex,cursor,gemini'] =
  process.argv.slice(2);
let spec = (await import(`./cases/${caseName}.mjs`)).default;
const root = spec.root;
const out = `${process.env.ACCEPT_RESULTS ?? '/work/outside2/results'}/${caseName}`;
fs.mkdirSync(out, { recursive: true });

const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const start = git('rev-parse', 'HEAD');

/** Hashes by path, reused while a file's inode, size and mtime are unchanged (as git's index). */
const hashes = new Map();
/** Every entry under root (ignored ones and .git included): files with their hash, directories, links. */
function listing() {
  const rows = [];
  const walk = (directory) => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      const rel = path.relative(root, full);
      if (entry.isDirectory()) {
        rows.push(`${rel}/`);
        walk(full);
      } else if (entry.isFile()) {
        const st = fs.statSync(full, { bigint: true });
        const stamp = `${st.ino} ${st.size} ${st.mtimeNs} ${st.ctimeNs}`;
        let known = hashes.get(full);
        if (known?.stamp !== stamp) {
          known = {
            stamp,
            hash: crypto.createHash('sha1').update(fs.readFileSync(full)).digest('hex'),
          };
          hashes.set(full, known);
        }
        rows.push(`${rel} ${known.hash}`);
      } else
        rows.push(`${rel} (${entry.isSymbolicLink() ? `-> ${fs.readlinkSync(full)}` : 'other'})`);
    }
  };
  walk(root);
  return rows;
}
function differ(before, after) {
  const a = new Set(before);
  const b = new Set(after);
  return [
    ...before.filter((row) => !b.has(row)).map((row) => `- ${row}`),
    ...after.filter((row) => !a.has(row)).map((row) => `+ ${row}`),
  ];
}
/** Rule 1: what `what` changed in the tree (nothing, or the rows that differ). */
const treeWrites = [];
function unchanged(what, before) {
  const changed = differ(before, listing());
  if (changed.length) {
    treeWrites.push({ what, changed: changed.slice(0, 20), count: changed.length });
    console.log(`TREE WRITE by ${what}: ${changed.slice(0, 5).join(' | ')}`);
  }
  return changed;
}

const excludeFile = path.join(root, '.git/info/exclude');
const exclude = fs.existsSync(excludeFile) ? fs.readFileSync(excludeFile) : undefined;
function reset() {
  git('checkout', '-q', '-f', spec.branch);
  git('reset', '-q', '--hard', start);
  git('clean', '-fdq');
  // What the moves leave outside the work tree's tracked files: the side branch, a stash, an
  // exclude line and the ignored file.
  if (git('branch', '--list', 'side')) git('branch', '-q', '-D', 'side');
  git('stash', 'clear');
  if (exclude) fs.writeFileSync(excludeFile, exclude);
  for (const p of spec.clean ?? []) fs.rmSync(path.join(root, p), { recursive: true, force: true });
}

function groundTruth(label) {
  const result = {};
  for (const gate of spec.gates) {
    const before = listing();
    const t0 = Date.now();
    const run = spawnSync('node', [CLI, 'run', gate, '--json', '--max-chars', '10000000'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    let json;
    try {
      json = JSON.parse(run.stdout);
    } catch {
      json = {
        status: 'unparsable',
        stdout: run.stdout.slice(0, 500),
        stderr: run.stderr.slice(0, 500),
      };
    }
    result[gate] = {
      status: json.status,
      passed: json.passed,
      ms: Date.now() - t0,
      counts: json.counts,
      findings: (json.findings ?? []).map((f) => ({
        file: f.file,
        line: f.line,
        severity: f.severity,
        rule: f.rule,
        message: f.message,
      })),
      omitted: json.omitted,
      treeChanged: unchanged(`run ${gate} (${label})`, before),
    };
  }
  fs.writeFileSync(`${out}/truth-${label}.json`, JSON.stringify(result, null, 1));
  return result;
}

/** New findings (multiset by gate, file, rule, message; lines ignored) and newly failing gates. */
function newSince(before, after) {
  const key = (g, f) => `${g}\t${f.file}\t${f.rule}\t${f.severity}\t${f.message}`;
  const count = new Map();
  for (const [g, r] of Object.entries(before))
    for (const f of r.findings) count.set(key(g, f), (count.get(key(g, f)) ?? 0) + 1);
  const fresh = [];
  for (const [g, r] of Object.entries(after))
    for (const f of r.findings) {
      const k = key(g, f);
      const n = count.get(k) ?? 0;
      if (n > 0) count.set(k, n - 1);
      else fresh.push({ gate: g, ...f });
    }
  const failing = Object.keys(after).filter(
    (g) => after[g].passed === false && before[g]?.passed !== false,
  );
  return { fresh, failing };
}

function hook(host, event, input) {
  const before = listing();
  const t0 = Date.now();
  const run = spawnSync('node', [CLI, 'hook', event, '--host', host, '--root', root], {
    cwd: root,
    input: JSON.stringify(input),
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const ms = Date.now() - t0;
  let answer;
  try {
    answer = JSON.parse(run.stdout || '{}');
  } catch {
    answer = { unparsable: run.stdout };
  }
  const text = blockText(host, event, answer) ?? '';
  const blocked =
    answer.decision === 'block' ||
    answer.decision === 'deny' ||
    (host === 'gemini' && event === 'after-edit' && !!answer.hookSpecificOutput) ||
    (host === 'cursor' && cursorBlocks(text));
  const channel = /cold|no server/i.test(run.stderr) ? 'cold' : 'warm';
  return {
    event,
    ms,
    treeChanged: unchanged(
      `${host} ${event} ${input.session_id ?? input.conversation_id ?? ''}`,
      before,
    ),
    exit: run.status,
    blocked,
    channel,
    stderr: run.stderr.trim().slice(0, 400),
    text: text || answer.systemMessage || '',
    answer,
  };
}

async function startServer() {
  const child = spawn('sh', ['-c', `sleep infinity | exec node ${CLI} serve --root ${root}`], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'ignore', fs.openSync(`${out}/serve.log`, 'a')],
  });
  await new Promise((r) => setTimeout(r, 4000));
  return child;
}

const modes = modesArg.split(',');
const hosts = hostsArg.split(',');
reset();
// The cases read line numbers when loaded: load them again from the start tree.
spec = (await import(`./cases/${caseName}.mjs?start`)).default;
const truthStart = fs.existsSync(`${out}/truth-start.json`)
  ? JSON.parse(fs.readFileSync(`${out}/truth-start.json`, 'utf8'))
  : groundTruth('start');
let truthFinal = fs.existsSync(`${out}/truth-final.json`)
  ? JSON.parse(fs.readFileSync(`${out}/truth-final.json`, 'utf8'))
  : undefined;
const rows = [];
for (const mode of modes)
  for (const host of hosts) {
    reset();
    const server = mode === 'warm' ? await startServer() : undefined;
    const session = `${caseName}-${mode}-${host}-${Date.now()}`;
    const calls = [];
    let last;
    try {
      if (host !== 'cursor' || spec.cursorSessionStart)
        calls.push({
          step: 'session-start',
          ...hook(host, 'session-start', hookInput(host, 'session-start', { root, session })),
        });
      for (const step of spec.steps) {
        step.apply(root, git);
        if (step.files) {
          for (const file of step.files) {
            const call = hook(
              host,
              'after-edit',
              hookInput(host, 'after-edit', { root, session, file: path.join(root, file) }),
            );
            call.step = step.name;
            call.expect = step.expect ?? [];
            call.found = call.expect.map((e) => ({ ...e, reported: mentions(call.text, e) }));
            calls.push(call);
          }
        } else calls.push({ step: step.name, event: 'none' });
      }
      last = listing();
      const stop = hook(host, 'before-stop', hookInput(host, 'before-stop', { root, session }));
      stop.step = 'stop';
      stop.found = spec.steps
        .flatMap((s) => (s.atStop === false ? [] : (s.expect ?? [])))
        .map((e) => ({ ...e, reported: mentions(stop.text, e) }));
      // Not new at the stop (fixed again, on another branch, ignored): naming it is a false block.
      stop.absent = spec.steps
        .flatMap((s) => s.absent ?? [])
        .map((e) => ({ ...e, named: mentions(stop.text, { ...e, file: `${e.file}:` }) }));
      calls.push(stop);
      if (!truthFinal) truthFinal = groundTruth('final');
    } finally {
      if (server) {
        try {
          process.kill(-server.pid, 'SIGTERM');
        } catch {
          // already gone
        }
        await new Promise((r) => setTimeout(r, 1500));
      }
      // Whatever a server (or a hook's background work) wrote after its answer shows here.
      if (last) unchanged(`${mode} ${host} session, at its end`, last);
    }
    rows.push({ mode, host, calls });
    fs.writeFileSync(`${out}/run-${mode}-${host}.json`, JSON.stringify(calls, null, 1));
    console.log(`\n### ${caseName} ${mode} ${host}`);
    for (const c of calls)
      console.log(
        `${c.step.padEnd(16)} ${String(c.event).padEnd(12)} ${c.ms ?? ''}ms ${c.channel ?? ''} ${c.blocked ? 'BLOCK' : 'allow'} ` +
          `${(c.found ?? []).map((f) => `${f.file}:${f.line ?? ''}${f.reported ? '+' : '-'}`).join(' ')}` +
          `${(c.absent ?? []).map((f) => ` !${f.file}${f.named ? 'NAMED' : '-'}`).join('')} | ${String(c.text).replace(/\s+/g, ' ').slice(0, 300)}`,
      );
  }
reset();
const diff = newSince(truthStart, truthFinal);
fs.writeFileSync(`${out}/truth-new.json`, JSON.stringify(diff, null, 1));
console.log('\n### ground truth: new since start');
for (const f of diff.fresh)
  console.log(`${f.gate} ${f.file}:${f.line} ${f.severity} ${f.rule} ${f.message.slice(0, 80)}`);
console.log('newly failing gates:', diff.failing.join(', ') || '-');
fs.writeFileSync(`${out}/tree-writes-${modes.join('+')}.json`, JSON.stringify(treeWrites, null, 1));
console.log(
  `rule 1: ${treeWrites.length ? `${treeWrites.length} TREE WRITES` : 'the tree was unchanged by every hook and run'}`,
);
for (const [g, r] of Object.entries(truthStart))
  console.log(
    `start ${g}: ${r.status} ${r.ms}ms; final: ${truthFinal[g].status} ${truthFinal[g].ms}ms`,
  );

/**
 * Cursor has no block decision: a blocking answer is the reason's text ("N new errors since the
 * session began ... fix them"), a note that blocks nothing says "nothing new" or "N new warnings,
 * no new error" (acceptance-33 matched "new warning" and counted such notes as blocks).
 */
export function cursorBlocks(text) {
  return /since the session began|blocked on/.test(text);
}

function mentions(text, e) {
  if (!text) return false;
  const base = e.line ? `${e.file}:${e.line}` : e.file;
  return text.includes(base) && (!e.text || text.includes(e.text));
}

#!/usr/bin/env node
// A long-lived TypeScript 7.1+ beside `tsc --noEmit --incremental` of the same version (issue 30,
// item 4), by hand on the vue set-up: the steps docs/warm.md names (body edit, a second body
// edit, exported-type edit, an error added, a file with an error created, deleted, an option
// added to tsconfig.json and taken out), each answered by the long-lived mode told what
// changed, then by the CLI right after it; diagnostics compared as file(line): code.
//   api    the API's snapshots: `snapshot.update({ fileNotifications, ensurePrograms: true })`
//   build  the API's build orchestrator (`createBuildOrchestrator`), reads and writes through
//          the client's file-system callbacks (writes kept in memory), `build()` per step
//   watch  `tsc --watch`, which reads the disk itself (it is told nothing)
// Usage: MCP_GATES_BENCH_VUE=<vuejs-core set-up> node bench/ts7-live.mjs <mode> <typescript dir>
// where <typescript dir> is an installed typescript 7.1+ package (`npm install --prefix /tmp/x
// typescript@7.1.0-beta`: /tmp/x/node_modules/typescript), never the set-up's own.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const root = process.env.MCP_GATES_BENCH_VUE;
const [mode, typescript] = process.argv.slice(2);
if (!root || !['api', 'build', 'watch'].includes(mode) || !typescript) {
  process.stderr.write(
    'usage: MCP_GATES_BENCH_VUE=<vue set-up> node bench/ts7-live.mjs api|build|watch <typescript dir>\n',
  );
  process.exit(2);
}
const load = (file) => import(pathToFileURL(path.join(typescript, file)).href);
const exe = (await load('lib/getExePath.js')).default();
const version = JSON.parse(fs.readFileSync(path.join(typescript, 'package.json'), 'utf8')).version;
const config = path.join(root, 'tsconfig.json');
const temp = fs.mkdtempSync('/tmp/ts7-live-');
const buildInfo = path.join(temp, 'cli.tsbuildinfo');
const now = () => performance.now();

const line = (d) =>
  d.fileName
    ? `${path.relative(root, d.fileName)}(${(d.startPosition?.line ?? -1) + 1}): TS${d.code}`
    : `TS${d.code}`;
const errors = (diagnostics) =>
  [...new Set(diagnostics.filter((d) => d.category === 1).map(line))].sort();
const errorsOfText = (text) =>
  [
    ...new Set(
      text
        .split('\n')
        .map((l) => /^(.*?)\((\d+),\d+\): error (TS\d+)/.exec(l))
        .filter(Boolean)
        .map((m) => `${m[1]}(${m[2]}): ${m[3]}`),
    ),
  ].sort();

/** `tsc --noEmit --incremental` of the same version, its build info outside the tree. */
function cli() {
  const started = now();
  const args = ['--noEmit', '--pretty', 'false', '--incremental', '--tsBuildInfoFile', buildInfo];
  const r = spawnSync(exe, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  return { ms: now() - started, errors: errorsOfText(r.stdout) };
}

/** Each mode: start() answers the first call, step(changes) answers after the edit. */
async function apiMode() {
  const { API } = await load('dist/api/sync/api.js');
  const api = new API({ cwd: root, tsserverPath: exe });
  // The response says which files each project saw change; the client keeps it to itself.
  let saw;
  const request = api.client.apiRequest.bind(api.client);
  api.client.apiRequest = (method, params) => {
    const response = request(method, params);
    if (method === 'updateSnapshot') saw = response?.changes?.changedProjects;
    return response;
  };
  let snapshot;
  const answer = () => {
    const project = snapshot.getConfiguredProject(config);
    // Without ensurePrograms a project told of a change stays dirty and answers from the
    // program before it.
    if (project.dirty) throw new Error('the project is dirty: its program is the last one');
    const p = project.program;
    return errors([
      ...p.getConfigFileParsingDiagnostics(),
      ...p.getProgramDiagnostics(),
      ...p.getSyntacticDiagnostics(),
      ...p.getBindDiagnostics(),
      ...p.getGlobalDiagnostics(),
      ...p.getSemanticDiagnostics(),
      ...p.getDeclarationDiagnostics(),
    ]);
  };
  return {
    start() {
      snapshot = api.createSnapshot({ openProjects: [config] });
      return answer();
    },
    step(changes) {
      const next = snapshot.update({ fileNotifications: changes, ensurePrograms: true });
      snapshot.dispose();
      snapshot = next;
      const found = answer();
      return { errors: found, note: saw ? `saw ${JSON.stringify(saw)}` : '' };
    },
    close: () => api.close(),
  };
}

async function buildMode() {
  const { API } = await load('dist/api/sync/api.js');
  const { serverFS } = await load('dist/api/fs.js');
  const written = new Map();
  let reads = 0;
  const fsCallbacks = {
    directoryExists: serverFS.useOS,
    fileExists: (f) => (written.has(f) ? true : serverFS.useOS),
    getAccessibleEntries: serverFS.useOS,
    realpath: serverFS.useOS,
    stat: serverFS.useOS,
    readFile: (f) => {
      reads++;
      if (written.has(f)) return written.get(f);
      try {
        return fs.readFileSync(f, 'utf8');
      } catch {
        return undefined;
      }
    },
    writeFile: (f, content) => void written.set(f, content),
    removeFile: (f) => void written.delete(f),
  };
  const api = new API({ cwd: root, tsserverPath: exe, fs: fsCallbacks });
  const orchestrator = api.createBuildOrchestrator([config], {
    cwd: root,
    overrideCompilerOptions: { incremental: true },
  });
  const answer = () => {
    reads = 0;
    const r = orchestrator.build();
    return {
      errors: errors(r.diagnostics ?? []),
      note: `${reads} files read, ${written.size} kept`,
    };
  };
  return { start: () => answer().errors, step: answer, close: () => api.close() };
}

async function watchMode() {
  const child = spawn(exe, ['--noEmit', '--pretty', 'false', '--watch'], { cwd: root });
  let out = '';
  let waiting;
  let initial = true;
  child.stdout.on('data', (chunk) => {
    out += chunk;
    // A cycle answers an edit only if it began after it ("File change detected").
    const began = out.search(/File change detected/);
    const rest = out.slice(Math.max(0, began));
    if (waiting && (initial || began >= 0) && /Found \d+ errors?\. Watching/.test(rest)) waiting();
  });
  const cycle = () =>
    Promise.race([
      new Promise((resolve) => (waiting = () => resolve(true))),
      new Promise((resolve) => setTimeout(() => resolve(false), 120000)),
    ]).then((cycled) => {
      waiting = undefined;
      initial = false;
      const began = out.search(/File change detected/);
      const found = errorsOfText(out.slice(Math.max(0, began)));
      out = '';
      return { errors: found, note: cycled ? '' : 'no cycle in 120 s' };
    });
  return {
    start: async () => (await cycle()).errors,
    // The edit is already on disk; the watcher is told nothing and finds it itself.
    step: () => cycle(),
    // Whatever cycle the last edit set off ends before the next edit.
    before: async () => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      out = '';
    },
    close: () => child.kill(),
  };
}

const live = await { api: apiMode, build: buildMode, watch: watchMode }[mode]();
const file = (name) => path.join(root, name);
const general = file('packages/shared/src/general.ts');
const component = file('packages/runtime-core/src/component.ts');
const created = file('packages/shared/src/zzLive.ts');
const pristine = new Map([general, component, config].map((f) => [f, fs.readFileSync(f, 'utf8')]));
const write = (f, from, to) => fs.writeFileSync(f, pristine.get(f).replace(from, to));
const steps = [
  ['body edit', { changed: [general] }, () => write(general, '.indexOf(el)', '.indexOf(el, 0)')],
  [
    'body edit again',
    { changed: [general] },
    () => write(general, '.indexOf(el)', '.indexOf(el, 1)'),
  ],
  [
    'exported-type edit',
    { changed: [component] },
    () =>
      write(
        component,
        'export interface ComponentInternalInstance {\n',
        'export interface ComponentInternalInstance {\n  liveField?: number\n',
      ),
  ],
  [
    'error added',
    { changed: [general] },
    () => write(general, '.indexOf(el)', '.indexOf(el, "x")'),
  ],
  [
    'file with an error created',
    { created: [created] },
    () => fs.writeFileSync(created, 'export const zz: number = "no"\n'),
  ],
  ['that file deleted', { deleted: [created] }, () => fs.rmSync(created)],
  [
    'noUnusedParameters added to tsconfig.json',
    { changed: [config] },
    () =>
      write(config, '"noUnusedLocals": true', '"noUnusedLocals": true, "noUnusedParameters": true'),
  ],
  [
    'tsconfig.json as it was',
    { changed: [config] },
    () => fs.writeFileSync(config, pristine.get(config)),
  ],
];

const rows = [];
const record = (name, ms, answer) => {
  const c = cli();
  const same = JSON.stringify(answer.errors) === JSON.stringify(c.errors);
  rows.push({
    step: name,
    live: Math.round(ms),
    cli: Math.round(c.ms),
    ratio: +(ms / c.ms).toFixed(2),
    errors: `${answer.errors.length}/${c.errors.length}`,
    same,
  });
  process.stdout.write(`${JSON.stringify(rows.at(-1))}${answer.note ? ` ${answer.note}` : ''}\n`);
  if (!same)
    process.stdout.write(`  live: ${answer.errors.join(', ')}\n  cli:  ${c.errors.join(', ')}\n`);
};
process.stdout.write(`typescript ${version}, mode ${mode}, ${root}\n`);
try {
  let started = now();
  const first = await live.start();
  record('first call', now() - started, { errors: first });
  for (const [name, changes, edit] of steps) {
    await live.before?.();
    edit();
    started = now();
    const answer = await live.step(changes);
    record(name, now() - started, answer);
  }
} finally {
  for (const [f, text] of pristine) fs.writeFileSync(f, text);
  fs.rmSync(created, { force: true });
  fs.rmSync(temp, { recursive: true, force: true });
  live.close();
}
console.table(rows);

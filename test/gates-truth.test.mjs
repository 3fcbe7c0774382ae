// A check never changes the tree, typecheck follows project references, marker gates
// honour the repository's scope (issue 9, items 1, 2 and 4). Real tools: typescript and
// prettier 3 from devDependencies, prettier 2 installed into a temp dir when npm can,
// ruff and git when installed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { expect } from 'chai';
import { createGateTools, detectGates, GATE_OUTPUT_SCHEMA } from '../dist/gates/index.js';
import { gitignoreAsNegativePatterns } from '../dist/gates/detect/detect.js';
import {
  changedFiles,
  fingerprintTree,
  parsePorcelainV2,
  walkFingerprint,
} from '../dist/gates/run/tree-fingerprint.js';
import { planTscBuild } from '../dist/gates/run/tsc-build.js';
import { stripJsonComments } from '../dist/gates/tsconfig.js';
import {
  cleanupTemporary,
  envWithTools,
  gitRepo,
  hasCommand,
  installPrettier2,
  makeRepo,
  makeTempDir,
  toolContext,
  treeSnapshot as snapshot,
} from './fixtures/gates-support.mjs';

const validateOutput = new Ajv({ strict: false }).compile(GATE_OUTPUT_SCHEMA);

/** Runs one tool of `gates` (detected when omitted) and checks its result against the schema. */
async function runTool(root, toolName, { gates = detectGates(root).gates, args = {}, env } = {}) {
  const tools = createGateTools(gates, { root, env: env ?? envWithTools() });
  const tool = tools.find((candidate) => candidate.name === toolName);
  expect(tool, `${toolName} among ${tools.map((t) => t.name)}`).to.not.equal(undefined);
  const result = await tool.run(args, toolContext());
  expect(validateOutput(result.structuredContent), JSON.stringify(validateOutput.errors)).to.equal(
    true,
  );
  return result;
}

const located = (result) =>
  result.structuredContent.findings.map(
    (f) => `${f.file}:${f.line}:${f.column} ${f.severity} ${f.rule}`,
  );

/** A gate running `node -e <code>` in the root (no shell). */
function nodeGate(name, code, fixCode = null) {
  return {
    name,
    description: name,
    command: [process.execPath, '-e', code],
    fix: fixCode ? [process.execPath, '-e', fixCode] : null,
    parser: 'generic',
    timeoutMs: 30000,
    paths: 'none',
    source: 'config',
  };
}

describe('a check never changes the tree', function () {
  this.timeout(60000);
  afterEach(cleanupTemporary);

  const touchTracked = "require('fs').appendFileSync('src/a.txt', 'more\\n')";
  const createUntracked = "require('fs').writeFileSync('src/new.txt', 'new\\n')";

  for (const kind of ['git', 'walk']) {
    describe(`watched by ${kind}`, () => {
      let root;
      beforeEach(function () {
        // reason: the git fingerprint needs git on PATH.
        if (kind === 'git' && !hasCommand('git')) this.skip();
        const files = { 'src/a.txt': 'a\n', 'README.md': '# x\n' };
        root = kind === 'git' ? gitRepo(files) : makeRepo(files);
      });

      it('fails a check that modifies a clean file, and lists it', async () => {
        const result = await runTool(root, 'writes', { gates: [nodeGate('writes', touchTracked)] });
        expect(result.isError).to.equal(true);
        expect(result.structuredContent.passed).to.equal(false);
        expect(result.structuredContent.exitCode).to.equal(0);
        expect(result.structuredContent.changedFiles).to.deep.equal(['src/a.txt']);
        expect(result.structuredContent.treeWatch).to.include({ method: kind, capped: false });
        expect(result.text).to.match(/^writes: failed \(exit 0, .*1 file changed\)/);
        expect(result.text).to.include('this check changed 1 file in the project tree');
        expect(result.text).to.include('\n  src/a.txt');
      });

      it('fails a check that creates an untracked file, and lists it', async () => {
        const result = await runTool(root, 'creates', {
          gates: [nodeGate('creates', createUntracked)],
        });
        expect(result.isError).to.equal(true);
        expect(result.structuredContent.changedFiles).to.deep.equal(['src/new.txt']);
      });

      it('fails a check that changes a file already modified before it ran', async () => {
        fs.appendFileSync(path.join(root, 'src/a.txt'), 'edited by the user\n');
        const result = await runTool(root, 'writes', { gates: [nodeGate('writes', touchTracked)] });
        expect(result.structuredContent.changedFiles).to.deep.equal(['src/a.txt']);
      });

      it('passes a check that writes nothing, and a fix lists what it changed', async () => {
        const gate = nodeGate('reads', "require('fs').readFileSync('src/a.txt')", touchTracked);
        const check = await runTool(root, 'reads', { gates: [gate] });
        expect(check.isError).to.equal(false);
        expect(check.structuredContent.changedFiles).to.deep.equal([]);
        const fix = await runTool(root, 'reads_fix', { gates: [gate] });
        expect(fix.isError).to.equal(false);
        expect(fix.structuredContent.changedFiles).to.deep.equal(['src/a.txt']);
        expect(fix.text).to.include('changed 1 file:\n  src/a.txt');
      });
    });
  }

  it('removes a by-product the tool created (derivedFiles), and fails when it changed an existing one', async () => {
    const root = makeRepo({ 'a.txt': 'a\n' });
    const writeLock = "require('fs').writeFileSync('tool.lock', 'generated\\n')";
    const gate = { ...nodeGate('locks', writeLock), derivedFiles: ['tool.lock'] };
    const created = await runTool(root, 'locks', { gates: [gate] });
    expect(created.isError, created.text).to.equal(false);
    expect(created.structuredContent.changedFiles).to.deep.equal([]);
    expect(created.text).to.include('removed tool.lock, which the tool generated during the check');
    expect(fs.existsSync(path.join(root, 'tool.lock'))).to.equal(false);

    fs.writeFileSync(path.join(root, 'tool.lock'), 'committed\n');
    const changed = await runTool(root, 'locks', { gates: [gate] });
    expect(changed.isError).to.equal(true);
    expect(changed.structuredContent.changedFiles).to.deep.equal(['tool.lock']);
  });

  it('does not count writes git ignores (tool caches)', async function () {
    // reason: needs git.
    if (!hasCommand('git')) this.skip();
    const root = gitRepo({ '.gitignore': 'node_modules\n', 'a.txt': 'a\n' });
    const code =
      "fs.mkdirSync('node_modules/.cache', {recursive: true}); fs.writeFileSync('node_modules/.cache/x', '1')";
    const result = await runTool(root, 'cache', {
      gates: [nodeGate('cache', `const fs = require('fs'); ${code}`)],
    });
    expect(result.isError).to.equal(false);
  });

  it('reports a gate that did not start with changedFiles null', async () => {
    const root = makeRepo({ 'a.txt': 'a\n' });
    const gate = { ...nodeGate('missing', ''), command: ['no-such-program-mcp-gates'] };
    const result = await runTool(root, 'missing', { gates: [gate] });
    expect(result.structuredContent.changedFiles).to.equal(null);
    expect(result.structuredContent.treeWatch).to.equal(null);
  });

  it('parses porcelain v2 records, renames and spaces in names', () => {
    const output = [
      '1 .M N... 100644 100644 100644 aaa bbb src/a file.txt',
      '2 R. N... 100644 100644 100644 aaa bbb R100 new name.txt',
      'old name.txt',
      '? untracked dir/x.txt',
      'u UU N... 100644 100644 100644 100644 a b c conflict.txt',
      '',
    ].join('\0');
    expect(parsePorcelainV2(output).map((entry) => entry.path)).to.deep.equal([
      'src/a file.txt',
      'new name.txt',
      'untracked dir/x.txt',
      'conflict.txt',
    ]);
  });

  it('caps the walk, says so, and does not call unseen files removed', async () => {
    const root = makeRepo({ 'a/1.txt': '1', 'a/2.txt': '2', 'b.txt': 'b', 'c/3.txt': '3' });
    fs.mkdirSync(path.join(root, 'node_modules/x'), { recursive: true });
    fs.writeFileSync(path.join(root, 'node_modules/x/i.js'), '');
    fs.mkdirSync(path.join(root, 'target'));
    fs.writeFileSync(
      path.join(root, 'target/CACHEDIR.TAG'),
      'Signature: 8a477f597d28d172789f06886806bc55',
    );
    const all = walkFingerprint(root);
    expect([...all.entries.keys()]).to.deep.equal(['a/1.txt', 'a/2.txt', 'b.txt', 'c/3.txt']);
    const before = { ...walkFingerprint(root, 2), method: 'walk', durationMs: 0 };
    expect(before).to.include({ capped: true, lastPath: 'a/2.txt' });
    // A new file sorting first pushes a/2.txt past the cap: unseen, not removed.
    fs.writeFileSync(path.join(root, '0.txt'), '0');
    const after = { ...walkFingerprint(root, 2), method: 'walk', durationMs: 0 };
    expect(changedFiles(before, after)).to.deep.equal(['0.txt']);
    const fingerprint = await fingerprintTree(root);
    expect(fingerprint.method).to.equal('walk');
  });

  it('asks git once whether a root is a repository, and again once a .git appears', async function () {
    // reason: the logging git stand-in is a POSIX shell script.
    if (process.platform === 'win32') this.skip();
    const root = makeRepo({ 'a.txt': 'a' });
    // A git on PATH that logs each call before running the real one.
    const bin = makeTempDir('mcp-gates-gitlog-');
    const log = path.join(bin, 'calls.log');
    const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
    fs.writeFileSync(
      path.join(bin, 'git'),
      `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realGit}' "$@"\n`,
      { mode: 0o755 },
    );
    const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` };
    const calls = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []);
    for (let round = 0; round < 3; round++)
      expect((await fingerprintTree(root, env)).method).to.equal('walk');
    expect(calls().filter((call) => call.includes('rev-parse'))).to.have.length(1);

    spawnSync(realGit, ['init', '-q'], { cwd: root });
    const inRepository = await fingerprintTree(root, env);
    expect(inRepository.method, 'a repository made later is seen').to.equal('git');
    expect(calls().filter((call) => call.includes('rev-parse'))).to.have.length(2);
  });
});

describe('ruff with fix = true in its config', function () {
  this.timeout(60000);
  afterEach(cleanupTemporary);

  it('reports the unused import and leaves the file as it was (--no-fix)', async function () {
    // reason: ruff is a Python tool; skipped where it is not installed.
    if (!hasCommand('ruff')) this.skip();
    const dirty = 'import os\n\nprint(1)\n';
    const root = makeRepo({ 'pyproject.toml': '[tool.ruff]\nfix = true\n', 'app.py': dirty });
    const before = snapshot(root);
    const result = await runTool(root, 'ruff');
    expect(result.isError).to.equal(true);
    expect(located(result)).to.deep.equal(['app.py:1:8 error F401']);
    expect(result.structuredContent.changedFiles).to.deep.equal([]);
    const after = snapshot(root);
    // ruff keeps its cache in .ruff_cache (tagged with CACHEDIR.TAG); the sources are untouched.
    for (const file of Object.keys(after)) if (file.startsWith('.ruff_cache/')) delete after[file];
    expect(after).to.deep.equal(before);

    fs.writeFileSync(path.join(root, 'app.py'), 'print(1)\n');
    const clean = await runTool(root, 'ruff');
    expect(clean.isError).to.equal(false);
  });
});

/** The Vite react-ts shape: a solution tsconfig referencing the app and the node projects. */
function viteRepo(app) {
  return makeRepo({
    'package.json': { name: 'vite-app', private: true, type: 'module' },
    'tsconfig.json':
      '{\n  "files": [],\n  "references": [{ "path": "./tsconfig.app.json" }, { "path": "./tsconfig.node.json" }]\n}\n',
    'tsconfig.app.json': `{
  "compilerOptions": {
    "tsBuildInfoFile": "./node_modules/.tmp/tsconfig.app.tsbuildinfo",
    "target": "ES2022",
    "lib": ["ES5"], // the template has ES2022 + DOM; the smallest lib keeps tsc quick
    "module": "ESNext",
    "moduleResolution": "bundler",
    "jsx": "react-jsx",
    /* Linting */
    "strict": true,
    "noEmit": true,
    "skipLibCheck": true,
  },
  "include": ["src"]
}
`,
    'tsconfig.node.json': `{
  "compilerOptions": {
    "tsBuildInfoFile": "./node_modules/.tmp/tsconfig.node.tsbuildinfo",
    "target": "ES2023",
    "lib": ["ES5"],
    "module": "ESNext",
    "moduleResolution": "bundler",
    "types": [],
    "strict": true,
    "noEmit": true,
    "skipLibCheck": true
  },
  "include": ["vite.config.ts"]
}
`,
    'vite.config.ts': 'export default { plugins: [] };\n',
    'src/App.tsx': app,
    'src/main.tsx': "import { App } from './App';\nexport const title: string = App();\n",
  });
}

/** Two composite packages; b references a and imports it. */
function monorepo(aSource) {
  const composite = (references) =>
    JSON.stringify({
      extends: '../../tsconfig.base.json',
      compilerOptions: { composite: true, outDir: 'dist', rootDir: 'src' },
      include: ['src'],
      ...(references ? { references } : {}),
    });
  return makeRepo({
    'tsconfig.base.json': {
      // The smallest lib and no @types keep each tsc run short; nothing here needs more.
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        target: 'es2022',
        lib: ['es5'],
        types: [],
      },
    },
    'tsconfig.json': { files: [], references: [{ path: 'packages/a' }, { path: 'packages/b' }] },
    'packages/a/package.json': { name: 'a', type: 'module' },
    'packages/a/tsconfig.json': composite(),
    'packages/a/src/index.ts': aSource,
    'packages/b/package.json': { name: 'b', type: 'module' },
    'packages/b/tsconfig.json': composite([{ path: '../a' }]),
    'packages/b/src/index.ts':
      "import { twice } from '../../a/src/index.js';\nexport const four: number = twice(2);\n",
  });
}

describe('typecheck follows project references', function () {
  // Real tsc runs; on a loaded machine one small project can take several seconds.
  this.timeout(120000);
  afterEach(cleanupTemporary);

  const cleanApp = 'export function App(): string {\n  return "hello";\n}\n';

  it('Vite react-ts: an error in src/App.tsx fails, the clean app passes, nothing is written', async () => {
    const root = viteRepo(
      'export function App(): string {\n  const count: number = "one";\n  return String(count);\n}\n',
    );
    const gate = detectGates(root).gates.find((candidate) => candidate.name === 'typecheck');
    expect(gate).to.include({ prepare: 'tsc-build' });
    expect(gate.command).to.deep.equal([
      'tsc',
      '-b',
      'tsconfig.json',
      '--force',
      '--pretty',
      'false',
    ]);
    const before = snapshot(root);
    const result = await runTool(root, 'typecheck');
    expect(result.isError).to.equal(true);
    expect(located(result)).to.deep.equal(['src/App.tsx:2:9 error TS2322']);
    expect(snapshot(root)).to.deep.equal(before);
    expect(result.structuredContent.command[2]).to.not.include(root);

    fs.writeFileSync(path.join(root, 'src/App.tsx'), cleanApp);
    const clean = await runTool(root, 'typecheck');
    expect(clean.isError, clean.text).to.equal(false);
    expect(fs.existsSync(path.join(root, 'node_modules'))).to.equal(false);
    // The private directory is gone after the run.
    expect(fs.existsSync(path.dirname(clean.structuredContent.command[2]))).to.equal(false);
  });

  it('Vite react-ts with "types": ["vite/client"]: types resolve as from the original configs, nothing is left behind', async () => {
    // The template's tsconfig.app.json names "vite/client"; TypeScript resolves it (and the
    // automatic @types) from the directory of the config it is given.
    const root = viteRepo('export function App(): string {\n  return __APP_NAME__;\n}\n');
    const appConfig = path.join(root, 'tsconfig.app.json');
    fs.writeFileSync(
      appConfig,
      fs
        .readFileSync(appConfig, 'utf8')
        .replace('"noEmit": true,', '"noEmit": true,\n    "types": ["vite/client"],'),
    );
    fs.mkdirSync(path.join(root, 'node_modules/vite'), { recursive: true });
    fs.writeFileSync(
      path.join(root, 'node_modules/vite/package.json'),
      '{"name":"vite","version":"8.0.0"}\n',
    );
    fs.writeFileSync(
      path.join(root, 'node_modules/vite/client.d.ts'),
      'declare const __APP_NAME__: string;\n',
    );
    const before = snapshot(root);
    const clean = await runTool(root, 'typecheck');
    expect(clean.isError, clean.text).to.equal(false);
    expect(snapshot(root)).to.deep.equal(before);
    expect(fs.existsSync(path.join(root, 'node_modules/.cache'))).to.equal(false);

    fs.writeFileSync(
      path.join(root, 'src/App.tsx'),
      'export function App(): number {\n  return __APP_NAME__;\n}\n',
    );
    const failing = await runTool(root, 'typecheck');
    expect(located(failing)).to.deep.equal([
      'src/App.tsx:2:3 error TS2322',
      'src/main.tsx:2:14 error TS2322',
    ]);
  });

  it('monorepo: errors in the referenced and the referencing composite package fail', async () => {
    const twice = 'export function twice(n: number): number {\n  return n * 2;\n}\n';
    const root = monorepo(`${twice}export const label: string = 42;\n`);
    const b = path.join(root, 'packages/b/src/index.ts');
    const bClean = fs.readFileSync(b, 'utf8');
    fs.appendFileSync(b, 'export const bad: string = twice(1);\n');
    const before = snapshot(root);
    const result = await runTool(root, 'typecheck');
    expect(result.isError).to.equal(true);
    expect(located(result)).to.deep.equal([
      'packages/a/src/index.ts:4:14 error TS2322',
      'packages/b/src/index.ts:3:14 error TS2322',
    ]);
    // No dist/, no .tsbuildinfo: the declarations b needs went to the private directory.
    expect(snapshot(root)).to.deep.equal(before);

    fs.writeFileSync(path.join(root, 'packages/a/src/index.ts'), twice);
    fs.writeFileSync(b, bClean);
    const cleanTree = snapshot(root);
    const clean = await runTool(root, 'typecheck');
    expect(clean.isError, clean.text).to.equal(false);
    expect(snapshot(root)).to.deep.equal(cleanTree);
  });

  it("a script that is `tsc --build` runs in build mode with its outputs kept out of the tree, ignored paths included (vuejs/pinia's test:types)", async () => {
    const root = monorepo(
      'export function twice(n: number): number {\n  return n * 2;\n}\nexport const label: string = 42;\n',
    );
    fs.writeFileSync(
      path.join(root, 'package.json'),
      JSON.stringify({ name: 'm', scripts: { 'test:types': 'tsc --build ./tsconfig.json' } }),
    );
    // dist/ is ignored: the tree watch would not see a .tsbuildinfo written there.
    fs.writeFileSync(path.join(root, '.gitignore'), 'dist/\n');
    const gates = detectGates(root).gates;
    const typecheck = gates.find((gate) => gate.name === 'typecheck');
    expect(typecheck).to.include({ prepare: 'tsc-build', parser: 'tsc' });
    const before = snapshot(root);
    const result = await runTool(root, 'typecheck', { gates });
    expect(located(result)).to.deep.equal(['packages/a/src/index.ts:4:14 error TS2322']);
    expect(snapshot(root)).to.deep.equal(before);
    expect(fs.existsSync(path.join(root, 'packages/a/dist'))).to.equal(false);
  });

  it('plans wrappers that move every output out of the tree, and notes types read from build output', () => {
    const root = monorepo('export const one = 1;\n');
    fs.writeFileSync(
      path.join(root, 'packages/a/package.json'),
      JSON.stringify({ name: 'a', exports: { '.': { types: './dist/index.d.ts' } } }),
    );
    const plan = planTscBuild(root, 'tsc', 'tsconfig.json');
    try {
      expect(plan.argv.slice(0, 2)).to.deep.equal(['tsc', '-b']);
      const wrappers = fs.readdirSync(plan.cacheDirectory).filter((f) => f.endsWith('.json'));
      expect(wrappers).to.have.length(3);
      for (const file of wrappers) {
        const config = JSON.parse(fs.readFileSync(path.join(plan.cacheDirectory, file), 'utf8'));
        const outputs = [config.compilerOptions.outDir, config.compilerOptions.tsBuildInfoFile];
        for (const output of outputs)
          expect(output.startsWith(plan.cacheDirectory.split(path.sep).join('/'))).to.equal(true);
      }
      expect(plan.notes).to.have.length(2);
      expect(plan.notes[0]).to.include('tsconfig.json and the 2 project(s) it references');
      expect(plan.notes[1]).to.include('packages/a/dist/index.d.ts');
    } finally {
      plan.cleanup();
    }
  });

  it('notes a project that references none as such (pinia), not as "the 0 project(s)"', () => {
    const root = makeRepo({
      'tsconfig.json': { compilerOptions: { strict: true, types: [] }, include: ['src'] },
      'src/main.ts': 'export const n = 1;\n',
    });
    const plan = planTscBuild(root, 'tsc', 'tsconfig.json');
    try {
      expect(plan.notes[0]).to.match(
        /^checks tsconfig\.json \(it references no other project\) through a wrapper config \(in a private directory/,
      );
    } finally {
      plan.cleanup();
    }
  });

  it("removes the wrapper directories a killed run left in node_modules/.cache, never a live run's", () => {
    // A host that kills a hook at its timeout ends the run before its cleanup: pinia's
    // `tsc --build` killed (TERM or KILL) left node_modules/.cache/mcp-gates-tsc-* in the tree.
    const root = makeRepo({
      'tsconfig.json': { compilerOptions: { strict: true, types: [] }, include: ['src'] },
      'src/main.ts': 'export const n = 1;\n',
    });
    const cache = path.join(root, 'node_modules', '.cache');
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const left = path.join(cache, `mcp-gates-tsc-${gone}-AbC123`);
    const live = path.join(cache, `mcp-gates-tsc-${process.pid}-XyZ789`);
    for (const directory of [left, live]) {
      fs.mkdirSync(directory, { recursive: true });
      fs.writeFileSync(path.join(directory, 'project-0.tsconfig.json'), '{}');
    }
    const plan = planTscBuild(root, 'tsc', 'tsconfig.json');
    try {
      expect(fs.existsSync(left)).to.equal(false);
      expect(fs.existsSync(live)).to.equal(true);
    } finally {
      plan.cleanup();
    }
    expect(fs.readdirSync(cache)).to.deep.equal([path.basename(live)]);
  });

  it('a shared base with ${configDir} still means each project directory', async () => {
    const root = makeRepo({
      'tsconfig.base.json': {
        compilerOptions: { strict: true, lib: ['es5'], types: [], outDir: '${configDir}/dist' },
        include: ['${configDir}/src'],
      },
      'tsconfig.json': { files: [], references: [{ path: 'app' }] },
      'app/tsconfig.json': { extends: '../tsconfig.base.json' },
      'app/src/main.ts': 'export const n: number = "x";\n',
    });
    const before = snapshot(root);
    const result = await runTool(root, 'typecheck');
    expect(located(result)).to.deep.equal(['app/src/main.ts:1:14 error TS2322']);
    expect(snapshot(root)).to.deep.equal(before);
  });

  it('"files": [] without references fails, never passes (own or inherited)', async () => {
    const own = makeRepo({
      'tsconfig.json': '{ "files": [] }\n',
      'a.ts': 'export const x: number = "s";\n',
    });
    const result = await runTool(own, 'typecheck');
    expect(result.isError).to.equal(true);
    expect(result.text).to.include('list no input files').and.include('check nothing');
    // tsc -b exits 0 on this one: the plan refuses it before tsc runs.
    const inherited = makeRepo({
      'base.json': { files: [] },
      'tsconfig.json': { extends: './base.json' },
      'a.ts': 'export const x: number = "s";\n',
    });
    const second = await runTool(inherited, 'typecheck');
    expect(second.isError).to.equal(true);
    expect(second.text).to.include('check nothing');
  });

  it('a tsconfig that matches no input (TS18003) checked nothing: never a pass', async () => {
    const root = makeRepo({ 'tsconfig.json': { include: ['src'] }, 'a.ts': 'export {};\n' });
    const result = await runTool(root, 'typecheck');
    expect(result.structuredContent).to.include({ status: 'nothing-checked', passed: false });
    expect(result.isError).to.equal(false);
    expect(result.text).to.include('TS18003');
  });

  it('an incremental project checked with --noEmit writes no .tsbuildinfo', async () => {
    const root = makeRepo({
      'tsconfig.json': {
        compilerOptions: { incremental: true, strict: true, lib: ['es5'], types: [] },
      },
      'a.ts': 'export const x: number = 1;\n',
    });
    const before = snapshot(root);
    const result = await runTool(root, 'typecheck');
    expect(result.isError, result.text).to.equal(false);
    expect(result.structuredContent.command).to.include('--tsBuildInfoFile');
    expect(snapshot(root)).to.deep.equal(before);
  });

  it('uses vue-tsc where the repository depends on it (argv)', () => {
    const references = makeRepo({
      'package.json': { devDependencies: { 'vue-tsc': '^2.0.0' } },
      'tsconfig.json': { files: [], references: [{ path: './tsconfig.app.json' }] },
    });
    expect(detectGates(references).gates.find((g) => g.name === 'typecheck')).to.deep.include({
      command: ['vue-tsc', '-b', 'tsconfig.json', '--force', '--pretty', 'false'],
      prepare: 'tsc-build',
    });
    const plain = makeRepo({
      'package.json': { devDependencies: { 'vue-tsc': '^2.0.0' } },
      'tsconfig.json': { include: ['src'] },
    });
    expect(detectGates(plain).gates.find((g) => g.name === 'typecheck')).to.deep.include({
      command: ['vue-tsc', '--noEmit', '--pretty', 'false'],
      prepare: 'tsc-noemit',
    });
  });

  it('reads tsconfig comments and trailing commas without touching strings', () => {
    const text = '{ // c\n "paths": { "@/*": ["./src/*"] }, /* b */ "a": "x//y",\n}';
    expect(JSON.parse(stripJsonComments(text))).to.deep.equal({
      paths: { '@/*': ['./src/*'] },
      a: 'x//y',
    });
  });
});

const UGLY = 'const   a  =  1\n';
const PRETTY = 'const a = 1;\n';

/** A repo whose only badly formatted files are vendored (.yarn) or ignored (dist/, .gitignore). */
function prettierRepo(extra = {}) {
  return makeRepo({
    '.prettierrc': '{}\n',
    '.gitignore': 'dist\n',
    '.yarn/releases/yarn-4.cjs': UGLY,
    'dist/bundle.js': UGLY,
    'build/out.js': UGLY,
    'src/ok.js': PRETTY,
    ...extra,
  });
}

describe('the prettier marker gate honours the repository scope', function () {
  this.timeout(90000);
  afterEach(cleanupTemporary);

  const versions = [['3', () => undefined]];
  versions.push(['2', installPrettier2]);

  for (const [major, provide] of versions) {
    describe(`prettier ${major}`, () => {
      let modules;
      before(function () {
        if (major === '2') {
          modules = provide();
          // reason: prettier 2 is installed with npm at test time; without the registry it cannot be.
          if (!modules) this.skip();
        }
      });

      /** Links prettier 2 into the repo's node_modules so detection and lookup both find it. */
      function withVersion(root) {
        if (!modules) return root;
        fs.mkdirSync(path.join(root, 'node_modules', '.bin'), { recursive: true });
        fs.symlinkSync(path.join(modules, 'prettier'), path.join(root, 'node_modules', 'prettier'));
        fs.symlinkSync(
          path.join(modules, 'prettier', 'bin-prettier.js'),
          path.join(root, 'node_modules', '.bin', 'prettier'),
        );
        return root;
      }

      it('check passes a clean repo; fix leaves vendored and ignored files byte-identical', async () => {
        const root = withVersion(prettierRepo());
        const gate = detectGates(root).gates.find((candidate) => candidate.name === 'format');
        expect(gate.command).to.include('!**/.yarn/**');
        const before = snapshot(root);
        const check = await runTool(root, 'format');
        expect(check.isError, check.text).to.equal(false);
        if (major === '2') expect(check.text).to.match(/prettier[/\\]bin-prettier|--check/);
        const fix = await runTool(root, 'format_fix');
        expect(fix.isError, fix.text).to.equal(false);
        expect(fix.structuredContent.changedFiles).to.deep.equal([]);
        expect(snapshot(root)).to.deep.equal(before);
      });

      it('check fails on the badly formatted source; fix rewrites only it', async () => {
        const root = withVersion(prettierRepo({ 'src/bad.js': UGLY }));
        const before = snapshot(root);
        const check = await runTool(root, 'format');
        expect(check.isError).to.equal(true);
        expect(check.structuredContent.findings.map((f) => f.file)).to.deep.equal(['src/bad.js']);
        expect(snapshot(root)).to.deep.equal(before);
        const fix = await runTool(root, 'format_fix');
        expect(fix.structuredContent.changedFiles).to.deep.equal(['src/bad.js']);
        expect(fs.readFileSync(path.join(root, 'src/bad.js'), 'utf8')).to.equal(PRETTY);
        const after = snapshot(root);
        delete after['src/bad.js'];
        delete before['src/bad.js'];
        expect(after).to.deep.equal(before);
      });

      it('points the whole-file finding at the first line prettier would change', async () => {
        const root = withVersion(
          prettierRepo({ 'src/bad.js': `${PRETTY}const b = 2;\n${UGLY}const c = 3;\n` }),
        );
        const before = snapshot(root);
        const check = await runTool(root, 'format');
        expect(located(check)).to.deep.equal(['src/bad.js:3:null error prettier']);
        expect(snapshot(root)).to.deep.equal(before);
      });
    });
  }

  it('turns a .gitignore into prettier 2 negative patterns', () => {
    expect(
      gitignoreAsNegativePatterns('# c\ndist\n/coverage/\nlogs/*.log\n!keep.js\n\n'),
    ).to.deep.equal([
      '!**/dist',
      '!**/dist/**',
      '!coverage',
      '!coverage/**',
      '!logs/*.log',
      '!logs/*.log/**',
    ]);
  });

  it('reads the prettier version from node_modules: 2 gets one --ignore-path', () => {
    const root = makeTempDir();
    fs.mkdirSync(path.join(root, 'node_modules/prettier'), { recursive: true });
    fs.writeFileSync(path.join(root, 'node_modules/prettier/package.json'), '{"version": "2.8.8"}');
    fs.writeFileSync(path.join(root, '.prettierrc'), '{}');
    fs.writeFileSync(path.join(root, '.gitignore'), 'generated\n');
    const gate = detectGates(root).gates.find((candidate) => candidate.name === 'format');
    expect(gate.command.filter((arg) => arg === '--ignore-path')).to.have.length(1);
    expect(gate.command).to.include.members(['!**/generated/**', '!**/.yarn/**', '!**/dist/**']);
    expect(gate.fix.slice(0, 2)).to.deep.equal(['prettier', '--write']);
  });
});

// One home per tool, the project's environment first, changed scope that respects
// environments, and checks that write nothing anywhere under the root (issue 20, items
// 1, 5, 6 and 7). Real tools: prettier from devDependencies; ruff, mypy and git when
// installed (each skip says which is missing).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { createGateTools, detectGates, findParser } from '../dist/gates/index.js';
import { leadingBuildStep } from '../dist/gates/detect/build-steps.js';
import { listChangedFiles } from '../dist/gates/run/changed-files.js';
import { resolveCommand } from '../dist/gates/run/resolve-command.js';
import { poetryEnvironmentName } from '../dist/gates/run/project-environments.js';
import { TOOLS, toolOfProgram } from '../dist/gates/tools/index.js';
import {
  cleanupTemporary,
  envWithTools,
  gitRepo,
  hasCommand,
  installPrettier2,
  makeRepo,
  makeTempDir,
  runCli,
  TOOL_BIN,
  toolContext,
} from './fixtures/gates-support.mjs';

const posix = process.platform !== 'win32';
const hasGit = hasCommand('git');
const TOOLS_SOURCE = fileURLToPath(new URL('../src/gates/tools/', import.meta.url));

/** Every entry under root (directories too, hidden ones included) with its size and mtime. */
function fullListing(root) {
  const listing = new Map();
  const visit = (relative) => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      const stat = fs.lstatSync(path.join(root, child), { bigint: true });
      listing.set(child, `${entry.isDirectory() ? 'dir' : stat.size}:${stat.mtimeNs}`);
      if (entry.isDirectory()) visit(child);
    }
  };
  visit('');
  return listing;
}

/** The entries added, removed or changed between two listings. */
function listingChanges(before, after) {
  const changed = [];
  for (const [file, state] of after) if (before.get(file) !== state) changed.push(file);
  for (const file of before.keys()) if (!after.has(file)) changed.push(file);
  return changed.sort();
}

/** Runs one gate tool of the root's detected (or given) gates, cold. */
async function runTool(root, name, { gates = detectGates(root).gates, args = {}, env } = {}) {
  const tools = createGateTools(gates, { root, env: env ?? envWithTools() });
  const tool = tools.find((candidate) => candidate.name === name);
  expect(tool, `${name} among ${tools.map((t) => t.name)}`).to.not.equal(undefined);
  return tool.run(args, toolContext());
}

/** Writes an executable sh script. */
function script(file, body) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`);
  fs.chmodSync(file, 0o755);
}

/** A virtual environment as `python -m venv` lays it out (only what the lookup reads). */
function fakeVirtualEnvironment(directory, programs) {
  fs.mkdirSync(path.join(directory, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(directory, 'pyvenv.cfg'), 'home = /usr/bin\n');
  for (const [name, body] of Object.entries(programs))
    script(path.join(directory, 'bin', name), body);
}

describe('tool registry (one home per tool)', () => {
  it('lists every module in src/gates/tools, and every program runs one tool', () => {
    const modules = fs
      .readdirSync(TOOLS_SOURCE)
      .filter((file) => !['tool.ts', 'index.ts', 'shared.ts'].includes(file));
    for (const file of modules) {
      const text = fs.readFileSync(path.join(TOOLS_SOURCE, file), 'utf8');
      const exported = [...text.matchAll(/export const (\w+): ToolDescriptor/g)].length;
      expect(exported, `${file} declares a tool`).to.be.greaterThan(0);
    }
    const programs = TOOLS.flatMap((tool) => tool.programs);
    expect(new Set(programs).size, 'a program claimed by two tools').to.equal(programs.length);
    expect(new Set(TOOLS.map((tool) => tool.name)).size).to.equal(TOOLS.length);
  });

  it("names parsers the parser registry serves, and detection's gates use them", () => {
    for (const tool of TOOLS)
      for (const { parser } of tool.outputs)
        expect(findParser(parser.name), `${tool.name}: ${parser.name}`).to.equal(parser);
    const root = makeRepo({
      'ruff.toml': '',
      '.prettierrc': '{}\n',
      'package.json': { name: 'app' },
    });
    for (const gate of detectGates(root).gates) {
      const tool = TOOLS.find((candidate) =>
        candidate.outputs.some((output) => output.parser.name === gate.parser),
      );
      expect(tool, `${gate.name} reads ${gate.parser}`).to.not.equal(undefined);
    }
  });
});

describe("the project's environment first", () => {
  afterEach(cleanupTemporary);

  it('runs .venv/bin/mypy and .venv/bin/ruff over PATH, and says why', async function () {
    if (!posix) this.skip(); // reason: the fake programs are sh scripts
    const root = makeRepo({
      'pyproject.toml': '[tool.mypy]\nstrict = true\n\n[tool.ruff]\nline-length = 100\n',
      'app.py': 'x = 1\n',
    });
    fakeVirtualEnvironment(path.join(root, '.venv'), {
      mypy: "echo 'app.py:1:1: error: from the project venv  [venv-marker]'; exit 1",
      ruff: "echo 'ruff from the project venv' >&2; echo '[]'",
    });
    // PATH holds a mypy and a ruff of its own, which must lose.
    const elsewhere = makeTempDir('mcp-gates-path-');
    script(
      path.join(elsewhere, 'mypy'),
      "echo 'app.py:1:1: error: from PATH  [path-marker]'; exit 1",
    );
    script(path.join(elsewhere, 'ruff'), "echo 'ruff from PATH' >&2; echo '[]'");
    const env = envWithTools({ PATH: `${elsewhere}${path.delimiter}${process.env.PATH}` });

    const resolved = resolveCommand(['mypy'], root, env);
    expect(resolved).to.include({ ok: true, file: path.join(root, '.venv', 'bin', 'mypy') });
    expect(resolved.origin).to.include('.venv').and.include('pyvenv.cfg');
    const mypy = await runTool(root, 'mypy', { env });
    expect(mypy.structuredContent.findings.map((finding) => finding.rule)).to.deep.equal([
      'venv-marker',
    ]);
    const ruff = await runTool(root, 'ruff', { env });
    expect(ruff.text).to.include('ruff from the project venv');
    expect(ruff.text).to.not.include('ruff from PATH');

    const doctor = runCli(['doctor', '--json', '--root', root], { env });
    const detected = JSON.parse(doctor.stdout).detected;
    const mypyCheck = detected.find((gate) => gate.name === 'mypy');
    expect(mypyCheck.program.resolved).to.equal(path.join(root, '.venv', 'bin', 'mypy'));
    expect(mypyCheck.program.origin).to.include('.venv (it holds pyvenv.cfg)');
  });

  it('takes a directory as an environment only when it holds pyvenv.cfg', function () {
    if (!posix) this.skip(); // reason: the fake programs are sh scripts
    const root = makeRepo({ 'app.py': 'x = 1\n' });
    script(path.join(root, 'venv', 'bin', 'only-in-venv'), 'echo hi');
    const env = { PATH: '/usr/bin:/bin' };
    expect(resolveCommand(['only-in-venv'], root, env)).to.include({ ok: false });
    fs.writeFileSync(path.join(root, 'venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
    expect(resolveCommand(['only-in-venv'], root, env)).to.include({
      ok: true,
      file: path.join(root, 'venv', 'bin', 'only-in-venv'),
    });
  });

  it("finds Poetry's environment for the project from its cache, without running poetry", function () {
    if (!posix) this.skip(); // reason: the fake programs are sh scripts
    const root = makeRepo({ 'pyproject.toml': '[tool.poetry]\nname = "My App"\n' });
    const store = makeTempDir('mcp-gates-poetry-');
    const name = poetryEnvironmentName('My App', root);
    expect(name).to.match(/^my_app-[A-Za-z0-9_-]{8}$/);
    fakeVirtualEnvironment(path.join(store, `${name}-py3.12`), { 'poetry-tool': 'echo hi' });
    const env = { PATH: '/usr/bin:/bin', POETRY_VIRTUALENVS_PATH: store };
    const resolved = resolveCommand(['poetry-tool'], root, env);
    expect(resolved).to.include({
      ok: true,
      file: path.join(store, `${name}-py3.12`, 'bin', 'poetry-tool'),
    });
    expect(resolved.origin).to.include('Poetry');
  });
});

describe('changed scope respects environments', () => {
  afterEach(cleanupTemporary);

  it('lists the one real change, not an untracked .venv, a pyvenv.cfg directory or node_modules', async function () {
    if (!hasGit) this.skip(); // reason: git is not installed
    const root = gitRepo({ 'app.py': 'x = 1\n', '.gitignore': '' });
    fs.writeFileSync(path.join(root, 'app.py'), 'x = 2\n');
    for (let index = 0; index < 300; index += 1) {
      const file = path.join(root, '.venv', 'lib', 'site-packages', `pkg${index}`, 'mod.py');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'import os\n');
    }
    fs.writeFileSync(path.join(root, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
    fakeVirtualEnvironment(path.join(root, 'env-3.12'), { python: 'exit 0' });
    fs.writeFileSync(path.join(root, 'env-3.12', 'site.py'), 'import os\n');
    fs.mkdirSync(path.join(root, 'web', 'node_modules', 'dep'), { recursive: true });
    fs.writeFileSync(path.join(root, 'web', 'node_modules', 'dep', 'index.js'), '');
    fs.writeFileSync(path.join(root, 'new.py'), 'y = 1\n');
    expect(await listChangedFiles(root)).to.deep.equal(['app.py', 'new.py']);
  });

  it("keeps ruff's own excludes for a changed list (--force-exclude)", async function () {
    if (!hasGit) this.skip(); // reason: git is not installed
    if (!hasCommand('ruff')) this.skip(); // reason: ruff is not installed
    const root = gitRepo({
      'ruff.toml': 'extend-exclude = ["generated"]\n',
      'app.py': 'x = 1\n',
      'generated/out.py': 'x = 1\n',
    });
    fs.writeFileSync(path.join(root, 'app.py'), 'x = 2\n');
    // An unused import in a file the repository excludes: never a finding.
    fs.writeFileSync(path.join(root, 'generated', 'out.py'), 'import os\n');
    const result = await runTool(root, 'ruff', { args: { scope: 'changed' } });
    expect(result.structuredContent.command).to.include('--force-exclude');
    expect(result.structuredContent.scope.checkedFiles).to.equal(2);
    expect(result.structuredContent.findings).to.deep.equal([]);
    expect(result.structuredContent.passed).to.equal(true);
  });
});

describe('a check writes nothing anywhere under the root', function () {
  this.timeout(60000);
  afterEach(cleanupTemporary);

  /** Runs the gate and returns every entry under the root it added, removed or touched. */
  async function writesOf(root, gate) {
    const before = fullListing(root);
    const result = await runTool(root, gate);
    const changed = listingChanges(before, fullListing(root));
    return { result, changed };
  }

  /** A repository whose node_modules holds the prettier package at `modules`. */
  function prettierRepo(modules) {
    const root = gitRepo({
      'package.json': { name: 'app', private: true },
      '.prettierrc': '{}\n',
      '.gitignore': 'node_modules\n',
      'src/app.js': 'export const a = 1;\n',
    });
    fs.mkdirSync(path.join(root, 'node_modules', '.bin'), { recursive: true });
    fs.symlinkSync(path.join(modules, 'prettier'), path.join(root, 'node_modules', 'prettier'));
    const bin = path.join(modules, '.bin', 'prettier');
    fs.symlinkSync(fs.realpathSync(bin), path.join(root, 'node_modules', '.bin', 'prettier'));
    return root;
  }

  const prettiers = [
    // 3.10 no longer creates its cache directory unasked; 2.8 to 3.x before it did.
    ['3 (devDependencies)', () => path.dirname(TOOL_BIN), false],
    ['2.8', installPrettier2, true],
  ];
  for (const [version, provide, plainWrites] of prettiers) {
    it(`prettier ${version} --check: nothing written, node_modules/.cache included`, async function () {
      if (!posix) this.skip(); // reason: the fixture links node_modules with symlinks
      const modules = provide();
      if (!modules) this.skip(); // reason: prettier 2 is installed with npm at test time; without the registry it cannot be
      const root = prettierRepo(modules);
      const { result, changed } = await writesOf(root, 'format');
      expect(result.structuredContent.passed).to.equal(true);
      expect(changed).to.deep.equal([]);
      // The writer the gate avoids: the same prettier run as it is.
      const plain = spawnSync(
        path.join(root, 'node_modules', '.bin', 'prettier'),
        ['--check', 'src'],
        {
          cwd: root,
        },
      );
      expect(plain.status).to.equal(0);
      const cache = path.join(root, 'node_modules', '.cache', 'prettier');
      expect(fs.existsSync(cache), 'plain prettier creates its cache directory').to.equal(
        plainWrites,
      );
    });
  }

  it('ruff check and ruff format --check: no .ruff_cache', async function () {
    if (!hasCommand('ruff')) this.skip(); // reason: ruff is not installed
    const root = gitRepo({ 'ruff.toml': '', '.gitignore': '.ruff_cache\n', 'app.py': 'x = 1\n' });
    for (const gate of ['ruff', 'ruff_format']) {
      const { result, changed } = await writesOf(root, gate);
      expect(result.structuredContent.passed, gate).to.equal(true);
      expect(changed, gate).to.deep.equal([]);
    }
    spawnSync('ruff', ['check', '.'], { cwd: root });
    expect(fs.existsSync(path.join(root, '.ruff_cache')), 'plain ruff writes it').to.equal(true);
  });

  it('mypy: no .mypy_cache', async function () {
    if (!hasCommand('mypy')) this.skip(); // reason: mypy is not installed
    const root = gitRepo({
      'mypy.ini': '[mypy]\n',
      '.gitignore': '.mypy_cache\n',
      'app.py': 'x: int = 1\n',
    });
    const { result, changed } = await writesOf(root, 'mypy');
    expect(result.structuredContent.passed).to.equal(true);
    expect(changed).to.deep.equal([]);
    spawnSync('mypy', ['app.py'], { cwd: root });
    expect(fs.existsSync(path.join(root, '.mypy_cache')), 'plain mypy writes it').to.equal(true);
  });

  it('the tree watch sees a write into an ignored cache a tool is known to use', async function () {
    if (!hasGit) this.skip(); // reason: git is not installed
    const root = gitRepo({
      '.gitignore': '.ruff_cache\n',
      'write.mjs':
        "import fs from 'node:fs';\nfs.mkdirSync('.ruff_cache', { recursive: true });\nfs.writeFileSync('.ruff_cache/entry', 'x');\n",
    });
    const gates = [
      {
        name: 'writer',
        description: 'writes into an ignored cache',
        command: [process.execPath, 'write.mjs'],
        fix: null,
        parser: 'generic',
        timeoutMs: 30000,
        paths: 'none',
        source: 'config',
      },
    ];
    const result = await runTool(root, 'writer', { gates });
    expect(result.structuredContent.passed).to.equal(false);
    expect(result.structuredContent.changedFiles).to.deep.equal([
      '.ruff_cache/',
      '.ruff_cache/entry',
    ]);
  });
});

describe('a script that starts by building', () => {
  afterEach(cleanupTemporary);

  it('is reported as writing build outputs, in its description and in list', () => {
    const root = makeRepo({
      'package.json': {
        name: 'app',
        scripts: {
          check: 'pnpm build:packages && pnpm -r check',
          lint: 'eslint . && tsc --noEmit',
        },
      },
      'pnpm-lock.yaml': '',
    });
    const gates = detectGates(root).gates;
    const check = gates.find((gate) => gate.name === 'check');
    expect(check.description).to.include('writes build outputs').and.include('pnpm build:packages');
    const lint = gates.find((gate) => gate.name === 'lint');
    expect(lint.description).to.not.include('build outputs');
    const listed = JSON.parse(runCli(['list', '--json', '--root', root]).stdout);
    expect(listed.find((row) => row.name === 'check').writes).to.include('pnpm build:packages');
    expect(listed.find((row) => row.name === 'lint')).to.not.have.property('writes');
    expect(runCli(['list', '--root', root]).stdout).to.match(/writes: {2}build outputs/);
  });

  it('knows build steps from checks', () => {
    expect(leadingBuildStep('npm run build && npm run lint')).to.equal('npm run build');
    expect(leadingBuildStep('tsc -p . && eslint .')).to.equal('tsc -p .');
    expect(leadingBuildStep('tsc --noEmit && eslint .')).to.equal(undefined);
    expect(leadingBuildStep('pnpm lint && pnpm build')).to.equal(undefined);
    expect(leadingBuildStep('pnpm build')).to.equal(undefined);
  });
});

describe('tool lookup by program', () => {
  it('finds the tool behind a path or a Windows shim name', () => {
    expect(toolOfProgram('/x/node_modules/.bin/prettier.cmd')?.name).to.equal('prettier');
    expect(toolOfProgram('cargo')?.name).to.equal('clippy');
    expect(toolOfProgram('make')).to.equal(undefined);
  });
});

// The packed tarball, installed as a user would, in four set-ups: with a prebuild and no
// compiler (native from the prebuild); no prebuild and no compiler (installs, degraded,
// doctor says why); no prebuild and a compiler (builds, native); no prebuild and a broken
// toolchain (installs degraded, the build failure shown). Slow (prebuild, packs, installs).
// Everything is built and packed in a temp staging copy: `npm test` leaves the clone as
// it was (no prebuilds/ written into it).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { NPM_CLI } from './fixtures/gates-support.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

const PROBE = `
import { spawn } from 'node:child_process';
import { captureMode, childStdio, withCapture } from 'mcp-gates';
const mode = captureMode();
const tool = await withCapture(async () => {
  console.error('P-console-error');
  const script = "process.stdout.write('P-child-stdout\\\\n')";
  const child = spawn(process.execPath, ['-e', script], { stdio: childStdio() });
  await new Promise((resolve) => child.on('close', resolve));
  return { text: 'probe' };
}, { toolName: 'probe', signal: new AbortController().signal });
console.log(JSON.stringify({ mode, text: tool.text }));
`;

/**
 * Not copied into the staging copy: installs, build output, VCS and bench scratch, and the
 * tests (not in package.json's files; their fixtures were most of the copy's CPU).
 */
const NOT_STAGED = new Set(['node_modules', '.git', 'build', 'prebuilds', 'bench', 'test']);

let work;
let tarballs; // { prebuild, bare }: with and without a prebuild for this platform
let prebuildExisted;

/** A directory of symlinks: node and sh (npm runs scripts through sh), plus `extra`. */
function binDirectory(name, extra = {}) {
  const bin = path.join(work, name);
  fs.mkdirSync(bin);
  fs.symlinkSync(process.execPath, path.join(bin, 'node'));
  fs.symlinkSync('/bin/sh', path.join(bin, 'sh'));
  for (const [file, script] of Object.entries(extra))
    fs.writeFileSync(path.join(bin, file), script, { mode: 0o755 });
  return bin;
}

/** A fresh project with the tarball installed under PATH=`pathValue`. */
function installProject(name, tarball, pathValue, env = {}) {
  const project = path.join(work, name);
  fs.mkdirSync(project);
  fs.writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'probe', type: 'module', private: true }),
  );
  fs.writeFileSync(path.join(project, 'probe.mjs'), PROBE);
  const install = spawnSync(
    process.execPath,
    [
      NPM_CLI,
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      // Dependencies' install scripts are silent unless they fail: show ours.
      '--foreground-scripts',
      tarball,
    ],
    { cwd: project, env: { ...process.env, ...env, PATH: pathValue }, encoding: 'utf8' },
  );
  return { project, install, installed: path.join(project, 'node_modules', 'mcp-gates') };
}

function runProbe(project, pathValue) {
  const probe = spawnSync(process.execPath, ['probe.mjs'], {
    cwd: project,
    env: { ...process.env, PATH: pathValue },
    encoding: 'utf8',
  });
  expect(probe.status, probe.stderr).to.equal(0);
  return JSON.parse(probe.stdout.trim().split('\n').pop());
}

function doctor(project, pathValue, { json = true } = {}) {
  const cli = path.join(project, 'node_modules', 'mcp-gates', 'dist', 'cli', 'main.js');
  const result = spawnSync(process.execPath, [cli, 'doctor', ...(json ? ['--json'] : [])], {
    cwd: project,
    env: { ...process.env, PATH: pathValue },
    encoding: 'utf8',
  });
  return json ? JSON.parse(result.stdout) : result.stdout;
}

function hasCompiler() {
  const found = (name) =>
    (process.env.PATH ?? '')
      .split(path.delimiter)
      .some((directory) => directory && fs.existsSync(path.join(directory, name)));
  return (
    ['c++', 'g++', 'clang++'].some(found) && found('make') && ['python3', 'python'].some(found)
  );
}

describe('packed tarball installs', function () {
  this.timeout(240000);

  before(function () {
    // reason: the install PATH is built from symlinks to node and /bin/sh (POSIX only)
    if (process.platform === 'win32') this.skip();
    if (!fs.existsSync(NPM_CLI)) this.skip(); // npm-cli.js not beside this node: cannot run npm without PATH
    prebuildExisted = fs.existsSync(path.join(root, 'prebuilds'));
    work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'capture-package-')));
    const staging = path.join(work, 'staging');
    fs.cpSync(root, staging, {
      recursive: true,
      filter: (source) => !NOT_STAGED.has(path.relative(root, source).split(path.sep)[0]),
    });
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(staging, 'node_modules'));
    const run = (file, args) =>
      execFileSync(file, args, { cwd: staging, stdio: ['ignore', 'pipe', 'pipe'] });
    // dist/ is already built (pretest); --ignore-scripts: no `prepare` in the copy.
    const pack = (name) => {
      const [packed] = JSON.parse(
        run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work]).toString(),
      );
      const tarball = path.join(work, name);
      fs.renameSync(path.join(work, packed.filename), tarball);
      return { tarball, files: packed.files.map((file) => file.path) };
    };
    const bare = pack('bare.tgz');
    // The prebuild for this platform, from the current sources (prebuildify moves
    // build/Release into prebuilds/, where node-gyp-build finds it as well).
    run(process.execPath, ['scripts/prebuild.mjs']);
    const prebuild = pack('prebuild.tgz');
    tarballs = { bare: bare.tarball, prebuild: prebuild.tarball };

    expect(prebuild.files).to.include.members([
      'binding.gyp',
      'native/capture.h',
      'scripts/install.mjs',
      'schema/mcp-gates.schema.json',
    ]);
    expect(prebuild.files.some((file) => /^prebuilds\/linux-x64\/.+\.node$/.test(file))).to.equal(
      process.platform === 'linux' && process.arch === 'x64',
    );
    expect(bare.files.some((file) => file.startsWith('prebuilds/'))).to.equal(false);
    for (const files of [bare.files, prebuild.files]) {
      expect(files.some((file) => file.startsWith('build/'))).to.equal(false);
      // Source maps would point at src/*.ts, which is not shipped.
      expect(files.filter((file) => file.endsWith('.map'))).to.deep.equal([]);
    }
  });

  after(function () {
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('leaves the clone as it was: no prebuilds/ written into it', function () {
    if (!prebuildExisted) expect(fs.existsSync(path.join(root, 'prebuilds'))).to.equal(false);
  });

  describe('with a prebuild, no compiler, make or python on PATH', function () {
    let project;
    let bin;
    before(function () {
      bin = binDirectory('bin-prebuild');
      const setup = installProject('with-prebuild', tarballs.prebuild, bin);
      expect(setup.install.status, setup.install.stderr).to.equal(0);
      project = setup.project;
    });

    it('installed without compiling: no build/ directory in the installed package', function () {
      const installed = path.join(project, 'node_modules', 'mcp-gates');
      expect(fs.existsSync(path.join(installed, 'package.json'))).to.equal(true);
      expect(fs.existsSync(path.join(installed, 'build'))).to.equal(false);
    });

    it('loads the addon from the prebuild (native mode) and captures', function () {
      const { mode, text } = runProbe(project, bin);
      expect(mode.mode).to.equal('native');
      expect(mode.binding).to.include(path.join('node_modules', 'mcp-gates', 'prebuilds'));
      expect(text).to.include('P-console-error');
      expect(text).to.include('P-child-stdout');
    });

    it('doctor --json reports native capture from the prebuild', function () {
      const report = doctor(project, bin);
      expect(report.capture.mode).to.equal('native');
      expect(String(report.capture.binding)).to.include('prebuilds');
      expect(report.capture).to.not.have.property('install');
    });
  });

  describe('without a prebuild and without a compiler', function () {
    let setup;
    let bin;
    before(function () {
      bin = binDirectory('bin-bare');
      setup = installProject('bare-no-compiler', tarballs.bare, bin);
    });

    it('installs (exit 0) and says in one line what is missing and how to get native', function () {
      expect(setup.install.status, setup.install.stderr).to.equal(0);
      const output = setup.install.stdout + setup.install.stderr;
      expect(output).to.not.include('gyp ERR!');
      const lines = output.split('\n').filter((line) => line.startsWith('mcp-gates: '));
      expect(lines).to.have.length(1);
      expect(lines[0])
        .to.include(`no prebuilt capture addon for ${process.platform}-${process.arch}`)
        .and.include('no C++ compiler')
        .and.include('degraded')
        .and.include('npm rebuild mcp-gates');
    });

    it('runs with capture degraded and still captures', function () {
      const { mode, text } = runProbe(setup.project, bin);
      expect(mode.mode).to.equal('degraded');
      expect(text).to.include('P-console-error');
      expect(text).to.include('P-child-stdout');
    });

    it('doctor --json says degraded, with the reason the install gave', function () {
      const report = doctor(setup.project, bin);
      expect(report.capture.mode).to.equal('degraded');
      expect(report.capture.install).to.include('no C++ compiler');
      expect(doctor(setup.project, bin, { json: false })).to.match(
        /^capture: degraded .*\n {9}at install: no prebuilt capture addon/m,
      );
    });
  });

  describe('without a prebuild, with a compiler that fails', function () {
    const failing = '#!/bin/sh\necho "fake toolchain: $0 refuses" >&2\nexit 1\n';
    let bin;
    before(function () {
      bin = binDirectory('bin-broken', { 'c++': failing, make: failing, python3: failing });
    });

    it('installs degraded, with the failed build visible and named', function () {
      const setup = installProject('bare-broken', tarballs.bare, bin);
      expect(setup.install.status, setup.install.stderr).to.equal(0);
      const output = setup.install.stdout + setup.install.stderr;
      expect(output).to.include('gyp ERR! not ok');
      expect(output).to.match(/mcp-gates: .*the build from source failed: node-gyp rebuild failed/);
      expect(doctor(setup.project, bin).capture.install).to.include('build from source failed');
    });

    it('fails the install under MCP_GATES_NATIVE=required', function () {
      const setup = installProject('bare-required', tarballs.bare, bin, {
        MCP_GATES_NATIVE: 'required',
      });
      expect(setup.install.status).to.not.equal(0);
      expect(setup.install.stdout + setup.install.stderr).to.include('build from source failed');
    });
  });

  describe('without a prebuild, with a working compiler', function () {
    let setup;
    before(function () {
      // reason: building from source needs a C++ compiler, make and python 3 on PATH
      if (!hasCompiler()) this.skip();
      setup = installProject('bare-compiler', tarballs.bare, process.env.PATH);
    });

    it('builds the addon from source and captures natively', function () {
      expect(setup.install.status, setup.install.stderr).to.equal(0);
      expect(fs.existsSync(path.join(setup.installed, 'build', 'install-status.json'))).to.equal(
        false,
      );
      const { mode } = runProbe(setup.project, process.env.PATH);
      expect(mode.mode).to.equal('native');
      expect(mode.binding).to.include(path.join('mcp-gates', 'build', 'Release'));
    });
  });
});

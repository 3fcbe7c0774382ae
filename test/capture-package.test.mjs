// The packed tarball installs with no compiler, make or python on PATH, loads the
// addon from its prebuild (native mode) and captures. Slow (prebuild, pack, install):
// it builds the prebuild itself so the tarball always carries the current sources.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';

const root = fileURLToPath(new URL('..', import.meta.url));
const npmCli = path.join(
  path.dirname(process.execPath),
  '..',
  'lib',
  'node_modules',
  'npm',
  'bin',
  'npm-cli.js',
);

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

describe('packed tarball (prebuild, no compiler)', function () {
  this.timeout(240000);
  let work;
  let project;

  before(function () {
    // reason: the install PATH is built from symlinks to node and /bin/sh (POSIX only)
    if (process.platform === 'win32') this.skip();
    if (!fs.existsSync(npmCli)) this.skip(); // npm-cli.js not beside this node: cannot run npm without PATH
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-package-'));
    const run = (file, args, options = {}) =>
      execFileSync(file, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...options });
    // The prebuild for this platform, from the current sources (prebuildify moves
    // build/Release into prebuilds/, where node-gyp-build finds it as well).
    run('npm', ['run', 'build:prebuilds']);
    const packed = JSON.parse(
      run('npm', ['pack', '--json', '--pack-destination', work]).toString(),
    );
    const tarball = path.join(work, packed[0].filename);
    expect(packed[0].files.map((file) => file.path)).to.include.members([
      'binding.gyp',
      'native/capture.h',
    ]);
    expect(
      packed[0].files.some((file) => /^prebuilds\/linux-x64\/.+\.node$/.test(file.path)),
    ).to.equal(process.platform === 'linux' && process.arch === 'x64');
    expect(packed[0].files.some((file) => file.path.startsWith('build/'))).to.equal(false);

    project = path.join(work, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'probe', type: 'module', private: true }),
    );
    fs.writeFileSync(path.join(project, 'probe.mjs'), PROBE);
    // PATH with node and sh only (npm runs scripts through sh): no cc, c++, make or
    // python, so a source build would fail.
    const bin = path.join(work, 'bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    fs.symlinkSync('/bin/sh', path.join(bin, 'sh'));
    const env = { ...process.env, PATH: bin };
    const install = spawnSync(
      process.execPath,
      [npmCli, 'install', '--no-audit', '--no-fund', '--prefer-offline', tarball],
      {
        cwd: project,
        env,
        encoding: 'utf8',
      },
    );
    expect(install.status, install.stderr).to.equal(0);
  });

  after(function () {
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('installed without compiling: no build/ directory in the installed package', function () {
    const installed = path.join(project, 'node_modules', 'mcp-gates');
    expect(fs.existsSync(path.join(installed, 'package.json'))).to.equal(true);
    expect(fs.existsSync(path.join(installed, 'build'))).to.equal(false);
  });

  it('loads the addon from the prebuild (native mode) and captures', function () {
    const bin = path.join(work, 'bin');
    const probe = spawnSync(process.execPath, ['probe.mjs'], {
      cwd: project,
      env: { ...process.env, PATH: bin },
      encoding: 'utf8',
    });
    expect(probe.status, probe.stderr).to.equal(0);
    const { mode, text } = JSON.parse(probe.stdout.trim().split('\n').pop());
    expect(mode.mode).to.equal('native');
    expect(mode.binding).to.include(path.join('node_modules', 'mcp-gates', 'prebuilds'));
    expect(text).to.include('P-console-error');
    expect(text).to.include('P-child-stdout');
  });

  it('doctor --json reports native capture from the prebuild', function () {
    const cli = path.join(project, 'node_modules', 'mcp-gates', 'dist', 'cli', 'main.js');
    const doctor = spawnSync(process.execPath, [cli, 'doctor', '--json'], {
      cwd: project,
      env: { ...process.env, PATH: path.join(work, 'bin') },
      encoding: 'utf8',
    });
    const report = JSON.parse(doctor.stdout);
    expect(report.capture.mode).to.equal('native');
    expect(String(report.capture.binding)).to.include('prebuilds');
  });
});

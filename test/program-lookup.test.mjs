// Program lookup (issue 12.6): node_modules/.bin is searched from the project up to the
// project or workspace root only, and a program another user could have written is
// refused, not run. doctor (issue 9.7) starts each gate's program and names the fix.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import {
  childPathValue,
  findLookupBoundary,
  installFix,
  resolveCommand,
} from '../dist/gates/run/resolve-command.js';
import { probeProgram } from '../dist/cli/program-probe.js';
import {
  cleanupTemporary,
  envWithTools,
  makeRepo,
  makeTempDir,
  runCli,
} from './fixtures/gates-support.mjs';

const posix = process.platform !== 'win32';
const isRoot = process.getuid?.() === 0;
/** A PATH with node and the system tools only: no tsc, eslint or prettier from this repo. */
const BARE_PATH = [path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter);

/** Writes an executable sh script (POSIX only). */
function script(file, body, mode = 0o755) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`);
  fs.chmodSync(file, mode);
  return file;
}

/**
 * Makes `file` writable by users other than us: group-writable with a group we do not
 * own alone when we are root (chown), world-writable otherwise (our own group may be
 * private to us, which is safe). Returns how the refusal describes it.
 */
function letOthersWrite(file) {
  if (isRoot) {
    fs.chownSync(file, 0, 4321);
    fs.chmodSync(file, 0o775);
    return 'writable by its group (gid 4321, mode 775)';
  }
  fs.chmodSync(file, 0o777);
  return 'writable by everyone (mode 777)';
}

/**
 * A shared parent (like a checkout under /tmp) holding a project `app`, and a program
 * `name` planted in the parent's node_modules/.bin that leaves a marker when it runs.
 */
function plantedParent({ workspace, name = 'npm', mode = 0o755 }) {
  const parent = makeTempDir('mcp-gates-shared-');
  if (workspace) fs.writeFileSync(path.join(parent, 'package.json'), '{"workspaces": ["*"]}');
  const marker = path.join(parent, 'PLANTED-RAN');
  const planted = script(
    path.join(parent, 'node_modules', '.bin', name),
    `echo ran > '${marker}'\necho 'planted output'`,
    mode,
  );
  const root = path.join(parent, 'app');
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, 'package.json'), '{"name": "app"}');
  return { parent, root, planted, marker };
}

describe('program lookup boundary', () => {
  afterEach(cleanupTemporary);

  it('is the root, the workspace root above a package, and never above the nearest .git', () => {
    const plain = makeRepo({ 'package.json': '{}' });
    expect(findLookupBoundary(plain)).to.equal(plain);

    const pnpm = makeRepo({
      'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
      'packages/web/package.json': '{}',
    });
    expect(findLookupBoundary(path.join(pnpm, 'packages', 'web'))).to.equal(pnpm);

    const npmWorkspace = makeRepo({
      '.git/HEAD': 'ref: refs/heads/main\n',
      'package.json': '{"workspaces": ["apps/*"]}',
      'apps/site/package.json': '{}',
    });
    expect(findLookupBoundary(path.join(npmWorkspace, 'apps', 'site'))).to.equal(npmWorkspace);

    // A workspace marker above the checkout's .git belongs to someone else's tree.
    const above = makeRepo({
      'package.json': '{"workspaces": ["*"]}',
      'checkout/.git': 'gitdir: /elsewhere\n',
      'checkout/pkg/package.json': '{}',
    });
    expect(findLookupBoundary(path.join(above, 'checkout', 'pkg'))).to.equal(
      path.join(above, 'checkout', 'pkg'),
    );
    // A workspace root is its own boundary, whatever a directory above it declares.
    expect(findLookupBoundary(pnpm)).to.equal(pnpm);
    const nested = path.join(above, 'inner');
    fs.mkdirSync(nested);
    fs.writeFileSync(path.join(nested, 'package.json'), '{"workspaces": ["pkgs/*"]}');
    expect(findLookupBoundary(nested)).to.equal(nested);
    // A root that is not an npm package (no package.json) is nobody's workspace member.
    const rust = makeRepo({ 'package.json': '{"workspaces": ["*"]}', 'crate/Cargo.toml': '' });
    expect(findLookupBoundary(path.join(rust, 'crate'))).to.equal(path.join(rust, 'crate'));
  });

  it("does not look in a parent's node_modules/.bin when the project is no workspace package", function () {
    if (!posix) this.skip(); // reason: POSIX executables
    const { parent, root } = plantedParent({ workspace: false, name: 'planted-tool' });
    const env = { PATH: BARE_PATH };
    expect(resolveCommand(['planted-tool'], root, env)).to.include({
      ok: false,
      problem: 'missing',
    });
    expect(childPathValue(root, env).split(path.delimiter)).to.not.include(
      path.join(parent, 'node_modules', '.bin'),
    );
    // The project's own node_modules/.bin comes first, then PATH.
    expect(childPathValue(root, env).split(path.delimiter)[0]).to.equal(
      path.join(root, 'node_modules', '.bin'),
    );
  });

  it('refuses a group-writable program, or one in a group-writable directory, naming it and the fix', function () {
    if (!posix) this.skip(); // reason: POSIX modes; Windows is not checked
    const { parent, root, planted } = plantedParent({ workspace: true, name: 'planted-tool' });
    const described = letOthersWrite(planted);
    const env = { PATH: BARE_PATH };
    const refused = resolveCommand(['planted-tool', '.'], root, env);
    expect(refused).to.include({ ok: false, problem: 'unsafe', program: 'planted-tool' });
    expect(refused.reason).to.include(`${planted} is ${described}`);
    expect(refused.fix).to.include(`chmod go-w ${planted}`).and.include('remove it');

    fs.chownSync(planted, process.getuid(), process.getgid());
    fs.chmodSync(planted, 0o755);
    expect(resolveCommand(['planted-tool'], root, env)).to.include({ ok: true, file: planted });
    expect(childPathValue(root, env).split(path.delimiter)).to.include(
      path.join(parent, 'node_modules', '.bin'),
    );

    const bin = path.join(parent, 'node_modules');
    fs.chmodSync(bin, 0o777);
    const viaDirectory = resolveCommand(['planted-tool'], root, env);
    expect(viaDirectory).to.include({ problem: 'unsafe' });
    expect(viaDirectory.reason).to.include(`${bin} is writable by everyone (mode 777)`);
    expect(childPathValue(root, env).split(path.delimiter)).to.not.include(
      path.join(parent, 'node_modules', '.bin'),
    );

    // A world-writable directory with the sticky bit (like /tmp) lets nobody replace our entries.
    fs.chmodSync(bin, 0o755);
    fs.chmodSync(parent, 0o1777);
    expect(resolveCommand(['planted-tool'], root, env)).to.include({ ok: true });
  });

  it("refuses a .bin link whose target's directory in node_modules is group-writable", function () {
    if (!posix) this.skip(); // reason: POSIX modes and symlinks
    const root = makeRepo({ 'package.json': '{}' });
    const target = script(path.join(root, 'node_modules', 'tool', 'bin', 'tool.js'), 'echo ok');
    const bin = path.join(root, 'node_modules', '.bin');
    fs.mkdirSync(bin);
    fs.symlinkSync('../tool/bin/tool.js', path.join(bin, 'tool'));
    const env = { PATH: BARE_PATH };
    expect(resolveCommand(['tool'], root, env)).to.include({ ok: true });
    const described = letOthersWrite(path.dirname(target));
    const refused = resolveCommand(['tool'], root, env);
    expect(refused).to.include({ ok: false, problem: 'unsafe' });
    expect(refused.reason).to.include(`${path.dirname(target)} is ${described}`);
  });

  it("checks the directories up to the workspace root even for the package's own program", function () {
    if (!posix) this.skip(); // reason: POSIX modes
    const workspace = makeRepo({
      'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
      'packages/web/package.json': '{}',
    });
    const root = path.join(workspace, 'packages', 'web');
    const tool = script(path.join(root, 'node_modules', '.bin', 'tool'), 'echo ok');
    expect(resolveCommand(['tool'], root, { PATH: BARE_PATH })).to.include({
      ok: true,
      file: tool,
    });
    // Whoever can write packages/ can swap web/ for a tree of their own.
    const described = letOthersWrite(path.join(workspace, 'packages'));
    const refused = resolveCommand(['tool'], root, { PATH: BARE_PATH });
    expect(refused).to.include({ problem: 'unsafe' });
    expect(refused.reason).to.include(`${path.join(workspace, 'packages')} is ${described}`);
  });

  it('refuses a program owned by another user (needs root to chown)', function () {
    if (!posix) this.skip(); // reason: POSIX owners
    if (!isRoot) this.skip(); // reason: only root can give a file to another uid
    const { root, planted } = plantedParent({ workspace: true, name: 'planted-tool' });
    fs.chownSync(planted, 4321, 4321);
    const refused = resolveCommand(['planted-tool'], root, { PATH: BARE_PATH });
    expect(refused).to.include({ ok: false, problem: 'unsafe' });
    expect(refused.reason).to.include(`${planted} is owned by uid 4321`);
    expect(refused.fix).to.include(`chown ${process.getuid()} ${planted}`);
  });

  it('accepts a group-writable program when the group is our user-private group (umask 002)', function () {
    if (!posix) this.skip(); // reason: POSIX groups
    const me = os.userInfo().username;
    const groups = fs.readFileSync('/etc/group', 'utf8').split('\n');
    const own = groups
      .map((line) => line.split(':'))
      .find(([, , gid]) => Number(gid) === process.getgid());
    // reason: only a group named like us, with no other member, is private to us
    if (
      !own ||
      own[0] !== me ||
      (own[3] ?? '').split(',').some((member) => member && member !== me)
    )
      this.skip();
    const root = makeRepo({ 'package.json': '{}' });
    const tool = script(path.join(root, 'node_modules', '.bin', 'tool'), 'echo ok', 0o775);
    fs.chmodSync(path.join(root, 'node_modules'), 0o775);
    expect(resolveCommand(['tool'], root, { PATH: BARE_PATH })).to.include({
      ok: true,
      file: tool,
    });
  });

  it("trusts the project owner's own programs (a host checkout in a container where we are root)", function () {
    if (!posix) this.skip(); // reason: POSIX owners
    if (!isRoot) this.skip(); // reason: only root can give a file to another uid
    const root = makeRepo({ 'package.json': '{}' });
    const tool = script(path.join(root, 'node_modules', '.bin', 'tool'), 'echo ok');
    for (const owned of [root, path.join(root, 'node_modules'), path.dirname(tool), tool])
      fs.chownSync(owned, 4321, 4321);
    expect(resolveCommand(['tool'], root, { PATH: BARE_PATH })).to.include({
      ok: true,
      file: tool,
    });
  });

  it('`run` refuses a planted npm in a workspace parent and never starts it; doctor shows it', function () {
    if (!posix) this.skip(); // reason: POSIX modes
    const { root, planted, marker } = plantedParent({ workspace: true });
    letOthersWrite(planted);
    fs.writeFileSync(
      path.join(root, 'mcp-gates.json'),
      JSON.stringify({ gates: { lint: { command: ['npm', 'run', 'lint'] } } }),
    );
    const env = envWithTools({ PATH: BARE_PATH });
    const run = runCli(['run', 'lint', '--root', root], { env });
    expect(run.code).to.equal(1);
    expect(run.stdout).to.include(`refusing to run ${planted}`);
    expect(fs.existsSync(marker), 'the planted program never ran').to.equal(false);

    const doctor = runCli(['doctor', '--json', '--root', root], { env });
    expect(doctor.code).to.equal(1);
    const [lint] = JSON.parse(doctor.stdout).configured;
    expect(lint.program).to.include({ resolved: null, status: 'refused' });
    expect(lint.program.problem).to.include(planted);
    expect(fs.existsSync(marker), 'doctor did not start it either').to.equal(false);
    const human = runCli(['doctor', '--root', root], { env });
    expect(human.stdout).to.match(/lint +REFUSED +refusing to run .*npm/);
  });
});

describe('doctor starts each program', function () {
  this.timeout(30000);
  afterEach(cleanupTemporary);

  it('reports a program that crashes at start with its first stderr line, and one that works with its version', function () {
    if (!posix) this.skip(); // reason: sh scripts as programs
    const root = makeRepo({
      'package.json': '{"name": "x"}',
      'mcp-gates.json': {
        gates: {
          lint: { command: ['x', '.'] },
          format: { command: ['fine', '--check'] },
        },
      },
    });
    script(
      path.join(root, 'node_modules', '.bin', 'x'),
      'echo "x: SyntaxError: Unexpected token on this Node" >&2\necho "  at more" >&2\nexit 3',
    );
    script(
      path.join(root, 'node_modules', '.bin', 'fine'),
      '[ "$1" = --version ] && echo fine 1.2.3',
    );
    const result = runCli(['doctor', '--json', '--root', root], {
      env: envWithTools({ PATH: BARE_PATH }),
    });
    expect(result.code).to.equal(1);
    const [lint, format] = JSON.parse(result.stdout).configured;
    expect(lint.program).to.include({ status: 'fails' });
    expect(lint.program.problem).to.match(
      /node_modules\/\.bin\/x --version exited 3: x: SyntaxError: Unexpected token on this Node$/,
    );
    expect(lint.program.fix).to.include('npm install');
    expect(lint.program.probe).to.include({ exitCode: 3 });
    expect(format.program).to.include({ status: 'ok', version: 'fine 1.2.3' });

    const human = runCli(['doctor', '--root', root], { env: envWithTools({ PATH: BARE_PATH }) });
    expect(human.stdout)
      .to.match(/lint +FAILS +.*exited 3: x: SyntaxError/)
      .and.match(/format +ok +.*fine \(fine 1\.2\.3\)/)
      .and.include('1 served gate(s) cannot run their program: lint.');
  });

  it('says `pnpm install` for a declared typescript that is not installed, --save-dev only when undeclared', () => {
    const declared = makeRepo({
      'package.json': { name: 'x', devDependencies: { typescript: '^5.0.0' } },
      'pnpm-lock.yaml': 'lockfileVersion: 9.0\n',
      'tsconfig.json': '{}',
    });
    const env = envWithTools({ PATH: BARE_PATH });
    const result = runCli(['doctor', '--json', '--root', declared], { env });
    expect(result.code).to.equal(1);
    const typecheck = JSON.parse(result.stdout).detected.find((gate) => gate.name === 'typecheck');
    expect(typecheck.program).to.include({ resolved: null, status: 'missing' });
    expect(typecheck.program.fix)
      .to.include('typescript is declared in')
      .and.include('(devDependencies) but not installed: run `pnpm install`')
      .and.not.include('--save-dev');

    const undeclared = makeRepo({ 'package.json': { name: 'x' }, 'tsconfig.json': '{}' });
    expect(installFix('tsc', undeclared)).to.equal('npm install --save-dev typescript');
    const yarn = makeRepo({ 'package.json': { name: 'x' }, 'yarn.lock': '' });
    expect(installFix('biome', yarn)).to.equal('yarn add --dev @biomejs/biome');
    expect(installFix('cargo', yarn)).to.match(/rustup/);
  });

  it("names each ecosystem's installer and places: no node_modules/.bin for a Go or Python runner", () => {
    const root = makeRepo({ 'package.json': { name: 'x' }, 'go.mod': 'module example.com/x\n' });
    const env = { PATH: makeTempDir('mcp-gates-empty-path-') };
    const golangci = resolveCommand(['golangci-lint', 'run'], root, env);
    expect(golangci).to.include({ ok: false, problem: 'missing' });
    expect(golangci.reason).to.match(/^`golangci-lint` was not found on PATH nor in /);
    expect(golangci.reason).to.not.include('node_modules');
    expect(golangci.fix)
      .to.include('go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@latest')
      .and.not.include('npx');
    const uv = resolveCommand(['uv', 'run', 'ruff', 'check'], root, env);
    expect(uv.reason).to.not.include('node_modules');
    expect(uv.fix).to.include('pipx install uv');
    expect(resolveCommand(['go', 'vet'], root, env).fix).to.include('apt-get install golang-go');
    // An npm tool is still looked for, and named, in the project's node_modules/.bin.
    const eslint = resolveCommand(['eslint', '.'], root, env);
    expect(eslint.reason).to.include(path.join(root, 'node_modules', '.bin'));
    expect(eslint.fix).to.include('npm install --save-dev eslint');
  });

  it('gives up on a program that does not answer in time, killing it', async function () {
    if (!posix) this.skip(); // reason: sh scripts as programs
    const root = makeRepo({ 'package.json': '{}' });
    script(path.join(root, 'node_modules', '.bin', 'hangs'), 'sleep 30');
    const started = Date.now();
    const probe = await probeProgram('hangs', root, 300);
    expect(Date.now() - started).to.be.below(5000);
    expect(probe).to.include({ status: 'slow' });
    expect(probe.firstErrorLine).to.equal('did not answer within 0.3 s');
  });
});

// The mcp-gates CLI end to end: a real process per command, in temp repositories.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parseCliArguments } from '../dist/cli/cli-arguments.js';
import {
  REPO_ROOT,
  cleanupTemporary,
  copyRepo,
  envWithTools,
  makeRepo,
  makeTempDir,
  runCli,
} from './fixtures/gates-support.mjs';

const VERSION = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).version;

/** The acceptance repo: package.json scripts and an eslint config, with violations. */
function acceptanceRepo() {
  const root = copyRepo('js-dirty');
  fs.rmSync(path.join(root, '.oxlintrc.json'));
  return root;
}

describe('mcp-gates CLI', function () {
  this.timeout(60000);
  afterEach(cleanupTemporary);

  it('stops quietly when its reader closes the pipe early (`list | head`): no stack trace, status 141', async () => {
    const root = acceptanceRepo();
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'dist/cli/main.js'), 'list'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Closed before the first write: that write fails with EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).to.equal('');
    expect(code).to.equal(141);
  });

  describe('help and version', () => {
    // A process for the long flag; the short one parses to the same arguments (what the
    // process does with them is the long flag's): a process per flag and command was half
    // this describe's CPU.
    const parsedAlike = (argv, long, short) =>
      expect(parseCliArguments([...argv, short]), short).to.deep.equal(
        parseCliArguments([...argv, long]),
      );
    for (const command of ['', 'serve', 'list', 'run', 'init', 'doctor']) {
      const argv = command ? [command] : [];
      it(`prints help for ${command || 'the top level'} with --help and -h, exit 0`, () => {
        const result = runCli([...argv, '--help']);
        expect(result.code).to.equal(0);
        expect(result.stdout).to.match(
          command ? new RegExp(`^Usage: mcp-gates ${command}`) : /^mcp-gates: serve/,
        );
        expect(result.stdout).to.include('--root');
        parsedAlike(argv, '--help', '-h');
      });

      it(`prints the version for ${command || 'the top level'} with --version and -V`, () => {
        const result = runCli([...argv, '--version']);
        expect(result.code).to.equal(0);
        expect(result.stdout).to.equal(`${VERSION}\n`);
        parsedAlike(argv, '--version', '-V');
      });
    }

    it('prints help through `help <command>`', () => {
      expect(runCli(['help', 'doctor']).stdout).to.match(/^Usage: mcp-gates doctor/);
    });

    const usageErrors = [
      [['--bogus'], /unknown option --bogus/],
      [['frobnicate'], /unknown command "frobnicate"/],
      [['list', 'extra'], /takes no arguments/],
      [['list', '--fix'], /--fix does not apply to `list`/],
      [['list', '--root'], /--root needs a directory/],
      [['run'], /run needs a gate name/],
      [['help', 'nothing'], /no help for "nothing"/],
    ];
    for (const [args, message] of usageErrors) {
      it(`exits 2 on the usage error \`${args.join(' ')}\``, () => {
        const result = runCli(args);
        expect(result.code).to.equal(2);
        expect(result.stderr).to.match(message);
        expect(result.stderr).to.include('fix:');
        expect(result.stdout).to.equal('');
      });
    }
  });

  describe('list', () => {
    it('shows the gates detected in a fresh repo with package.json scripts and an eslint config (--json)', () => {
      const root = acceptanceRepo();
      const result = runCli(['list', '--json', '--root', root]);
      expect(result.code).to.equal(0);
      const gates = JSON.parse(result.stdout);
      expect(gates.map((gate) => gate.name)).to.deep.equal(['lint', 'format', 'typecheck']);
      expect(gates[0]).to.deep.equal({
        name: 'lint',
        description: 'Lint: the package.json script "lint" (eslint .)',
        command: ['npm', 'run', '--silent', 'lint'],
        fix: ['npm', 'run', '--silent', 'lint:fix'],
        parser: 'eslint-stylish',
        source: 'package.json',
        // The fixture has no node_modules: eslint comes from PATH, so serve runs it cold.
        warm: { warm: false, reason: "eslint is not the project's own (node_modules/.bin)" },
      });
      for (const gate of gates)
        expect(Object.keys(gate)).to.deep.equal([
          'name',
          'description',
          'command',
          'fix',
          'parser',
          'source',
          'warm',
        ]);
    });

    it('names the file detection read for marker gates, and prints a readable list', () => {
      const root = acceptanceRepo();
      fs.rmSync(path.join(root, 'package.json'));
      const json = JSON.parse(runCli(['list', '--json', '--root', root]).stdout);
      expect(json.map((gate) => [gate.name, gate.source])).to.deep.equal([
        ['lint', 'eslint.config.js'],
        ['format', '.prettierrc.json'],
        ['typecheck', 'tsconfig.json'],
      ]);
      const human = runCli(['list', '--root', root]);
      expect(human.code).to.equal(0);
      expect(human.stdout)
        .to.include(`Gates of ${root} (from detection)`)
        .and.include('lint, lint_fix')
        .and.include('command: eslint --format json .');
    });

    it('resolves the root from CLAUDE_PROJECT_DIR, then the nearest marked ancestor', () => {
      const root = acceptanceRepo();
      const elsewhere = makeTempDir();
      const fromEnv = runCli(['list', '--json'], {
        cwd: elsewhere,
        env: envWithTools({ CLAUDE_PROJECT_DIR: root }),
      });
      expect(JSON.parse(fromEnv.stdout).map((gate) => gate.name)).to.include('lint');
      const fromCwd = runCli(['list', '--json'], { cwd: path.join(root, 'src') });
      expect(JSON.parse(fromCwd.stdout).map((gate) => gate.name)).to.include('lint');
      const flagWins = runCli(['list', '--json', '--root', elsewhere], {
        env: envWithTools({ CLAUDE_PROJECT_DIR: root }),
      });
      expect(JSON.parse(flagWins.stdout)).to.deep.equal([]);
    });

    it('exits 2 when the root does not exist or no project is found', () => {
      const missing = runCli(['list', '--root', path.join(makeTempDir(), 'nope')]);
      expect(missing.code).to.equal(2);
      expect(missing.stderr).to.match(/does not exist/);
      const unmarked = makeTempDir();
      const nothing = runCli(['list'], { cwd: unmarked });
      // Only meaningful when no ancestor of the temp dir is a project itself.
      if (nothing.code === 2)
        expect(nothing.stderr).to.match(
          /no project found in .* \(looked for mcp-gates.json, package.json/,
        );
      else expect(nothing.code).to.equal(0);
    });
  });

  describe('config errors stop every command with exit 2', () => {
    const cases = [
      [
        'bad JSON',
        '{"gates": {"lint": {"command": ["eslint"],}}}',
        /mcp-gates\.json: invalid JSON at line 1, column \d+/,
      ],
      [
        'an unknown key',
        JSON.stringify({ gates: { lint: { command: ['eslint'], parsr: 'generic' } } }),
        /gates\.lint\.parsr: unknown key\n\s+fix: did you mean "parser"/,
      ],
      [
        'a wrong type',
        JSON.stringify({ gates: { lint: { command: 'eslint .' } } }),
        /gates\.lint\.command: expected an array of strings, got the string "eslint \."/,
      ],
      [
        'a bad value',
        JSON.stringify({ gates: { lint: { command: ['eslint'], paths: 'all' } } }),
        /gates\.lint\.paths: unknown mode "all"/,
      ],
      [
        'a NUL byte in an argument',
        JSON.stringify({ gates: { lint: { command: ['eslint', 'a\u0000b'] } } }),
        /gates\.lint\.command\[1\]: contains a NUL byte/,
      ],
      [
        'a shell string as the program',
        JSON.stringify({ gates: { lint: { command: ['eslint . && prettier --check .'] } } }),
        /gates\.lint\.command\[0\]: the string "eslint \. && prettier --check \." is a shell command line/,
      ],
      [
        'a duplicate key',
        '{"gates": {"lint": {"command": ["eslint"]},\n"lint": {"command": ["true"]}}}',
        /gates\.lint: duplicate key at line 2/,
      ],
    ];
    // Every command on the first two (a parse error and a validation error); one command
    // each, in turn, on the rest: each command reads the config through the same loader, and
    // a process per command and case was most of this file's CPU.
    const COMMANDS = [['list'], ['run', 'lint'], ['serve'], ['doctor', '--json']];
    for (const [index, [what, text, message]] of cases.entries()) {
      it(`reports ${what} with file, key path and fix`, () => {
        const root = makeRepo({ 'mcp-gates.json': text });
        // doctor says which part failed; the others print the message.
        const commands = index < 2 ? COMMANDS : [COMMANDS[index % 3]];
        for (const args of commands) {
          const result = runCli([...args, '--root', root]);
          expect(result.code, args.join(' ')).to.equal(2);
          if (args[0] === 'doctor') {
            expect(JSON.parse(result.stdout).config.status).to.equal('error');
            continue;
          }
          expect(result.stderr).to.include(path.join(root, 'mcp-gates.json'));
          expect(result.stderr).to.match(message);
          expect(result.stderr).to.include('fix:');
          expect(result.stdout, 'nothing on stdout (serve never started)').to.equal('');
        }
      });
    }
  });

  describe('run', () => {
    it('reports the violations of the acceptance repo (exit 1) with file and line', () => {
      const root = acceptanceRepo();
      const result = runCli(['run', 'lint', '--root', root]);
      expect(result.code).to.equal(1);
      expect(result.stdout.split('\n')[0]).to.match(
        /^lint: failed \(exit 1, \d+\.\d s, 3 findings \(2 errors, 1 warning\)\)$/,
      );
      expect(result.stdout).to.include('$ npm run --silent lint');
      // eslint's stylish format prints the file with the platform's separator.
      const unusedFile = path.join('src', 'unused.js').replace(/[\\.]/g, '\\$&');
      expect(result.stdout).to.match(
        new RegExp(
          `${unusedFile}\\n\\s+2:9\\s+error\\s+'unused' is assigned a value but never used\\s+no-unused-vars`,
        ),
      );
      const json = JSON.parse(runCli(['run', 'lint', '--json', '--root', root]).stdout);
      expect(json.findings.map((f) => `${f.file}:${f.line} ${f.rule}`)).to.deep.equal([
        'src/unused.js:2 no-unused-vars',
        'src/unused.js:6 eqeqeq',
        'src/unused.js:3 no-console',
      ]);
      expect(json).to.include({ gate: 'lint', status: 'failed', passed: false, exitCode: 1 });
    });

    it('passes a clean repo (exit 0) for lint, format and typecheck', () => {
      const root = copyRepo('js-clean');
      for (const gate of ['lint', 'format', 'typecheck']) {
        const result = runCli(['run', gate, '--root', root]);
        expect(result.code, `${gate}: ${result.stdout}`).to.equal(0);
        expect(result.stdout).to.match(new RegExp(`^${gate}: passed \\(exit 0, `));
      }
    });

    it('takes paths relative to the working directory, and rejects ones outside the root', () => {
      const root = acceptanceRepo();
      fs.rmSync(path.join(root, 'package.json'));
      fs.writeFileSync(path.join(root, 'package.json'), '{"type": "module"}\n');
      const clean = runCli(['run', 'lint', 'ugly.js'], { cwd: path.join(root, 'src') });
      expect(clean.code, clean.stdout + clean.stderr).to.equal(0);
      expect(clean.stdout).to.include(`$ eslint --format json ${path.join('src', 'ugly.js')}`);
      const dirty = runCli(['run', 'lint', 'unused.js', '--json'], { cwd: path.join(root, 'src') });
      expect(dirty.code).to.equal(1);
      expect(JSON.parse(dirty.stdout).findingCount).to.equal(3);
      const outside = runCli(['run', 'lint', '../../'], { cwd: path.join(root, 'src') });
      expect(outside.code).to.equal(2);
      expect(outside.stderr).to.match(/is outside the project root/);
    });

    it('runs the fix command with --fix, after which the check passes', () => {
      const root = acceptanceRepo();
      expect(runCli(['run', 'format', '--root', root]).code).to.equal(1);
      const fixed = runCli(['run', 'format', '--fix', '--root', root]);
      expect(fixed.code, fixed.stdout).to.equal(0);
      expect(fixed.stdout).to.match(/^format_fix: passed/);
      expect(fs.readFileSync(path.join(root, 'src', 'ugly.js'), 'utf8')).to.include(
        "export const greeting = 'hello';",
      );
      expect(runCli(['run', 'format', '--root', root]).code).to.equal(0);
      // The fix tool's own name works too.
      expect(runCli(['run', 'format_fix', '--root', root]).code).to.equal(0);
    });

    it('exits 2 for an unknown gate, listing the real ones, and for --fix on a gate without one', () => {
      const root = acceptanceRepo();
      const unknown = runCli(['run', 'lnt', '--root', root]);
      expect(unknown.code).to.equal(2);
      expect(unknown.stderr)
        .to.match(/no gate named "lnt"/)
        .and.match(/did you mean "lint"\? Gates: lint, lint_fix, format, format_fix, typecheck/);
      const noFix = runCli(['run', 'typecheck', '--fix', '--root', root]);
      expect(noFix.code).to.equal(2);
      expect(noFix.stderr).to.match(/has no fix command/);
      const noPaths = runCli(['run', 'typecheck', 'src', '--root', root]);
      expect(noPaths.code).to.equal(2);
      expect(noPaths.stderr).to.match(/takes no paths/);
    });
  });

  describe('init', () => {
    it('writes mcp-gates.json from detection, which then loads as the config; refuses to overwrite', () => {
      const root = acceptanceRepo();
      const result = runCli(['init', '--root', root]);
      expect(result.code).to.equal(0);
      expect(result.stdout).to.match(
        /Wrote .*mcp-gates\.json with 3 gates: lint, format, typecheck/,
      );
      const written = fs.readFileSync(path.join(root, 'mcp-gates.json'), 'utf8');
      expect(written).to.include('"command": ["npm", "run", "--silent", "lint"]');
      const listed = JSON.parse(runCli(['list', '--json', '--root', root]).stdout);
      expect(listed.map((gate) => [gate.name, gate.source])).to.deep.equal([
        ['lint', 'config'],
        ['format', 'config'],
        ['typecheck', 'config'],
      ]);
      const again = runCli(['init', '--root', root]);
      expect(again.code).to.equal(2);
      expect(again.stderr).to.match(/already exists; init never overwrites it/);
      expect(fs.readFileSync(path.join(root, 'mcp-gates.json'), 'utf8')).to.equal(written);
    });

    it('refuses a dangling mcp-gates.json symlink, naming the link and its target (exit 2, no stack trace)', function () {
      const root = makeRepo({ 'package.json': { scripts: { lint: 'eslint .' } } });
      const link = path.join(root, 'mcp-gates.json');
      try {
        fs.symlinkSync('configs/gates.json', link);
      } catch (error) {
        this.skip(`cannot create symlinks here: ${error.code}`); // reason: Windows without the privilege
      }
      const result = runCli(['init', '--root', root]);
      expect(result.code).to.equal(2);
      expect(result.stderr)
        .to.include(`${link}: is a symlink to configs/gates.json, which does not exist`)
        .and.include(`fix: remove the link (rm ${link})`)
        .and.include(path.join(root, 'configs', 'gates.json'))
        .and.not.include('internal error');
      expect(fs.readlinkSync(link), 'the link is left as it was').to.equal('configs/gates.json');
      expect(fs.existsSync(path.join(root, 'configs')), 'nothing written through it').to.equal(
        false,
      );
    });

    it("writes JSON the repository's own Prettier accepts: its defaults, or the project's Prettier and options", () => {
      const prettier = path.join(REPO_ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
      const check = (root) =>
        spawnSync(process.execPath, [prettier, '--check', 'mcp-gates.json'], { cwd: root });
      // A long argv (cargo clippy's) goes past Prettier's 80 columns on one line.
      const plain = copyRepo('rust-dirty');
      expect(runCli(['init', '--root', plain]).code).to.equal(0);
      const written = fs.readFileSync(path.join(plain, 'mcp-gates.json'), 'utf8');
      expect(written.split('\n').filter((line) => line.length > 80)).to.deep.equal([]);
      expect(check(plain).status, String(check(plain).stdout)).to.equal(0);
      // With its own Prettier installed, the project's options apply (here: tabs).
      const own = copyRepo('rust-dirty');
      fs.writeFileSync(path.join(own, '.prettierrc.json'), '{ "useTabs": true }\n');
      fs.mkdirSync(path.join(own, 'node_modules'));
      fs.symlinkSync(
        path.join(REPO_ROOT, 'node_modules', 'prettier'),
        path.join(own, 'node_modules', 'prettier'),
        'junction',
      );
      const result = runCli(['init', '--root', own]);
      expect(result.stdout).to.include("Formatted it with the project's Prettier.");
      expect(fs.readFileSync(path.join(own, 'mcp-gates.json'), 'utf8')).to.match(/^\t"gates"/m);
      expect(check(own).status).to.equal(0);
    });

    it('writes nothing and exits 1 when nothing is detected', () => {
      const root = makeRepo({ '.git/HEAD': 'ref: refs/heads/main\n' });
      const result = runCli(['init', '--root', root]);
      expect(result.code).to.equal(1);
      expect(result.stderr).to.match(/found no gates/);
      expect(fs.existsSync(path.join(root, 'mcp-gates.json'))).to.equal(false);
    });
  });

  describe('doctor', () => {
    it('reports version, node, platform, capture mode, root and gates with their programs (--json)', () => {
      const root = acceptanceRepo();
      const result = runCli(['doctor', '--json', '--root', root]);
      expect(result.code).to.equal(0);
      const report = JSON.parse(result.stdout);
      expect(report).to.include({
        version: VERSION,
        node: process.version,
        root,
        packageManager: 'npm',
        served: 'detection',
      });
      expect(report.platform).to.match(new RegExp(`^${process.platform}-${process.arch}`));
      expect(report.capture.mode).to.be.oneOf(['native', 'degraded']);
      if (report.capture.mode === 'native') expect(report.capture.binding).to.match(/\.node$/);
      else expect(report.capture.reason).to.be.a('string');
      // The lifeline lives in the same addon: native exactly when the addon loaded.
      if (report.capture.mode === 'native') {
        expect(report.lifeline).to.deep.equal({
          mode: 'native',
          mechanism: process.platform === 'win32' ? 'job object' : 'watchdog process',
        });
      } else expect(report.lifeline.reason).to.match(/outlives a server killed with SIGKILL/);
      expect(report.config).to.deep.equal({ file: 'mcp-gates.json', status: 'absent' });
      expect(report.detected.map((gate) => gate.name)).to.deep.equal([
        'lint',
        'format',
        'typecheck',
      ]);
      for (const gate of report.detected) expect(gate.program.resolved).to.match(/npm/);
    });

    it('says no gates were found, how to add one, and exits 1 when none would be served', () => {
      const detected = makeRepo({ '.git/HEAD': 'ref: refs/heads/main\n' });
      const human = runCli(['doctor', '--root', detected]);
      expect(human.code).to.equal(1);
      expect(human.stdout)
        .to.include(`No gates found: detection found none in ${detected}`)
        .and.include('Add a package.json script')
        .and.not.include('All served gates can run');
      expect(runCli(['doctor', '--json', '--root', detected]).code).to.equal(1);
    });

    it('says degraded when forced, and exits 1 naming the fix when a program is missing', () => {
      const root = makeRepo({
        'mcp-gates.json': { gates: { lint: { command: ['no-such-linter-abc'] } } },
      });
      const result = runCli(['doctor', '--json', '--root', root], {
        env: envWithTools({ MCP_GATES_CAPTURE: 'degraded' }),
      });
      expect(result.code).to.equal(1);
      const report = JSON.parse(result.stdout);
      expect(report.capture).to.deep.include({ mode: 'degraded' });
      expect(report.served).to.equal('config');
      expect(report.configured[0].program).to.include({ resolved: null });
      expect(report.configured[0].program.fix).to.match(/install no-such-linter-abc/);
      const human = runCli(['doctor', '--root', root]);
      expect(human.code).to.equal(1);
      expect(human.stdout)
        .to.include('MISSING')
        .and.include('1 served gate(s) cannot run their program: lint.');
    });

    it('judges a split chain by its steps: its package manager failing fails only the fix', function () {
      if (process.platform === 'win32') this.skip(); // reason: the broken pnpm is a POSIX sh script
      const root = copyRepo('scripts-chain');
      const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
      manifest.scripts['lint:fix'] = 'eslint --fix . && prettier --write .';
      fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify(manifest));
      fs.writeFileSync(path.join(root, 'pnpm-lock.yaml'), 'lockfileVersion: 9.0\n');
      // A pnpm that cannot run (as corepack's does for a project pinned to another pnpm).
      const bin = makeTempDir('mcp-gates-broken-pnpm-');
      fs.writeFileSync(
        path.join(bin, 'pnpm'),
        '#!/bin/sh\necho "ERR_PNPM_BAD_PM_VERSION this pnpm is not the pinned one" >&2\nexit 1\n',
        { mode: 0o755 },
      );
      const env = envWithTools();
      env.PATH = `${bin}${path.delimiter}${env.PATH}`;
      const result = runCli(['doctor', '--json', '--root', root], { env });
      const report = JSON.parse(result.stdout);
      expect(result.code, result.stdout).to.equal(0);
      const lint = report.detected.find((gate) => gate.name === 'lint');
      expect(lint.command).to.deep.equal(['pnpm', 'run', '--silent', 'lint']);
      expect(lint.program.status).to.equal('ok');
      expect(lint.steps.map((step) => [step.command[0], step.program.status])).to.deep.equal([
        ['eslint', 'ok'],
        ['prettier', 'ok'],
      ]);
      expect(lint.fixProgram).to.include({ status: 'fails' });
      expect(lint.fixProgram.problem).to.include('ERR_PNPM_BAD_PM_VERSION');
      const human = runCli(['doctor', '--root', root], { env });
      expect(human.code).to.equal(0);
      expect(human.stdout)
        .to.include('runs 2 steps, each with its own program')
        .and.include('$ eslint .: ok')
        .and.include('its fix tool cannot run (the check can): $ pnpm run --silent lint:fix: FAILS')
        .and.include('All served gates can run.');
    });

    it("checks the programs a Makefile recipe runs: a missing one is the gate's, not `ok make`", () => {
      const root = makeRepo({
        '.git/HEAD': 'ref: refs/heads/main\n',
        Makefile: 'lint:\n\t@echo linting\n\tno-such-checker-xyz run ruff check src\n',
      });
      const result = runCli(['doctor', '--json', '--root', root]);
      expect(result.code, result.stdout).to.equal(1);
      const lint = JSON.parse(result.stdout).detected.find((gate) => gate.name === 'lint');
      expect(lint.command).to.deep.equal(['make', 'lint']);
      expect(lint.runs.map((run) => [run.program, run.check.status])).to.deep.equal([
        ['no-such-checker-xyz', 'missing'],
      ]);
      expect(lint.program).to.include({ status: 'missing', resolved: null });
      expect(lint.program.problem).to.include('no-such-checker-xyz');
      const human = runCli(['doctor', '--root', root]);
      expect(human.stdout)
        .to.match(/lint +MISSING +`no-such-checker-xyz` was not found/)
        .and.include('$ make lint runs: no-such-checker-xyz (MISSING)')
        .and.include('1 served gate(s) cannot run their program: lint.');
    });

    it('fails a split chain whose step program is missing, naming the step', () => {
      // vue-tsc is not installed here (nor in the repo): the chain's second step cannot run.
      const root = makeRepo({
        'package.json': { name: 'c', scripts: { lint: 'eslint . && vue-tsc --noEmit' } },
      });
      const result = runCli(['doctor', '--json', '--root', root]);
      expect(result.code, result.stdout).to.equal(1);
      const lint = JSON.parse(result.stdout).detected.find((gate) => gate.name === 'lint');
      expect(lint.steps.map((step) => [step.command[0], step.program.status])).to.deep.equal([
        ['eslint', 'ok'],
        ['vue-tsc', 'missing'],
      ]);
      expect(lint.program).to.include({ status: 'missing', resolved: null });
      expect(lint.program.fix).to.include('vue-tsc');
      const human = runCli(['doctor', '--root', root]);
      expect(human.stdout)
        .to.include('$ vue-tsc --noEmit: MISSING')
        .and.include('1 served gate(s) cannot run their program: lint.');
    });
  });
});

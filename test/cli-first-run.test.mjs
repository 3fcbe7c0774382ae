// A new user's first runs: typos get a did-you-mean, fixes name files that exist, the
// report's command line can be pasted into a shell, and a server run by hand says what
// it is waiting for.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import {
  REPO_ROOT,
  cleanupTemporary,
  envWithTools,
  hasCommand,
  makeRepo,
  makeTempDir,
  runCli,
} from './fixtures/gates-support.mjs';

/** A gate that prints its arguments, one per line, each between < and >. */
const PRINT_ARGS = [
  process.execPath,
  '-e',
  "for (const word of process.argv.slice(1)) console.log('<' + word + '>')",
];

describe('CLI first run', function () {
  this.timeout(60000);
  afterEach(cleanupTemporary);

  describe('did you mean', () => {
    it('suggests the command for a typo (`lsit`), exit 2', () => {
      const result = runCli(['lsit']);
      expect(result.code).to.equal(2);
      expect(result.stderr).to.include('unknown command "lsit"').and.include('`mcp-gates list`');
    });

    it('suggests the help topic for a typo (`help doctr`)', () => {
      const result = runCli(['help', 'doctr']);
      expect(result.code).to.equal(2);
      expect(result.stderr).to.include('did you mean `mcp-gates help doctor`?');
    });

    it('lists the commands when nothing is close (`frobnicate`)', () => {
      const result = runCli(['frobnicate']);
      expect(result.code).to.equal(2);
      expect(result.stderr).to.not.include('did you mean');
      expect(result.stderr).to.include(
        'use one of: serve, list, run, check, baseline, init, doctor',
      );
    });

    it('suggests the gate for a typo (`run lnt`), exit 2, and runs nothing', () => {
      const root = makeRepo({
        'mcp-gates.json': { gates: { lint: { command: PRINT_ARGS, fix: PRINT_ARGS } } },
      });
      const result = runCli(['run', 'lnt', '--root', root]);
      expect(result.code).to.equal(2);
      expect(result.stderr)
        .to.include(`no gate named "lnt" in ${root}`)
        .and.include('did you mean "lint"?')
        .and.include('lint_fix');
      expect(result.stdout).to.equal('');
    });
  });

  describe('fixes that point somewhere real', () => {
    it('`run <gate> --fix` on detected gates suggests `mcp-gates init`, not a missing file', () => {
      const root = makeRepo({ 'package.json': { scripts: { typecheck: 'tsc --noEmit' } } });
      const result = runCli(['run', 'typecheck', '--fix', '--root', root]);
      expect(result.code).to.equal(2);
      expect(result.stderr)
        .to.include('gate "typecheck" has no fix command')
        .and.include('`mcp-gates init`');
      expect(fs.existsSync(path.join(root, 'mcp-gates.json'))).to.equal(false);
    });

    it('with a config, the same error names the key to add in it', () => {
      const root = makeRepo({ 'mcp-gates.json': { gates: { typecheck: { command: ['tsc'] } } } });
      const result = runCli(['run', 'typecheck', '--fix', '--root', root]);
      expect(result.code).to.equal(2);
      expect(result.stderr).to.include('add "fix" to gates.typecheck in mcp-gates.json');
      expect(result.stderr).to.not.include('init');
    });

    it('from a subdirectory, a missing path is explained against the working directory', () => {
      const root = makeRepo({
        'mcp-gates.json': { gates: { lint: { command: PRINT_ARGS, paths: 'append' } } },
        'src/present.js': '',
      });
      const cwd = path.join(root, 'src');
      const missing = runCli(['run', 'lint', 'nope.js'], { cwd });
      expect(missing.code).to.equal(2);
      expect(missing.stderr)
        .to.include(path.join(cwd, 'nope.js'))
        .and.include('does not exist')
        .and.include(`relative to the working directory (${cwd})`);
      expect(missing.stderr).to.not.include('relative to the project root');
      const outside = runCli(['run', 'lint', '../../elsewhere'], { cwd });
      expect(outside.code).to.equal(2);
      expect(outside.stderr)
        .to.include('outside the project root')
        .and.include(`resolved against the working directory, ${cwd}`);
      const present = runCli(['run', 'lint', 'present.js'], { cwd });
      expect(present.code, present.stderr).to.equal(0);
      expect(present.stdout).to.include(`<${path.join('src', 'present.js')}>`);
    });
  });

  it('the report`s `$ command` line is shell-quoted: pasted into sh, it runs the same argv', function () {
    // reason: checks the line against a POSIX shell
    if (process.platform === 'win32' || !hasCommand('sh', ['-c', 'true'])) this.skip();
    const words = ['plain', 'two words', "it's", '', '$HOME', 'a*b', '"quoted"', 'back\\slash'];
    const root = makeRepo({
      'mcp-gates.json': { gates: { args: { command: [...PRINT_ARGS, ...words] } } },
    });
    const result = runCli(['run', 'args', '--root', root]);
    expect(result.code, result.stderr).to.equal(0);
    const line = result.stdout.split('\n').find((entry) => entry.startsWith('$ '));
    const pasted = spawnSync('sh', ['-c', line.slice(2)], { encoding: 'utf8' });
    expect(pasted.status, pasted.stderr).to.equal(0);
    expect(pasted.stdout).to.equal(words.map((word) => `<${word}>\n`).join(''));
    expect(result.stdout).to.include(pasted.stdout.trim());
  });

  it('--help lists exit code 130 (interrupted), at the top level and for run', () => {
    expect(runCli(['--help']).stdout).to.include('130 interrupted');
    expect(runCli(['run', '--help']).stdout).to.include('130 when interrupted');
  });

  describe('examples/echo-server.mjs run by hand', () => {
    const example = path.join(REPO_ROOT, 'examples', 'echo-server.mjs');

    it('prints a one-line hint on stderr when stdin is a terminal, nothing on stdout', function () {
      // reason: needs util-linux `script` for a pty
      if (process.platform !== 'linux' || !hasCommand('script', ['--version'])) this.skip();
      const screen = (redirect) => {
        const log = path.join(makeTempDir(), 'typescript.log');
        // Ctrl-D on the terminal ends the server's stdin: it exits.
        const result = spawnSync(
          'script',
          ['-qfec', `${process.execPath} ${example} ${redirect}`, log],
          {
            input: '\u0004',
            encoding: 'utf8',
            env: envWithTools(),
            timeout: 30000,
            cwd: REPO_ROOT,
          },
        );
        expect(result.status, result.stderr).to.equal(0);
        return fs.readFileSync(log, 'utf8');
      };
      const hint = 'echo-server: serving MCP on stdin/stdout, for an MCP client to start';
      expect(screen('')).to.include(hint).and.include('@modelcontextprotocol/inspector');
      expect(screen('2>/dev/null'), 'the hint is on stderr').to.not.include(hint);
      expect(screen('1>/dev/null'), 'and only there').to.include(hint);
    });

    it('prints nothing when stdin is not a terminal (a host starting it)', () => {
      const result = spawnSync(process.execPath, [example], {
        input: '',
        encoding: 'utf8',
        timeout: 30000,
      });
      expect(result.status).to.equal(0);
      expect(result.stdout).to.equal('');
      expect(result.stderr).to.equal('');
    });
  });
});

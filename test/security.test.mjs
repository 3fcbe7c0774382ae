// Security review checks (SECURITY.md): no shell in the shipped code, a gate cannot forge
// a protocol frame, a tool call's paths can never become a gate's options, and capture
// files are private (0600 in a 0700 directory) whatever the umask.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { runGate } from '../dist/gates/index.js';
import { ServerProcess, killAllServers } from './helpers/spawn-server.mjs';
import {
  CLI,
  HOSTILE,
  REPO_ROOT,
  cleanupTemporary,
  envWithTools,
  makeRepo,
  makeTempDir,
} from './fixtures/gates-support.mjs';

const FAULTY_SERVER = fileURLToPath(new URL('./fixtures/faulty-server.mjs', import.meta.url));
const REVISION = '2025-11-25';
const textOf = (frame) => frame.result.content.map((block) => block.text).join('');

/** Shipped source files: TypeScript, the addon, the example and scripts. */
function shippedSources() {
  const files = [];
  const walk = (directory) => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|mjs|js|cc|h)$/.test(entry.name)) files.push(full);
    }
  };
  for (const top of ['src', 'native', 'examples', 'scripts']) walk(path.join(REPO_ROOT, top));
  return files;
}

/** A gate that prints its argv (ARGV [...]) and takes a call's paths. */
const ARGV_COMMAND = [process.execPath, path.join(HOSTILE, 'prints-argv.mjs'), '.'];

function argvGateRepo(files = {}) {
  return makeRepo({
    'mcp-gates.json': { gates: { argv: { command: ARGV_COMMAND, paths: 'append' } } },
    'src/a.js': '\n',
    ...files,
  });
}

function startGates(root, env = {}) {
  return new ServerProcess([CLI, 'serve', '--root', root], { env: envWithTools(env) });
}

describe('security review', function () {
  this.timeout(30000);

  afterEach(() => {
    killAllServers();
    cleanupTemporary();
  });

  it('uses no shell anywhere: no shell option, no exec/execSync, no system()/popen()', () => {
    const offences = [];
    const patterns = [
      /\bshell\s*:\s*(true|['"`])/,
      /\bexec(Sync)?\s*\(/,
      /import\s*\{[^}]*\bexec(Sync)?\b[^}]*\}\s*from\s*['"](node:)?child_process['"]/,
      /\b(system|popen)\s*\(/,
    ];
    const sources = shippedSources();
    expect(sources.length).to.be.greaterThan(30);
    for (const file of sources) {
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, index) => {
        // RegExp#exec is not a shell (a child_process exec must be imported by name).
        const code = line.replace(/\.exec\(/g, '');
        for (const pattern of patterns) {
          if (pattern.test(code))
            offences.push(`${path.relative(REPO_ROOT, file)}:${index + 1}: ${line.trim()}`);
        }
      });
    }
    expect(offences).to.deep.equal([]);
  });

  it("a gate's output cannot forge a frame: stdout, stderr, /dev/stdout and the server's fds 0-2 via /proc", async () => {
    const attemptsFile = path.join(makeTempDir('mcp-gates-forge-'), 'attempts.json');
    const id = 7;
    const root = makeRepo({
      'mcp-gates.json': {
        gates: {
          forge: {
            command: [
              process.execPath,
              path.join(HOSTILE, 'forges-frame.mjs'),
              String(id),
              attemptsFile,
            ],
          },
        },
      },
    });
    const server = startGates(root);
    await server.initialize(REVISION);
    const reply = await server.request(id, 'tools/call', { name: 'forge', arguments: {} });
    await server.request(8, 'ping'); // anything forged late would have arrived by now
    const attempts = JSON.parse(fs.readFileSync(attemptsFile, 'utf8'));
    // The attempts really happened: the server's fds 1 and 2 are open to anyone with the
    // user's rights, and lead into the capture (pipes and sockets refuse a reopen: ENXIO).
    if (process.platform === 'linux') {
      expect(attempts[`/proc/${server.pid}/fd/1`]).to.equal('written');
    }
    const answers = server.lines.filter((line) => JSON.parse(line).id === id);
    expect(answers).to.have.length(1);
    expect(textOf(reply)).to.match(/^forge: passed \(exit 0, /);
    // The forged frames are text inside the report, never frames.
    // Windows has no /dev/stdout or /dev/stderr: only the two std streams are attempted there.
    const forgeries = process.platform === 'win32' ? 2 : 4;
    expect(textOf(reply).split('"text":"FORGED"').length - 1).to.be.at.least(forgeries);
    for (const line of server.lines)
      expect(line).to.not.match(
        /^\{"jsonrpc":"2.0","id":7,"result":\{"content":\[\{"type":"text","text":"FORGED"/,
      );
  });

  it('no paths argument becomes an option of the gate: "-x", "--", "--flag=..." are refused; a "-name" file goes as ./-name', async () => {
    const root = argvGateRepo({ '-rf': 'a file whose name looks like an option\n' });
    const server = startGates(root);
    await server.initialize(REVISION);
    let id = 10;
    for (const paths of [
      ['-rf'],
      ['--'],
      ['--config=/etc/passwd'],
      ['src/a.js', '-x'],
      ['\u0000'],
    ]) {
      const reply = await server.request(id++, 'tools/call', {
        name: 'argv',
        arguments: { paths },
      });
      expect(reply.result.isError, JSON.stringify(paths)).to.equal(true);
      expect(textOf(reply)).to.not.include('ARGV');
    }
    const reply = await server.request(id, 'tools/call', {
      name: 'argv',
      arguments: { paths: ['src/../-rf', 'src/a.js'] },
    });
    expect(reply.result.isError).to.equal(false);
    const argv = JSON.parse(/ARGV (.*)/.exec(textOf(reply))[1]);
    expect(argv).to.deep.equal([`.${path.sep}-rf`, path.join('src', 'a.js')]);
  });

  it('300,000 paths in one call get a prompt isError naming the limit, and the gate never starts', async () => {
    const root = argvGateRepo();
    const server = startGates(root);
    await server.initialize(REVISION);
    const started = Date.now();
    const reply = await server.request(2, 'tools/call', {
      name: 'argv',
      arguments: { paths: Array.from({ length: 300000 }, () => 'src/a.js') },
    });
    expect(Date.now() - started, 'no 14 s stall').to.be.below(5000);
    expect(reply.result.isError).to.equal(true);
    expect(textOf(reply))
      .to.include('300000 paths in one call is over the limit of 1000')
      .and.include('call without paths to check the whole project, or call several times')
      .and.not.include('ARGV');
    const within = await server.request(3, 'tools/call', {
      name: 'argv',
      // A budget that holds the whole echoed argv (about 11 KB).
      arguments: { paths: Array.from({ length: 1000 }, () => 'src/a.js'), maxChars: 100_000 },
    });
    expect(within.result.isError).to.equal(false);
    expect(JSON.parse(/ARGV (.*)/.exec(textOf(within))[1])).to.have.length(1000);
  });

  it('a command line the OS refuses (E2BIG) is a clear result, not a bare "spawn E2BIG"', async function () {
    if (process.platform !== 'linux') this.skip(); // reason: Linux caps one argument or variable at 128 KiB (MAX_ARG_STRLEN)
    const root = makeRepo({ 'src/a.js': '\n' });
    const gate = {
      name: 'argv',
      description: 'prints argv',
      command: ARGV_COMMAND,
      fix: null,
      parser: 'generic',
      timeoutMs: 10000,
      paths: 'append',
      source: 'config',
    };
    const context = {
      signal: new AbortController().signal,
      progress: () => {},
      wantsProgress: false,
      revision: REVISION,
    };
    const env = { ...process.env, HUGE: 'x'.repeat(200 * 1024) };
    const result = await runGate(gate, false, { paths: ['src/a.js'] }, context, { root, env });
    expect(result.isError).to.equal(true);
    expect(result.text)
      .to.include('its command with 1 path(s) is longer than the operating system allows (E2BIG)')
      .and.include('fix: call without paths');
  });

  it('capture files and kept logs are 0600 in a private 0700 directory, even with umask 000', async function () {
    // reason: Windows has no POSIX modes or umask (privacy there is the per-user TEMP's ACL)
    if (process.platform === 'win32') this.skip();
    const tmp = makeTempDir('mcp-gates-modes-');
    const server = new ServerProcess([FAULTY_SERVER], {
      env: { ...process.env, TMPDIR: tmp, FAULTY_SERVER_UMASK: '000' },
    });
    await server.initialize(REVISION);
    // Over the 64 KiB report limit: the full output is kept as a log file.
    const reply = await server.request(2, 'tools/call', {
      name: 'flood',
      arguments: { bytes: 200000 },
    });
    const logPath = /full log: (\S+) \) ---|full log: (\S+?)\) ---/.exec(textOf(reply));
    const kept = logPath[1] ?? logPath[2];
    expect(path.dirname(path.dirname(kept))).to.equal(tmp);
    expect(fs.statSync(kept).mode & 0o777).to.equal(0o600);
    expect(fs.statSync(path.dirname(kept)).mode & 0o777).to.equal(0o700);
    // The live capture file of a running tool, too.
    await server.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'never', arguments: {} },
    });
    await server.request(4, 'ping');
    const directory = path.dirname(kept);
    const live = fs.readdirSync(directory).filter((name) => path.join(directory, name) !== kept);
    expect(live).to.have.length(1);
    expect(fs.statSync(path.join(directory, live[0])).mode & 0o777).to.equal(0o600);
  });
});

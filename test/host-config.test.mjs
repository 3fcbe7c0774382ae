// `mcp-gates init --host`: each host's config starts the server as that host starts it
// (a project file names no path of this machine; Claude Desktop's user config starts it
// from `/` with a host's minimal environment), --write adds it to the host's project file,
// and the host snippets of docs/hosts.md and the README are exactly what it prints (paths as
// placeholders).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { REPO_ROOT, cleanupTemporary, makeRepo, runCli } from './fixtures/gates-support.mjs';
import { ServerProcess, killAllServers } from './helpers/spawn-server.mjs';
import { parseJsonc } from '../dist/cli/jsonc-edit.js';

const HOSTS = ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex', 'gemini'];
/** Hosts whose config is a project file, read on other machines. */
const PROJECT_HOSTS = HOSTS.filter((host) => host !== 'claude-desktop');
/** What a host fills in before it starts the server (its documented expansion). */
const EXPANDS = { cursor: '${workspaceFolder}', vscode: '${workspaceFolder}' };
const PLACEHOLDER = { node: '/absolute/path/to/node', root: '/absolute/path/to/project' };

/** A project with mcp-gates installed (linked to this clone) and a lint script. */
function installedProject() {
  const root = makeRepo({ 'package.json': { scripts: { lint: 'eslint .' } } });
  fs.mkdirSync(path.join(root, 'node_modules'));
  fs.symlinkSync(REPO_ROOT, path.join(root, 'node_modules', 'mcp-gates'), 'junction');
  return root;
}

/** command and args of the printed config, JSON or Codex's TOML. */
function launchOf(host, text) {
  if (host === 'codex') {
    expect(text).to.match(/^\[mcp_servers\.gates\]\n/);
    return {
      command: JSON.parse(/^command = (.*)$/m.exec(text)[1]),
      args: JSON.parse(/^args = (.*)$/m.exec(text)[1]),
    };
  }
  const document = JSON.parse(text);
  const entry = (host === 'vscode' ? document.servers : document.mcpServers).gates;
  if (host === 'vscode') expect(entry.type).to.equal('stdio');
  return entry;
}

/** The code block of `page` right after the line naming the host's bold title. */
function documentedSnippet(title, page = 'docs/hosts.md') {
  const text = fs.readFileSync(path.join(REPO_ROOT, page), 'utf8');
  const section = text.slice(text.indexOf('# Host configuration'));
  const at = section.indexOf(`**${title}**`);
  expect(at, `${page} has a **${title}** snippet`).to.be.at.least(0);
  return /```(?:json|toml)\n([\s\S]*?)```/.exec(section.slice(at))[1];
}

const TITLES = {
  'claude-code': 'Claude Code',
  'claude-desktop': 'Claude Desktop',
  cursor: 'Cursor',
  vscode: 'VS Code',
  codex: 'Codex',
  gemini: 'Gemini CLI',
};

describe('mcp-gates init --host', function () {
  this.timeout(60000);
  afterEach(killAllServers);
  after(cleanupTemporary);

  // What init prints for each host, once, in one installed project: a project file's entry
  // names no path of this machine (the first test of each host checks it), so the tests
  // that read a print share it; a process per host and test was most of this file's CPU.
  let project;
  const prints = {};
  before(() => {
    project = installedProject();
    for (const host of HOSTS) {
      const result = runCli(['init', '--host', host, '--root', project]);
      expect(result.code, result.stderr).to.equal(0);
      prints[host] = result;
    }
  });

  for (const host of HOSTS) {
    it(`${host}: the printed command answers initialize where ${host} starts it, with PATH=/usr/bin:/bin`, async function () {
      if (process.platform === 'win32') this.skip(); // reason: a POSIX PATH and root
      const root = project;
      const text = prints[host].stdout;
      const { command } = launchOf(host, text);
      let { args } = launchOf(host, text);
      const main = path.join(root, 'node_modules', 'mcp-gates', 'dist', 'cli', 'main.js');
      let cwd = path.parse(process.cwd()).root;
      if (host === 'claude-desktop') {
        // A user config, started from /: the node that ran init, by absolute path (so
        // ServerProcess, which starts it, is the host), and the project by absolute path.
        expect(command).to.equal(process.execPath);
        expect(args).to.deep.equal([main, 'serve', '--root', root]);
      } else {
        // A project file names no path of this machine: node from PATH (ServerProcess runs
        // this node in its place), the package by a path that starts from the project.
        expect(text).not.to.include(process.execPath);
        expect(text).not.to.include(root);
        expect(command).to.equal('node');
        const variable = EXPANDS[host];
        if (variable === undefined) cwd = root; // the host starts it in the project
        if (variable !== undefined) args = args.map((arg) => arg.split(variable).join(root));
        expect(path.resolve(cwd, args[0])).to.equal(main);
      }
      const server = new ServerProcess(args, {
        cwd,
        env: { PATH: '/usr/bin:/bin', HOME: os.homedir() },
      });
      const answer = await server.initialize('2025-06-18');
      expect(answer.result.serverInfo.name).to.equal('mcp-gates');
      expect(answer.result.instructions).to.include(`in ${root}: lint`);
    });

    it(`${host}: the documented snippet is what it prints, with the paths as placeholders`, () => {
      const root = project;
      const text = prints[host].stdout
        .split(JSON.stringify(process.execPath).slice(1, -1))
        .join(PLACEHOLDER.node)
        .split(root)
        .join(PLACEHOLDER.root);
      expect(documentedSnippet(TITLES[host])).to.equal(text);
      // The README shows one host, Claude Code's, on the way to docs/hosts.md.
      if (host === 'claude-code')
        expect(documentedSnippet(TITLES[host], 'README.md')).to.equal(text);
    });
  }

  it('--write adds the server to a host project file, keeping what is there; refuses to replace it', () => {
    const root = installedProject();
    const file = path.join(root, '.vscode', 'mcp.json');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, JSON.stringify({ servers: { other: { type: 'stdio', command: 'x' } } }));
    const result = runCli(['init', '--host', 'vscode', '--write', '--root', root]);
    expect(result.code, result.stderr).to.equal(0);
    const written = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(written.servers.other).to.deep.equal({ type: 'stdio', command: 'x' });
    expect(written.servers.gates).to.deep.equal(launchOf('vscode', prints.vscode.stdout));
    const again = runCli(['init', '--host', 'vscode', '--write', '--root', root]);
    expect(again.code).to.equal(2);
    expect(again.stderr).to.include('already has a "gates" server; init never overwrites it');
    // Codex: a TOML table appended; Claude Desktop: no project file, says where instead.
    expect(runCli(['init', '--host', 'codex', '--write', '--root', root]).code).to.equal(0);
    expect(fs.readFileSync(path.join(root, '.codex', 'config.toml'), 'utf8')).to.equal(
      prints.codex.stdout,
    );
    const desktop = runCli(['init', '--host', 'claude-desktop', '--write', '--root', root]);
    expect(desktop.code).to.equal(2);
    expect(desktop.stderr).to.include('Claude Desktop has no project file to write');
  });

  it('says which paths it wrote and why: relative in a project file, absolute where it must be', () => {
    for (const host of PROJECT_HOSTS)
      expect(prints[host].stderr).to.include(
        'It names no path of this machine, so it can be committed',
      );
    const desktop = prints['claude-desktop'];
    expect(desktop.stderr).to.include('Claude Desktop has no project file and starts servers in /');
    // Nothing installed in the project: nothing relative to point at, so absolute, and why.
    const bare = makeRepo({ 'package.json': { scripts: { lint: 'eslint .' } } });
    const result = runCli(['init', '--host', 'cursor', '--root', bare]);
    expect(launchOf('cursor', result.stdout).command).to.equal(process.execPath);
    expect(result.stderr).to.include(`${bare} has no node_modules/mcp-gates`);
  });

  it('--write edits a .vscode/mcp.json with comments and trailing commas (JSONC) in place', () => {
    const root = installedProject();
    const file = path.join(root, '.vscode', 'mcp.json');
    fs.mkdirSync(path.dirname(file));
    const original = [
      '{',
      '  // Servers for this workspace',
      '  "servers": {',
      '    "other": {',
      '      "type": "stdio",',
      '      "command": "x", /* the tool */',
      '    }, // last one',
      '  },',
      '  "inputs": [],',
      '}',
      '',
    ].join('\n');
    fs.writeFileSync(file, original);
    const result = runCli(['init', '--host', 'vscode', '--write', '--root', root]);
    expect(result.code, result.stderr).to.equal(0);
    const entry = launchOf('vscode', prints.vscode.stdout);
    // Everything that was there stays byte for byte; the entry goes after the last server.
    const inserted = `    "gates": ${JSON.stringify(entry, null, 2).replace(/\n/g, '\n    ')},\n`;
    const written = fs.readFileSync(file, 'utf8');
    expect(written).to.equal(original.replace('  },\n  "inputs"', `${inserted}  },\n  "inputs"`));
    expect(parseJsonc(written).servers).to.deep.equal({
      other: { type: 'stdio', command: 'x' },
      gates: entry,
    });
    const again = runCli(['init', '--host', 'vscode', '--write', '--root', root]);
    expect(again.code).to.equal(2);
    expect(again.stderr).to.include('already has a "gates" server');
    // A file it cannot read is refused with where, and left as it was.
    const broken = '{"servers": {} /* not closed';
    fs.writeFileSync(file, broken);
    const refused = runCli(['init', '--host', 'vscode', '--write', '--root', root]);
    expect(refused.code).to.equal(2);
    expect(refused.stderr).to.include(
      'is not JSON or JSONC: unterminated comment at line 1, column 16',
    );
    expect(fs.readFileSync(file, 'utf8')).to.equal(broken);
  });

  it('--write keeps every comment and adds exactly the entry, whatever the layout', () => {
    const layouts = [
      '{}',
      '{"servers": {"a": {"command": "y"}}}',
      '{"servers": {"a": 1,},}',
      '{"servers": {/* c */ "a": 1}}',
      '{\n  "servers": {}\n}\n',
      '{\n\t"inputs": [] // none\n}\n',
      '{\n  "servers": {\n    "a": 1 // the last\n  }\n}\n',
      '// about\n{\n  "servers": {\n    "a": "//not a comment",\n  },\n}\n',
    ];
    const entry = launchOf('vscode', prints.vscode.stdout);
    for (const layout of layouts) {
      const root = installedProject();
      const file = path.join(root, '.vscode', 'mcp.json');
      fs.mkdirSync(path.dirname(file));
      fs.writeFileSync(file, layout);
      const result = runCli(['init', '--host', 'vscode', '--write', '--root', root]);
      expect(result.code, `${layout}\n${result.stderr}`).to.equal(0);
      const written = fs.readFileSync(file, 'utf8');
      const before = parseJsonc(layout);
      const after = parseJsonc(written);
      expect(after, written).to.deep.equal({
        ...before,
        servers: { ...before.servers, gates: entry },
      });
      for (const comment of layout.match(/\/\/ [^\n]*|\/\*.*?\*\//g) ?? [])
        expect(written, layout).to.include(comment);
    }
  });

  it('names the hosts, with a did-you-mean, for an unknown one', () => {
    const result = runCli(['init', '--host', 'vscod']);
    expect(result.code).to.equal(2);
    expect(result.stderr).to.include('did you mean vscode?');
  });
});

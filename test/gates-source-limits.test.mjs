// Gate sources are read within limits (issue 29, item 6): a YAML alias bomb, a document
// nested thousands deep or a file of many megabytes is named as not served, with why, and
// every other source is still served.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { detectGates, loadConfig } from '../dist/gates/index.js';
import { parseSource, SOURCE_LIMITS } from '../dist/gates/detect/source-document.js';
import { parsePreCommitConfig } from '../dist/gates/detect/pre-commit.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CLI,
  cleanupTemporary,
  envWithTools,
  makeRepo,
  runCli,
} from './fixtures/gates-support.mjs';

/** Nine lists of nine aliases of the one before: 9^9 strings once expanded, 600 bytes written. */
function aliasBomb(levels = 9) {
  const lines = ['x-lol:', '  a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let level = 1; level <= levels; level += 1)
    lines.push(
      `  a${level}: &a${level} [${Array(9)
        .fill(`*a${level - 1}`)
        .join(',')}]`,
    );
  return [
    ...lines,
    'repos:',
    '- repo: https://github.com/astral-sh/ruff-pre-commit',
    '  rev: v0.6.9',
    '  hooks:',
    '  - id: ruff',
    `    args: *a${levels}`,
    '',
  ].join('\n');
}

const nested = (depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('gate sources are read within limits (issue 29, item 6)', function () {
  this.timeout(60000);
  afterEach(cleanupTemporary);

  it('a YAML alias bomb in .pre-commit-config.yaml: `list` ends at once, names it, and serves the rest', () => {
    const root = makeRepo({
      '.pre-commit-config.yaml': aliasBomb(),
      'package.json': { name: 'x', scripts: { lint: 'eslint .' } },
    });
    const started = Date.now();
    // Before the limits this ran out of memory (1.5 GB at 60 s): the timeout ends it.
    const listed = runCli(['list', '--root', root], { cwd: root, timeout: 30000 });
    expect(listed.signal, 'list did not end').to.equal(null);
    expect(listed.code, listed.stderr).to.equal(0);
    expect(Date.now() - started).to.be.below(20000);
    expect(listed.stdout).to.match(/^ {2}lint\b/m);
    expect(listed.stdout).to.match(
      /\.pre-commit-config\.yaml: \(all hooks\) — \.pre-commit-config\.yaml is not read: .*alias/,
    );
  });

  it('a server started beside the alias bomb answers initialize and lists the other gates', async () => {
    const root = makeRepo({
      '.pre-commit-config.yaml': aliasBomb(),
      'package.json': { name: 'x', scripts: { lint: 'eslint .' } },
    });
    const client = new Client({ name: 'source-limits-test', version: '0.0.1' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', '--root', root],
      cwd: root,
      env: envWithTools(),
      stderr: 'pipe',
    });
    try {
      // Before the limits the server never answered: the connect's own timeout ends it.
      await client.connect(transport, { timeout: 20000 });
      const { tools } = await client.listTools(undefined, { timeout: 20000 });
      expect(tools.map((tool) => tool.name)).to.include('lint');
    } finally {
      await client.close();
    }
  });

  it('counts aliases and their expansion, not only the text', () => {
    // Few aliases, each a list of the one before: the expansion is what is past the limit.
    const expanded = parsePreCommitConfig(aliasBomb(9));
    expect(expanded)
      .to.be.a('string')
      .that.matches(/aliases expand it past/);
    // Many aliases of one short string: past the alias count itself.
    const many = ['x: &s "a"', 'repos:', '- repo: local', '  hooks:', '  - id: ruff', '    args:'];
    for (let index = 0; index <= SOURCE_LIMITS.aliases; index += 1) many.push('    - *s');
    expect(parsePreCommitConfig(many.join('\n')))
      .to.be.a('string')
      .that.matches(/alias/i);
    // A config that uses a few anchors, as real ones do, is read.
    const hooks = parsePreCommitConfig(
      [
        'x-exclude: &exclude ^vendor/',
        'repos:',
        '- repo: https://github.com/astral-sh/ruff-pre-commit',
        '  rev: v0.6.9',
        '  hooks:',
        '  - id: ruff',
        '    exclude: *exclude',
        '  - id: ruff-format',
        '    exclude: *exclude',
      ].join('\n'),
    );
    expect(hooks.map((hook) => [hook.id, hook.exclude])).to.deep.equal([
      ['ruff', '^vendor/'],
      ['ruff-format', '^vendor/'],
    ]);
  });

  it('a package.json nested too deep serves no script, and says so; the Makefile is still served', () => {
    const root = makeRepo({
      'package.json': `{"name":"x","scripts":{"lint":"eslint ."},"deep":${nested(5000)}}`,
      Makefile: 'typecheck:\n\tmypy pkg\n',
      'pkg/__init__.py': '',
    });
    const detection = detectGates(root);
    expect(detection.gates.map((gate) => gate.name)).to.deep.equal(['typecheck']);
    expect(detection.notServed).to.deep.include({
      source: 'package.json',
      name: '(all scripts)',
      why: `it nests deeper than ${SOURCE_LIMITS.depth} levels of lists and tables`,
    });
  });

  it('a tox.toml past the size limit is named, and not read', () => {
    const filler = `# ${'x'.repeat(1000)}\n`.repeat(Math.ceil(SOURCE_LIMITS.bytes / 1000) + 10);
    const root = makeRepo({
      'tox.toml': `${filler}[env.lint]\ncommands = [["ruff", "check", "."]]\n`,
      'ruff.toml': '',
    });
    const detection = detectGates(root);
    const named = detection.notServed.find((item) => item.source === 'tox.toml');
    expect(named?.why).to.match(/^it is 4\.\d MB, past the 4\.0 MB a gate source may be$/);
    // The ruff marker gate is still served.
    expect(detection.gates.map((gate) => gate.name)).to.include('ruff');
  });

  it('a pyproject.toml past the size limit is read by no tool, and named once; a Makefile is still served', () => {
    const filler = `# ${'x'.repeat(1000)}\n`.repeat(Math.ceil(SOURCE_LIMITS.bytes / 1000) + 10);
    const root = makeRepo({
      'pyproject.toml': `[tool.ruff]\n[tool.mypy]\n${filler}`,
      Makefile: 'lint:\n\tflake8 .\n',
    });
    const { gates, notServed } = detectGates(root);
    expect(gates.map((gate) => gate.name)).to.deep.equal(['lint']);
    expect(notServed).to.have.length(1);
    expect(notServed[0]).to.deep.include({ source: 'pyproject.toml', name: '(the whole file)' });
    expect(notServed[0].why).to.match(/past the 4\.0 MB a gate source may be$/);
  });

  it('TOML and JSON are bounded as YAML is: depth, and a deno.json that is not read is named', () => {
    expect(parseSource(`a = ${nested(200)}`, 'toml'))
      .to.have.property('problem')
      .that.matches(/TOML/);
    expect(parseSource(nested(200), 'json')).to.deep.equal({
      problem: `it nests deeper than ${SOURCE_LIMITS.depth} levels of lists and tables`,
    });
    expect(parseSource('{"a": [1, {"b": "c"}]}', 'json')).to.deep.equal({
      value: { a: [1, { b: 'c' }] },
    });
    const root = makeRepo({ 'deno.jsonc': '{ // c\n "tasks": { "lint": "deno lint" } }' });
    const [named, ...others] = detectGates(root).notServed;
    expect(others).to.deep.equal([]);
    expect(named).to.deep.include({ source: 'deno.jsonc', name: '(all tasks)' });
    expect(named.why).to.match(/^it is not valid JSON \(/);
  });

  it('an mcp-gates.json nested too deep is refused with the cause and the fix', () => {
    const root = makeRepo({});
    fs.writeFileSync(
      path.join(root, 'mcp-gates.json'),
      `{"gates":{"lint":{"command":["eslint","."],"description":${nested(5000)}}}}`,
    );
    expect(() => loadConfig(root))
      .to.throw(/not read: it nests deeper than 64 levels/)
      .with.property('code', 'ECONFIG_JSON');
  });
});

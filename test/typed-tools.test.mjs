// Typed tools as an author sees them: .ts files compiled under strict with this repo's
// TypeScript against the package's own dist types, installed alone in a temp directory
// (no @types/node): the README example, argument types inferred from an `as const` JSON
// Schema and from Zod 4, content blocks, defineTool; and the gates subpath export.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';
import { REPO_ROOT, cleanupTemporary, makeTempDir } from './fixtures/gates-support.mjs';
import { Conversation } from './helpers/conversation.mjs';

const MODULES = fs.realpathSync(path.join(REPO_ROOT, 'node_modules'));
const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'typed');

/** The ts/js code blocks of a page (`from`: the section whose heading starts so), in order. */
function codeBlocks(page, from = '') {
  const text = fs.readFileSync(path.join(REPO_ROOT, page), 'utf8');
  const start = text.indexOf(from);
  const end = from ? text.indexOf('\n## ', start + 1) : -1;
  const section = text.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```(?:ts|js)\n([\s\S]*?)```/g)].map((match) =>
    match[1].replace(/^ {2}/gm, ''),
  );
}

/** The first code block under the README's "A server of your own" heading. */
function readmeExample() {
  const [example] = codeBlocks('README.md', '## A server of your own');
  if (!example) throw new Error('README has no code block under "## A server of your own"');
  return example;
}

/** The code blocks of the library's guide, docs/library.md. */
const libraryBlocks = () => codeBlocks('docs/library.md');

/** A project with mcp-gates (package.json + dist) and zod installed, nothing else. */
function project(files, compilerOptions = {}, { type = 'module' } = {}) {
  const root = makeTempDir('mcp-gates-typed-');
  const installed = path.join(root, 'node_modules', 'mcp-gates');
  fs.mkdirSync(installed, { recursive: true });
  fs.copyFileSync(path.join(REPO_ROOT, 'package.json'), path.join(installed, 'package.json'));
  fs.cpSync(path.join(REPO_ROOT, 'dist'), path.join(installed, 'dist'), { recursive: true });
  if (Object.values(files).some((text) => text.includes("from 'zod'"))) {
    fs.cpSync(path.join(REPO_ROOT, 'node_modules', 'zod'), path.join(root, 'node_modules', 'zod'), {
      recursive: true,
    });
  }
  fs.writeFileSync(path.join(root, 'package.json'), `{ "type": "${type}" }\n`);
  const tsconfig = {
    compilerOptions: {
      strict: true,
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      noEmit: true,
      skipLibCheck: false,
      ...compilerOptions,
    },
    include: ['*.ts', '*.cts'],
  };
  fs.writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify(tsconfig));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(root, name), text);
  return root;
}

// This repository's declaration files parsed once for every compile: TypeScript's default
// library (DOM included) and @types/node were most of each `tsc -p` (a second each, a
// process each). A .d.ts parses and binds alike under every module setting (module
// detection forces no declaration file to be a module): the key is its name and what
// TypeScript passes to parse it (language version, module format).
const parsed = new Map();

/** `tsc -p root` in this process: its status (0: no error) and its diagnostics as tsc prints them. */
function compile(root) {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  const host = ts.createCompilerHost(config.options);
  const parse = host.getSourceFile;
  host.getSourceFile = (fileName, version, ...rest) => {
    // The project's own files and the package under test (copied into it) are parsed afresh.
    const shared =
      fileName.endsWith('.d.ts') &&
      fs.existsSync(fileName) &&
      fs.realpathSync(fileName).startsWith(MODULES);
    if (!shared) return parse(fileName, version, ...rest);
    const key = JSON.stringify([fileName, version]);
    if (!parsed.has(key)) parsed.set(key, parse(fileName, version, ...rest));
    return parsed.get(key);
  };
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    projectReferences: config.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config),
    host,
  });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const output = ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (fileName) => fileName,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  });
  return { status: diagnostics.length === 0 ? 0 : 1, output };
}

function fixture(name) {
  return fs.readFileSync(path.join(FIXTURES, name), 'utf8');
}

describe('typed tools compile under strict against the published types', function () {
  this.timeout(60000);
  afterEach(cleanupTemporary);

  it("compiles the README example and the library guide's title and annotations example, every .d.ts of the package checked, with no @types/node; serves the guide's", async () => {
    // docs/library.md opens with the same example: one text, checked once.
    expect(libraryBlocks()[0]).to.equal(readmeExample());
    const block = libraryBlocks().find((text) => text.includes('annotations:'));
    expect(block, 'docs/library.md documents title and annotations with an example').to.be.a(
      'string',
    );
    const header =
      "import { McpServer } from 'mcp-gates';\nconst server = new McpServer({ name: 'n', version: '1' });\n";
    // One project, one compile: checking the package's .d.ts files and the default library
    // is most of a compile, and the same for both (each file is a module of its own).
    const root = project({
      'readme-example.ts': readmeExample(),
      'annotations.ts': `${header}${block}`,
    });
    expect(fs.existsSync(path.join(root, 'node_modules', '@types'))).to.equal(false);
    expect(compile(root)).to.deep.equal({ status: 0, output: '' });
    // The guide's block, run (it is plain JavaScript too): the tool is listed with both.
    const conversation = new Conversation({ tools: [] });
    new Function('server', block)(conversation.server);
    await conversation.initialize('2025-06-18');
    const [tool] = (await conversation.request('tools/list')).result.tools;
    expect(tool.title).to.be.a('string');
    expect(tool.annotations).to.include({ readOnlyHint: true });
    await conversation.end();
  });

  // Both module formats: the package is ESM only (docs/library.md, "Module formats"), which CommonJS
  // reaches through Node's require(esm) and TypeScript's model of it.
  const RESOLUTIONS = {
    node16: { module: 'node16', moduleResolution: 'node16' },
    nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
    bundler: { module: 'preserve', moduleResolution: 'bundler' },
  };
  for (const [name, options] of Object.entries(RESOLUTIONS)) {
    it(`an ESM consumer compiles under module ${name}`, () => {
      const root = project({ 'server.ts': readmeExample() }, { ...options, skipLibCheck: true });
      expect(compile(root)).to.deep.equal({ status: 0, output: '' });
    });
  }

  const CJS_CONSUMER = [
    "import { McpServer } from 'mcp-gates';",
    "const server = new McpServer({ name: 'n', version: '1' });",
    "server.register({ name: 'shout', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, run: ({ text }) => ({ text: text.toUpperCase() }) });",
    '',
  ].join('\n');
  for (const name of ['nodenext', 'bundler']) {
    it(`a CommonJS consumer (.cts) compiles under module ${name}`, () => {
      const root = project(
        { 'server.cts': CJS_CONSUMER },
        { ...RESOLUTIONS[name], skipLibCheck: true },
        { type: 'commonjs' },
      );
      expect(compile(root)).to.deep.equal({ status: 0, output: '' });
    });
  }

  it('a CommonJS consumer under module node16 gets TS1479, the error the library guide names with its fix', () => {
    const root = project(
      { 'server.cts': CJS_CONSUMER },
      { ...RESOLUTIONS.node16, skipLibCheck: true },
      { type: 'commonjs' },
    );
    const { status, output } = compile(root);
    expect(status).to.not.equal(0);
    expect(output).to.match(/error TS1479: .*cannot be imported with 'require'/);
    const guide = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'library.md'), 'utf8');
    expect(guide).to.include('TS1479').and.include('"module": "nodenext"');
  });

  it('require() from CommonJS gets the library and the gates API (Node require(esm))', function () {
    // reason: require(esm) is on by default from Node 20.19 and 22.12 only
    if (!process.features.require_module) this.skip();
    const root = project({}, {}, { type: 'commonjs' });
    // Run, not only compiled: its runtime dependencies are installed beside it, as npm does.
    const { dependencies } = JSON.parse(
      fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'),
    );
    for (const name of Object.keys(dependencies)) {
      const target = path.join(root, 'node_modules', name);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.symlinkSync(path.join(REPO_ROOT, 'node_modules', name), target);
    }
    const script = [
      "const { McpServer, serveStdio } = require('mcp-gates');",
      "const { loadGates } = require('mcp-gates/gates');",
      'process.stdout.write([typeof McpServer, typeof serveStdio, typeof loadGates].join());',
    ].join('\n');
    fs.writeFileSync(path.join(root, 'server.cjs'), script);
    const result = spawnSync(process.execPath, ['server.cjs'], { cwd: root, encoding: 'utf8' });
    expect(result.stderr).to.equal('');
    expect(result.stdout).to.equal('function,function,function');
  });

  // skipLibCheck from here on: checking zod's or node's own .d.ts proves nothing about ours.
  it('infers arguments from an as-const JSON Schema and from Zod 4; content blocks and defineTool type-check', () => {
    const root = project({ 'typed-tools.ts': fixture('typed-tools.ts') }, { skipLibCheck: true });
    expect(compile(root)).to.deep.equal({ status: 0, output: '' });
  });

  it('rejects code that misuses inferred argument types (the types are not any)', () => {
    const wrong = readmeExample().replace('text.toUpperCase()', 'text.toFixed(2)');
    const root = project({ 'wrong.ts': wrong }, { skipLibCheck: true });
    const { status, output } = compile(root);
    expect(status).to.not.equal(0);
    expect(output).to.match(/error TS\d+: Property 'toFixed' does not exist on type 'string'/);
  });

  it('compiles the gates API from the mcp-gates/gates subpath (with @types/node: it is a Node API)', () => {
    const root = project(
      { 'gates-api.ts': fixture('gates-api.ts') },
      { types: ['node'], skipLibCheck: true },
    );
    fs.mkdirSync(path.join(root, 'node_modules', '@types'), { recursive: true });
    fs.symlinkSync(
      path.join(REPO_ROOT, 'node_modules', '@types', 'node'),
      path.join(root, 'node_modules', '@types', 'node'),
      process.platform === 'win32' ? 'junction' : 'dir',
    );
    expect(compile(root)).to.deep.equal({ status: 0, output: '' });
  });
});

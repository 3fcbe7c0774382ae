// A script that turns on its tool's own cache (`eslint --cache .`) keeps it out of the tree
// (issue 29, item 5): it runs as the gate's own step with its cache in the run's private
// directory, and runs warm where the rest allows, `list` and `serve` alike.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { detectGates, runGate } from '../dist/gates/index.js';
import { loadGates } from '../dist/gates/load-gates.js';
import { gateWarmCapability, WarmPool } from '../dist/gates/warm/index.js';
import { privateCaches } from '../dist/gates/run/private-caches.js';
import { planRuns } from '../dist/gates/hooks/hook-plan.js';
import {
  cleanupTemporary,
  envWithTools,
  makeRepo,
  runCli,
  toolContext,
  treeSnapshot,
} from './fixtures/gates-support.mjs';
import { makeWarmRepo } from './fixtures/warm/warm-fixture.mjs';

const stepsOf = (gates, name) =>
  gates.find((gate) => gate.name === name)?.steps?.map((step) => step.command.join(' '));

/** A finding as a line, for comparing a warm run's with a cold run's. */
const findingLines = (result) =>
  result.structuredContent.findings.map((f) => `${f.file}:${f.line} ${f.rule} ${f.message}`);

describe("a script's own tool cache goes outside the tree (issue 29, item 5)", function () {
  this.timeout(120000);
  // The real-tool cases share one repository: removed after all of them.
  after(cleanupTemporary);

  it('a one-command script that names its cache runs as its own step, so the redirect reaches it', () => {
    const root = makeRepo({
      'package.json': {
        name: 'x',
        scripts: {
          lint: 'eslint --cache .',
          'format:check': 'prettier --check --cache --cache-location .cache/prettier .',
          'lint:css': 'stylelint "**/*.css" --cache-location=.cache/stylelint',
          // Without a cache option the script keeps running through the package manager.
          'lint:md': 'markdownlint .',
        },
      },
    });
    const gates = detectGates(root).gates;
    expect(stepsOf(gates, 'lint')).to.deep.equal(['eslint --cache .']);
    expect(stepsOf(gates, 'format')).to.deep.equal([
      'prettier --check --cache --cache-location .cache/prettier .',
    ]);
    expect(stepsOf(gates, 'lint_css')).to.deep.equal([
      'stylelint **/*.css --cache-location=.cache/stylelint',
    ]);
    expect(gates.find((gate) => gate.name === 'lint').description).to.include(
      "the tool's cache goes to a private temporary directory, never into the tree",
    );
  });

  it('a gate of mcp-gates.json that runs such a script runs it as detection does; other commands are kept', () => {
    const script = (name) => ({ command: ['npm', 'run', '--silent', name], parser: 'generic' });
    const root = makeRepo({
      'package.json': {
        name: 'x',
        scripts: {
          lint: 'eslint --cache .',
          types: 'tsc -b',
          hooked: 'eslint --cache .',
          prehooked: 'echo first',
          plain: 'eslint .',
        },
      },
      'mcp-gates.json': {
        gates: {
          lint: script('lint'),
          types: script('types'),
          hooked: script('hooked'),
          plain: script('plain'),
          given: { ...script('lint'), paths: 'append' },
        },
      },
    });
    const gates = Object.fromEntries(loadGates(root).gates.map((gate) => [gate.name, gate]));
    // Before: every one ran `npm run`, so ESLint wrote .eslintcache and tsc -b its outputs.
    expect(stepsOf(Object.values(gates), 'lint')).to.deep.equal(['eslint --cache .']);
    expect(gates.types).to.deep.include({
      command: ['tsc', '-b', 'tsconfig.json', '--force', '--pretty', 'false'],
      prepare: 'tsc-build',
    });
    // npm runs a pre-script too; paths given to a script go to its end: both stay as written.
    for (const name of ['hooked', 'plain', 'given']) {
      expect(gates[name].steps, name).to.equal(undefined);
      expect(gates[name].command[0], name).to.equal('npm');
    }
  });

  it("a gate of mcp-gates.json running a per-file tool's whole-tree check is narrowed as detection narrows it (real Prettier)", async () => {
    const root = makeWarmRepo('mcp-gates-config-narrow-');
    const gate = (command, extra = {}) => ({ command, parser: 'generic', ...extra });
    fs.writeFileSync(
      path.join(root, 'mcp-gates.json'),
      JSON.stringify({
        gates: {
          format: gate(['prettier', '--check', '.']),
          // A finding of ESLint's can come from another file (imports, types): it runs whole.
          lint: gate(['eslint', '.']),
          // What writes, or says how paths go, is kept as written.
          writing: gate(['prettier', '--write', '.']),
          given: gate(['prettier', '--check', '.'], { paths: 'append' }),
        },
      }),
    );
    const gates = Object.fromEntries(loadGates(root).gates.map((gate) => [gate.name, gate]));
    expect(gates.format.command).to.deep.equal(['prettier', '--check', '.']);
    expect(gates.format.narrow).to.deep.equal({
      command: ['prettier', '--check'],
      parser: 'prettier',
    });
    for (const name of ['lint', 'writing', 'given'])
      expect(gates[name].narrow, name).to.equal(undefined);
    const env = envWithTools();
    const run = async (args) => {
      const before = treeSnapshot(root);
      const result = await runGate(gates.format, false, args, toolContext(), { root, env });
      expect(treeSnapshot(root)).to.deep.equal(before);
      return result;
    };
    // The whole run finds the misformatted file among others; a run on it finds it alone.
    // Before: a config gate without "paths" refused the call's paths.
    const whole = await run({});
    expect(whole.structuredContent.findings.map((f) => f.file)).to.include('src/main.ts');
    const one = await run({ paths: ['src/main.ts'] });
    expect(one.structuredContent.status, one.text).to.equal('failed');
    expect(one.structuredContent.findings.map((f) => f.file)).to.deep.equal(['src/main.ts']);
    const clean = await run({ paths: ['src/math.ts'] });
    expect(clean.structuredContent.status, clean.text).to.equal('passed');
    // A hook after an edit runs it on the edited file; ESLint and the writing command run whole.
    const plan = planRuns(
      Object.values(gates),
      root,
      { files: ['src/math.ts'], deleted: [] },
      true,
    );
    const planned = Object.fromEntries(plan.runs.map((run) => [run.gate.name, run.args]));
    expect(planned).to.deep.equal({
      format: { paths: ['src/math.ts'] },
      lint: {},
      writing: {},
      given: { paths: ['src/math.ts'] },
    });
  });

  it("reaches a tool behind pnpm's shell shim: its version is read from the script the shim runs", () => {
    // pnpm's node_modules/.bin entries are sh scripts, not links to the package's bin.
    const root = makeRepo({
      'node_modules/.pnpm/eslint@9.1.0/node_modules/eslint/package.json': {
        name: 'eslint',
        version: '9.1.0',
      },
      'node_modules/.pnpm/eslint@9.1.0/node_modules/eslint/bin/eslint.js': '',
      'node_modules/.bin/eslint':
        '#!/bin/sh\nbasedir=$(dirname "$(echo "$0" | sed -e \'s,\\\\,/,g\')")\nif [ -x "$basedir/node" ]; then\n  exec "$basedir/node"  "$basedir/../.pnpm/eslint@9.1.0/node_modules/eslint/bin/eslint.js" "$@"\nelse\n  exec node  "$basedir/../.pnpm/eslint@9.1.0/node_modules/eslint/bin/eslint.js" "$@"\nfi\n',
    });
    const shim = path.join(root, 'node_modules/.bin/eslint');
    const caches = privateCaches(
      ['eslint', '--cache', '--cache-location', '.cache/eslint', '.'],
      {
        file: shim,
        args: ['--cache', '--cache-location', '.cache/eslint', '.'],
      },
      { runDir: root, env: {} },
    );
    try {
      // Before: no version was found behind the shim, so nothing was redirected.
      expect(caches.args).to.have.length(4);
      expect(caches.args.slice(0, 1)).to.deep.equal(['--cache-location']);
      expect(caches.args[1]).to.match(/mcp-gates-caches-.*[\\/]\.eslintcache$/);
      // The user's place in the tree is dropped for the private one.
      expect(caches.args.slice(2)).to.deep.equal(['--cache', '.']);
    } finally {
      caches.cleanup();
    }
  });

  it('a `tsc --incremental --noEmit` script keeps its build info out of the tree (real tsc)', async () => {
    const root = makeRepo({
      'package.json': { name: 'x', scripts: { check: 'tsc --incremental --noEmit' } },
      // ES2022's libs alone: the DOM's, the default, would be most of the check's cost.
      'tsconfig.json': {
        compilerOptions: { strict: true, skipLibCheck: true, lib: ['es2022'], types: [] },
        include: ['src'],
      },
      'src/a.ts': 'export const a: number = "one";\n',
    });
    const [gate] = detectGates(root).gates;
    expect(gate.steps.map((step) => step.command.join(' '))).to.deep.equal([
      'tsc --incremental --noEmit',
    ]);
    const before = treeSnapshot(root);
    const result = await runGate(gate, false, {}, toolContext(), { root, env: envWithTools() });
    // Before: tsc wrote tsconfig.tsbuildinfo into the root, and the gate failed on that.
    expect(treeSnapshot(root)).to.deep.equal(before);
    expect(findingLines(result)).to.deep.equal([
      "src/a.ts:1 TS2322 Type 'string' is not assignable to type 'number'.",
    ]);
  });

  // The same scripts detected, and named by the mcp-gates.json `init` writes from them
  // (`npm run --silent lint`): a config gate running a script runs it as detection does.
  for (const source of ['detection', 'mcp-gates.json written by init'])
    describe(`real ESLint and Prettier scripts with --cache (${source})`, () => {
      let root;
      let gates;
      /** Each gate's first cold answer here, and the tree it answered (a repeat takes it). */
      const firstColds = new Map();
      const coldOf = async (name, env) => {
        const tree = treeSnapshot(root);
        const kept = firstColds.get(name);
        if (kept && JSON.stringify(kept.tree) === JSON.stringify(tree)) return kept.result;
        const result = await runGate(gates[name], false, {}, toolContext(), { root, env });
        if (!kept) firstColds.set(name, { tree, result });
        return result;
      };
      before(() => {
        root = makeWarmRepo('mcp-gates-tool-caches-');
        const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
        manifest.scripts = {
          lint: 'eslint --cache .',
          // The user's own cache place is in the tree: the check uses its private one instead.
          'format:check': 'prettier --check --cache --cache-location .cache/prettier src',
        };
        fs.writeFileSync(path.join(root, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
        if (source !== 'detection') {
          const init = runCli(['init', '--root', root]);
          expect(init.code, init.stderr).to.equal(0);
          const written = JSON.parse(fs.readFileSync(path.join(root, 'mcp-gates.json'), 'utf8'));
          expect(written.gates.lint.command).to.deep.equal(['npm', 'run', '--silent', 'lint']);
        }
        const served = loadGates(root);
        expect(served.origin).to.equal(source === 'detection' ? 'detection' : 'config');
        gates = Object.fromEntries(served.gates.map((gate) => [gate.name, gate]));
      });

      it('a cold run leaves the tree as it was, and finds what the tool finds', async () => {
        const check = async (name) => {
          const before = treeSnapshot(root);
          const result = await coldOf(name, envWithTools());
          // Before: ESLint wrote .eslintcache into the root, and the write guard failed the gate.
          expect(treeSnapshot(root), name).to.deep.equal(before);
          expect(result.text, name).to.not.match(/wrote|changed the tree/i);
          return result;
        };
        // The fixture's committed violations, at their lines.
        const lint = await check('lint');
        expect(lint.structuredContent.status, lint.text).to.equal('failed');
        expect(findingLines(lint)).to.include.members([
          'src/main.ts:5 no-console Unexpected console statement',
          "src/math.ts:6 eqeqeq Expected '===' and instead saw '=='",
        ]);
        const format = await check('format');
        expect(format.structuredContent.status, format.text).to.equal('failed');
        expect(format.structuredContent.findings.map((f) => f.file)).to.deep.equal(['src/main.ts']);
        // Fixed, both pass; the tree is unchanged by the checks again.
        const sources = ['src/main.ts', 'src/math.ts'].map((file) => path.join(root, file));
        const originals = sources.map((file) => fs.readFileSync(file, 'utf8'));
        try {
          for (const file of sources) fs.writeFileSync(file, 'export const clean = 1;\n');
          for (const name of ['lint', 'format']) {
            const passed = await check(name);
            expect(passed.structuredContent.status, `${name}: ${passed.text}`).to.equal('passed');
          }
        } finally {
          sources.forEach((file, index) => fs.writeFileSync(file, originals[index]));
        }
        expect(fs.existsSync(path.join(root, '.eslintcache'))).to.equal(false);
        expect(fs.existsSync(path.join(root, '.cache'))).to.equal(false);
      });

      it('list and serve agree: warm, and the warm answer is the cold one', async () => {
        const env = envWithTools();
        const pool = new WarmPool();
        try {
          for (const name of ['lint', 'format']) {
            expect(gateWarmCapability(gates[name], root, env), name).to.deep.equal({ warm: true });
            // The tree the last test checked first (restored at its end): that answer.
            const cold = await coldOf(name, env);
            if (name === 'lint') expect(findingLines(cold)).to.not.deep.equal([]);
            const before = treeSnapshot(root);
            const warm = await runGate(gates[name], false, {}, toolContext(), {
              root,
              env,
              warm: pool,
            });
            // Before: the worker answered "--cache runs cold" where list said warm.
            expect(warm.structuredContent.warm, name).to.deep.include({ used: true });
            expect(findingLines(warm), name).to.deep.equal(findingLines(cold));
            expect(warm.structuredContent.status, name).to.equal(cold.structuredContent.status);
            expect(treeSnapshot(root), name).to.deep.equal(before);
          }
        } finally {
          pool.close();
        }
      });
    });
});

// Fixture repositories with real violations through the real tools, via detection and
// the gate tools: eslint, prettier and tsc (devDependencies), biome and oxlint
// (devDependencies), cargo clippy / cargo fmt and go vet / gofmt when installed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createGateTools, detectGates } from '../dist/gates/index.js';
import {
  cleanupTemporary,
  copyRepo,
  envWithTools,
  hasCommand,
  makeTempDir,
  toolContext,
} from './fixtures/gates-support.mjs';

/** Detects the repo's gates and runs the named tool; returns the result. */
async function runDetected(root, toolName, args = {}, extraEnv = {}) {
  const env = { ...envWithTools(), ...extraEnv };
  const tools = createGateTools(detectGates(root).gates, { root, env });
  const tool = tools.find((candidate) => candidate.name === toolName);
  expect(tool, `${toolName} among ${tools.map((t) => t.name)}`).to.not.equal(undefined);
  return tool.run(args, toolContext());
}

const located = (result) =>
  result.structuredContent.findings.map(
    (f) => `${f.file}:${f.line ?? '-'} ${f.severity} ${f.rule}`,
  );

/** Runs detection on a copy with package.json removed, so marker gates (real tool argv) are used. */
function markerRepo(name) {
  const root = copyRepo(name);
  fs.rmSync(path.join(root, 'package.json'), { force: true });
  return root;
}

describe('gates with real tools on fixture repositories', function () {
  this.timeout(120000);
  afterEach(cleanupTemporary);

  describe('eslint, prettier, tsc', () => {
    it('eslint (eslint-json) finds the violations with the right file and line', async () => {
      const result = await runDetected(markerRepo('js-dirty'), 'lint');
      expect(result.isError).to.equal(true);
      expect(located(result)).to.have.members([
        'src/unused.js:2 error no-unused-vars',
        'src/unused.js:3 warning no-console',
        'src/unused.js:6 error eqeqeq',
      ]);
      expect(result.text).to.include(
        "src/unused.js:2:9: error: 'unused' is assigned a value but never used. [no-unused-vars]",
      );
      // The JSON itself stays out of the report; the findings are listed instead.
      expect(result.text).to.not.include('"filePath"');
    });

    it('eslint through the package.json script (stylish output) finds the same', async () => {
      const result = await runDetected(copyRepo('js-dirty'), 'lint');
      expect(result.isError).to.equal(true);
      expect(located(result)).to.have.members([
        'src/unused.js:2 error no-unused-vars',
        'src/unused.js:3 warning no-console',
        'src/unused.js:6 error eqeqeq',
      ]);
    });

    it('eslint on given paths checks only those', async () => {
      const root = markerRepo('js-dirty');
      const clean = await runDetected(root, 'lint', { paths: ['src/ugly.js'] });
      expect(clean.isError).to.equal(false);
      expect(clean.structuredContent.command).to.deep.equal([
        'eslint',
        '--format',
        'json',
        'src/ugly.js',
      ]);
    });

    it('prettier finds the unformatted file; prettier fix formats it', async () => {
      const root = markerRepo('js-dirty');
      const check = await runDetected(root, 'format');
      expect(check.isError).to.equal(true);
      expect(located(check)).to.deep.equal(['src/ugly.js:1 error prettier']);
      const fix = await runDetected(root, 'format_fix', { paths: ['src/ugly.js'] });
      expect(fix.isError).to.equal(false);
      expect((await runDetected(root, 'format')).isError).to.equal(false);
    });

    it('tsc finds the type errors with file, line and code', async () => {
      const result = await runDetected(markerRepo('js-dirty'), 'typecheck');
      expect(result.isError).to.equal(true);
      expect(located(result)).to.have.members([
        'src/types.ts:5 error TS2322',
        'src/types.ts:8 error TS2322',
      ]);
      expect(result.structuredContent.exitCode).to.equal(2);
    });

    for (const gate of ['lint', 'format', 'typecheck']) {
      it(`a clean fixture passes ${gate}`, async () => {
        const result = await runDetected(markerRepo('js-clean'), gate);
        expect(result.isError, result.text).to.equal(false);
        expect(result.structuredContent).to.include({ passed: true, exitCode: 0 });
        expect(result.structuredContent.findings).to.deep.equal([]);
      });
    }
  });

  describe('biome and oxlint', () => {
    it('biome check (biome-json) reports lint and format problems, format at its first changed line', async () => {
      const result = await runDetected(copyRepo('biome-dirty'), 'biome');
      expect(result.isError).to.equal(true);
      expect(located(result)).to.include.members([
        'src/app.js:2 error lint/suspicious/noDoubleEquals',
        'src/app.js:2 error lint/suspicious/noDebugger',
        // Biome's JSON gives a format problem no line: biome format on stdin finds it.
        'src/app.js:2 error format',
      ]);
    });

    it('oxlint (oxlint-json) reports the error and the warning', async () => {
      const result = await runDetected(copyRepo('js-dirty'), 'oxlint');
      expect(result.isError).to.equal(true);
      expect(located(result)).to.have.members([
        'src/unused.js:2 warning eslint(no-unused-vars)',
        'src/unused.js:6 error eslint(eqeqeq)',
      ]);
    });
  });

  describe('cargo', () => {
    before(function () {
      if (
        !hasCommand('cargo') ||
        !hasCommand('cargo', ['clippy', '--version']) ||
        !hasCommand('cargo', ['fmt', '--version'])
      ) {
        this.skip(); // cargo with clippy and rustfmt is not installed on this machine
      }
    });

    it('cargo clippy (cargo-json) finds the lints with file and line; a clean crate passes', async () => {
      // XDG_CACHE_HOME: what a gate keeps in the user's cache (cargo's builds) stays the test's
      // (not for go: its build cache is there too, and an empty one rebuilds the std library).
      const userCache = { XDG_CACHE_HOME: makeTempDir('mcp-gates-user-cache-') };
      const result = await runDetected(copyRepo('rust-dirty'), 'clippy', {}, userCache);
      expect(result.isError).to.equal(true);
      expect(located(result)).to.have.members([
        'src/main.rs:3 error unused_variables',
        'src/main.rs:11 error clippy::needless_return',
        'src/main.rs:8 error clippy::ptr_arg',
        'src/main.rs:10 error clippy::needless_range_loop',
      ]);
      // rust-clean commits no Cargo.lock, like many library crates: cargo writes one during
      // the check, and the gate removes it again rather than change the tree.
      const cleanRoot = copyRepo('rust-clean');
      const clean = await runDetected(cleanRoot, 'clippy', {}, userCache);
      expect(clean.isError, clean.text).to.equal(false);
      expect(clean.structuredContent.changedFiles).to.deep.equal([]);
      expect(clean.text).to.include(
        'removed Cargo.lock, which the tool generated during the check',
      );
      expect(fs.existsSync(path.join(cleanRoot, 'Cargo.lock'))).to.equal(false);
    });

    it('cargo builds outside the tree: into a directory kept per tree in the user cache, or a CARGO_TARGET_DIR set outside the tree', async () => {
      // Rule 1 counts ignored paths too: clippy built into the tree's target/ before.
      const root = copyRepo('rust-clean');
      const cacheHome = makeTempDir('mcp-gates-clippy-cache-');
      const run = async (extra) => {
        const tools = createGateTools(detectGates(root).gates, {
          root,
          env: { ...envWithTools(), XDG_CACHE_HOME: cacheHome, ...extra },
        });
        const result = await tools.find((tool) => tool.name === 'clippy').run({}, toolContext());
        expect(result.isError, result.text).to.equal(false);
        expect(fs.existsSync(path.join(root, 'target')), 'target/ in the tree').to.equal(false);
      };
      const kept = path.join(cacheHome, 'mcp-gates', 'cargo_target_dir');
      // Outside a git work tree (a hook's copy of the start tree) nothing is kept.
      await run({});
      expect(fs.existsSync(kept)).to.equal(false);
      execFileSync('git', ['init', '-q'], { cwd: root });
      await run({});
      const [directory, ...others] = fs.readdirSync(kept);
      expect(others).to.deep.equal([]);
      expect(fs.existsSync(path.join(kept, directory, 'CACHEDIR.TAG'))).to.equal(true);
      expect(fs.statSync(kept).mode & 0o077).to.equal(0);
      // A value inside the tree is the tree: the kept directory serves, the same one again.
      await run({ CARGO_TARGET_DIR: 'target' });
      expect(fs.readdirSync(kept)).to.deep.equal([directory]);
      const own = makeTempDir('mcp-gates-clippy-own-');
      await run({ CARGO_TARGET_DIR: own });
      // cargo tags only a directory it creates: this one was made by the test.
      expect(fs.readdirSync(own)).to.include('debug');
    });

    it('cargo clippy reports the findings of every target, whichever fails first (--keep-going)', async () => {
      // A lint of the library alone (cfg(not(test))) and one of its test build alone (an item
      // after the test module): at one job cargo stops at the first
      // target that fails, so without --keep-going one went unreported, which one depending
      // on the build order (scoped-tls: a warm stop missed what cold ground truth reported).
      const root = makeTempDir('mcp-gates-clippy-targets-');
      fs.writeFileSync(
        path.join(root, 'Cargo.toml'),
        '[package]\nname = "targets"\nversion = "0.1.0"\nedition = "2021"\n',
      );
      fs.mkdirSync(path.join(root, 'src'));
      fs.writeFileSync(
        path.join(root, 'src/lib.rs'),
        [
          '#[cfg(not(test))]',
          'pub fn same(x: u32) -> bool {',
          '    x == x',
          '}',
          '',
          '#[cfg(test)]',
          'mod tests {}',
          '',
          'pub fn after() {}',
          '',
        ].join('\n'),
      );
      const tools = createGateTools(detectGates(root).gates, {
        root,
        env: {
          ...envWithTools(),
          CARGO_BUILD_JOBS: '1',
          XDG_CACHE_HOME: makeTempDir('mcp-gates-user-cache-'),
        },
      });
      const result = await tools.find((tool) => tool.name === 'clippy').run({}, toolContext());
      expect(located(result), result.text).to.include.members([
        'src/lib.rs:3 error clippy::eq_op',
        'src/lib.rs:7 error clippy::items_after_test_module',
      ]);
    });

    it('cargo fmt --check (rustfmt) finds the unformatted hunk; rustfmt_fix fixes it', async () => {
      const root = copyRepo('rust-dirty');
      const result = await runDetected(root, 'rustfmt');
      expect(result.isError).to.equal(true);
      expect(located(result)).to.have.members(['src/main.rs:10 error rustfmt']);
      expect(result.text).to.not.include('\u001b[');
      expect((await runDetected(root, 'rustfmt_fix')).isError).to.equal(false);
      expect((await runDetected(root, 'rustfmt')).isError).to.equal(false);
    });
  });

  describe('go', () => {
    before(function () {
      if (!hasCommand('go', ['version'])) this.skip(); // Go is not installed (Debian: apt-get install golang-go)
    });

    it('go vet finds the printf misuse, with its analyzer as the rule', async () => {
      const result = await runDetected(copyRepo('go-dirty'), 'vet');
      expect(result.isError).to.equal(true);
      expect(located(result)).to.have.members(['main.go:7 error printf']);
      const clean = await runDetected(copyRepo('go-clean'), 'vet');
      expect(clean.isError, clean.text).to.equal(false);
    });

    it('go vet leaves go.mod alone under GOFLAGS=-mod=mod (google/uuid: it added the missing go line)', async () => {
      const root = copyRepo('go-clean');
      const goMod = path.join(root, 'go.mod');
      fs.writeFileSync(goMod, fs.readFileSync(goMod, 'utf8').replace(/^go .*\n/m, ''));
      const before = fs.readFileSync(goMod, 'utf8');
      const result = await runDetected(root, 'vet', {}, { GOFLAGS: '-mod=mod' });
      expect(result.structuredContent.changedFiles, result.text).to.deep.equal([]);
      expect(result.isError, result.text).to.equal(false);
      expect(fs.readFileSync(goMod, 'utf8')).to.equal(before);
      // A vendoring module keeps its default (vendor): readonly would need the network.
      fs.mkdirSync(path.join(root, 'vendor'));
      fs.writeFileSync(path.join(root, 'vendor', 'modules.txt'), '');
      const vet = detectGates(root).gates.find((gate) => gate.name === 'vet');
      expect(vet.command).to.deep.equal(['go', 'vet', '-json', './...']);
    });

    it('a module in a subdirectory is a vet gate of its own, run there; gofmt covers both', async () => {
      // `go vet ./...` at the root stops at arc/go.mod: the module's misuse was never seen.
      const root = copyRepo('go-clean');
      fs.cpSync(copyRepo('go-dirty'), path.join(root, 'arc'), { recursive: true });
      const gates = detectGates(root).gates;
      expect(
        gates
          .filter((gate) => /^(vet|gofmt)/.test(gate.name))
          .map((gate) => [gate.name, gate.cwd ?? '.', gate.source]),
      ).to.deep.equal([
        ['vet', '.', 'go.mod'],
        ['vet.arc', 'arc', 'arc/go.mod'],
        ['gofmt', '.', 'go.mod'],
      ]);
      const rootVet = await runDetected(root, 'vet');
      expect(rootVet.isError, rootVet.text).to.equal(false);
      const moduleVet = await runDetected(root, 'vet.arc');
      expect(located(moduleVet)).to.have.members(['arc/main.go:7 error printf']);
      const format = await runDetected(root, 'gofmt');
      expect(located(format)).to.have.members(['arc/ugly.go:3 error gofmt']);
    });

    it('gofmt -l -d fails on the changed line although gofmt exits 0', async () => {
      const result = await runDetected(copyRepo('go-dirty'), 'gofmt');
      expect(result.structuredContent.exitCode).to.equal(0);
      expect(result.isError).to.equal(true);
      expect(located(result)).to.have.members(['ugly.go:3 error gofmt']);
    });
  });
});

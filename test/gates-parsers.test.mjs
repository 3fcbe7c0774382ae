// Each parser on output recorded from the real tool (test/fixtures/outputs; see its README).
import { expect } from 'chai';
import { findParser, PARSER_NAMES } from '../dist/gates/index.js';
import { parseGateOutputSync } from '../dist/gates/parsers/parse-step.js';
import { loadOutput } from './fixtures/gates-support.mjs';

const ROOT = '/home/dev/project';

function parse(parserName, fixture, root = ROOT) {
  const parser = findParser(parserName);
  expect(parser, parserName).to.not.equal(undefined);
  return parser.parse(loadOutput(fixture, root));
}

/** The parse step as a gate runs it: ANSI stripped first (ruff colours despite NO_COLOR). */
function parseStep(parserName, fixture, root = ROOT) {
  const output = loadOutput(fixture, root);
  return parseGateOutputSync({ ...output, parser: parserName, budgetMs: 60_000 }).parsed;
}

/** The findings as compact `file:line:col severity rule` strings, for exact comparison. */
function brief(findings) {
  return findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.severity} ${f.rule}`);
}

describe('gates parsers on real tool output', () => {
  it('registers every documented parser name', () => {
    expect(PARSER_NAMES).to.have.members([
      'generic',
      'eslint-json',
      'tsc',
      'prettier',
      'biome-json',
      'oxlint-json',
      'cargo-json',
      'rustfmt',
      'ruff-json',
      'ruff-format',
      'go-vet',
      'gofmt',
      'eslint-stylish',
      'biome-text',
      'oxlint-text',
      'vitest-typecheck',
      'stylelint',
      'xo',
      'oxfmt',
      'mypy',
      'pyright-json',
      'black',
      'isort',
      'codespell',
      'shellcheck-json',
      'golangci-json',
      'sarif',
      'stylelint-json',
      'markdownlint-json',
      'markdownlint-text',
      'cspell',
      'knip',
      'tsd',
    ]);
  });

  describe('eslint-json', () => {
    it('reads errors and warnings with root-relative files, positions and rules', () => {
      const result = parse('eslint-json', 'eslint-json');
      expect(brief(result.findings)).to.deep.equal([
        'src/unused.js:2:9 error no-unused-vars',
        'src/unused.js:3:3 warning no-console',
        'src/unused.js:6:20 error eqeqeq',
      ]);
      expect(result.findings[0]).to.include({ endLine: 2, endColumn: 15 });
      expect(result.findings[0].message).to.match(/'unused' is assigned a value but never used/);
      expect(result.passed).to.equal(false);
    });

    it('passes a clean run', () => {
      const result = parse('eslint-json', 'eslint-clean');
      expect(result.findings).to.deep.equal([]);
      expect(result.passed).to.equal(true);
    });

    it('fails a config error (exit 2, no JSON) and says why', () => {
      const result = parse('eslint-json', 'eslint-config-error');
      expect(result.passed).to.equal(false);
      expect(result.unparsed).to.equal(true);
      expect(result.note).to.match(/no eslint JSON/);
    });

    it('passes warnings only when eslint exits 0 (the repo policy), listing them', () => {
      const output = loadOutput('eslint-json', ROOT);
      const onlyWarnings = JSON.parse(output.stdout).map((file) => ({
        ...file,
        messages: file.messages.filter((message) => message.severity === 1),
      }));
      const result = findParser('eslint-json').parse({
        ...output,
        stdout: JSON.stringify(onlyWarnings),
        exitCode: 0,
      });
      expect(result.passed).to.equal(true);
      expect(brief(result.findings)).to.deep.equal(['src/unused.js:3:3 warning no-console']);
    });
  });

  describe('generic (eslint stylish through a package.json script)', () => {
    it('reads the stylish block under its file heading', () => {
      const result = parse('generic', 'eslint-stylish');
      expect(brief(result.findings)).to.deep.equal([
        'src/unused.js:2:9 error no-unused-vars',
        'src/unused.js:3:3 warning no-console',
        'src/unused.js:6:20 error eqeqeq',
      ]);
      expect(result.passed).to.equal(false);
    });

    it('reads tsc and prettier lines too', () => {
      expect(brief(parse('generic', 'tsc').findings)).to.deep.equal([
        'src/types.ts:5:14 error TS2322',
        'src/types.ts:8:3 error TS2322',
      ]);
      expect(brief(parse('generic', 'prettier-check').findings)).to.deep.equal([
        'src/ugly.js:null:null error prettier',
      ]);
    });

    it('reads file:line:col lines with severity and rule, and Windows paths', () => {
      const result = findParser('generic').parse({
        stdout: [
          'src/a.c:3:7: warning: unused variable [-Wunused-variable]',
          'C:\\work\\proj\\src\\b.c:12:1: error: expected ";"',
          'app/main.py:1:8: F401 [*] `os` imported but unused',
          'lib/x.js:4:2: Unexpected var [Error/no-var]',
          'Finished in 1.2 s',
        ].join('\n'),
        stderr: '',
        exitCode: 1,
        truncated: false,
        root: 'C:\\work\\proj',
      });
      expect(brief(result.findings).slice(0, 1)).to.deep.equal([
        'src/a.c:3:7 warning -Wunused-variable',
      ]);
      expect(result.findings[1]).to.include({ line: 12, column: 1, severity: 'error' });
      expect(result.findings[2]).to.include({
        file: 'app/main.py',
        rule: 'F401',
        message: '`os` imported but unused',
      });
      expect(result.findings[3]).to.include({
        rule: 'no-var',
        severity: 'error',
        message: 'Unexpected var',
      });
      expect(result.findings).to.have.length(4);
    });
  });

  describe('tsc', () => {
    it('reads diagnostics and keeps the indented follow-on lines in the message', () => {
      const result = parse('tsc', 'tsc');
      expect(brief(result.findings)).to.deep.equal([
        'src/types.ts:5:14 error TS2322',
        'src/types.ts:8:3 error TS2322',
      ]);
      expect(result.findings[1].message).to.match(
        /\n\s*Type 'undefined' is not assignable to type 'Item'/,
      );
      expect(result.passed).to.equal(false);
    });

    it('passes a clean project', () => {
      const result = parse('tsc', 'tsc-clean');
      expect(result).to.deep.include({ passed: true, findings: [] });
    });

    it('reads project-wide diagnostics that carry no file', () => {
      const result = findParser('tsc').parse({
        stdout: "error TS18003: No inputs were found in config file '/p/tsconfig.json'.\n",
        stderr: '',
        exitCode: 2,
        truncated: false,
        root: '/p',
      });
      expect(result.findings).to.deep.equal([
        {
          file: null,
          line: null,
          column: null,
          endLine: null,
          endColumn: null,
          severity: 'error',
          rule: 'TS18003',
          message: "No inputs were found in config file '/p/tsconfig.json'.",
        },
      ]);
    });
  });

  describe('prettier', () => {
    it('reads --check ([warn] lines on stderr)', () => {
      const result = parse('prettier', 'prettier-check');
      expect(brief(result.findings)).to.deep.equal(['src/ugly.js:null:null error prettier']);
      expect(result.passed).to.equal(false);
    });

    it('reads --list-different (bare paths on stdout)', () => {
      const result = parse('prettier', 'prettier-list-different');
      expect(brief(result.findings)).to.deep.equal(['src/ugly.js:null:null error prettier']);
      expect(result.passed).to.equal(false);
    });

    it('reads a syntax error with its position', () => {
      const result = parse('prettier', 'prettier-syntax-error');
      expect(brief(result.findings)).to.deep.equal(['src/broken.js:3:10 error prettier']);
      expect(result.findings[0].message).to.match(/^SyntaxError: Unexpected token/);
      expect(result.passed).to.equal(false);
    });

    it('passes a clean check', () => {
      expect(parse('prettier', 'prettier-clean')).to.deep.include({ passed: true, findings: [] });
    });
  });

  describe('biome-json', () => {
    it('reads lint and format diagnostics (format ones are whole-file)', () => {
      const result = parse('biome-json', 'biome-json');
      expect(brief(result.findings)).to.deep.equal([
        'biome.json:null:null error format',
        'src/app.js:2:9 error lint/suspicious/noDoubleEquals',
        'src/app.js:2:17 error lint/suspicious/noDebugger',
        'src/app.js:null:null error format',
      ]);
      expect(result.passed).to.equal(false);
    });

    it('reads the Biome 1 location shape ({path: {file}})', () => {
      const stdout = JSON.stringify({
        diagnostics: [
          {
            severity: 'warning',
            description: 'old shape',
            category: 'lint/style/useConst',
            location: { path: { file: 'src/a.js' } },
          },
        ],
      });
      const result = findParser('biome-json').parse({
        stdout,
        stderr: '',
        exitCode: 0,
        truncated: false,
        root: ROOT,
      });
      expect(result.findings[0]).to.include({
        file: 'src/a.js',
        severity: 'warning',
        message: 'old shape',
        line: null,
      });
      expect(result.passed).to.equal(true);
    });
  });

  describe('oxlint-json', () => {
    it('reads diagnostics with their first label position', () => {
      const result = parse('oxlint-json', 'oxlint-json');
      expect(brief(result.findings)).to.deep.equal([
        'src/unused.js:2:9 warning eslint(no-unused-vars)',
        'src/unused.js:6:20 error eslint(eqeqeq)',
      ]);
      expect(result.findings[1].message).to.match(/Expected === and instead saw ==/);
      expect(result.passed).to.equal(false);
    });
  });

  describe('cargo-json', () => {
    it('reads clippy lints once each (cargo repeats them per target) as errors under -D warnings', () => {
      const result = parse('cargo-json', 'cargo-clippy');
      expect(brief(result.findings)).to.deep.equal([
        'src/main.rs:3:9 error unused_variables',
        'src/main.rs:11:5 error clippy::needless_return',
        'src/main.rs:8:16 error clippy::ptr_arg',
        'src/main.rs:10:14 error clippy::needless_range_loop',
      ]);
      expect(result.passed).to.equal(false);
    });

    it('passes cargo check with only a warning, listing it', () => {
      const result = parse('cargo-json', 'cargo-check');
      expect(brief(result.findings)).to.deep.equal(['src/main.rs:3:9 warning unused_variables']);
      expect(result.passed).to.equal(true);
    });

    it('keeps the rustc expected/found label and its notes; drops the file-less summaries', () => {
      const result = parse('cargo-json', 'cargo-clippy-type-error');
      expect(brief(result.findings)).to.deep.equal(['src/main.rs:7:21 error E0308']);
      expect(result.findings[0].message).to.equal('mismatched types: expected `u32`, found `&str`');
      expect(result.passed).to.equal(false);
      const lint = parse('cargo-json', 'cargo-clippy').findings[0];
      expect(lint.message.split('\n')).to.deep.equal([
        'unused variable: `unused`',
        'note: `-D unused-variables` implied by `-D warnings`',
        'help: to override `-D warnings` add `#[allow(unused_variables)]`',
        'help: if this is intentional, prefix it with an underscore: `_unused`',
      ]);
    });

    it('passes a clean clippy run', () => {
      expect(parse('cargo-json', 'cargo-clippy-clean')).to.deep.include({
        passed: true,
        findings: [],
      });
    });
  });

  describe('rustfmt', () => {
    it("reads `Diff in <file>:<line>:` headers at the hunk's first changed line, not its first context line", () => {
      const output = loadOutput('cargo-fmt-check', ROOT);
      // eslint-disable-next-line no-control-regex
      const stripped = { ...output, stdout: output.stdout.replace(/\u001b(\[[0-9;]*m|\(B)/g, '') };
      const result = findParser('rustfmt').parse(stripped);
      expect(brief(result.findings)).to.deep.equal(['src/main.rs:10:null error rustfmt']);
      expect(result.passed).to.equal(false);
    });

    it('reads the older `Diff in <file> at line N:` form', () => {
      const result = findParser('rustfmt').parse({
        stdout: `Diff in ${ROOT}/src/lib.rs at line 12:\n-fn a( ) {}\n+fn a() {}\n`,
        stderr: '',
        exitCode: 1,
        truncated: false,
        root: ROOT,
      });
      expect(brief(result.findings)).to.deep.equal(['src/lib.rs:12:null error rustfmt']);
    });
  });

  describe('ruff', () => {
    it('ruff-json reads codes, positions and syntax errors (code null) (documented format)', () => {
      const result = parse('ruff-json', 'ruff-json');
      expect(brief(result.findings)).to.deep.equal([
        'app/main.py:1:8 error F401',
        'app/main.py:5:13 error E711',
        'app/broken.py:2:15 error null',
      ]);
      expect(result.findings[0]).to.include({ endLine: 1, endColumn: 10 });
      expect(result.passed).to.equal(false);
    });

    it('ruff-json reads a real ruff 0.16 run', () => {
      const result = parse('ruff-json', 'ruff-check-json');
      expect(brief(result.findings)).to.deep.equal([
        'app/main.py:1:8 error F401',
        'app/main.py:5:5 error F841',
      ]);
      expect(result.passed).to.equal(false);
    });

    it('ruff-format reads current ruff (full diagnostics, coloured) at the first changed line', () => {
      const result = parseStep('ruff-format', 'ruff-format-check');
      expect(brief(result.findings)).to.deep.equal([
        'app/main.py:4:7 error ruff-format',
        'app/util.py:2:3 error ruff-format',
      ]);
      expect(result.passed).to.equal(false);
    });

    it('ruff-format reads --output-format concise', () => {
      const result = parseStep('ruff-format', 'ruff-format-check-concise');
      expect(brief(result.findings)).to.deep.equal([
        'app/main.py:4:7 error ruff-format',
        'app/util.py:2:3 error ruff-format',
      ]);
    });

    it('ruff-format reads syntax errors as invalid-syntax findings', () => {
      const result = findParser('ruff-format').parse({
        stdout: [
          'invalid-syntax: Expected a parameter or the end of the parameter list',
          ' --> app/bad.py:1:7',
          '  |',
          '1 | def h(:',
          '  |       ^',
          '',
          'app/x.py:2:1: invalid-syntax: Unexpected indentation',
          'error: Failed to format app/old.py: source contains syntax errors',
        ].join('\n'),
        stderr: '',
        exitCode: 2,
        truncated: false,
        root: ROOT,
      });
      expect(brief(result.findings)).to.deep.equal([
        'app/bad.py:1:7 error invalid-syntax',
        'app/x.py:2:1 error invalid-syntax',
        'app/old.py:null:null error ruff-format',
      ]);
    });

    it('ruff-format never lists nothing when the summary counts files to reformat', () => {
      const result = findParser('ruff-format').parse({
        stdout: 'something new\n3 files would be reformatted, 1 file already formatted\n',
        stderr: '',
        exitCode: 1,
        truncated: false,
        root: ROOT,
      });
      expect(brief(result.findings)).to.deep.equal(['null:null:null error ruff-format']);
      expect(result.findings[0].message).to.match(/3 more files to reformat/);
    });

    it('ruff-format reads older `Would reformat:` lines', () => {
      const result = parse('ruff-format', 'ruff-format-check-legacy');
      expect(brief(result.findings)).to.deep.equal([
        'app/main.py:null:null error ruff-format',
        'app/util.py:null:null error ruff-format',
      ]);
      expect(result.passed).to.equal(false);
    });
  });

  describe('go', () => {
    it('go-vet reads the text form (exit 2)', () => {
      const result = parse('go-vet', 'go-vet');
      expect(brief(result.findings)).to.deep.equal(['main.go:7:2 error null']);
      expect(result.findings[0].message).to.match(
        /fmt.Printf format %d has arg name of wrong type string/,
      );
      expect(result.passed).to.equal(false);
    });

    it('go-vet fails the -json form although go vet exits 0 (golang/go#53509)', () => {
      const result = parse('go-vet', 'go-vet-json');
      expect(loadOutput('go-vet-json', ROOT).exitCode).to.equal(0);
      expect(brief(result.findings)).to.deep.equal(['main.go:7:2 error printf']);
      expect(result.passed).to.equal(false);
      expect(result.note).to.match(/exit code 0, but the output reports 1 error/);
    });

    it('go-vet reads type errors (`vet: ./main.go:3:13: ...`), text and -json', () => {
      for (const fixture of ['go-vet-type-error', 'go-vet-json-type-error']) {
        const result = parse('go-vet', fixture);
        expect(brief(result.findings), fixture).to.deep.equal(['main.go:3:13 error null']);
        expect(result.findings[0].message).to.equal('undeclared name: foo');
        expect(result.passed).to.equal(false);
      }
    });

    it('go-vet reads newer -json fields (end, category) and analyzer errors', () => {
      const tree = {
        'example.com/x': {
          printf: [
            { posn: `${ROOT}/a.go:4:2`, end: `${ROOT}/a.go:4:9`, category: 'p', message: 'bad' },
          ],
          typecheck: { error: `${ROOT}/b.go:7:3: undefined: y` },
        },
      };
      const result = findParser('go-vet').parse({
        stdout: '',
        stderr: `# example.com/x\n${JSON.stringify(tree, null, '\t')}\n`,
        exitCode: 0,
        truncated: false,
        root: ROOT,
      });
      expect(brief(result.findings)).to.deep.equal([
        'a.go:4:2 error printf/p',
        'b.go:7:3 error typecheck',
      ]);
      expect(result.findings[0]).to.include({ endLine: 4, endColumn: 9 });
      expect(result.passed).to.equal(false);
    });

    it('gofmt fails listed files although gofmt -l exits 0 (golang/go#24230)', () => {
      const result = parse('gofmt', 'gofmt-l');
      expect(loadOutput('gofmt-l', ROOT).exitCode).to.equal(0);
      expect(brief(result.findings)).to.deep.equal(['ugly.go:null:null error gofmt']);
      expect(result.passed).to.equal(false);
    });

    it('gofmt -l -d: one finding per hunk at its first changed line, not the hunk header', () => {
      const result = parse('gofmt', 'gofmt-l-d');
      expect(loadOutput('gofmt-l-d', ROOT).exitCode).to.equal(0);
      // `@@ -1,5` then two context lines: the change starts at line 3.
      expect(brief(result.findings)).to.deep.equal(['ugly.go:3:null error gofmt']);
      expect(result.passed).to.equal(false);
    });
  });

  describe('verdicts the exit code alone would get wrong', () => {
    it('fails a non-zero exit with nothing recognised, and says so', () => {
      const result = findParser('generic').parse({
        stdout: '',
        stderr: '',
        exitCode: 3,
        truncated: false,
        root: ROOT,
      });
      expect(result.passed).to.equal(false);
      expect(result.note).to.match(/exit code 3 with no finding/);
    });

    it('fails exit 0 with an error line', () => {
      const result = findParser('generic').parse({
        stdout: 'src/a.ts:1:1: error: bad\n',
        stderr: '',
        exitCode: 0,
        truncated: false,
        root: ROOT,
      });
      expect(result.passed).to.equal(false);
    });

    it('passes exit 0 with warning lines only', () => {
      const result = findParser('generic').parse({
        stdout: 'src/a.ts:1:1: warning: meh\n',
        stderr: '',
        exitCode: 0,
        truncated: false,
        root: ROOT,
      });
      expect(result.passed).to.equal(true);
      expect(result.findings).to.have.length(1);
    });
  });
});

// Each parser on output recorded from the real tool, every recorded version of it
// (test/fixtures/outputs/<tool>/<version>; see its README).
import { expect } from 'chai';
import { findParser, PARSER_NAMES } from '../dist/gates/index.js';
import { parseGateOutputSync } from '../dist/gates/parsers/parse-step.js';
import {
  eachVersion,
  loadOutput,
  recordedCaseNames,
  recordedVersions,
} from './fixtures/gates-support.mjs';
import { RECORDED_TOOLS } from './fixtures/outputs/cases.mjs';

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

/**
 * How many versions each tool has recorded at least: the current and previous major (or
 * line) where it installs here; go and cargo have one toolchain, ruff one real version
 * (plus the hand-written older formats).
 */
const MINIMUM_VERSIONS = {
  eslint: 3,
  prettier: 2,
  tsc: 2,
  biome: 2,
  oxlint: 2,
  xo: 2,
  vitest: 2,
  pyright: 2,
  stylelint: 2,
  oxfmt: 2,
  mypy: 2,
  ruff: 2,
  go: 1,
  cargo: 1,
};

describe('gates parsers on real tool output', () => {
  it('has each tool recorded on its versions, every case of cases.mjs on each of them', () => {
    for (const [tool, minimum] of Object.entries(MINIMUM_VERSIONS)) {
      const versions = recordedVersions(tool);
      expect(versions.length, `${tool}: ${versions}`).to.be.at.least(minimum);
      // generate.mjs records a tool's cases together; other recordings (SARIF, the
      // hand-written ruff formats) sit in their own cases or version directories.
      const table = RECORDED_TOOLS[tool].cases.map((item) => item.name).sort();
      for (const version of versions) {
        const own = recordedCaseNames(tool, version).filter((name) => table.includes(name));
        if (own.length > 0) expect(own, `${tool} ${version}`).to.deep.equal(table);
      }
    }
  });

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
      'flake8',
      'pylint-json',
      'pylint',
      'shfmt',
      'yamllint',
      'actionlint-json',
      'actionlint',
      'hadolint',
      'editorconfig-checker',
    ]);
  });

  describe('eslint-json', () => {
    eachVersion(
      'eslint',
      'eslint-json',
      'reads errors and warnings with root-relative files, positions and rules',
      (fixture) => {
        const result = parse('eslint-json', fixture);
        expect(brief(result.findings)).to.deep.equal([
          'src/unused.js:2:9 error no-unused-vars',
          'src/unused.js:3:3 warning no-console',
          'src/unused.js:6:20 error eqeqeq',
        ]);
        expect(result.findings[0]).to.include({ endLine: 2, endColumn: 15 });
        expect(result.findings[0].message).to.match(/'unused' is assigned a value but never used/);
        expect(result.passed).to.equal(false);
      },
    );

    eachVersion('eslint', 'eslint-clean', 'passes a clean run', (fixture) => {
      const result = parse('eslint-json', fixture);
      expect(result.findings).to.deep.equal([]);
      expect(result.passed).to.equal(true);
    });

    eachVersion(
      'eslint',
      'eslint-config-error',
      'fails a config error (exit 2, no JSON) and says why',
      (fixture) => {
        const result = parse('eslint-json', fixture);
        expect(result.passed).to.equal(false);
        expect(result.unparsed).to.equal(true);
        expect(result.note).to.match(/no eslint JSON/);
      },
    );

    eachVersion(
      'eslint',
      'eslint-json',
      'passes warnings only when eslint exits 0 (the repo policy), listing them',
      (fixture) => {
        const output = loadOutput(fixture, ROOT);
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
      },
    );
  });

  describe('generic (eslint stylish through a package.json script)', () => {
    eachVersion(
      'eslint',
      'eslint-stylish',
      'reads the stylish block under its file heading',
      (fixture) => {
        const result = parse('generic', fixture);
        expect(brief(result.findings)).to.deep.equal([
          'src/unused.js:2:9 error no-unused-vars',
          'src/unused.js:3:3 warning no-console',
          'src/unused.js:6:20 error eqeqeq',
        ]);
        expect(result.passed).to.equal(false);
      },
    );

    eachVersion('tsc', 'tsc', 'reads tsc lines too', (fixture) => {
      expect(brief(parse('generic', fixture).findings)).to.deep.equal([
        'src/types.ts:5:14 error TS2322',
        'src/types.ts:8:3 error TS2322',
      ]);
    });

    eachVersion('prettier', 'prettier-check', 'reads prettier lines too', (fixture) => {
      expect(brief(parse('generic', fixture).findings)).to.deep.equal([
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
    eachVersion(
      'tsc',
      'tsc',
      'reads diagnostics and keeps the indented follow-on lines in the message',
      (fixture) => {
        const result = parse('tsc', fixture);
        expect(brief(result.findings)).to.deep.equal([
          'src/types.ts:5:14 error TS2322',
          'src/types.ts:8:3 error TS2322',
        ]);
        expect(result.findings[1].message).to.match(
          /\n\s*Type 'undefined' is not assignable to type 'Item'/,
        );
        expect(result.passed).to.equal(false);
      },
    );

    eachVersion('tsc', 'tsc-clean', 'passes a clean project', (fixture) => {
      const result = parse('tsc', fixture);
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
    eachVersion(
      'prettier',
      'prettier-check',
      'reads --check ([warn] lines on stderr)',
      (fixture) => {
        const result = parse('prettier', fixture);
        expect(brief(result.findings)).to.deep.equal(['src/ugly.js:null:null error prettier']);
        expect(result.passed).to.equal(false);
      },
    );

    eachVersion(
      'prettier',
      'prettier-list-different',
      'reads --list-different (bare paths on stdout)',
      (fixture) => {
        const result = parse('prettier', fixture);
        expect(brief(result.findings)).to.deep.equal(['src/ugly.js:null:null error prettier']);
        expect(result.passed).to.equal(false);
      },
    );

    eachVersion(
      'prettier',
      'prettier-syntax-error',
      'reads a syntax error with its position',
      (fixture) => {
        const result = parse('prettier', fixture);
        expect(brief(result.findings)).to.deep.equal(['src/broken.js:3:10 error prettier']);
        expect(result.findings[0].message).to.match(/^SyntaxError: Unexpected token/);
        expect(result.passed).to.equal(false);
      },
    );

    eachVersion('prettier', 'prettier-clean', 'passes a clean check', (fixture) => {
      expect(parse('prettier', fixture)).to.deep.include({ passed: true, findings: [] });
    });
  });

  describe('biome-json', () => {
    /** Per major: Biome 1 recommends noVar too and words noDoubleEquals otherwise. */
    const BIOME_JSON = {
      1: [
        'biome.json:null:null error format Formatter would have printed the following content:',
        'src/app.js:2:9 error lint/suspicious/noDoubleEquals Use === instead of ==',
        'src/app.js:2:17 error lint/suspicious/noDebugger This is an unexpected use of the debugger statement.',
        'src/app.js:3:3 error lint/style/noVar Use let or const instead of var.',
        'src/app.js:null:null error format Formatter would have printed the following content:',
      ],
      2: [
        'biome.json:null:null error format Formatter would have printed the following content:',
        'src/app.js:2:9 error lint/suspicious/noDoubleEquals Using == may be unsafe if you are relying on type coercion.',
        'src/app.js:2:17 error lint/suspicious/noDebugger This is an unexpected use of the debugger statement.',
        'src/app.js:null:null error format Formatter would have printed the following content:',
      ],
      // 2.0.0-beta.1 (radashi pins it) prints paths with a leading slash (`/src/app.js`).
      '2.0.0-beta.1': [
        'src/app.js:2:9 error lint/suspicious/noDoubleEquals Use === instead of ==',
        'src/app.js:2:17 error lint/suspicious/noDebugger This is an unexpected use of the debugger statement.',
        'biome.json:null:null error format Formatter would have printed the following content:',
        'src/app.js:null:null error format Formatter would have printed the following content:',
      ],
    };

    // Biome 1 prints its message as markup and its location as a byte span: both read.
    eachVersion(
      'biome',
      'biome-json',
      'reads lint and format diagnostics (format ones are whole-file)',
      (fixture, version) => {
        const result = parse('biome-json', fixture);
        expect(
          result.findings.map(
            (f) => `${brief([f])[0].split(' ').slice(0, 2).join(' ')} ${f.rule} ${f.message}`,
          ),
        ).to.deep.equal(BIOME_JSON[version] ?? BIOME_JSON[version.split('.')[0]]);
        expect(result.findings.find((f) => f.rule === 'lint/suspicious/noDoubleEquals')).to.include(
          { endLine: 2, endColumn: 11 },
        );
        expect(result.passed).to.equal(false);
      },
    );
  });

  describe('oxlint-json', () => {
    eachVersion(
      'oxlint',
      'oxlint-json',
      'reads diagnostics with their first label position',
      (fixture) => {
        const result = parse('oxlint-json', fixture);
        // oxlint 0.x listed errors first; the findings keep the tool's order.
        expect(brief(result.findings).sort()).to.deep.equal([
          'src/unused.js:2:9 warning eslint(no-unused-vars)',
          'src/unused.js:6:20 error eslint(eqeqeq)',
        ]);
        const eqeqeq = result.findings.find((f) => f.rule === 'eslint(eqeqeq)');
        expect(eqeqeq.message).to.match(/Expected === and instead saw ==/);
        expect(result.passed).to.equal(false);
      },
    );
  });

  describe('cargo-json', () => {
    eachVersion(
      'cargo',
      'cargo-clippy',
      'reads clippy lints once each (cargo repeats them per target) as errors under -D warnings',
      (fixture) => {
        const result = parse('cargo-json', fixture);
        expect(brief(result.findings)).to.deep.equal([
          'src/main.rs:3:9 error unused_variables',
          'src/main.rs:11:5 error clippy::needless_return',
          'src/main.rs:8:16 error clippy::ptr_arg',
          'src/main.rs:10:14 error clippy::needless_range_loop',
        ]);
        expect(result.passed).to.equal(false);
      },
    );

    eachVersion(
      'cargo',
      'cargo-check',
      'passes cargo check with only a warning, listing it',
      (fixture) => {
        const result = parse('cargo-json', fixture);
        expect(brief(result.findings)).to.deep.equal(['src/main.rs:3:9 warning unused_variables']);
        expect(result.passed).to.equal(true);
      },
    );

    eachVersion(
      'cargo',
      'cargo-clippy-type-error',
      'keeps the rustc expected/found label and its notes; drops the file-less summaries',
      (fixture) => {
        const result = parse('cargo-json', fixture);
        expect(brief(result.findings)).to.deep.equal(['src/main.rs:7:21 error E0308']);
        expect(result.findings[0].message).to.equal(
          'mismatched types: expected `u32`, found `&str`',
        );
        expect(result.passed).to.equal(false);
        const lint = parse('cargo-json', fixture.replace(/-type-error$/, '')).findings[0];
        expect(lint.message.split('\n')).to.deep.equal([
          'unused variable: `unused`',
          'note: `-D unused-variables` implied by `-D warnings`',
          'help: to override `-D warnings` add `#[allow(unused_variables)]`',
          'help: if this is intentional, prefix it with an underscore: `_unused`',
        ]);
      },
    );

    eachVersion('cargo', 'cargo-clippy-clean', 'passes a clean clippy run', (fixture) => {
      expect(parse('cargo-json', fixture)).to.deep.include({
        passed: true,
        findings: [],
      });
    });
  });

  describe('rustfmt', () => {
    eachVersion(
      'cargo',
      'cargo-fmt-check',
      "reads `Diff in <file>:<line>:` headers at the hunk's first changed line, not its first context line",
      (fixture) => {
        const output = loadOutput(fixture, ROOT);
        const stripped = {
          ...output,
          // eslint-disable-next-line no-control-regex
          stdout: output.stdout.replace(/\u001b(\[[0-9;]*m|\(B)/g, ''),
        };
        const result = findParser('rustfmt').parse(stripped);
        expect(brief(result.findings)).to.deep.equal(['src/main.rs:10:null error rustfmt']);
        expect(result.passed).to.equal(false);
      },
    );

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
    eachVersion(
      'ruff',
      'ruff-json',
      'ruff-json reads codes, positions and syntax errors (code null) (documented format)',
      (fixture) => {
        const result = parse('ruff-json', fixture);
        expect(brief(result.findings)).to.deep.equal([
          'app/main.py:1:8 error F401',
          'app/main.py:5:13 error E711',
          'app/broken.py:2:15 error null',
        ]);
        expect(result.findings[0]).to.include({ endLine: 1, endColumn: 10 });
        expect(result.passed).to.equal(false);
      },
    );

    eachVersion('ruff', 'ruff-check-json', 'ruff-json reads a real run', (fixture) => {
      const result = parse('ruff-json', fixture);
      expect(brief(result.findings)).to.deep.equal([
        'app/main.py:1:8 error F401',
        'app/main.py:5:5 error F841',
      ]);
      expect(result.passed).to.equal(false);
    });

    eachVersion(
      'ruff',
      'ruff-format-check',
      'ruff-format reads current ruff (full diagnostics, coloured) at the first changed line',
      (fixture) => {
        const result = parseStep('ruff-format', fixture);
        expect(brief(result.findings)).to.deep.equal([
          'app/main.py:4:7 error ruff-format',
          'app/util.py:2:3 error ruff-format',
        ]);
        expect(result.passed).to.equal(false);
      },
    );

    eachVersion(
      'ruff',
      'ruff-format-check-concise',
      'ruff-format reads --output-format concise',
      (fixture) => {
        const result = parseStep('ruff-format', fixture);
        expect(brief(result.findings)).to.deep.equal([
          'app/main.py:4:7 error ruff-format',
          'app/util.py:2:3 error ruff-format',
        ]);
      },
    );

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

    eachVersion(
      'ruff',
      'ruff-format-check-legacy',
      'ruff-format reads older `Would reformat:` lines',
      (fixture) => {
        const result = parse('ruff-format', fixture);
        expect(brief(result.findings)).to.deep.equal([
          'app/main.py:null:null error ruff-format',
          'app/util.py:null:null error ruff-format',
        ]);
        expect(result.passed).to.equal(false);
      },
    );
  });

  describe('go', () => {
    eachVersion('go', 'go-vet', 'go-vet reads the text form (exit 2)', (fixture) => {
      const result = parse('go-vet', fixture);
      expect(brief(result.findings)).to.deep.equal(['main.go:7:2 error null']);
      expect(result.findings[0].message).to.match(
        /fmt.Printf format %d has arg name of wrong type string/,
      );
      expect(result.passed).to.equal(false);
    });

    eachVersion(
      'go',
      'go-vet-json',
      'go-vet fails the -json form although go vet exits 0 (golang/go#53509)',
      (fixture) => {
        const result = parse('go-vet', fixture);
        expect(loadOutput(fixture, ROOT).exitCode).to.equal(0);
        expect(brief(result.findings)).to.deep.equal(['main.go:7:2 error printf']);
        expect(result.passed).to.equal(false);
        expect(result.note).to.match(/exit code 0, but the output reports 1 error/);
      },
    );

    for (const form of ['go-vet-type-error', 'go-vet-json-type-error']) {
      eachVersion(
        'go',
        form,
        `go-vet reads type errors (\`vet: ./main.go:3:13: ...\`): ${form}`,
        (fixture) => {
          const result = parse('go-vet', fixture);
          expect(brief(result.findings), fixture).to.deep.equal(['main.go:3:13 error null']);
          expect(result.findings[0].message).to.equal('undeclared name: foo');
          expect(result.passed).to.equal(false);
        },
      );
    }

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

    eachVersion(
      'go',
      'gofmt-l',
      'gofmt fails listed files although gofmt -l exits 0 (golang/go#24230)',
      (fixture) => {
        const result = parse('gofmt', fixture);
        expect(loadOutput(fixture, ROOT).exitCode).to.equal(0);
        expect(brief(result.findings)).to.deep.equal(['ugly.go:null:null error gofmt']);
        expect(result.passed).to.equal(false);
      },
    );

    eachVersion(
      'go',
      'gofmt-l-d',
      'gofmt -l -d: one finding per hunk at its first changed line, not the hunk header',
      (fixture) => {
        const result = parse('gofmt', fixture);
        expect(loadOutput(fixture, ROOT).exitCode).to.equal(0);
        // `@@ -1,5` then two context lines: the change starts at line 3.
        expect(brief(result.findings)).to.deep.equal(['ugly.go:3:null error gofmt']);
        expect(result.passed).to.equal(false);
      },
    );
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

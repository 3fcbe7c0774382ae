// Baselines: which findings an edit introduced, matched by content, not line numbers.
import { expect } from 'chai';
import fc from 'fast-check';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  BASELINE_VERSION,
  baselineDirectory,
  baselinePath,
  createBaseline,
  normalizeMessage,
  parseBaseline,
  readBaseline,
  rootFileAccess,
  splitNew,
  writeBaseline,
} from '../dist/gates/report/baseline.js';
import { createFinding } from '../dist/gates/report/finding.js';
import { cleanupTemporary, makeTempDir } from './fixtures/gates-support.mjs';

const GATE = 'lint';

/** A tiny deterministic linter over in-memory files, shaped like a real one's findings. */
const RULES = [
  [/^\s*var (\w+)/, 'no-var', 'error', () => 'Unexpected var, use let or const instead.'],
  [/console\.log\(/, 'no-console', 'warning', () => 'Unexpected console statement.'],
  [/ == /, 'eqeqeq', 'error', () => "Expected '===' and instead saw '=='."],
  [
    /^\s*let (unused_\w+)/,
    'no-unused-vars',
    'error',
    (m) => `'${m[1]}' is assigned a value but never used.`,
  ],
];

function lint(files) {
  const findings = [];
  for (const [file, text] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    text.split(/\r?\n/).forEach((line, index) => {
      for (const [pattern, rule, severity, message] of RULES) {
        const match = line.match(pattern);
        if (match) {
          findings.push({
            file,
            line: index + 1,
            column: match.index + 1,
            endLine: null,
            endColumn: null,
            severity,
            rule,
            message: message(match),
          });
        }
      }
    });
  }
  return findings;
}

function access(files) {
  return {
    readLines: (file) => (files.has(file) ? files.get(file).split(/\r?\n/) : null),
    fileHash: (file) =>
      files.has(file) ? crypto.createHash('sha256').update(files.get(file)).digest('hex') : null,
  };
}

function letters(number) {
  let name = '';
  do {
    name = String.fromCharCode(97 + (number % 26)) + name;
    number = Math.floor(number / 26) - 1;
  } while (number >= 0);
  return name;
}

/** 12 files of 80 lines, about two thirds of them flagged, many lines repeated verbatim. */
function generateFixture() {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const files = new Map();
  let counter = 0;
  for (let fileIndex = 0; fileIndex < 12; fileIndex += 1) {
    const lines = [];
    for (let lineIndex = 0; lineIndex < 80; lineIndex += 1) {
      counter += 1;
      const kind = Math.floor(random() * 9);
      const indent = '  '.repeat(Math.floor(random() * 3));
      const name = letters(counter);
      lines.push(
        indent +
          [
            `var ${name} = ${counter};`,
            `console.log('debug');`,
            `console.log('value', ${name});`,
            `if (a == ${name}) { run(); }`,
            `let unused_${name} = ${counter};`,
            `var total = 0;`,
            `const ok_${name} = ${counter} + 1;`,
            `// plain comment ${counter}`,
            `call(${name});`,
          ][kind],
      );
    }
    files.set(`src/module-${fileIndex}.js`, `${lines.join('\n')}\n`);
  }
  return files;
}

const FIXTURE = generateFixture();

function edit(files, file, change) {
  const next = new Map(files);
  const lines = next.get(file).split('\n');
  change(lines);
  next.set(file, lines.join('\n'));
  return next;
}

function flaggedIndex(files, file, rule, nth = 0) {
  return lint(new Map([[file, files.get(file)]])).filter((f) => f.rule === rule)[nth].line - 1;
}

const F0 = 'src/module-0.js';
const F1 = 'src/module-1.js';
const F2 = 'src/module-2.js';

/**
 * Scripted edits: each gives the new files and the truth: how many findings it introduced
 * (every introduced line holds the marker NEW, or is an exact copy counted in `copies`) and
 * how many it fixed.
 */
const EDITS = [
  ['a line added at the top of a file', (f) => edit(f, F0, (l) => l.unshift('// header')), 0, 0],
  [
    'five clean lines added in the middle',
    (f) => edit(f, F0, (l) => l.splice(40, 0, ...Array(5).fill('call(x);'))),
    0,
    0,
  ],
  ['clean lines added at the end', (f) => edit(f, F1, (l) => l.push('call(x);', 'call(y);')), 0, 0],
  [
    'a clean line deleted above findings',
    (f) =>
      edit(f, F1, (l) =>
        l.splice(
          l.findIndex((t) => t.includes('call(')),
          1,
        ),
      ),
    0,
    0,
  ],
  [
    'a flagged line edited outside its violation',
    (f) =>
      edit(f, F0, (l) => {
        const i = flaggedIndex(f, F0, 'no-var');
        l[i] += ' // reviewed';
      }),
    0,
    0,
  ],
  [
    'a value changed inside an unused variable line',
    (f) =>
      edit(f, F2, (l) => {
        const i = flaggedIndex(f, F2, 'no-unused-vars');
        l[i] = l[i].replace(/= \d+/, '= 999');
      }),
    0,
    0,
  ],
  [
    'a line added right above a flagged line',
    (f) => edit(f, F0, (l) => l.splice(flaggedIndex(f, F0, 'eqeqeq'), 0, 'call(above);')),
    0,
    0,
  ],
  [
    'a line added right below a flagged line',
    (f) => edit(f, F0, (l) => l.splice(flaggedIndex(f, F0, 'eqeqeq') + 1, 0, 'call(below);')),
    0,
    0,
  ],
  [
    'lines added on both sides of a flagged line',
    (f) =>
      edit(f, F1, (l) => {
        const i = flaggedIndex(f, F1, 'no-console');
        l.splice(i + 1, 0, 'call(b);');
        l.splice(i, 0, 'call(a);');
      }),
    0,
    0,
  ],
  [
    'a whole file re-indented',
    (f) => edit(f, F2, (l) => l.forEach((t, i) => (l[i] = `    ${t.trim()}`))),
    0,
    0,
  ],
  [
    'line endings changed to CRLF',
    (f) => new Map([...f].map(([k, v]) => [k, k === F1 ? v.replace(/\n/g, '\r\n') : v])),
    0,
    0,
  ],
  [
    'a block of lines moved to the end of the file',
    (f) => edit(f, F2, (l) => l.push(...l.splice(10, 15))),
    0,
    0,
  ],
  [
    'a file renamed',
    (f) => new Map([...f].map(([k, v]) => [k === F0 ? 'src/renamed-0.js' : k, v])),
    0,
    0,
  ],
  [
    'a file moved to another directory',
    (f) => new Map([...f].map(([k, v]) => [k === F1 ? 'lib/deep/module-1.js' : k, v])),
    0,
    0,
  ],
  [
    'a new violation among old ones',
    (f) => edit(f, F0, (l) => l.splice(30, 0, 'var NEW_thing = 1;')),
    1,
    0,
  ],
  [
    'a new console call between two old ones',
    (f) =>
      edit(f, F1, (l) => {
        const i = flaggedIndex(f, F1, 'no-console');
        l.splice(i + 1, 0, "console.log('NEW');");
      }),
    1,
    0,
  ],
  [
    'a new line with two violations',
    (f) => edit(f, F2, (l) => l.splice(5, 0, 'var NEW_x = a == b;')),
    2,
    0,
  ],
  [
    'a fixed finding (line deleted)',
    (f) => edit(f, F0, (l) => l.splice(flaggedIndex(f, F0, 'no-var'), 1)),
    0,
    1,
  ],
  [
    'a fixed finding (== made ===)',
    (f) =>
      edit(f, F1, (l) => {
        const i = flaggedIndex(f, F1, 'eqeqeq');
        l[i] = l[i].replace(' == ', ' === ');
      }),
    0,
    1,
  ],
  [
    'a flagged line duplicated right below itself',
    (f) =>
      edit(f, F2, (l) => {
        const i = flaggedIndex(f, F2, 'no-var');
        l.splice(i + 1, 0, l[i]);
      }),
    0,
    0,
    1,
  ],
  [
    'a flagged line copied to the end of the file',
    (f) => edit(f, F0, (l) => l.push(l[flaggedIndex(f, F0, 'no-console')])),
    0,
    0,
    1,
  ],
  [
    'a common flagged line copied three times',
    (f) =>
      edit(f, F1, (l) =>
        l.splice(
          3,
          0,
          "console.log('debug');",
          'call(q);',
          "console.log('debug');",
          "console.log('debug');",
        ),
      ),
    0,
    0,
    3,
  ],
  [
    'a new file with violations',
    (f) => new Map([...f, ['src/NEW-file.js', 'var NEW_a = 1;\nconsole.log("NEW");\n']]),
    2,
    0,
  ],
  ['a file deleted', (f) => new Map([...f].filter(([k]) => k !== F2)), 0, -1],
  [
    'a new violation and a fix in the same file',
    (f) =>
      edit(f, F0, (l) => {
        const i = flaggedIndex(f, F0, 'no-unused-vars');
        l.splice(i, 1, 'let unused_NEW = 1;');
      }),
    1,
    1,
  ],
];

function truthNew(files, findings) {
  return findings.filter((f) => files.get(f.file).split(/\r?\n/)[f.line - 1].includes('NEW'));
}

describe('gates baseline matching', () => {
  after(cleanupTemporary);

  const baselineFindings = lint(FIXTURE);
  const baseline = createBaseline(
    GATE,
    baselineFindings,
    access(FIXTURE).readLines,
    access(FIXTURE).fileHash,
  );

  it('runs on a fixture of more than 500 findings', () => {
    expect(baselineFindings.length).to.be.above(500);
    const recorded = Object.values(baseline.files).flatMap((file) => file.fingerprints);
    expect(recorded).to.have.length(baselineFindings.length);
    expect(baseline.project).to.deep.equal([]);
    expect(Object.keys(baseline.files)).to.have.length(12);
    expect(new Set(baselineFindings.map((f) => f.rule)).size).to.equal(4);
  });

  it('finds nothing new in the tree it was recorded on', () => {
    const { readLines, fileHash } = access(FIXTURE);
    const split = splitNew(baseline, baselineFindings, readLines, fileHash);
    expect(split.newFindings).to.deep.equal([]);
    expect(split.oldFindings).to.have.length(baselineFindings.length);
    expect(split.fixedCount).to.equal(0);
  });

  for (const [name, apply, introduced, fixed, copies = 0] of EDITS) {
    it(`${name}: ${introduced + copies} new, ${fixed < 0 ? "all the file's findings" : fixed} fixed`, () => {
      const files = apply(FIXTURE);
      const findings = lint(files);
      const { readLines, fileHash } = access(files);
      const split = splitNew(baseline, findings, readLines, fileHash);
      const expectedFixed =
        fixed < 0 ? baselineFindings.filter((f) => !files.has(f.file)).length : fixed;
      const markedNew = truthNew(files, findings);
      expect(markedNew).to.have.length(introduced);
      // Zero missed new (every marked line is new) and zero false new (the count is exact).
      expect(split.newFindings).to.include.deep.members(markedNew);
      expect(split.newFindings).to.have.length(introduced + copies);
      expect(split.oldFindings).to.have.length(findings.length - introduced - copies);
      expect(split.fixedCount).to.equal(expectedFixed);
    });
  }

  it('keeps exact counts when the edits above are applied one after another', () => {
    // Renames and the deletion are left out: a renamed file whose content an earlier edit
    // changed is new, and a deleted file would take earlier edits' new findings with it.
    // Edits that add NEW lines go last, so no copy or fix lands on a NEW line.
    const sequence = EDITS.filter(([name]) => !/renamed|moved|deleted/.test(name)).sort(
      (a, b) => Number(a[2] > 0) - Number(b[2] > 0),
    );
    let files = FIXTURE;
    let copies = 0;
    for (const [, apply, , , copiesByEdit = 0] of sequence) {
      files = apply(files);
      copies += copiesByEdit;
    }
    const findings = lint(files);
    const { readLines, fileHash } = access(files);
    const split = splitNew(baseline, findings, readLines, fileHash);
    const markedNew = truthNew(files, findings);
    expect(markedNew).to.have.length(7);
    expect(split.newFindings).to.include.deep.members(markedNew);
    expect(split.newFindings).to.have.length(markedNew.length + copies);
    expect(split.fixedCount).to.equal(baselineFindings.length - split.oldFindings.length);
  });

  it('finds exactly the new findings after random sequences of edits', () => {
    const fileNames = [...FIXTURE.keys()];
    const operation = fc.record({
      kind: fc.constantFrom('insert-clean', 'delete-clean', 'insert-new', 'delete-flagged'),
      file: fc.constantFrom(...fileNames),
      at: fc.nat(),
    });
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1, maxLength: 30 }), (operations) => {
        let files = FIXTURE;
        let fixed = 0;
        operations.forEach(({ kind, file, at }, step) => {
          const lines = files.get(file).split('\n');
          const flagged = new Set(lint(new Map([[file, files.get(file)]])).map((f) => f.line - 1));
          const candidates = lines
            .map((text, index) => index)
            .filter((index) =>
              kind === 'delete-flagged'
                ? flagged.has(index) && !lines[index].includes('NEW')
                : !flagged.has(index),
            );
          if (kind === 'insert-clean')
            lines.splice(at % (lines.length + 1), 0, `call(z_${letters(step)});`);
          else if (kind === 'insert-new')
            lines.splice(at % (lines.length + 1), 0, `let unused_NEW_${letters(step)} = ${step};`);
          else if (candidates.length > 0) {
            const index = candidates[at % candidates.length];
            if (kind === 'delete-flagged') fixed += 1;
            lines.splice(index, 1);
          }
          files = new Map(files).set(file, lines.join('\n'));
        });
        const findings = lint(files);
        const { readLines, fileHash } = access(files);
        const split = splitNew(baseline, findings, readLines, fileHash);
        const markedNew = truthNew(files, findings);
        expect(split.newFindings).to.deep.equal(markedNew);
        expect(split.fixedCount).to.equal(fixed);
      }),
      { numRuns: 40 },
    );
  });

  it('counts a renamed file as new when its content changed too, and a copy as new', () => {
    const renamedAndEdited = new Map(
      [...FIXTURE].map(([k, v]) => [k === F0 ? 'src/other.js' : k, k === F0 ? `// x\n${v}` : v]),
    );
    const copied = new Map([...FIXTURE, ['src/copy-0.js', FIXTURE.get(F0)]]);
    const inF0 = baselineFindings.filter((f) => f.file === F0).length;
    for (const [files, expectedNew, expectedFixed] of [
      [renamedAndEdited, inF0, inF0],
      [copied, inF0, 0],
    ]) {
      const { readLines, fileHash } = access(files);
      const split = splitNew(baseline, lint(files), readLines, fileHash);
      expect(split.newFindings).to.have.length(expectedNew);
      expect(split.fixedCount).to.equal(expectedFixed);
    }
  });

  it('matches project-wide findings and findings without a line by message', () => {
    const project = createFinding({ message: 'Found 3 config errors in 12 files' });
    const { readLines, fileHash } = access(FIXTURE);
    const recorded = createBaseline(GATE, [project, project], readLines, fileHash);
    const later = { ...project, message: 'Found  4 config errors in 13 files' };
    const split = splitNew(recorded, [later, later, later], readLines, fileHash);
    expect(split.newFindings).to.have.length(1);
    expect(split.fixedCount).to.equal(0);
    expect(normalizeMessage(' a  12\tb 3 ')).to.equal('a 0 b 0');
  });

  it('keeps files named like Object properties as plain keys', () => {
    const files = new Map([
      ['__proto__', 'var a = 1;\n'],
      ['constructor', 'var b = 2;\n'],
    ]);
    const { readLines, fileHash } = access(files);
    const recorded = createBaseline(GATE, lint(files), readLines, fileHash);
    const copy = parseBaseline(JSON.parse(JSON.stringify(recorded)), GATE, 'b.json');
    expect(Object.keys(copy.files).sort()).to.deep.equal(['__proto__', 'constructor']);
    const split = splitNew(copy, lint(files), readLines, fileHash);
    expect(split.newFindings).to.deep.equal([]);
    expect(split.fixedCount).to.equal(0);
  });

  it('survives a JSON round trip and checks version and gate', () => {
    const copy = JSON.parse(JSON.stringify(baseline));
    expect(parseBaseline(copy, GATE, 'b.json')).to.deep.equal(baseline);
    expect(baseline.version).to.equal(BASELINE_VERSION);
    expect(JSON.stringify(baseline)).to.not.match(/"line":\d/);
    expect(() => parseBaseline({ ...copy, version: 99 }, GATE, 'b.json'))
      .to.throw(/baseline version 99.*delete b\.json and record the baseline again/)
      .with.property('code', 'EBASELINE_FORMAT');
    expect(() =>
      parseBaseline(
        { ...copy, files: { 'a.js': { hash: null, fingerprints: ['x'] } } },
        GATE,
        'b.json',
      ),
    )
      .to.throw()
      .with.property('code', 'EBASELINE_FORMAT');
    expect(() => parseBaseline([], GATE, 'b.json'))
      .to.throw()
      .with.property('code', 'EBASELINE_FORMAT');
    expect(() => parseBaseline(copy, 'typecheck', 'b.json'))
      .to.throw(/gate "lint", not "typecheck"/)
      .with.property('code', 'EBASELINE_GATE');
  });

  describe('store', () => {
    it('keeps baselines per root under XDG_CACHE_HOME, outside the repository', () => {
      const cache = makeTempDir();
      const root = makeTempDir();
      const env = { XDG_CACHE_HOME: cache };
      const file = baselinePath(root, GATE, { env });
      const hash = crypto.createHash('sha256').update(fs.realpathSync(root)).digest('hex');
      expect(file).to.equal(path.join(cache, 'mcp-gates', hash, 'baseline-lint.json'));
      // The same root through a symlink shares the baseline.
      // reason: symlinks need a privilege on Windows.
      if (process.platform !== 'win32') {
        const link = path.join(makeTempDir(), 'link');
        fs.symlinkSync(root, link);
        expect(baselinePath(link, GATE, { env })).to.equal(file);
      }
      expect(baselineDirectory(makeTempDir(), env)).to.not.equal(path.dirname(file));
      // A relative XDG_CACHE_HOME is ignored, as the XDG spec says.
      expect(
        baselineDirectory(root, { XDG_CACHE_HOME: 'rel', HOME: process.env.HOME }),
      ).to.not.include('rel');
      expect(baselinePath(root, GATE, { file: 'custom/b.json' })).to.equal(
        path.join(root, 'custom', 'b.json'),
      );
      expect(() => baselinePath(root, '../x'))
        .to.throw()
        .with.property('code', 'EBASELINE_IO');
      expect(() => baselineDirectory(path.join(root, 'missing'))).to.throw(
        /cannot resolve the root/,
      );
    });

    it('writes atomically, 0600, and reads back; no baseline yet is null', function () {
      const directory = path.join(makeTempDir(), 'nested', 'dir');
      const file = path.join(directory, 'baseline-lint.json');
      expect(readBaseline(file, GATE)).to.equal(null);
      writeBaseline(file, baseline);
      writeBaseline(file, baseline);
      expect(readBaseline(file, GATE)).to.deep.equal(baseline);
      expect(fs.readdirSync(directory)).to.deep.equal(['baseline-lint.json']);
      fs.writeFileSync(file, '{"version":');
      expect(() => readBaseline(file, GATE))
        .to.throw(/not JSON.*delete .*baseline-lint\.json/)
        .with.property('code', 'EBASELINE_FORMAT');
      // reason: Windows has no POSIX mode bits.
      if (process.platform === 'win32') this.skip();
      writeBaseline(file, baseline);
      expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
    });

    it('leaves no temp file behind when the write fails', () => {
      const directory = makeTempDir();
      // The rename fails after the temp file was written: a non-empty directory is in the way.
      const target = path.join(directory, 'baseline-lint.json');
      fs.mkdirSync(target);
      fs.writeFileSync(path.join(target, 'keep'), '');
      expect(() => writeBaseline(target, baseline))
        .to.throw(/cannot write the baseline/)
        .with.property('code', 'EBASELINE_IO');
      expect(fs.readdirSync(directory)).to.deep.equal(['baseline-lint.json']);
    });

    it('reads lines and hashes from files under a root', () => {
      const root = makeTempDir();
      fs.mkdirSync(path.join(root, 'src'));
      fs.writeFileSync(path.join(root, 'src', 'a.js'), 'one\r\ntwo\n');
      const { readLines, fileHash } = rootFileAccess(root);
      expect(readLines('src/a.js')).to.deep.equal(['one', 'two', '']);
      expect(fileHash('src/a.js')).to.equal(
        crypto.createHash('sha256').update('one\r\ntwo\n').digest('hex'),
      );
      expect(readLines('src/missing.js')).to.equal(null);
      expect(fileHash('src/missing.js')).to.equal(null);
    });
  });
});

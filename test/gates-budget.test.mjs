// Budget shaping: a gate result that fits maxChars whatever the number of findings.
import { expect } from 'chai';
import fc from 'fast-check';
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  COMPACT_OUTPUT_PROPERTIES,
  COMPACT_OUTPUT_REQUIRED,
  MIN_MAX_CHARS,
  orderForListing,
  shapeToBudget,
  wireLength,
  writeFullLog,
} from '../dist/gates/report/budget.js';
import { GATE_OUTPUT_SCHEMA } from '../dist/gates/report/gate-result.js';
import { cleanupTemporary, makeTempDir } from './fixtures/gates-support.mjs';

const SEVERITY_RANK = { error: 0, warning: 1, info: 2 };

function finding(file, line, severity, rule, message) {
  return { file, line, column: 1, endLine: null, endColumn: null, severity, rule, message };
}

/** 3,000 findings (errors and warnings) in one noisy file, then the one real error elsewhere. */
function noisyFixture() {
  const findings = [];
  for (let index = 0; index < 3000; index += 1) {
    findings.push(
      finding(
        'src/generated/noisy.ts',
        index + 1,
        index % 4 === 0 ? 'error' : 'warning',
        `rule-${index % 40}`,
        `Unexpected "thing" number ${index}\twith a tab`,
      ),
    );
  }
  const real = finding('src/real.ts', 12, 'error', 'no-undef', "'handler' is not defined.");
  findings.push(real);
  return { findings, real };
}

const BIG_OUTPUT = `${'first line of the output\n'}${'noise "quoted" \\ line\n'.repeat(20000)}last line of the output`;

function shape(overrides) {
  return shapeToBudget({
    verdict: 'lint: failed (exit 1, 4.2 s, 3001 findings)',
    findings: [],
    output: '',
    outputBytes: 0,
    logPath: null,
    ...overrides,
  });
}

function listedLines(text) {
  return text.split('\n').filter((line) => /^ {2}\S.*: (error|warning|info): /.test(line));
}

describe('gates budget shaping', () => {
  after(cleanupTemporary);

  for (const maxChars of [2000, 12000, 50000]) {
    it(`keeps 3,000 findings of one file within ${maxChars} chars and shows the other file's error`, () => {
      const { findings, real } = noisyFixture();
      const outputBytes = Buffer.byteLength(BIG_OUTPUT);
      const result = shape({
        findings,
        output: BIG_OUTPUT,
        outputBytes,
        logPath: '/tmp/mcp-gates-logs/lint.log',
        maxChars,
        structuredExtra: { gate: 'lint', passed: false, command: ['eslint', '.'] },
      });
      const { structuredContent: data, text } = result;
      expect(wireLength(text, data)).to.equal(result.wireChars).and.to.be.at.most(maxChars);
      // Used by more than half: the budget is spent, not wasted.
      expect(result.wireChars).to.be.above(maxChars * 0.8);

      expect(data.findings).to.deep.include(real);
      expect(text).to.include("src/real.ts:12:1: error: 'handler' is not defined. [no-undef]");
      expect(data.files).to.deep.include({ file: 'src/real.ts', error: 1, warning: 0, info: 0 });
      expect(text).to.match(/^ {2}src\/real\.ts 1\/0\/0$/m);
      expect(data.counts).to.deep.equal({ error: 751, warning: 2250, info: 0 });
      expect(data.findingCount).to.equal(3001);

      expect(data.omitted).to.deep.equal({
        findings: 3001 - data.findings.length,
        files: 2 - data.files.length,
        rules: 41 - data.rules.length,
        outputBytes,
      });
      expect(data.omitted.findings).to.be.above(0);
      expect(listedLines(text)).to.have.length(data.findings.length);
      expect(text).to.include(`omitted: ${data.omitted.findings} findings not listed`);
      expect(text).to.include('full findings and output: /tmp/mcp-gates-logs/lint.log');
      expect(data.logPath).to.equal('/tmp/mcp-gates-logs/lint.log');
      expect(data).to.include({ gate: 'lint', passed: false });
      expect(data).to.not.have.property('report');
    });
  }

  it('lists errors of every file before a second error of any file, then warnings', () => {
    const findings = [];
    for (let line = 1; line <= 50; line += 1)
      findings.push(finding('a.ts', line, 'warning', 'w', 'w'));
    for (let line = 1; line <= 30; line += 1)
      findings.push(finding('a.ts', line, 'error', 'e', 'e'));
    for (let line = 1; line <= 3; line += 1)
      findings.push(finding('b.ts', line, 'error', 'e', 'e'));
    findings.push(finding('c.ts', 9, 'error', 'e', 'e'));
    findings.push(finding(null, null, 'error', 'config', 'no config found'));
    const order = orderForListing(findings).map((f) => `${f.file}:${f.line}:${f.severity}`);
    expect(order.slice(0, 9)).to.deep.equal([
      'a.ts:1:error',
      'b.ts:1:error',
      'null:null:error',
      'c.ts:9:error',
      'a.ts:2:error',
      'b.ts:2:error',
      'a.ts:3:error',
      'b.ts:3:error',
      'a.ts:4:error',
    ]);
    expect(order.indexOf('a.ts:1:warning')).to.equal(35);
    expect(order).to.have.length(findings.length);
  });

  it('shows everything and writes no log when the result fits', () => {
    let logCalls = 0;
    const findings = [finding('src/a.ts', 3, 'warning', 'eqeqeq', 'Expected ===')];
    const output = 'src/a.ts\n  3:1  warning  Expected ===  eqeqeq\n';
    const result = shape({
      findings,
      output,
      outputBytes: Buffer.byteLength(output),
      logPath: () => {
        logCalls += 1;
        return '/never';
      },
    });
    expect(logCalls).to.equal(0);
    expect(result.structuredContent.omitted).to.deep.equal({
      findings: 0,
      files: 0,
      rules: 0,
      outputBytes: 0,
    });
    expect(result.structuredContent.logPath).to.equal(null);
    expect(result.structuredContent.findings).to.deep.equal(findings);
    expect(result.text).to.include(
      `--- output (${Buffer.byteLength(output)} bytes) ---\n${output.trimEnd()}`,
    );
    expect(result.text).to.not.include('omitted:');
  });

  it('asks for the log only when something is left out, and names it', () => {
    const { findings } = noisyFixture();
    const directory = makeTempDir();
    let logPath;
    const result = shape({
      findings,
      logPath: () => {
        logPath = writeFullLog(directory, {
          name: 'lint',
          verdict: 'lint: failed',
          findings,
          output: '',
        });
        return logPath;
      },
    });
    expect(logPath).to.be.a('string');
    expect(result.structuredContent.logPath).to.equal(logPath);
    expect(result.text).to.include(`full findings and output: ${logPath}`);
    expect(result.wireChars).to.be.at.most(12000);
  });

  it('says so when something is left out and no log was kept', () => {
    const { findings } = noisyFixture();
    const result = shape({ findings, logPath: () => null });
    expect(result.structuredContent.logPath).to.equal(null);
    expect(result.text).to.include('no log of the full findings and output was kept');
  });

  it('shows the head and tail of a long output with the rest of the budget', () => {
    const outputBytes = Buffer.byteLength(BIG_OUTPUT) + 5000; // the capture kept less than was written
    const result = shape({ findings: [], output: BIG_OUTPUT, outputBytes, maxChars: 6000 });
    const { text, structuredContent: data } = result;
    expect(result.wireChars).to.be.at.most(6000).and.above(5000);
    const match = text.match(
      /--- output \((\d+) bytes; head and tail, (\d+) bytes shown\) ---\n([^]*)$/,
    );
    expect(match, text).to.not.equal(null);
    expect(Number(match[1])).to.equal(outputBytes);
    const [head, tail] = match[3].split('\n[… output omitted here …]\n');
    expect(head.startsWith('first line of the output\n')).to.equal(true);
    expect(tail.endsWith('last line of the output')).to.equal(true);
    // Whole lines: the head ends and the tail starts at a line boundary.
    expect(tail.split('\n')[0]).to.equal('noise "quoted" \\ line');
    const shown = Buffer.byteLength(head) + 1 + Buffer.byteLength(tail);
    expect(Number(match[2])).to.equal(shown);
    expect(data.omitted.outputBytes).to.equal(outputBytes - shown);
  });

  it('never splits a surrogate pair at the head or tail cut', () => {
    const output = '😀'.repeat(5000);
    for (const maxChars of [2500, 2501, 2502, 2503]) {
      const { text, wireChars } = shape({
        output,
        outputBytes: Buffer.byteLength(output),
        maxChars,
      });
      expect(wireChars).to.be.at.most(maxChars);
      expect(text.isWellFormed()).to.equal(true);
    }
  });

  it('cuts long and multi-line messages in the list (the log keeps them whole)', () => {
    const long = finding('a.ts', 1, 'error', 'TS2322', `${'x'.repeat(1000)}\n  elaboration`);
    const multi = finding('a.ts', 2, 'error', 'TS2345', 'first line\n  second line');
    const { structuredContent: data } = shape({ findings: [long, multi] });
    expect(data.findings[0].message).to.equal(`${'x'.repeat(240)}…`);
    expect(data.findings[1].message).to.equal('first line …');
  });

  it('rejects a budget below the minimum and caller fields larger than the budget', () => {
    expect(() => shape({ maxChars: 999 }))
      .to.throw(RangeError)
      .with.property('code', 'ERR_OUT_OF_RANGE');
    expect(() => shape({ maxChars: 12.5 })).to.throw(RangeError);
    expect(() =>
      shape({
        maxChars: 2000,
        structuredExtra: { command: ['eslint', ...Array(300).fill('src/file.ts')] },
      }),
    )
      .to.throw(RangeError, /raise maxChars or shorten the structured fields/)
      .with.property('code', 'ERR_OUT_OF_RANGE');
  });

  it('fits the minimum budget with a macOS-long log path, at its floor: compact fields, terse lines, and still lists findings', () => {
    const { findings } = noisyFixture();
    const logPath = `/var/folders/xy/${'z'.repeat(30)}/T/mcp-gates-logs-12345-AbCdEf/typecheck-1700000000000-abcdef01.log`;
    const command = [
      '/Users/someone/project/node_modules/.bin/tsc',
      ...Array(39).fill('src/file.ts'),
    ];
    const shaped = shape({
      maxChars: MIN_MAX_CHARS,
      findings,
      output: BIG_OUTPUT,
      outputBytes: BIG_OUTPUT.length,
      logPath,
      structuredExtra: { command },
      compactExtra: () => ({ command: ['tsc', '… 39 more'] }),
    });
    expect(shaped.wireChars).to.be.at.most(MIN_MAX_CHARS);
    // The fixed part leaves room for findings: a report that lists none names nothing to fix.
    expect(shaped.structuredContent.findings).to.have.length.of.at.least(3);
    expect(shaped.structuredContent.command).to.deep.equal(['tsc', '… 39 more']);
    expect(shaped.text).to.include(`: ${logPath}`);
    // No empty table: with no row shown it would only repeat the counts line.
    expect(shaped.text).to.not.include('by rule');
  });

  it('gives structuredContent that the exported schema fragment validates', () => {
    const { findings } = noisyFixture();
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    const validate = ajv.compile({
      type: 'object',
      properties: {
        ...COMPACT_OUTPUT_PROPERTIES,
        findings: GATE_OUTPUT_SCHEMA.properties.findings,
        findingCount: GATE_OUTPUT_SCHEMA.properties.findingCount,
        logPath: GATE_OUTPUT_SCHEMA.properties.logPath,
      },
      required: [...COMPACT_OUTPUT_REQUIRED, 'findings', 'findingCount', 'logPath'],
      additionalProperties: false,
    });
    // A parser's extra property stays out of the listed findings.
    findings[0] = { ...findings[0], source: 'extra' };
    for (const maxChars of [2000, 12000]) {
      const { structuredContent } = shape({ findings, maxChars, logPath: '/tmp/l.log' });
      expect(validate(structuredContent), ajv.errorsText(validate.errors)).to.equal(true);
    }
  });

  it('writes the full log 0600 with every finding whole, errors first, then the output', function () {
    const directory = path.join(makeTempDir(), 'logs');
    const findings = [
      finding('b.ts', 4, 'warning', 'w', 'a warning'),
      finding('a.ts', 2, 'error', 'TS2322', 'Type A\n  is not B'),
    ];
    const first = writeFullLog(directory, {
      name: 'type check',
      verdict: 'typecheck: failed',
      findings,
      output: 'raw\n',
    });
    const second = writeFullLog(directory, {
      name: 'type check',
      verdict: 'v',
      findings: [],
      output: '',
    });
    expect(first).to.not.equal(second);
    expect(path.dirname(first)).to.equal(directory);
    expect(path.basename(first)).to.match(/^type_check-\d+-[0-9a-f]{8}\.log$/);
    expect(fs.readFileSync(first, 'utf8')).to.equal(
      'typecheck: failed\n\nfindings (2):\n' +
        '  a.ts:2:1: error: Type A\n      is not B [TS2322]\n' +
        '  b.ts:4:1: warning: a warning [w]\n' +
        '\n--- output (4 bytes) ---\nraw\n',
    );
    // reason: Windows has no POSIX mode bits.
    if (process.platform === 'win32') this.skip();
    expect(fs.statSync(first).mode & 0o777).to.equal(0o600);
    expect(fs.statSync(directory).mode & 0o777).to.equal(0o700);
  });

  it('keeps only the newest full logs in the directory, and leaves other files alone', () => {
    const directory = makeTempDir();
    fs.writeFileSync(path.join(directory, 'notes.txt'), 'mine');
    const written = [];
    for (let index = 0; index < 7; index += 1)
      written.push(
        writeFullLog(
          directory,
          { name: 'lint', verdict: `run ${index}`, findings: [], output: '' },
          3,
        ),
      );
    const left = fs.readdirSync(directory).sort();
    expect(left).to.have.length(4);
    expect(left).to.include('notes.txt');
    // The one just written is always kept, whatever the clock did.
    expect(left).to.include(path.basename(written[6]));
    expect(fs.readFileSync(written[6], 'utf8')).to.match(/^run 6\n/);
  });

  it('holds the size bound and the severity order for random findings and outputs', () => {
    const severity = fc.constantFrom('error', 'warning', 'info');
    const text = fc.string({ unit: 'binary', maxLength: 400 });
    const findingArbitrary = fc.record({
      file: fc.option(fc.constantFrom('a.ts', 'src/b c.ts', 'ü/ñ.ts', 'd"\\.ts', 'x'.repeat(300)), {
        nil: null,
      }),
      line: fc.option(fc.nat(100000), { nil: null }),
      column: fc.option(fc.nat(500), { nil: null }),
      endLine: fc.constant(null),
      endColumn: fc.constant(null),
      severity,
      rule: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
      message: text,
    });
    fc.assert(
      fc.property(
        fc.array(findingArbitrary, { maxLength: 600 }),
        fc.string({ unit: 'binary', maxLength: 30000 }),
        fc.integer({ min: MIN_MAX_CHARS, max: 60000 }),
        fc.option(fc.string({ maxLength: 200 }), { nil: null }),
        fc.string({ unit: 'binary', maxLength: 300 }),
        (findings, output, maxChars, logPath, verdict) => {
          const outputBytes = Buffer.byteLength(output);
          const result = shapeToBudget({
            verdict,
            findings,
            output,
            outputBytes,
            logPath,
            maxChars,
          });
          const data = result.structuredContent;
          expect(wireLength(result.text, data)).to.be.at.most(maxChars);
          const ranks = data.findings.map((f) => SEVERITY_RANK[f.severity]);
          expect(ranks).to.deep.equal([...ranks].sort((a, b) => a - b));
          expect(data.findings.length + data.omitted.findings).to.equal(findings.length);
          expect(data.counts.error + data.counts.warning + data.counts.info).to.equal(
            findings.length,
          );
          expect(data.files.length + data.omitted.files).to.equal(
            new Set(findings.map((f) => f.file)).size,
          );
          expect(data.omitted.outputBytes).to.be.within(0, outputBytes);
        },
      ),
      { numRuns: 150 },
    );
  });
});

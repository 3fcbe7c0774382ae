// A warm worker's check pass (read-ledger.ts openCheckPass): the checks of one call ask each
// recorded question of the tree once, however many ledgers recorded it. These tests pin what
// must not be lost by that: a change between two calls is seen by every ledger that asked,
// and a write while the tool runs is recorded as the tool read it and seen by the next call.
import { expect } from 'chai';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanupTemporary, makeTempDir, runModuleJson } from './fixtures/gates-support.mjs';

const LEDGER = fileURLToPath(new URL('../dist/gates/warm/read-ledger.js', import.meta.url));

/** The module's preamble: the ledger installed, a directory with a.txt and sub/. */
const preamble = (directory) => `
  const ledgerModule = await import(${JSON.stringify(LEDGER)});
  const { installReadRecording, ReadLedger, recordReads, openCheckPass, stillAnswers } = ledgerModule;
  installReadRecording();
  const fs = (await import('node:fs')).default;
  const path = await import('node:path');
  const file = (name) => path.join(${JSON.stringify(directory)}, name);
  fs.writeFileSync(file('a.txt'), 'one');
  fs.mkdirSync(file('sub'));
  // Each ledger asks a.txt's content, sub's listing and a missing file's stat.
  const record = async () => {
    const ledger = new ReadLedger();
    await recordReads(ledger, async () => {
      fs.readFileSync(file('a.txt'));
      fs.readdirSync(file('sub'));
      fs.existsSync(file('missing.txt'));
    });
    return ledger;
  };
  const inPass = (work) => {
    const close = openCheckPass();
    try {
      return work();
    } finally {
      close();
    }
  };
  const changes = (ledgers) => ledgers.map((ledger) => ledger.firstChange() ?? null);
`;

describe('warm check pass: one answer per question per call, never past it', function () {
  this.timeout(30000);
  after(cleanupTemporary);

  it('a change between two calls is seen by every ledger that asked the question', () => {
    const directory = makeTempDir('mcp-gates-pass-');
    const report = runModuleJson(`${preamble(directory)}
      const ledgers = [await record(), await record(), await record()];
      const steps = {};
      steps.unchanged = inPass(() => changes(ledgers));
      // Inside one pass a question is answered once: a change after the first ledger's
      // check is not seen by the others in that pass...
      steps.samePass = inPass(() => {
        const first = changes(ledgers.slice(0, 1));
        fs.writeFileSync(file('a.txt'), 'two');
        return [...first, ...changes(ledgers.slice(1))];
      });
      // ...and every one of them sees it in the next pass (the next call).
      steps.nextPass = inPass(() => changes(ledgers));
      steps.outsidePass = changes(ledgers);
      fs.writeFileSync(file('a.txt'), 'one');
      fs.writeFileSync(file('sub/new.txt'), '');
      steps.listing = inPass(() => changes(ledgers));
      fs.rmSync(file('sub/new.txt'));
      fs.writeFileSync(file('missing.txt'), '');
      steps.appeared = inPass(() => changes(ledgers));
      fs.rmSync(file('missing.txt'));
      steps.restored = inPass(() => changes(ledgers));
      process.stdout.write(JSON.stringify(steps));
    `);
    const content = `content ${path.join(directory, 'a.txt')}`;
    const every = (answer) => [answer, answer, answer];
    expect(report.unchanged).to.deep.equal(every(null));
    expect(report.samePass).to.deep.equal(every(null));
    expect(report.nextPass).to.deep.equal(every(content));
    expect(report.outsidePass).to.deep.equal(every(content));
    expect(report.listing).to.deep.equal(every(`list ${path.join(directory, 'sub')}`));
    expect(report.appeared).to.deep.equal(every(`stat ${path.join(directory, 'missing.txt')}`));
    expect(report.restored).to.deep.equal(every(null));
  });

  it('a write while the tool runs is recorded as the tool read it and seen by the next call', () => {
    const directory = makeTempDir('mcp-gates-pass-');
    const report = runModuleJson(`${preamble(directory)}
      const before = await record();
      const held = [...before.questions()].find(([key]) => key.startsWith('content'))[1];
      const steps = {};
      // One call: checks before the run, the run (a write lands, then the tool reads), the
      // check of a held answer after it.
      const close = openCheckPass();
      let during;
      try {
        steps.beforeRun = before.firstChange() ?? null;
        fs.writeFileSync(file('a.txt'), 'two');
        during = await record();
        steps.heldAfterRun = stillAnswers('content', file('a.txt'), held);
      } finally {
        close();
      }
      // The next call: the earlier ledger and the held answer see the write; the run's own
      // ledger recorded what the tool read, so it is unchanged...
      steps.next = inPass(() => [
        before.firstChange() ?? null,
        stillAnswers('content', file('a.txt'), held),
        during.firstChange() ?? null,
      ]);
      // ...until the file goes back to what the pass had seen before the run.
      fs.writeFileSync(file('a.txt'), 'one');
      steps.back = inPass(() => [before.firstChange() ?? null, during.firstChange() ?? null]);
      process.stdout.write(JSON.stringify(steps));
    `);
    const content = `content ${path.join(directory, 'a.txt')}`;
    expect(report.beforeRun).to.equal(null);
    // Answered from the pass: the tree as it was when the pass first asked (before the run).
    expect(report.heldAfterRun).to.equal(true);
    expect(report.next).to.deep.equal([content, false, null]);
    expect(report.back).to.deep.equal([null, content]);
  });
});

describe('warm inputs: the config walk lists again only the directories that changed', function () {
  this.timeout(30000);
  after(cleanupTemporary);

  it('sees a config file added in a settled directory, its mtime set back or not', () => {
    const directory = makeTempDir('mcp-gates-walk-');
    const FINGERPRINT = fileURLToPath(
      new URL('../dist/gates/warm/input-fingerprint.js', import.meta.url),
    );
    const report = runModuleJson(`
      const { InputRecord } = await import(${JSON.stringify(FINGERPRINT)});
      const fs = (await import('node:fs')).default;
      const path = await import('node:path');
      const root = ${JSON.stringify(directory)};
      fs.mkdirSync(path.join(root, 'packages', 'a', 'src'), { recursive: true });
      fs.writeFileSync(path.join(root, 'package.json'), '{}');
      fs.writeFileSync(path.join(root, 'packages', 'a', 'src', 'index.ts'), '');
      const src = path.join(root, 'packages', 'a', 'src');
      // A whole second, so setting it back restores the very same mtime.
      const mtime = Math.floor(Date.now() / 1000) - 60;
      fs.utimesSync(src, mtime, mtime);
      const record = new InputRecord(root);
      record.recordConfig();
      // Older than the racy window: each directory's listing is kept, and asked by its stat.
      await new Promise((resolve) => setTimeout(resolve, 2200));
      const steps = { unchanged: record.staleReason() ?? null };
      steps.again = record.staleReason() ?? null;
      fs.writeFileSync(path.join(src, '.eslintrc.json'), '{}');
      // The mtime set back: the ctime still moved.
      fs.utimesSync(src, mtime, mtime);
      steps.sameMtime = fs.statSync(src, { bigint: true }).mtimeNs === BigInt(mtime) * 1000000000n;
      steps.setBack = record.staleReason() ?? null;
      fs.rmSync(path.join(src, '.eslintrc.json'));
      steps.removed = record.staleReason() ?? null;
      fs.writeFileSync(path.join(root, 'packages', 'a', 'package.json'), '{}');
      steps.added = record.staleReason() ?? null;
      process.stdout.write(JSON.stringify(steps));
    `);
    expect(report.unchanged).to.equal(null);
    expect(report.again).to.equal(null);
    expect(report.sameMtime, 'the mtime was set back exactly').to.equal(true);
    expect(report.setBack).to.equal(
      `config file added: ${path.join(directory, 'packages', 'a', 'src', '.eslintrc.json')}`,
    );
    expect(report.removed).to.equal(null);
    expect(report.added).to.equal(
      `config file added: ${path.join(directory, 'packages', 'a', 'package.json')}`,
    );
  });
});

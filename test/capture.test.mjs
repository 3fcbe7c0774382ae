// The capture runtime with the real addon. Every case runs in a child process
// (test/capture/scenario.mjs): the guard retargets process-global fds, and the
// mocha process's own fds are never touched.
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { commandExists, runScenario } from './capture/run-scenario.mjs';

const TOOL_MARKERS = [
  'M-stderr-write',
  'M-console-error',
  'M-console-log',
  'M-stdout-write',
  'M-child-stdout',
  'M-child-stderr',
  'M-grandchild-stdout',
  'M-grandchild-stderr',
];
const AFTER_MARKERS = ['E9-after', 'E9-console-log-after', 'E9-child-stdout', 'E9-child-stderr'];

function expectCleanExit(run) {
  expect(run.code, `exit code; stderr: ${run.stderr}`).to.equal(0);
  expect(run.signal).to.equal(null);
  expect(run.leftovers, 'files left in the temp dir').to.deep.equal([]);
}

function expectMarkersCaptured(run, { native }) {
  expectCleanExit(run);
  const { result } = run;
  expect(result.mode.mode).to.equal(native ? 'native' : 'degraded');
  const report = result.text;
  expect(report.startsWith('tool-text\n\n--- captured output (')).to.equal(true);
  const markers = native ? [...TOOL_MARKERS, 'M-native'] : TOOL_MARKERS;
  for (const marker of markers) expect(report).to.include(marker);
  expect(report).to.match(new RegExp(`captured output \\(${result.bytesDuring} bytes\\)`));
  // Before and after the capture, output reaches the original stderr, not the report.
  expect(run.stderr).to.include('E1-before');
  const after = native ? [...AFTER_MARKERS, 'E9-native-after'] : AFTER_MARKERS;
  for (const marker of after) expect(run.stderr).to.include(marker);
  for (const marker of markers) expect(run.stderr).to.not.include(marker);
  expect(report).to.not.include('E1-before');
  expect(report).to.not.include('E9-');
  // The protocol channel carried only the frame written to the private output fd.
  expect(run.stdout).to.equal('PROTOCOL-FRAME\n');
  expect(result.state).to.equal('idle');
  expect(result.restored).to.equal(true);
}

describe('capture runtime (native addon, in child processes)', function () {
  this.timeout(60000);

  for (const stderr of ['pipe', 'file', 'tty']) {
    it(`captures every writer with stderr as a ${stderr}, and restores after`, async function () {
      // reason: needs util-linux `script -qefc` (bsdutils) to give the child a pseudo-terminal;
      // macOS's BSD `script` takes other flags and Windows has none.
      if (stderr === 'tty' && (process.platform !== 'linux' || !commandExists('script'))) {
        this.skip();
      }
      const run = await runScenario('markers', { stderr });
      expectMarkersCaptured(run, { native: true });
      expect(run.result.stderrIsTTY).to.equal(stderr === 'tty');
      expect(run.result.mode.binding).to.match(/\.node$/);
      if (process.platform === 'win32') {
        // node's own fds 0 and 1 cannot move on Windows: the protocol keeps them.
        expect(run.result.protocolFds).to.deep.equal({ inputFd: 0, outputFd: 1 });
      } else {
        expect(run.result.protocolFds.inputFd).to.be.above(2);
        expect(run.result.protocolFds.outputFd).to.be.above(2);
      }
    });
  }

  it('in forced degraded mode still captures children and in-process writes', async function () {
    const run = await runScenario('markers', { env: { MCP_GATES_CAPTURE: 'degraded' } });
    expectMarkersCaptured(run, { native: false });
    expect(run.result.mode.reason).to.include('MCP_GATES_CAPTURE');
  });

  it('in forced degraded mode with a terminal stderr still captures', async function () {
    // reason: needs util-linux `script -qefc` (bsdutils) for a pty; not macOS's BSD one
    if (process.platform !== 'linux' || !commandExists('script')) this.skip();
    const run = await runScenario('markers', {
      stderr: 'tty',
      env: { MCP_GATES_CAPTURE: 'degraded' },
    });
    expectMarkersCaptured(run, { native: false });
  });

  it('falls back to degraded mode when no addon loads, naming the platform tuple and the fix', async function () {
    // node-gyp-build looks only in an empty prebuild directory.
    const run = await runScenario('markers', {
      env: { PREBUILDS_ONLY: '1', MCP_GATES_PREBUILD: '/nonexistent-prebuilds' },
    });
    expectMarkersCaptured(run, { native: false });
    const { reason } = run.result.mode;
    expect(reason).to.include(`${process.platform} ${process.arch}`);
    expect(reason).to.include(`node ${process.versions.node}`);
    expect(reason).to.include('npm rebuild mcp-gates');
  });

  it('keeps stdin for the protocol: a child with inherited stdin reads end of input', async function () {
    // reason: Windows cannot move node's fd 0, so an 'inherit' child shares the real stdin
    // (children must use childStdio() there; see src/capture/capture-guard.ts)
    if (process.platform === 'win32') this.skip();
    const run = await runScenario('stdin', { stdin: 'PROTOCOL-REQUEST\n' });
    expectCleanExit(run);
    expect(run.stderr).to.include('child-read-0');
    expect(run.result.protocolInput).to.equal('PROTOCOL-REQUEST\n');
  });

  it('returns a quiet tool its own result, untouched', async function () {
    const run = await runScenario('quiet');
    expectCleanExit(run);
    expect(run.result.same).to.equal(true);
    expect(run.result.returned).to.deep.equal({ text: 'only mine', structuredContent: { a: 1 } });
  });

  it('keeps the fds switched between back-to-back quiet runs and restores on the next tick', async function () {
    const run = await runScenario('lingering');
    expectCleanExit(run);
    const { result } = run;
    expect(result.first).to.deep.equal({ text: 'first' });
    expect(result.second.text).to.equal('second\n\n--- captured output (9 bytes) ---\nL-second\n');
    expect(result.third).to.deep.equal({ text: 'third' });
    expect(result.fourth.text).to.equal(
      'fourth\n\n--- captured output (15 bytes) ---\nL-fourth-child\n',
    );
    if (run.result.mode.mode === 'native' && process.platform !== 'win32') {
      expect(result.stateAfterFirst).to.equal('lingering');
      expect(result.stateAfterSecond).to.equal('idle'); // it wrote: the file is retired
      expect(result.stateAfterFourth).to.equal('idle'); // nothing queued behind it
      expect(result.stateAfterFifth).to.equal('lingering');
    }
    expect(result.stateNextTick).to.equal('idle');
    expect(result.restoredNextTick).to.equal(true);
    expect(run.stderr).to.include('L-stray');
    expect(run.stderr).to.include('L-after');
  });

  it('takeCapture consumes what was captured; the report holds only what came after', async function () {
    const run = await runScenario('take');
    expectCleanExit(run);
    const { result } = run;
    expect(result.idleTake).to.deep.equal({ text: '', totalBytes: 0, truncated: false });
    expect(result.bytesAfterFirst).to.equal('T-first\n'.length);
    expect(result.taken).to.deep.equal({ text: 'T-first\n', totalBytes: 8, truncated: false });
    expect(result.tool).to.deep.equal({
      text: 'own\n\n--- captured output (9 bytes) ---\nT-second\n',
      isError: true,
    });
    expect(result.activeAfter).to.equal(null);
  });

  it("keeps each run's capture its own: a stale handle takes, writes and ends nothing", async function () {
    const run = await runScenario('handles');
    expectCleanExit(run);
    const { result } = run;
    expect(result.staleTake).to.deep.equal({ text: '', totalBytes: 0, truncated: false });
    expect(result.staleWrite).to.equal(false);
    expect(result.staleBytes).to.equal(0);
    expect(result.staleEnd).to.deep.equal({ text: '', totalBytes: 0, truncated: false });
    expect(result.stateAfterStaleEnd).to.equal('active');
    expect(result.second).to.equal(
      'second\n\n--- captured output (29 bytes) ---\nH-second-early\nH-second-late\n',
    );
    // reason for the guard: fd 2 names the capture file only with fd-level capture on Linux
    if (process.platform === 'linux' && result.mode.mode === 'native') {
      expect(result.stateAfterHandedOut, 'a handed-out file never lingers').to.equal('idle');
      expect(result.files.quiet, 'nor serves a later run').to.not.equal(result.files.handedOut);
      expect(result.stateAfterQuiet).to.equal('lingering');
      expect(result.files.afterQuiet, 'a quiet, unheld file is reused').to.equal(
        result.files.quiet,
      );
    }
  });

  it('bounds a report over the limit to head and tail, with a private full log', async function () {
    const run = await runScenario('truncated');
    expect(run.code, run.stderr).to.equal(0);
    const { result } = run;
    // HEAD-MARK line, 5000 two-byte characters and a newline, TAIL-MARK line.
    const total = 10 + 5000 * 2 + 1 + 10;
    expect(result.text).to.include(`captured output (${total} bytes; head and tail shown`);
    expect(result.text).to.include('HEAD-MARK');
    expect(result.text).to.include('TAIL-MARK');
    expect(result.text).to.not.include('\uFFFD'); // cuts fall between characters
    expect(result.logBytes).to.equal(total);
    if (process.platform !== 'win32') {
      // Windows has no POSIX modes (stat reports 0o666 / 0o777 whatever the ACL).
      expect(result.logMode).to.equal(0o600);
      expect(result.dirMode).to.equal(0o700);
    }
    const [, shown] = result.text.split(/ ---\n/);
    expect(Buffer.byteLength(shown)).to.be.below(1024 + 200);
  });

  it('captures 100 MB from a child without deadlock, in bounded memory', async function () {
    const run = await runScenario('bulk');
    expect(run.code, run.stderr).to.equal(0);
    const { result } = run;
    expect(result.totalInHeading).to.equal(result.expectedTotal);
    expect(result.head).to.include('HEAD-MARK');
    expect(result.tail.endsWith('TAIL-MARK\n')).to.equal(true);
    expect(result.textLength).to.be.below(64 * 1024 + 1024);
    expect(result.rssGrowth).to.be.below(32 * 1024 * 1024);
  });

  it('restores fds and goes idle after throwing, rejecting and cancelled tools', async function () {
    const run = await runScenario('failures');
    expectCleanExit(run);
    const { throwQuiet, rejectNoisy, cancelled } = run.result.outcomes;
    expect(throwQuiet).to.deep.equal({ code: 'EQUIET', state: 'idle', restored: true });
    expect(rejectNoisy.state).to.equal('idle');
    expect(rejectNoisy.restored).to.equal(true);
    expect(rejectNoisy.result.isError).to.equal(true);
    expect(rejectNoisy.result.text).to.include('rejected loudly');
    expect(rejectNoisy.result.text).to.include('F-before-reject');
    expect(cancelled).to.deep.equal({ code: 'ECANCELLED', state: 'idle', restored: true });
    expect(run.stderr).to.include('F-after');
    expect(run.stderr).to.not.include('F-before-reject');
  });

  it('refuses a nested begin with ECAPTURE_ACTIVE at every layer; end is idempotent', async function () {
    const run = await runScenario('nested');
    expectCleanExit(run);
    const { result } = run;
    expect(result.codes).to.deep.equal({
      ts: 'ECAPTURE_ACTIVE',
      wrapper: 'ECAPTURE_ACTIVE',
      native: 'ECAPTURE_ACTIVE',
    });
    expect(result.state).to.equal('idle');
    expect(result.endWhenIdle).to.have.length(2);
    expect(result.nativeEndWhenIdle).to.equal(null);
    expect(result.badLimitCode).to.equal('ERR_OUT_OF_RANGE');
  });

  it('leaves open fds and temp files unchanged over 10,000 cycles', async function () {
    // reason: counts open fds in /proc/self/fd (Linux) or /dev/fd (macOS); Windows has no listing
    if (process.platform === 'win32') this.skip();
    const run = await runScenario('cycles');
    expectCleanExit(run);
    const { result } = run;
    expect(result.after).to.deep.equal(result.before);
    expect(result.noisyReports).to.equal(result.expectedNoisy);
  });

  it('prints a crash during a capture on the real stderr', async function () {
    const run = await runScenario('crash');
    expect(run.code).to.equal(1);
    expect(run.stderr).to.include('CRASH-MARK');
    expect(run.leftovers).to.deep.equal([]);
  });

  it('keeps the main thread capture when a worker that loaded the addon exits', async function () {
    const run = await runScenario('worker');
    expectCleanExit(run);
    expect(run.result.stateAfterWorker).to.equal('active');
    expect(run.result.nativeStateAfterWorker).to.equal('active');
    expect(run.result.text).to.include('W-after-worker');
  });
});

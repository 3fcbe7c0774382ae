// Runs one capture scenario in a fresh process (the capture guard is process-global,
// so tests never touch the mocha process's own fds). Usage:
//   node scenario.mjs <scenario> <result-file>
// The scenario's findings go to <result-file> as JSON; markers written outside a
// capture go to this process's real stdout/stderr for the parent to inspect.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import * as capture from '../../dist/capture/index.js';
import * as guard from '../../dist/capture/capture-guard.js';

const [scenario, resultFile] = process.argv.slice(2);
const result = { mode: capture.captureMode() };
const finish = () => fs.writeFileSync(resultFile, JSON.stringify(result));

/** A call context for the dispatch wrapper. */
function call(signal = new AbortController().signal) {
  return { toolName: 'test-tool', signal };
}

/** Spawns `node -e source` with the capture's stdio and waits for 'close'. */
function runNode(source, stdio = capture.childStdio()) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', source], { stdio });
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
}

/** Identity of what fd `fd` points at, to check restoration. */
function fdIdentity(fd) {
  // Windows: node's fds 1 and 2 never move (see src/capture), and fstat on them is
  // not reliable under wine; the markers show where output went.
  if (process.platform === 'win32') return 'not retargeted on Windows';
  const stat = fs.fstatSync(fd);
  return `${stat.dev}:${stat.ino}:${stat.mode}`;
}

const CHILD_WITH_GRANDCHILD = `
  process.stdout.write('M-child-stdout\\n');
  process.stderr.write('M-child-stderr\\n');
  const { spawnSync } = require('node:child_process');
  spawnSync(process.execPath, ['-e', "process.stdout.write('M-grandchild-stdout\\\\n'); process.stderr.write('M-grandchild-stderr\\\\n')"], { stdio: ['ignore', 'inherit', 'inherit'] });
`;

const scenarios = {
  /** Every kind of writer, inside one tool run; markers before and after stay outside. */
  async markers() {
    const fds = capture.guardStdio();
    result.protocolFds = fds;
    result.stderrIsTTY = process.stderr.isTTY === true;
    const stdoutBefore = fdIdentity(1);
    const stderrBefore = fdIdentity(2);
    process.stderr.write('E1-before\n');
    const native = guard.nativeBindingForTest();
    const tool = await capture.withCapture(async () => {
      process.stderr.write('M-stderr-write\n');
      console.error('M-console-error');
      console.log('M-console-log');
      process.stdout.write('M-stdout-write\n');
      if (native) native.writeStderrForTest('M-native\n');
      await runNode(CHILD_WITH_GRANDCHILD);
      result.bytesDuring = capture.activeCapture()?.bytesWritten();
      return { text: 'tool-text' };
    }, call());
    result.text = tool.text;
    result.state = guard.captureState();
    result.restored = fdIdentity(1) === stdoutBefore && fdIdentity(2) === stderrBefore;
    process.stderr.write('E9-after\n');
    console.log('E9-console-log-after');
    if (native) native.writeStderrForTest('E9-native-after\n');
    await runNode(
      `process.stdout.write('E9-child-stdout\\n'); process.stderr.write('E9-child-stderr\\n')`,
    );
    // The protocol channel: the only thing that may reach the real stdout.
    fs.writeSync(fds.outputFd, 'PROTOCOL-FRAME\n');
  },

  /** A child given the real stdin reads end of input; the protocol keeps its bytes. */
  async stdin() {
    const fds = capture.guardStdio();
    await runNode(
      `let n = 0; process.stdin.on('data', (d) => (n += d.length)).on('end', () => process.stderr.write('child-read-' + n + '\\n'))`,
      ['inherit', 'inherit', 'inherit'],
    );
    const chunks = [];
    const buffer = Buffer.alloc(4096);
    for (let read; (read = fs.readSync(fds.inputFd, buffer)) > 0;)
      chunks.push(Buffer.from(buffer.subarray(0, read)));
    result.protocolInput = Buffer.concat(chunks).toString();
  },

  /** A quiet tool's result is returned untouched. */
  async quiet() {
    capture.guardStdio();
    const own = { text: 'only mine', structuredContent: { a: 1 } };
    result.returned = await capture.withCapture(async () => own, call());
    result.same = result.returned === own;
  },

  /**
   * Back-to-back runs: a quiet run with another queued behind it leaves the fds on the
   * empty file (lingering); the next run resumes there and reports only its own output;
   * a write between two runs is in neither report; the next tick restores the fds.
   */
  async lingering() {
    capture.guardStdio();
    const stderrBefore = fdIdentity(2);
    const queued = (n) => ({ ...call(), queued: n });
    result.first = await capture.withCapture(async () => ({ text: 'first' }), queued(1));
    result.stateAfterFirst = guard.captureState();
    result.second = await capture.withCapture(async () => {
      process.stderr.write('L-second\n');
      return { text: 'second' };
    }, queued(1));
    result.stateAfterSecond = guard.captureState();
    result.third = await capture.withCapture(async () => ({ text: 'third' }), queued(1));
    result.fourth = await capture.withCapture(async () => {
      await runNode(`process.stderr.write('L-fourth-child\\n')`);
      return { text: 'fourth' };
    }, queued(0));
    result.stateAfterFourth = guard.captureState();
    result.fifth = await capture.withCapture(async () => ({ text: 'fifth' }), queued(1));
    result.stateAfterFifth = guard.captureState();
    // Written while the fifth run lingers and no run follows: the restore on the next
    // tick sends it to the real stderr rather than into no report at all.
    process.stderr.write('L-stray\n');
    await new Promise((resolve) => setImmediate(resolve));
    result.stateNextTick = guard.captureState();
    result.restoredNextTick = fdIdentity(2) === stderrBefore;
    process.stderr.write('L-after\n');
  },

  /** takeCapture consumes; withCapture appends only what came after. */
  async take() {
    capture.guardStdio();
    result.idleTake = capture.takeCapture();
    const tool = await capture.withCapture(async () => {
      process.stderr.write('T-first\n');
      result.bytesAfterFirst = capture.activeCapture().bytesWritten();
      result.taken = capture.takeCapture();
      await runNode(`process.stderr.write('T-second\\n')`);
      return { text: 'own', isError: true };
    }, call());
    result.tool = tool;
    result.activeAfter = capture.activeCapture();
  },

  /** Over the limit: head and tail, total bytes, and a private full log. */
  async truncated() {
    capture.guardStdio();
    const wrapper = capture.createCaptureWrapper({ limitBytes: 1024 });
    const tool = await wrapper(async () => {
      await runNode(`
        process.stderr.write('HEAD-MARK\\n');
        process.stderr.write('é'.repeat(5000) + '\\n');
        process.stderr.write('TAIL-MARK\\n');`);
      return { text: 'own' };
    }, call());
    result.text = tool.text;
    const logPath = /full log: (\S+)\) ---/.exec(tool.text)?.[1];
    result.logPath = logPath;
    if (logPath) {
      result.logMode = fs.statSync(logPath).mode & 0o777;
      result.dirMode = fs.statSync(path.dirname(logPath)).mode & 0o777;
      result.logBytes = fs.statSync(logPath).size;
    }
  },

  /** 100 MB from a child through the capture: bounded memory and report. */
  async bulk() {
    capture.guardStdio();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 5);
    const tool = await capture.withCapture(async () => {
      await runNode(`
        const chunk = Buffer.alloc(1024 * 1024 - 1, 'x');
        const fs = require('node:fs');
        fs.writeSync(2, 'HEAD-MARK\\n');
        for (let i = 0; i < 100; i++) { fs.writeSync(2, chunk); fs.writeSync(2, '\\n'); }
        fs.writeSync(2, 'TAIL-MARK\\n');`);
      return { text: 'own' };
    }, call());
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    result.rssGrowth = rssPeak - rssBefore;
    result.textLength = tool.text.length;
    result.head = tool.text.slice(0, 200);
    result.tail = tool.text.slice(-200);
    result.expectedTotal = 10 + 100 * 1024 * 1024 + 10;
    result.totalInHeading = Number(/captured output \((\d+) bytes/.exec(tool.text)?.[1]);
  },

  /** Throwing, rejecting and cancelled tools: fds restored and the guard idle after each. */
  async failures() {
    capture.guardStdio();
    const before = [fdIdentity(1), fdIdentity(2)];
    const restored = () => fdIdentity(1) === before[0] && fdIdentity(2) === before[1];
    const outcomes = {};
    try {
      await capture.withCapture(() => {
        throw Object.assign(new Error('thrown quietly'), { code: 'EQUIET' });
      }, call());
    } catch (error) {
      outcomes.throwQuiet = { code: error.code, state: guard.captureState(), restored: restored() };
    }
    const noisy = await capture.withCapture(async () => {
      process.stderr.write('F-before-reject\n');
      throw new Error('rejected loudly');
    }, call());
    outcomes.rejectNoisy = { result: noisy, state: guard.captureState(), restored: restored() };
    // The server settles a cancelled run within its abort grace even when the tool
    // never does (DispatchWrapper's contract): here the run rejects on abort.
    const controller = new AbortController();
    const wrapper = capture.createCaptureWrapper();
    const pending = wrapper(
      () =>
        new Promise((_resolve, reject) =>
          controller.signal.addEventListener('abort', () => reject(controller.signal.reason)),
        ),
      call(controller.signal),
    );
    setTimeout(
      () => controller.abort(Object.assign(new Error('cancelled'), { code: 'ECANCELLED' })),
      20,
    );
    try {
      await pending;
    } catch (error) {
      outcomes.cancelled = { code: error.code, state: guard.captureState(), restored: restored() };
    }
    process.stderr.write('F-after\n');
    result.outcomes = outcomes;
  },

  /** Nested begin gives ECAPTURE_ACTIVE at the TS layer and at the native layer. */
  async nested() {
    capture.guardStdio();
    const codes = {};
    await capture.withCapture(async () => {
      try {
        await guard.beginCapture();
      } catch (error) {
        codes.ts = error.code;
      }
      try {
        await capture.withCapture(async () => ({ text: 'inner' }), call());
      } catch (error) {
        codes.wrapper = error.code;
      }
      const native = guard.nativeBindingForTest();
      if (native) {
        try {
          native.begin({ fd: capture.activeCapture().fd, path: '' });
        } catch (error) {
          codes.native = error.code;
        }
      }
      return { text: 'outer' };
    }, call());
    result.codes = codes;
    result.state = guard.captureState();
    const native = guard.nativeBindingForTest();
    result.endWhenIdle = [guard.endCapture(), guard.endCapture()];
    result.nativeEndWhenIdle = native ? native.end() : null;
    try {
      capture.takeCapture({ limitBytes: 1 });
    } catch (error) {
      result.badLimitCode = error.code;
    }
  },

  /** Many cycles, quiet and noisy: open fds and temp files do not accumulate. */
  async cycles() {
    capture.guardStdio();
    const count = 10000; // ends on a quiet cycle (9999 % 10 !== 0)
    // Linux lists this process's fds in /proc/self/fd, macOS in /dev/fd (fdescfs); Windows
    // has no such listing (capture.test.mjs skips this scenario there).
    const linux = process.platform === 'linux';
    const openFds = () => fs.readdirSync(linux ? '/proc/self/fd' : '/dev/fd').length;
    const captureDir = () => {
      const fd = capture.activeCapture()?.fd;
      if (fd === undefined) return undefined;
      if (linux) return fs.readlinkSync(`/proc/self/fd/${fd}`).replace(/\/[^/]+$/, '');
      // macOS cannot name an fd's file: the private directory is the only one in TMPDIR.
      const tmp = os.tmpdir();
      const [name] = fs.readdirSync(tmp).filter((entry) => entry.startsWith('mcp-gates-capture-'));
      return name === undefined ? undefined : path.join(tmp, name);
    };
    let directory;
    await capture.withCapture(async () => {
      directory = captureDir();
      process.stderr.write('warm-up\n');
      return { text: '' };
    }, call());
    // Measure after a quiet cycle: its file stays open for reuse, as after the loop's
    // last (quiet) cycle.
    await capture.withCapture(async () => ({ text: '' }), call());
    const tmpEntries = () => fs.readdirSync(directory.replace(/\/[^/]+$/, '')).length;
    const before = { fds: openFds(), files: fs.readdirSync(directory).length, tmp: tmpEntries() };
    let noisyReports = 0;
    for (let i = 0; i < count; i++) {
      const noisy = i % 10 === 0;
      const tool = await capture.withCapture(async () => {
        if (noisy) process.stderr.write(`cycle ${i}\n`);
        return { text: 'x' };
      }, call());
      if (tool.text !== 'x') noisyReports++;
    }
    result.before = before;
    result.after = { fds: openFds(), files: fs.readdirSync(directory).length, tmp: tmpEntries() };
    result.noisyReports = noisyReports;
    result.expectedNoisy = Math.ceil(count / 10);
  },

  /** A crash during a capture prints its trace on the real stderr. */
  async crash() {
    capture.guardStdio();
    await capture.withCapture(async () => {
      setTimeout(() => {
        throw new Error('CRASH-MARK');
      }, 0);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return { text: '' };
    }, call());
  },

  /**
   * A run's handle concerns that run only: once its capture ended, take and write do
   * nothing, even while a later run's capture is active; ending by a stale handle ends
   * nothing. A quiet run that handed its file to a child neither lingers nor passes the
   * file on; one that handed nothing out does.
   */
  async handles() {
    capture.guardStdio();
    const queued = { ...call(), queued: 1 };
    let stale;
    await capture.withCapture(async () => {
      stale = capture.activeCapture();
      process.stderr.write('H-first\n');
      return { text: '' };
    }, call());
    const second = await capture.withCapture(async () => {
      process.stderr.write('H-second-early\n');
      result.staleTake = stale.take();
      result.staleWrite = stale.write(Buffer.from('H-stale-write\n'));
      result.staleBytes = stale.bytesWritten();
      result.staleEnd = guard.endCapture({ capture: stale });
      result.stateAfterStaleEnd = guard.captureState();
      process.stderr.write('H-second-late\n');
      return { text: 'second' };
    }, call());
    result.second = second.text;
    // Which file fd 2 points at (Linux, native): the capture file of the run.
    const fileOfStderr = () =>
      process.platform === 'linux' && guard.nativeBindingForTest()
        ? fs.readlinkSync('/proc/self/fd/2')
        : undefined;
    const files = {};
    await capture.withCapture(async () => {
      capture.childStdio(); // handed out, though no child is started
      files.handedOut = fileOfStderr();
      return { text: 'handed out' };
    }, queued);
    result.stateAfterHandedOut = guard.captureState();
    await capture.withCapture(async () => {
      files.quiet = fileOfStderr();
      return { text: 'quiet' };
    }, queued);
    result.stateAfterQuiet = guard.captureState();
    await capture.withCapture(async () => {
      files.afterQuiet = fileOfStderr();
      return { text: 'after quiet' };
    }, call());
    result.files = files;
  },

  /** A worker that loads the addon and exits must not end the main thread's capture. */
  async worker() {
    capture.guardStdio();
    await capture
      .withCapture(async () => {
        const worker = new Worker(
          `import('${new URL('../../dist/capture/capture-guard.js', import.meta.url)}').then((m) => m.nativeBindingForTest())`,
          { eval: true },
        );
        await new Promise((resolve) => worker.on('exit', resolve));
        result.stateAfterWorker = guard.captureState();
        result.nativeStateAfterWorker = guard.nativeBindingForTest()?.state();
        process.stderr.write('W-after-worker\n');
        return { text: '' };
      }, call())
      .then((tool) => {
        result.text = tool.text;
      });
  },
};

await scenarios[scenario]();
finish();

// A mocha reporter: spec's output, plus where the time went, written as JSON for
// scripts/test-durations.mjs: per test file its wall time (first suite begin to last suite
// end, hooks included, which mocha's json reporter leaves out) and per test its duration.
// Output: --reporter-option output=<file>, else $MOCHA_DURATIONS. Under --parallel the
// events of a file arrive replayed after it ran, so only the test durations and the run's
// wall time mean anything there. Mocha loads a reporter with require(), which loads this
// ES module from Node 20.19 on.
import fs from 'node:fs';
import path from 'node:path';
import Mocha from 'mocha';

const { reporters, Runner } = Mocha;

const {
  EVENT_HOOK_END,
  EVENT_RUN_BEGIN,
  EVENT_RUN_END,
  EVENT_SUITE_BEGIN,
  EVENT_SUITE_END,
  EVENT_TEST_END,
} = Runner.constants;

class DurationsReporter extends reporters.Spec {
  constructor(runner, options = {}) {
    super(runner, options);
    const output = options.reporterOption?.output ?? process.env.MOCHA_DURATIONS;
    const files = new Map();
    const tests = [];
    let started = Date.now();
    const fileOf = (runnable) => path.relative(process.cwd(), runnable.file ?? '(unknown)');
    const entry = (file) => {
      if (!files.has(file))
        files.set(file, { file, begin: Date.now(), end: 0, hookMs: 0, tests: 0 });
      return files.get(file);
    };
    runner.on(EVENT_RUN_BEGIN, () => (started = Date.now()));
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (suite.file) entry(fileOf(suite));
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      if (suite.file) entry(fileOf(suite)).end = Date.now();
    });
    runner.on(EVENT_HOOK_END, (hook) => {
      if (hook.file) entry(fileOf(hook)).hookMs += hook.duration ?? 0;
    });
    runner.on(EVENT_TEST_END, (test) => {
      const file = fileOf(test);
      entry(file).tests += 1;
      tests.push({
        file,
        title: test.fullTitle(),
        ms: test.duration ?? 0,
        state: test.state ?? 'pending',
      });
    });
    runner.once(EVENT_RUN_END, () => {
      if (!output) return;
      const report = {
        wallMs: Date.now() - started,
        stats: this.stats,
        files: [...files.values()].map(({ begin, end, ...rest }) => ({
          ...rest,
          wallMs: end - begin,
        })),
        tests,
      };
      fs.mkdirSync(path.dirname(path.resolve(output)), { recursive: true });
      fs.writeFileSync(output, `${JSON.stringify(report, null, 1)}\n`);
    });
  }
}

export default DurationsReporter;

// A mocha root-hook plugin (.mocharc.json "require"): every test's and hook's timeout,
// the default as those a file sets, stretched by this machine's measured slowdown
// (machine-speed.mjs). A timeout is a hang guard, never what a test checks: a slow or busy
// machine must not fail a test a quiet one passes. Each test is stretched again as it
// starts by the load then, if that is higher (the load moves during a run).
import { SLOWDOWN, slowdownNow } from './machine-speed.mjs';

const BASE = Symbol('timeout as declared');

function stretch(runnable, factor) {
  runnable[BASE] ??= runnable.timeout();
  // 0 is "no timeout" and stays so.
  if (runnable[BASE] > 0) runnable.timeout(Math.ceil(runnable[BASE] * factor));
}

function stretchAll(suite) {
  for (const kind of ['beforeAll', 'beforeEach', 'afterEach', 'afterAll'])
    for (const hook of suite.getHooks(kind)) stretch(hook, SLOWDOWN);
  for (const test of suite.tests) stretch(test, SLOWDOWN);
  for (const child of suite.suites) stretchAll(child);
}

export const mochaHooks = {
  beforeAll() {
    // The root suite: every file's suites (under --parallel, this file's).
    stretchAll(this.test.parent);
  },
  beforeEach() {
    const test = this.currentTest;
    if (test) stretch(test, slowdownNow());
  },
};

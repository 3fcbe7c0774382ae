// A mocha root-hook plugin (.mocharc.json "require"): with MOCHA_CPU=<file>, appends one JSON
// line per test file with the CPU seconds it cost, its child processes included (the tools
// and workers it ran, once reaped), read from /proc/self/stat. Wall time on a shared 2-core
// machine says little; CPU time is what a file costs the suite under any load (Linux only).
// node scripts/test-durations.mjs --cpu <file> ranks the files.
import fs from 'node:fs';

const output = process.env.MOCHA_CPU;
const TICKS = 100; // USER_HZ on Linux

/** utime + stime + cutime + cstime of this process, in seconds. */
function cpuSeconds() {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0) / TICKS;
}

let startedCpu = 0;
let startedAt = 0;

export const mochaHooks =
  output && process.platform === 'linux'
    ? {
        beforeAll() {
          startedCpu = cpuSeconds();
          startedAt = Date.now();
        },
        afterAll() {
          const files = [...new Set(this.test.parent.suites.map((suite) => suite.file))];
          const line = {
            files,
            cpuS: +(cpuSeconds() - startedCpu).toFixed(2),
            wallS: +((Date.now() - startedAt) / 1000).toFixed(2),
          };
          fs.appendFileSync(output, `${JSON.stringify(line)}\n`);
        },
      }
    : {};

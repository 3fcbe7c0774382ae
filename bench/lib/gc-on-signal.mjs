// Preloaded into a soak's server (`node --expose-gc --import <this>`): on SIGUSR2 it runs
// a full GC and writes the memory left to the file named by MCP_GATES_GC_REPORT, so a
// leak check reads memory that only live objects hold, not whatever the GC has not
// collected yet.
import fs from 'node:fs';

const report = process.env.MCP_GATES_GC_REPORT;
if (report && typeof globalThis.gc === 'function') {
  process.on('SIGUSR2', () => {
    globalThis.gc();
    // Written to a temporary name then renamed: the reader never sees half a report.
    fs.writeFileSync(`${report}.partial`, JSON.stringify(process.memoryUsage()));
    fs.renameSync(`${report}.partial`, report);
  });
}

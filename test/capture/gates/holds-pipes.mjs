// A gate that ignores SIGTERM and leaves a grandchild in a session of its own (out of
// reach of the group kill) holding the gate's stdout and stderr open for argv[3] ms.
// Cancelled, its run outlives the server's abort grace. Writes both pids to argv[2].
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const holdMs = Number(process.argv[3] ?? 1500);
const holder = spawn(process.execPath, ['-e', `setTimeout(() => {}, ${holdMs})`], {
  stdio: ['ignore', 'inherit', 'inherit'],
  detached: true,
});
process.on('SIGTERM', () => {});
process.stdout.write('HOLDING-PIPES\n');
writeFileSync(process.argv[2], JSON.stringify({ child: process.pid, grandchild: holder.pid }));
setInterval(() => {}, 1000);

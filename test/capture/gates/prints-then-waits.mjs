// A gate that prints argv[3] KiB (a BIG-HEAD line first), writes its pid to argv[2] once
// all of it is out, then waits until it is killed: a run whose report is cut at 32 KiB
// and names its full log, cancelled or interrupted before that report is delivered.
import { writeFileSync } from 'node:fs';

const kib = Number(process.argv[3] ?? 100);
const line = `${'b'.repeat(1023)}\n`;
process.stdout.write('BIG-HEAD\n');
process.stdout.write(line.repeat(kib), () => {
  writeFileSync(process.argv[2], JSON.stringify({ child: process.pid }));
});
setInterval(() => {}, 1000);

// Capture figures, measured in a child process because the capture moves fds 1 and 2.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PROBE = fileURLToPath(new URL('./capture-probe.mjs', import.meta.url));

function probe(args) {
  const child = spawn(process.execPath, ['--expose-gc', PROBE, ...args], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text) => (stderr = (stderr + text).slice(-4096)));
  return new Promise((resolve, reject) => {
    let message;
    child.on('message', (received) => (message = received));
    child.on('error', reject);
    child.on('close', (code) => {
      if (message?.ok) resolve({ ...message.figures, mode: message.mode });
      else
        reject(
          new Error(
            `capture probe ${args.join(' ')} failed (exit ${code}): ${message?.message ?? stderr}`,
          ),
        );
    });
  });
}

/** `{cycle: {...}, flood: {...}}`: the begin/end cycle and the 100 MB run. */
export async function benchCapture(sizes) {
  const cycle = await probe(['cycle', String(sizes.captureCycles)]);
  const flood = await probe(['flood', String(sizes.floodMegabytes), String(sizes.floodRuns)]);
  return { cycle, flood };
}

// Test helper: runs test/capture/scenario.mjs in a child process with stderr as a
// pipe, a file or a terminal, and collects what each channel received.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDirEnv } from '../fixtures/gates-support.mjs';

const scenarioPath = fileURLToPath(new URL('./scenario.mjs', import.meta.url));

function shellQuote(text) {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A Linux path as wine's Windows programs see it (drive Z: is the root). */
export function winePath(linuxPath) {
  return 'Z:' + linuxPath.replace(/\//g, '\\');
}

/**
 * @param {string} scenario
 * @param {{stderr?: 'pipe' | 'file' | 'tty', env?: Record<string, string>, stdin?: string,
 *   wineNode?: string}} options wineNode: a Windows node.exe to run under wine (stdio
 *   are then files: wine's node cannot use Linux pipes as stdio)
 */
export async function runScenario(scenario, options = {}) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-test-'));
  try {
    const resultFile = path.join(work, 'result.json');
    const stdoutFile = path.join(work, 'stdout.txt');
    const stderrFile = path.join(work, 'stderr.txt');
    // Capture files and kept logs land in the test's own directory (wine's node keeps
    // its own TEMP: a Linux path means nothing to it).
    const tmp = options.wineNode ? { TMPDIR: work } : tempDirEnv(work);
    const env = { ...process.env, ...tmp, ...options.env };
    const mode = options.stderr ?? 'pipe';
    const args = [scenarioPath, scenario, resultFile];
    let child;
    if (options.wineNode) {
      const stdinFile = path.join(work, 'stdin.txt');
      fs.writeFileSync(stdinFile, options.stdin ?? '');
      const stdio = [
        fs.openSync(stdinFile, 'r'),
        fs.openSync(stdoutFile, 'w'),
        fs.openSync(stderrFile, 'w'),
      ];
      const wineArgs = [options.wineNode, winePath(scenarioPath), scenario, winePath(resultFile)];
      child = spawn('wine', wineArgs, { env, stdio });
      for (const fd of stdio) fs.closeSync(fd);
    } else if (mode === 'tty') {
      // `script` gives the scenario a pseudo-terminal as stderr; stdout goes to a file.
      // util-linux syntax (-c command): macOS's BSD `script` takes the command as argv.
      const command =
        [process.execPath, ...args].map(shellQuote).join(' ') + ` >${shellQuote(stdoutFile)}`;
      child = spawn('script', ['-qefc', command, '/dev/null'], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } else {
      const stderrTarget = mode === 'file' ? fs.openSync(stderrFile, 'w') : 'pipe';
      child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', stderrTarget] });
      if (typeof stderrTarget === 'number') fs.closeSync(stderrTarget);
      child.stdin.end(options.stdin ?? '');
    }
    const chunks = { stdout: [], stderr: [] };
    child.stdout?.on('data', (chunk) => chunks.stdout.push(chunk));
    child.stderr?.on('data', (chunk) => chunks.stderr.push(chunk));
    const [code, signal] = await new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
    });
    let stdout = Buffer.concat(chunks.stdout).toString();
    let stderr = Buffer.concat(chunks.stderr).toString();
    if (mode === 'file' || options.wineNode) stderr = fs.readFileSync(stderrFile, 'utf8');
    if (options.wineNode) stdout = fs.readFileSync(stdoutFile, 'utf8');
    if (mode === 'tty') {
      // The terminal carried stderr; the scenario's stdout went to the file.
      stderr = stdout.replace(/\r\n/g, '\n');
      stdout = fs.existsSync(stdoutFile) ? fs.readFileSync(stdoutFile, 'utf8') : '';
    }
    const result = fs.existsSync(resultFile)
      ? JSON.parse(fs.readFileSync(resultFile, 'utf8'))
      : undefined;
    const leftovers = fs
      .readdirSync(work)
      .filter((name) => !/^(result\.json|stdout\.txt|stderr\.txt)$/.test(name));
    return { code, signal, stdout, stderr, result, leftovers };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export function commandExists(command) {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((directory) => fs.existsSync(path.join(directory, command)));
}

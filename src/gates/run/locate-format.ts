import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Finding } from '../report/finding.js';
import { TOOLS } from '../tools/index.js';
import type { FormatLocator } from '../tools/tool.js';
import { privateCaches } from './private-caches.js';
import { resolveCommand } from './resolve-command.js';

/**
 * At most this many whole-file format findings get a line: one formatter run each, run
 * side by side (ten in a row added about 2.5 s to a failing format check).
 */
const MAX_LOCATED_FILES = 3;
export const LOCATE_TIMEOUT_MS = 15_000;
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** The 1-based first line where two texts differ (line endings normalised), or null. */
export function firstDifferentLine(original: string, formatted: string): number | null {
  const before = original.replace(/\r\n?/g, '\n').split('\n');
  const after = formatted.replace(/\r\n?/g, '\n').split('\n');
  const length = Math.max(before.length, after.length);
  for (let index = 0; index < length; index += 1)
    if (before[index] !== after[index]) return index + 1;
  return null;
}

function formatted(
  file: string,
  args: string[],
  input: string,
  options: { runDir: string; env: NodeJS.ProcessEnv; signal: AbortSignal },
): Promise<string | null> {
  const { runDir, env, signal } = options;
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        cwd: runDir,
        env,
        timeout: LOCATE_TIMEOUT_MS,
        maxBuffer: MAX_FILE_BYTES * 2,
        signal,
        windowsHide: true,
        encoding: 'utf8',
      },
      (error, stdout) => resolve(error ? null : stdout),
    ).stdin?.end(input);
  });
}

/** The formatters whose check names unformatted files without a line (tools/*.ts `locate`). */
const FORMATTERS: readonly FormatLocator[] = TOOLS.flatMap((tool) =>
  tool.locate ? [tool.locate] : [],
);

/**
 * `prettier --check`, biome's format check and `oxfmt --check` name unformatted files but no line. For the
 * first few such files, the formatter prints the formatted text to stdout (it writes
 * nothing) and the first line that differs from the file on disk becomes the finding's
 * line, so an agent is pointed at the change, not at the file. Files past the cap stay
 * whole-file.
 */
export async function locateFormatFindings(
  findings: Finding[],
  options: {
    root: string;
    runDir: string;
    env: NodeJS.ProcessEnv;
    signal: AbortSignal;
    /**
     * Prettier's output for one file from a warm worker: the text, null when prettier
     * failed on it, undefined when no worker may answer (then prettier runs cold).
     */
    warmFormatted?: (absolute: string) => Promise<string | null | undefined>;
  },
): Promise<void> {
  const unlocated = findings.flatMap((finding) => {
    const formatter = FORMATTERS.find((known) => known.rule === finding.rule);
    return formatter && finding.line === null && finding.file !== null
      ? [{ finding, formatter }]
      : [];
  });
  await Promise.all(
    unlocated.slice(0, MAX_LOCATED_FILES).map(async ({ finding, formatter }) => {
      if (options.signal.aborted) return;
      const absolute = path.resolve(options.root, finding.file!);
      let original: string;
      try {
        if (fs.statSync(absolute).size > MAX_FILE_BYTES) return;
        original = fs.readFileSync(absolute, 'utf8');
      } catch {
        return;
      }
      let output =
        formatter.warmWorker !== undefined ? await options.warmFormatted?.(absolute) : undefined;
      if (output === undefined) {
        const resolved = resolveCommand(formatter.argv(absolute), options.runDir, options.env);
        if (!resolved.ok) return;
        // Printing a file formatted is a run like the check: its caches stay private.
        const caches = privateCaches(formatter.argv(absolute), resolved, {
          runDir: options.runDir,
          env: options.env,
        });
        try {
          output = await formatted(
            resolved.file,
            caches.args,
            formatter.feedsText ? original : '',
            {
              ...options,
              env: { ...options.env, ...caches.env },
            },
          );
        } finally {
          caches.cleanup();
        }
      }
      if (output === null) return;
      const line = firstDifferentLine(original, output);
      if (line !== null) finding.line = line;
    }),
  );
}

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { installedTypescriptMajor } from '../tsconfig.js';
import { makePrivateDirectory, removeStale, userCacheHome } from './private-directory.js';

/**
 * TypeScript 7's native compiler kept fast between calls of `serve`: each call runs the
 * command as a process (cold), with `--incremental` and the build info of the gate's last
 * call. The build info lives only in a directory private to this user, never in the tree:
 * `serve` keeps it in the user's cache (persistentBuildInfoDirectory), so the first call
 * after a start is incremental from the last server's as `tsgo --incremental` is; without
 * one, in a temporary directory removed when the server closes. A call copies it into its
 * own fresh directory, the compiler reads and rewrites that copy, and a complete copy
 * (whole JSON) goes back once the call ends, by rename. Concurrent calls, of this server or
 * another on the same tree, never share a file; a killed call leaves the kept copy as it was.
 *
 * Why an incremental answer equals a cold one: the compiler itself decides what to
 * recheck. Each process builds its program afresh (config, file list and module
 * resolution are read anew); the build info records each file's version (a hash of its
 * text: lib and node_modules declaration files included) and the options that affect
 * diagnostics; a file whose text differs, and every file its change may affect (TypeScript's
 * own rule, the one `tsc --incremental` and `tsc --watch` use), is checked again, and any
 * option change checks everything; build info of another compiler version is not used
 * (the compiler's own version check). Only the diagnostics of files none of that touches
 * come from the build info.
 */

const BUILD_INFO_NAME = 'tsconfig.tsbuildinfo';

/** The program's name without directory or Windows extension. */
function programName(program: string): string {
  return path.basename(program).replace(/\.(cmd|exe|js|cjs|mjs)$/i, '');
}

/**
 * Whether `argv` runs TypeScript's native compiler (`tsgo` of @typescript/native-preview,
 * or `tsc` of typescript 7 and later) with no incremental setting of its own.
 */
export function runsNativeTypescript(argv: readonly string[], runDir: string): boolean {
  if (argv.some((word) => /^--incremental$|^-i$|^--tsBuildInfoFile$/.test(word))) return false;
  const program = programName(argv[0] ?? '');
  if (program === 'tsgo') return true;
  return program === 'tsc' && installedTypescriptMajor(runDir) >= 7;
}

/** Where `serve` keeps TypeScript 7 build info across starts: the user's cache. */
export function persistentBuildInfoDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(userCacheHome(env), 'mcp-gates', 'tsbuildinfo');
}

/** Stores whose temporary directory exists: the server's exit removes them, however it exits. */
const liveStores = new Set<BuildInfoStore>();
let exitHookInstalled = false;

export class BuildInfoStore {
  private directory: string | undefined;
  private temporary = false;

  /**
   * `keepIn`: a directory where the build info outlives this store, used when it is private
   * to this user (made 0700 when absent); else, and without one, a temporary directory.
   */
  constructor(private readonly keepIn?: string) {}

  /** The store's own directory, made on first use. */
  private ownDirectory(): string {
    if (this.directory) return this.directory;
    if (this.keepIn && makePrivateDirectory(this.keepIn) === undefined) {
      this.directory = this.keepIn;
      removeStale(this.directory);
      return this.directory;
    }
    this.directory = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-gates-tsbuildinfo-'));
    this.temporary = true;
    liveStores.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on('exit', () => {
        for (const store of liveStores) store.close();
      });
    }
    return this.directory;
  }

  private keptFile(runDir: string, argv: readonly string[]): string {
    const key = createHash('sha256')
      .update(JSON.stringify([path.resolve(runDir), argv]))
      .digest('hex')
      .slice(0, 32);
    return path.join(this.ownDirectory(), `${key}.tsbuildinfo`);
  }

  /**
   * The argv that runs `argv` incrementally with its build info in `callDirectory` (the
   * call's own fresh directory), the last kept build info copied in; and `keep`, which
   * puts the call's build info back once the call has ended.
   */
  prepare(
    runDir: string,
    argv: readonly string[],
    callDirectory: string,
  ): { argv: string[]; keep: () => void } {
    const kept = this.keptFile(runDir, argv);
    const callFile = path.join(callDirectory, BUILD_INFO_NAME);
    try {
      fs.copyFileSync(kept, callFile);
    } catch {
      // None kept yet (or removed): the compiler checks everything and writes a first one.
    }
    return {
      argv: [...argv, '--incremental', '--tsBuildInfoFile', callFile],
      keep: () => this.keep(callFile, kept),
    };
  }

  /** The call's build info becomes the kept one when it is whole (a killed call's may not be). */
  private keep(callFile: string, kept: string): void {
    try {
      JSON.parse(fs.readFileSync(callFile, 'utf8'));
      const next = `${kept}.${process.pid}.${Math.random().toString(36).slice(2)}`;
      fs.copyFileSync(callFile, next);
      fs.renameSync(next, kept);
    } catch {
      // No whole build info: the kept one stays (it still describes the tree it was made on).
    }
  }

  /** Removes the store's temporary directory (the server is closing); a kept one stays. */
  close(): void {
    if (this.directory && this.temporary)
      fs.rmSync(this.directory, { recursive: true, force: true });
    this.directory = undefined;
    this.temporary = false;
    liveStores.delete(this);
  }
}

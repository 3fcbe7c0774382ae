import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE } from '../config.js';
import type { GateSpec } from '../gate-spec.js';
import type { CallArguments } from './call-arguments.js';
import { baseCommitOf } from './changed-files.js';

/**
 * A run's identity: everything that defines what a gate run checks and how, so a kept run
 * answers a later call only when that call would run exactly the same. It is built from
 * a complete description (the whole gate spec, every call argument), leaving out only
 * what picks which part of a run's result is shown; a field added later is in the
 * identity unless it is added to that list. The tree (files, HEAD, index) is compared
 * apart, by fingerprint (report/last-run.ts).
 */

/** Call arguments that shape the result of a run, never the run: paging and the budget. */
type ViewArguments = 'file' | 'offset' | 'maxChars';

export interface RunDescription {
  root: string;
  /** Where the gate runs (the workspace root for a workspace's gates). */
  runDir: string;
  toolName: string;
  fixing: boolean;
  gate: GateSpec;
  args: CallArguments;
  /** The environment the gate gets. */
  env: NodeJS.ProcessEnv;
  /** Where `baseline: true` writes, when the caller chose it. */
  baselineFile?: string;
  /** Whether warm workers may answer (they must equal a cold run; kept apart all the same). */
  warm: boolean;
  signal?: AbortSignal;
}

function digest(text: string | Buffer): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}

/** JSON with object keys sorted at every level, so equal descriptions give equal text. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(
          Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : item,
  );
}

/**
 * The file that defined the gate: mcp-gates.json, or the one detection read; none for a
 * spec a library caller built without a source.
 */
function definingFile(gate: GateSpec, runDir: string): string | null {
  if (typeof gate.source !== 'string' || gate.source === '') return null;
  return path.resolve(runDir, gate.source === 'config' ? CONFIG_FILE : gate.source);
}

/** The content digest of the gate's defining file, or null when it cannot be read. */
function definingFileDigest(file: string | null): string | null {
  if (file === null) return null;
  try {
    return digest(fs.readFileSync(file));
  } catch {
    return null;
  }
}

function environmentDigest(env: NodeJS.ProcessEnv): string {
  const entries = Object.entries(env)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return digest(canonicalJson(entries));
}

/** The identity of the run a call makes: equal only for calls that run the same check. */
export async function runIdentity(run: RunDescription): Promise<string> {
  const { file: _file, offset: _offset, maxChars: _maxChars, ...defining } = run.args;
  const kept: Omit<CallArguments, ViewArguments> = defining;
  const base = kept.changed?.base;
  const config = definingFile(run.gate, run.runDir);
  return digest(
    canonicalJson({
      root: run.root,
      runDir: run.runDir,
      toolName: run.toolName,
      fixing: run.fixing,
      gate: run.gate,
      args: kept,
      // The changed scope against a ref depends on the commit the ref names now.
      baseCommit: base ? ((await baseCommitOf(run.root, base, run)) ?? null) : null,
      config: { file: config, content: definingFileDigest(config) },
      env: environmentDigest(run.env),
      baselineFile: run.baselineFile ?? null,
      warm: run.warm,
    }),
  );
}

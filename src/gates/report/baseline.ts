import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Finding } from './finding.js';

/**
 * Baselines: which findings an edit introduced. A finding is known by its content (gate,
 * file, rule, normalized message, the text of its line and of the lines around it), never
 * by its line number, so lines added or removed elsewhere do not make it new (SWE-agent
 * blocks only on errors an edit introduced; OpenHands matches by content, not lines).
 */

export const BASELINE_VERSION = 1;

/** The lines of a file (relative to the root, as in findings), or null when it cannot be read. */
export type ReadLines = (file: string) => readonly string[] | null;
/** A hash of a file's content (any stable string), or null when it does not exist. */
export type FileHash = (file: string) => string | null;

/** One finding as recorded: three fingerprints of its content, from strict to loose. */
export interface BaselineEntry {
  file: string | null;
  /** Rule, message, the flagged line and both neighbours. */
  exact: string;
  /** Rule, message and the flagged line (its neighbours changed: lines added next to it). */
  line: string;
  /** Rule, message and both neighbours (the flagged line itself was edited). */
  around: string;
  /**
   * Rule, message and one neighbour (the line was edited and a line added on the other
   * side); '' when that neighbour is too short to tell lines apart (blank, `}`).
   */
  before: string;
  after: string;
}

export interface Baseline {
  version: typeof BASELINE_VERSION;
  gate: string;
  /** Content hash of every file with findings, so a renamed file keeps its findings. */
  files: Record<string, string>;
  entries: BaselineEntry[];
}

export interface SplitFindings {
  /** Findings the baseline does not hold, in the order given. */
  newFindings: Finding[];
  oldFindings: Finding[];
  /** Baseline findings matched by none of the current ones. */
  fixedCount: number;
}

export type BaselineErrorCode = 'EBASELINE_FORMAT' | 'EBASELINE_GATE' | 'EBASELINE_IO';

/** A baseline that cannot be read, written or used; the message names the file and the fix. */
export class BaselineError extends Error {
  readonly code: BaselineErrorCode;

  constructor(code: BaselineErrorCode, message: string) {
    super(message);
    this.name = 'BaselineError';
    this.code = code;
  }
}

/** Digits become 0 and whitespace runs one space: counts and positions in messages vary. */
export function normalizeMessage(message: string): string {
  return message.replace(/\d+/g, '0').replace(/\s+/g, ' ').trim();
}

function normalizeLine(text: string | undefined): string {
  return text === undefined ? '' : text.replace(/\s+/g, ' ').trim();
}

function digest(parts: readonly (string | null)[]): string {
  return crypto.createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
}

/** Neighbours this short (blank, `}`, `end`) recur everywhere and identify nothing alone. */
const MIN_NEIGHBOUR_CHARS = 4;

function distinctive(line: string): boolean {
  return line.length >= MIN_NEIGHBOUR_CHARS;
}

/** Reads each file once per call, whatever the number of findings in it. */
function memoize<T>(read: (file: string) => T): (file: string) => T {
  const cache = new Map<string, T>();
  return (file) => {
    if (!cache.has(file)) cache.set(file, read(file));
    return cache.get(file) as T;
  };
}

/** The three fingerprints of a finding (the file is kept apart, so a rename can re-key it). */
export function fingerprint(gate: string, finding: Finding, readLines: ReadLines): BaselineEntry {
  const lines = finding.file === null || finding.line === null ? null : readLines(finding.file);
  const at = (offset: number) =>
    lines === null || finding.line === null ? '' : normalizeLine(lines[finding.line - 1 + offset]);
  const identity = [gate, finding.rule, normalizeMessage(finding.message)];
  const [before, flagged, after] = [at(-1), at(0), at(1)];
  return {
    file: finding.file,
    exact: digest([...identity, before, flagged, after]),
    line: digest([...identity, flagged]),
    around: digest([...identity, before, after]),
    before: distinctive(before) ? digest([...identity, before, null]) : '',
    after: distinctive(after) ? digest([...identity, null, after]) : '',
  };
}

/** The baseline of `findings`: JSON-serializable, no line numbers in it. */
export function createBaseline(
  gate: string,
  findings: readonly Finding[],
  readLines: ReadLines,
  fileHash: FileHash,
): Baseline {
  const read = memoize(readLines);
  const files: Record<string, string> = {};
  for (const finding of findings) {
    if (finding.file === null || finding.file in files) continue;
    const hash = fileHash(finding.file);
    if (hash !== null) files[finding.file] = hash;
  }
  return {
    version: BASELINE_VERSION,
    gate,
    files,
    entries: findings.map((finding) => fingerprint(gate, finding, read)),
  };
}

/**
 * Baseline files renamed to a current file: same content hash, and the old path is gone
 * or changed (a copy next to its original is not a rename: its findings are new).
 */
function findRenames(
  baseline: Baseline,
  currentFiles: ReadonlySet<string>,
  fileHash: FileHash,
): Map<string, string> {
  const oldPathsByHash = new Map<string, string[]>();
  for (const [file, hash] of Object.entries(baseline.files)) {
    if (currentFiles.has(file)) continue;
    const paths = oldPathsByHash.get(hash) ?? [];
    paths.push(file);
    oldPathsByHash.set(hash, paths);
  }
  const renames = new Map<string, string>();
  if (oldPathsByHash.size === 0) return renames;
  for (const file of currentFiles) {
    if (file in baseline.files) continue;
    const hash = fileHash(file);
    const candidates = hash === null ? undefined : oldPathsByHash.get(hash);
    while (candidates !== undefined && candidates.length > 0) {
      const oldPath = candidates.shift() as string;
      if (fileHash(oldPath) === baseline.files[oldPath]) continue;
      renames.set(oldPath, file);
      break;
    }
  }
  return renames;
}

type Tier = 'exact' | 'line' | 'around' | 'before' | 'after';
const TIERS: readonly Tier[] = ['exact', 'line', 'around', 'before', 'after'];

function tierKey(file: string | null, hash: string): string {
  return `${JSON.stringify(file)}:${hash}`;
}

/**
 * Splits `findings` into new and old against `baseline`. Matching is by multiset, tier by
 * tier, always within one file and for the same rule and message: exact content first,
 * then the flagged line alone (lines were added next to it), then both neighbours (the
 * flagged line was edited), then one distinctive neighbour (edited, and a line added on
 * the other side). A fingerprint twice in the current findings but once in the baseline
 * gives one new finding.
 */
export function splitNew(
  baseline: Baseline,
  findings: readonly Finding[],
  readLines: ReadLines,
  fileHash: FileHash,
): SplitFindings {
  const read = memoize(readLines);
  const hashOf = memoize(fileHash);
  const current = findings.map((finding) => fingerprint(baseline.gate, finding, read));
  const currentFiles = new Set<string>();
  for (const finding of findings) if (finding.file !== null) currentFiles.add(finding.file);
  const renames = findRenames(baseline, currentFiles, hashOf);

  const unmatched = new Set<number>(baseline.entries.keys());
  const matched = new Array<boolean>(findings.length).fill(false);
  for (const tier of TIERS) {
    // Unmatched baseline entries by this tier's key; each entry sits in one list per tier.
    const available = new Map<string, number[]>();
    for (const index of unmatched) {
      const entry = baseline.entries[index];
      if (entry[tier] === '') continue;
      const file = entry.file === null ? null : (renames.get(entry.file) ?? entry.file);
      const key = tierKey(file, entry[tier]);
      const list = available.get(key);
      if (list === undefined) available.set(key, [index]);
      else list.push(index);
    }
    current.forEach((entry, position) => {
      if (matched[position] || entry[tier] === '') return;
      const list = available.get(tierKey(entry.file, entry[tier]));
      if (list === undefined || list.length === 0) return;
      unmatched.delete(list.pop() as number);
      matched[position] = true;
    });
  }
  const newFindings: Finding[] = [];
  const oldFindings: Finding[] = [];
  findings.forEach((finding, position) =>
    (matched[position] ? oldFindings : newFindings).push(finding),
  );
  return { newFindings, oldFindings, fixedCount: unmatched.size };
}

function isEntry(value: unknown): value is BaselineEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    (entry.file === null || typeof entry.file === 'string') &&
    typeof entry.exact === 'string' &&
    typeof entry.line === 'string' &&
    typeof entry.around === 'string' &&
    typeof entry.before === 'string' &&
    typeof entry.after === 'string'
  );
}

/** `value` checked as a baseline of `gate`; `source` names where it came from in errors. */
export function parseBaseline(value: unknown, gate: string, source: string): Baseline {
  const fix = `delete ${source} and record the baseline again`;
  const record = value as Record<string, unknown> | null;
  if (typeof record !== 'object' || record === null || Array.isArray(record))
    throw new BaselineError(
      'EBASELINE_FORMAT',
      `${source}: not a baseline (no JSON object); ${fix}`,
    );
  if (record.version !== BASELINE_VERSION) {
    throw new BaselineError(
      'EBASELINE_FORMAT',
      `${source}: baseline version ${JSON.stringify(record.version)}, this mcp-gates reads version ${BASELINE_VERSION}; ${fix}`,
    );
  }
  const files = record.files as Record<string, unknown> | null;
  if (
    typeof record.gate !== 'string' ||
    typeof files !== 'object' ||
    files === null ||
    Array.isArray(files) ||
    !Object.values(files).every((hash) => typeof hash === 'string') ||
    !Array.isArray(record.entries) ||
    !record.entries.every(isEntry)
  ) {
    throw new BaselineError('EBASELINE_FORMAT', `${source}: not a valid baseline; ${fix}`);
  }
  if (record.gate !== gate) {
    throw new BaselineError(
      'EBASELINE_GATE',
      `${source}: a baseline of gate "${record.gate}", not "${gate}"; ${fix}`,
    );
  }
  return record as unknown as Baseline;
}

const GATE_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The per-root cache directory: `$XDG_CACHE_HOME/mcp-gates/<sha256 of the root's real
 * path>` (XDG_CACHE_HOME only when absolute, as the XDG spec says), else
 * `%LOCALAPPDATA%` on Windows, else `~/.cache`. Outside the repository: a check never
 * changes the tree.
 */
export function baselineDirectory(root: string, env: NodeJS.ProcessEnv = process.env): string {
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(root);
  } catch (error) {
    throw new BaselineError(
      'EBASELINE_IO',
      `cannot resolve the root ${root} (${(error as NodeJS.ErrnoException).code ?? String(error)}); pass an existing directory`,
    );
  }
  const xdg = env.XDG_CACHE_HOME;
  const cache =
    xdg && path.isAbsolute(xdg)
      ? xdg
      : process.platform === 'win32' && env.LOCALAPPDATA
        ? env.LOCALAPPDATA
        : path.join(os.homedir(), '.cache');
  const rootHash = crypto.createHash('sha256').update(realRoot).digest('hex');
  return path.join(cache, 'mcp-gates', rootHash);
}

/** Where the baseline of `gate` lives: `file` when given, else in baselineDirectory(root). */
export function baselinePath(
  root: string,
  gate: string,
  options: { file?: string; env?: NodeJS.ProcessEnv } = {},
): string {
  if (!GATE_NAME.test(gate) || gate === '.' || gate === '..') {
    throw new BaselineError(
      'EBASELINE_IO',
      `"${gate}" cannot name a baseline file; gate names use A-Z a-z 0-9 _ . - only`,
    );
  }
  if (options.file !== undefined) return path.resolve(root, options.file);
  return path.join(baselineDirectory(root, options.env), `baseline-${gate}.json`);
}

function ioError(action: string, file: string, error: unknown): BaselineError {
  const { code, message } = error as NodeJS.ErrnoException;
  return new BaselineError(
    'EBASELINE_IO',
    `cannot ${action} ${file}: ${code ?? message}; check that its directory exists and is writable by this user`,
  );
}

/** Writes the baseline atomically (a 0600 temp file renamed over the old one). */
export function writeBaseline(file: string, baseline: Baseline): void {
  const temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const fd = fs.openSync(temporary, 'wx', 0o600);
    try {
      fs.writeFileSync(fd, `${JSON.stringify(baseline)}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw ioError('write the baseline', file, error);
  }
}

/** The baseline of `gate` in `file`, or null when there is none yet. */
export function readBaseline(file: string, gate: string): Baseline | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw ioError('read the baseline', file, error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BaselineError(
      'EBASELINE_FORMAT',
      `${file}: not JSON (${(error as Error).message}); delete ${file} and record the baseline again`,
    );
  }
  return parseBaseline(value, gate, file);
}

/** Files larger than this are not read for fingerprints (their findings use no line text). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

/**
 * readLines and fileHash over the files under `root` (findings' paths are relative to
 * it), each file read at most once. Unreadable or oversized files give null.
 */
export function rootFileAccess(root: string): { readLines: ReadLines; fileHash: FileHash } {
  const content = memoize((file: string): Buffer | null => {
    try {
      const full = path.resolve(root, file);
      if (fs.statSync(full).size > MAX_FILE_BYTES) return null;
      return fs.readFileSync(full);
    } catch {
      return null;
    }
  });
  return {
    readLines: (file) => content(file)?.toString('utf8').split(/\r?\n/) ?? null,
    fileHash: (file) => {
      const bytes = content(file);
      return bytes === null ? null : crypto.createHash('sha256').update(bytes).digest('hex');
    },
  };
}

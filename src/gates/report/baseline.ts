import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { userCacheHome } from '../run/private-directory.js';
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

/**
 * A finding's content as four short hashes joined by dots: identity (gate, rule,
 * normalized message), the line before, the flagged line, the line after. A neighbour too
 * short to tell lines apart (blank, `}`) has its hash marked with a leading `-`.
 */
export type Fingerprint = string;

/** The findings of one file, and its content hash so a renamed file keeps its findings. */
export interface BaselineFile {
  hash: string | null;
  fingerprints: Fingerprint[];
}

export interface Baseline {
  version: typeof BASELINE_VERSION;
  gate: string;
  files: Record<string, BaselineFile>;
  /** Findings about the whole project (no file). */
  project: Fingerprint[];
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

/** Neighbours this short (blank, `}`, `end`) recur everywhere and identify nothing alone. */
const MIN_NEIGHBOUR_CHARS = 4;
/** Hex digits per hash: 48 bits, and a false match also needs the same file and identity. */
const HASH_CHARS = 12;
const FINGERPRINT = /^[0-9a-f]{12}(?:\.-?[0-9a-f]{12}){3}$/;

/** Hashes text, each distinct text once (lines and messages repeat across findings). */
function createTextHasher(): (text: string) => string {
  const cache = new Map<string, string>();
  return (text) => {
    let hash = cache.get(text);
    if (hash === undefined) {
      hash = crypto.createHash('sha256').update(text).digest('hex').slice(0, HASH_CHARS);
      cache.set(text, hash);
    }
    return hash;
  };
}

/** Reads each file once per call, whatever the number of findings in it. */
function memoize<T>(read: (file: string) => T): (file: string) => T {
  const cache = new Map<string, T>();
  return (file) => {
    if (!cache.has(file)) cache.set(file, read(file));
    return cache.get(file) as T;
  };
}

/** The fingerprint of a finding; no file and no line number in it. */
export function fingerprint(
  gate: string,
  finding: Finding,
  readLines: ReadLines,
  hashText: (text: string) => string = createTextHasher(),
): Fingerprint {
  const lines = finding.file === null || finding.line === null ? null : readLines(finding.file);
  const lineHash = (offset: number) => {
    const text =
      lines === null || finding.line === null
        ? ''
        : normalizeLine(lines[finding.line - 1 + offset]);
    const hash = hashText(`line:${text}`);
    return text.length >= MIN_NEIGHBOUR_CHARS ? hash : `-${hash}`;
  };
  const identity = hashText(
    JSON.stringify([gate, finding.rule, normalizeMessage(finding.message)]),
  );
  return [identity, lineHash(-1), lineHash(0), lineHash(1)].join('.');
}

/** The baseline of `findings`: JSON-serializable, no line numbers in it. */
export function createBaseline(
  gate: string,
  findings: readonly Finding[],
  readLines: ReadLines,
  fileHash: FileHash,
): Baseline {
  const read = memoize(readLines);
  const hashText = createTextHasher();
  // No prototype: a file named constructor or __proto__ is just a key.
  const files: Record<string, BaselineFile> = Object.create(null);
  const baseline: Baseline = { version: BASELINE_VERSION, gate, files, project: [] };
  for (const finding of findings) {
    const print = fingerprint(gate, finding, read, hashText);
    if (finding.file === null) {
      baseline.project.push(print);
      continue;
    }
    let record = baseline.files[finding.file];
    if (record === undefined) {
      record = { hash: fileHash(finding.file), fingerprints: [] };
      baseline.files[finding.file] = record;
    }
    record.fingerprints.push(print);
  }
  return baseline;
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
  for (const [file, { hash }] of Object.entries(baseline.files)) {
    if (hash === null || currentFiles.has(file)) continue;
    const paths = oldPathsByHash.get(hash) ?? [];
    paths.push(file);
    oldPathsByHash.set(hash, paths);
  }
  const renames = new Map<string, string>();
  if (oldPathsByHash.size === 0) return renames;
  for (const file of currentFiles) {
    if (Object.hasOwn(baseline.files, file)) continue;
    const hash = fileHash(file);
    const candidates = hash === null ? undefined : oldPathsByHash.get(hash);
    while (candidates !== undefined && candidates.length > 0) {
      const oldPath = candidates.shift() as string;
      if (fileHash(oldPath) === baseline.files[oldPath].hash) continue;
      renames.set(oldPath, file);
      break;
    }
  }
  return renames;
}

/**
 * Matching tiers, strict to loose, over the parts [identity, before, flagged, after]:
 * exact content; the flagged line (lines were added next to it); both neighbours (the
 * flagged line was edited); one distinctive neighbour (edited, and a line added on the
 * other side). null: the tier cannot match this finding.
 */
const TIERS: readonly ((parts: readonly string[]) => string | null)[] = [
  (parts) => parts.join('.'),
  ([identity, , flagged]) => `${identity}.${flagged}`,
  ([identity, before, , after]) => `${identity}.${before}.${after}`,
  ([identity, before]) => (before.startsWith('-') ? null : `${identity}.${before}`),
  ([identity, , , after]) => (after.startsWith('-') ? null : `${identity}.${after}`),
];

interface Print {
  /** JSON of the file (null for project-wide findings): the key prefix of every tier. */
  fileKey: string;
  parts: string[];
}

/**
 * Splits `findings` into new and old against `baseline`. Matching is by multiset, tier by
 * tier (see TIERS), always within one file and for the same gate, rule and normalized
 * message. A fingerprint twice in the current findings but once in the baseline gives one
 * new finding.
 */
export function splitNew(
  baseline: Baseline,
  findings: readonly Finding[],
  readLines: ReadLines,
  fileHash: FileHash,
): SplitFindings {
  const read = memoize(readLines);
  const hashText = createTextHasher();
  const current: Print[] = findings.map((finding) => ({
    fileKey: JSON.stringify(finding.file),
    parts: fingerprint(baseline.gate, finding, read, hashText).split('.'),
  }));
  const currentFiles = new Set<string>();
  for (const finding of findings) if (finding.file !== null) currentFiles.add(finding.file);
  const renames = findRenames(baseline, currentFiles, memoize(fileHash));
  const recorded: Print[] = baseline.project.map((print) => ({
    fileKey: JSON.stringify(null),
    parts: print.split('.'),
  }));
  for (const [file, { fingerprints }] of Object.entries(baseline.files)) {
    const fileKey = JSON.stringify(renames.get(file) ?? file);
    for (const print of fingerprints) recorded.push({ fileKey, parts: print.split('.') });
  }

  const unmatched = new Set<number>(recorded.keys());
  const matched = new Array<boolean>(findings.length).fill(false);
  const keyOf = (tier: (parts: readonly string[]) => string | null, print: Print) => {
    const key = tier(print.parts);
    return key === null ? null : `${print.fileKey}:${key}`;
  };
  for (const tier of TIERS) {
    // Unmatched baseline findings by this tier's key.
    const available = new Map<string, number[]>();
    for (const index of unmatched) {
      const key = keyOf(tier, recorded[index]);
      if (key === null) continue;
      const list = available.get(key);
      if (list === undefined) available.set(key, [index]);
      else list.push(index);
    }
    current.forEach((print, position) => {
      if (matched[position]) return;
      const key = keyOf(tier, print);
      const list = key === null ? undefined : available.get(key);
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

function isFingerprintList(value: unknown): value is Fingerprint[] {
  return (
    Array.isArray(value) &&
    value.every((print) => typeof print === 'string' && FINGERPRINT.test(print))
  );
}

function isBaselineFile(value: unknown): value is BaselineFile {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    (record.hash === null || typeof record.hash === 'string') &&
    isFingerprintList(record.fingerprints)
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
    !Object.values(files).every(isBaselineFile) ||
    !isFingerprintList(record.project)
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
  const cache = userCacheHome(env);
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

/** The committed baseline of a gate, inside the repository (`baseline --write-file`). */
export function committedBaselinePath(root: string, gate: string): string {
  return path.join(root, '.mcp-gates', `baseline-${gate}.json`);
}

/**
 * Where a gate's baseline is: the committed file when the repository has one, else the
 * per-root cache outside the repository.
 */
export function baselineFileOf(root: string, gate: string, env: NodeJS.ProcessEnv): string {
  const committed = committedBaselinePath(root, gate);
  // baselinePath checks the gate name whichever file is used.
  const cached = baselinePath(root, gate, { env });
  return fs.existsSync(committed) ? committed : cached;
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

/**
 * Records the findings of a whole run as the gate's baseline in `file`, when the check
 * finished; the note says what happened, for the result.
 */
export function recordRunBaseline(
  root: string,
  file: string,
  gate: string,
  findings: readonly Finding[],
  finished: boolean,
): string {
  if (!finished) return 'baseline not recorded: the check did not finish';
  const access = rootFileAccess(root);
  try {
    writeBaseline(file, createBaseline(gate, findings, access.readLines, access.fileHash));
    return `baseline recorded: ${findings.length} findings in ${file}`;
  } catch (error) {
    if (!(error instanceof BaselineError)) throw error;
    return `baseline not recorded: ${error.message}`;
  }
}

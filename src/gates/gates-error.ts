/** Stable codes of the gates layer's local errors (never sent on the wire). */
export type GatesErrorCode =
  | 'ECONFIG_READ'
  | 'ECONFIG_JSON'
  | 'ECONFIG_UNKNOWN_KEY'
  | 'ECONFIG_TYPE'
  | 'ECONFIG_VALUE'
  | 'EGATES_ROOT'
  | 'EGATES_PATH'
  | 'EGATES_UNKNOWN_GATE'
  | 'EGATES_EXISTS'
  | 'EGATES_NOTHING_DETECTED'
  | 'EGATES_USAGE';

/**
 * A gates-layer error: what went wrong, where (a file and, for config errors, the key
 * path), and how to fix it. `message` holds all three so a plain print is enough.
 */
export class GatesError extends Error {
  readonly code: GatesErrorCode;
  readonly file: string | undefined;
  readonly keyPath: string | undefined;
  readonly fix: string | undefined;

  constructor(
    code: GatesErrorCode,
    problem: string,
    details: { file?: string; keyPath?: string; fix?: string } = {},
  ) {
    const where = [details.file, details.keyPath].filter(Boolean).join(': ');
    const fix = details.fix ? `\n  fix: ${details.fix}` : '';
    super(`${where ? `${where}: ` : ''}${problem}${fix}`);
    this.name = 'GatesError';
    this.code = code;
    this.file = details.file;
    this.keyPath = details.keyPath;
    this.fix = details.fix;
  }
}

/** Revisions negotiated through `initialize`, newest first (docs/PROTOCOL.md section 3). */
export const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
/** Revisions served statelessly through per-request `_meta` (docs/PROTOCOL.md section 3). */
export const MODERN_REVISIONS = ['2026-07-28'] as const;

export type LegacyRevision = (typeof LEGACY_REVISIONS)[number];
export type ModernRevision = (typeof MODERN_REVISIONS)[number];
export type Revision = LegacyRevision | ModernRevision;

export const LATEST_LEGACY_REVISION: LegacyRevision = LEGACY_REVISIONS[0];

export function isLegacyRevision(value: unknown): value is LegacyRevision {
  return (LEGACY_REVISIONS as readonly unknown[]).includes(value);
}

export function isModernRevision(value: unknown): value is ModernRevision {
  return (MODERN_REVISIONS as readonly unknown[]).includes(value);
}

/** Revision strings are dates, so they order as strings. */
export function revisionAtLeast(revision: Revision, minimum: Revision): boolean {
  return revision >= minimum;
}

export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

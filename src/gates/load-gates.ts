import { loadConfig } from './config.js';
import { detectGates } from './detect/detect.js';
import type { GateSpec } from './gate-spec.js';
import type { PackageManager } from './detect/package-manager.js';

export interface ServedGates {
  gates: GateSpec[];
  /** `config` when mcp-gates.json exists (it then replaces detection entirely). */
  origin: 'config' | 'detection';
  packageManager: PackageManager | null;
}

/** The gates to serve for `root`: mcp-gates.json when present, detection otherwise. Throws on a bad config. */
export function loadGates(root: string): ServedGates {
  const configured = loadConfig(root);
  if (configured) return { gates: configured, origin: 'config', packageManager: null };
  const detection = detectGates(root);
  return { gates: detection.gates, origin: 'detection', packageManager: detection.packageManager };
}

import path from 'node:path';
import { loadConfig } from './config.js';
import { asDetected, detectGates } from './detect/detect.js';
import { findWorkspace } from './detect/workspace.js';
import type { GateSpec } from './gate-spec.js';
import type { PackageManager } from './detect/package-manager.js';
import type { NotServed } from './detect/tool-command.js';

export interface ServedGates {
  gates: GateSpec[];
  /** `config` when mcp-gates.json exists (it then replaces detection entirely). */
  origin: 'config' | 'detection';
  packageManager: PackageManager | null;
  /** Detection only: what the gate sources name that is not served, and why. */
  notServed: NotServed[];
}

/** The gates of `root`'s mcp-gates.json, each command run as detection would run it (asDetected). */
export function configuredGates(root: string): GateSpec[] | undefined {
  return loadConfig(root)?.map((gate) => asDetected(gate, path.resolve(root, gate.cwd ?? '')));
}

/**
 * The gates to serve for `root`: mcp-gates.json when present, detection otherwise. Throws
 * on a bad config. When `root` is a package of a workspace, the workspace root's gates
 * (its mcp-gates.json or its detection) are served too, running in the workspace root,
 * and the package's own detected gates are named `<package>.<gate>` so they never clash.
 */
export function loadGates(root: string): ServedGates {
  const configured = configuredGates(root);
  if (configured)
    return { gates: configured, origin: 'config', packageManager: null, notServed: [] };
  const workspace = findWorkspace(root);
  if (!workspace) {
    const detection = detectGates(root);
    return {
      gates: detection.gates,
      origin: 'detection',
      packageManager: detection.packageManager,
      notServed: detection.notServed,
    };
  }
  const rootConfigured = configuredGates(workspace.root);
  const rootDetection = rootConfigured ? undefined : detectGates(workspace.root);
  const packageManager = rootDetection?.packageManager ?? null;
  const cwd = path.relative(root, workspace.root).split(path.sep).join('/');
  const rootGates = (rootConfigured ?? rootDetection!.gates).map((gate) => ({
    ...gate,
    description: `${gate.description} (runs in the workspace root, ${cwd})`,
    cwd,
  }));
  const ownDetection = detectGates(root, packageManager ? { packageManager } : {});
  const own = ownDetection.gates.map((gate) => ({
    ...gate,
    name: `${workspace.packageName}.${gate.name}`.slice(0, 60),
    description: `${gate.description} (package ${workspace.packageName})`,
  }));
  return {
    gates: [...rootGates, ...own],
    origin: rootConfigured ? 'config' : 'detection',
    packageManager: packageManager ?? detectGates(root).packageManager,
    notServed: [...(rootDetection?.notServed ?? []), ...ownDetection.notServed],
  };
}

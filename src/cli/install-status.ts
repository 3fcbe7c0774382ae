import fs from 'node:fs';

/**
 * Why the install left capture degraded, as scripts/install.mjs wrote it to
 * build/install-status.json (absent when the addon was built or a prebuild loaded).
 */
export function installStatus(): { reason: string } | undefined {
  try {
    const file = new URL('../../build/install-status.json', import.meta.url);
    const status = JSON.parse(fs.readFileSync(file, 'utf8')) as { reason?: unknown };
    return typeof status.reason === 'string' ? { reason: status.reason } : undefined;
  } catch {
    return undefined;
  }
}

import fs from 'node:fs';

/** This package's version, read from its package.json (dist/cli → ../../package.json). */
export function packageVersion(): string {
  const file = new URL('../../package.json', import.meta.url);
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string };
  return manifest.version ?? '0.0.0';
}

import fs from 'node:fs';
import path from 'node:path';

/**
 * Files a tool writes as a by-product of a check when they are missing: cargo generates
 * Cargo.lock for a crate that commits none (the default of library crates for years), so
 * `cargo clippy` on a clean checkout would otherwise "change the tree".
 */
export function derivedFilesOf(command: readonly string[]): string[] | undefined {
  const program = path.basename(command[0] ?? '').replace(/\.exe$/i, '');
  return program === 'cargo' ? ['Cargo.lock'] : undefined;
}

/** The derived files that do not exist yet in `directory`: the ones a run may create. */
export function missingFiles(directory: string, files: readonly string[] | undefined): string[] {
  return (files ?? []).filter((file) => !fs.existsSync(path.join(directory, file)));
}

/** Removes those of `missing` that the run created; returns them (for the report). */
export function removeCreatedFiles(directory: string, missing: readonly string[]): string[] {
  const removed: string[] = [];
  for (const file of missing) {
    const full = path.join(directory, file);
    try {
      if (!fs.lstatSync(full).isFile()) continue;
      fs.unlinkSync(full);
      removed.push(file);
    } catch {
      // never created, or already gone
    }
  }
  return removed;
}

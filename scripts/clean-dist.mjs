#!/usr/bin/env node
// Removes dist/ before tsc writes it: tsc never deletes the output of a source that was
// moved or removed, and npm pack would ship such stale files.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

fs.rmSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist'), {
  recursive: true,
  force: true,
});

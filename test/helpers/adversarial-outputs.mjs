// Gate outputs that once stalled the server (issue 12, item 3), built to a given size.
// Used by test/gates-parse-linear.test.mjs, and as a gate's own output by its server test.

/** `unit` repeated to exactly `bytes` characters (all patterns are ASCII). */
export function fill(unit, bytes) {
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

/**
 * As the audit found them: 40 KB lines of ESC[ and ';' (30 s at 40 KB), a:1: lines of
 * spaces ending in CRs (58 s at 150 KB), "\n[" (4.7 s at 24 KB through the JSON
 * extraction) and `}` lines (7.7 s for 30,000 through go vet's tree reader).
 */
export const ADVERSARIAL = {
  'ESC[ and semicolons': (bytes) => fill(`\u001b[${';'.repeat(40 * 1024)}\n`, bytes),
  'a:1: spaces then carriage returns': (bytes) =>
    fill(`a:1:${' '.repeat(150 * 1024)}${'\r'.repeat(64)}\n`, bytes),
  'newline-bracket': (bytes) => fill('\n[', bytes),
  'closing-brace lines': (bytes) => `{\n${fill('}\n', bytes - 2)}`,
};

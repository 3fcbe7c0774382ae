/**
 * What a package.json script does, judged by its name and its body (detect/scripts.ts).
 * Here, below tools/ and detect/: a tool module says what a script running it is.
 */
export type ScriptKind =
  'lint' | 'lint-fix' | 'format-check' | 'format-write' | 'typecheck' | 'check';

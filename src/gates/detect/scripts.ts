/** What a package.json script does, judged by its name and its body. */
export type ScriptKind =
  'lint' | 'lint-fix' | 'format-check' | 'format-write' | 'typecheck' | 'check';

const MUTATING = /(^|\s)(--fix|--write|-w|--apply|--apply-unsafe)(\s|=|$)/;

function mentions(body: string, tool: string): boolean {
  return new RegExp(`(^|[\\s/&;|(])${tool}(\\s|$)`).test(body);
}

/** The tools a script body runs, in the order we know them. */
export function toolsInBody(body: string): string[] {
  return [
    'eslint',
    'prettier',
    'tsc',
    'biome',
    'oxlint',
    'vue-tsc',
    'stylelint',
    'next lint',
    'xo',
    'standard',
  ].filter((tool) => mentions(body, tool));
}

function byName(name: string): ScriptKind | undefined {
  const lower = name.toLowerCase();
  if (['lint:fix', 'fix', 'lint-fix'].includes(lower)) return 'lint-fix';
  if (
    [
      'format:check',
      'fmt:check',
      'prettier:check',
      'check-format',
      'format-check',
      'check:format',
    ].includes(lower)
  ) {
    return 'format-check';
  }
  if (['format', 'fmt', 'prettier', 'format:fix', 'format:write', 'fmt:fix'].includes(lower))
    return 'format-write';
  if (
    [
      'typecheck',
      'type-check',
      'types',
      'check-types',
      'check:types',
      'types:check',
      'tsc',
      'lint:types',
    ].includes(lower)
  ) {
    return 'typecheck';
  }
  if (['lint', 'eslint', 'oxlint', 'lint:check'].includes(lower)) return 'lint';
  if (['check', 'verify', 'validate'].includes(lower)) return 'check';
  return undefined;
}

function byBody(body: string): ScriptKind | undefined {
  const tools = toolsInBody(body);
  if (tools.length !== 1) return undefined;
  const mutating = MUTATING.test(body);
  switch (tools[0]) {
    case 'prettier':
      if (/--check|--list-different|(^|\s)-l(\s|$)|-c(\s|$)/.test(body)) return 'format-check';
      return mutating ? 'format-write' : undefined;
    case 'tsc':
    case 'vue-tsc':
      // Plain `tsc` emits files: a build, not a gate.
      return /--noEmit/.test(body) ? 'typecheck' : undefined;
    case 'eslint':
    case 'oxlint':
    case 'stylelint':
    case 'next lint':
    case 'xo':
    case 'standard':
      return mutating ? 'lint-fix' : 'lint';
    default:
      return undefined;
  }
}

/**
 * Classifies a script by name first, then by body. A check-named script whose body
 * writes (`prettier --write`, `eslint --fix`) is a fixer; an umbrella `check` that
 * writes (`biome check --write`) is not served at all.
 */
export function classifyScript(name: string, body: string): ScriptKind | undefined {
  const named = byName(name);
  const mutating = MUTATING.test(body);
  if (named === 'format-write' && !mutating && /--check|--list-different/.test(body))
    return 'format-check';
  if (named === 'check' && mutating) return undefined;
  if (named === 'format-check' && mutating) return 'format-write';
  if ((named === 'lint' || named === 'typecheck') && mutating) return 'lint-fix';
  if (named) return named;
  // Only names that look like gates are read by body, never `build`, `dev` or `test`.
  if (/^(lint|format|fmt|style|prettier|types?|check|tsc|eslint)([:-]|$)/i.test(name))
    return byBody(body);
  return undefined;
}

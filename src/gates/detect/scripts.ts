import { combinedParserName } from '../parsers/combined.js';
import type { ScriptKind } from '../script-kind.js';
import { SCRIPT_WORDS, toolOfScriptWord } from '../tools/index.js';
import { MUTATING, setsOption } from '../tools/shared.js';

function mentions(body: string, tool: string): boolean {
  return new RegExp(`(^|[\\s/&;|(])${tool}(\\s|$)`).test(body);
}

/** The tools a script body runs (their script words), in registry order. */
export function toolsInBody(body: string): string[] {
  return SCRIPT_WORDS.map((entry) => entry.word).filter((word) => mentions(body, word));
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
      'test:types',
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
  return toolOfScriptWord(tools[0]!)?.script?.kind?.(body, MUTATING.test(body));
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
  if (/^(lint|format|fmt|style|prettier|types?|type-?check|check|tsc|eslint)([:-]|$)/i.test(name))
    return byBody(body);
  return undefined;
}

/** One command of a script split at `&&`, run on its own and read by its tool's parser. */
export interface ScriptStep {
  command: string[];
  parser: string;
}

/** How a script gate runs and reads its output. */
export interface ScriptPlan {
  /** The parser for the script's whole output when it runs through the package manager. */
  parser: string;
  /** Set when the script is a plain `a && b` of known checks: each runs on its own. */
  steps?: ScriptStep[];
}

// Characters a word may hold unquoted and mean the same to sh and to argv. Globs, `$`,
// `~`, `\`, redirections, pipes, `;`, `||`, subshells and backticks are all outside.
const PLAIN_CHAR = /[A-Za-z0-9_./:=@,+%-]/;
const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Splits a script body at `&&` into argv lists, or returns undefined when it uses any
 * other shell syntax (then only a shell can run it faithfully). Quotes are taken only
 * where sh would pass their content literally: '…', and "…" without $, ` or \.
 */
export function splitChain(body: string): string[][] | undefined {
  const segments: string[][] = [[]];
  let word: string | null = null;
  const endWord = () => {
    if (word !== null) segments[segments.length - 1]!.push(word);
    word = null;
  };
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index]!;
    if (char === ' ' || char === '\t') {
      endWord();
    } else if (char === '&' && body[index + 1] === '&') {
      endWord();
      if (segments[segments.length - 1]!.length === 0) return undefined;
      segments.push([]);
      index += 1;
    } else if (char === "'" || char === '"') {
      const close = body.indexOf(char, index + 1);
      if (close === -1) return undefined;
      const quoted = body.slice(index + 1, close);
      if (char === '"' && /[$`\\]/.test(quoted)) return undefined;
      word = (word ?? '') + quoted;
      index = close;
    } else if (PLAIN_CHAR.test(char)) {
      word = (word ?? '') + char;
    } else {
      return undefined;
    }
  }
  endWord();
  if (segments.some((segment) => segment.length === 0)) return undefined;
  // `FOO=1 eslint .` sets the variable for that command only: leave it to the shell.
  if (segments.some((segment) => ENV_ASSIGNMENT.test(segment[0]!))) return undefined;
  return segments;
}

/**
 * The parser for one command's own default (or JSON) output, or undefined when the
 * command is not a read-only check we can read: it writes (`--fix`, `--write`, plain
 * `prettier`/`oxfmt`), emits (`tsc` without --noEmit), or picked an output format we do
 * not parse.
 */
export function commandParser(argv: readonly string[]): string | undefined {
  const [program, ...args] = argv;
  if (MUTATING.test(args.join(' '))) return undefined;
  return toolOfScriptWord(program ?? '')?.script?.commandParser?.(args);
}

/**
 * Whether a one-command script runs as its own step, so its tool's cache redirect applies:
 * its tool says so, or the script names the tool's result cache (`eslint --cache .`).
 */
function runsDirectly(argv: readonly string[]): boolean {
  const [program, ...args] = argv;
  if (namesResultCache(argv)) return true;
  return toolOfScriptWord(program ?? '')?.script?.runsDirectly?.(args) ?? false;
}

/** Whether a command turns on or places its tool's own result cache (`eslint --cache .`). */
export function namesResultCache(argv: readonly string[]): boolean {
  const [program, ...args] = argv;
  const cache = toolOfScriptWord(program ?? '')?.resultCache;
  return cache !== undefined && setsOption(args, ...cache.on, ...cache.location);
}

/**
 * How to run and read a script gate. A body that is exactly one known check keeps running
 * through the package manager, read by that tool's parser, unless its tool must run it
 * itself to keep a cache out of the tree (a step of its own, as below). A plain `a && b` of known
 * checks (and no pre/post hook, which the package manager would also run) becomes steps:
 * every step runs even when an earlier one fails, so the second tool's findings are not
 * hidden behind the first. Anything else runs as a script, its output read by the parsers
 * of every tool it names (`generic` when it names none).
 */
export function planScript(body: string, hasHooks: boolean): ScriptPlan {
  const segments = splitChain(body);
  const parsers = segments?.map(commandParser);
  if (segments && parsers && parsers.every((parser) => parser !== undefined)) {
    if (segments.length === 1 && (hasHooks || !runsDirectly(segments[0]!)))
      return { parser: parsers[0]! };
    if (!hasHooks) {
      return {
        parser: combinedParserName(parsers as string[]),
        steps: segments.map((command, index) => ({ command, parser: parsers[index]! })),
      };
    }
  }
  const named = toolsInBody(body)
    .filter((tool) => tool !== 'vitest' || /typecheck/.test(body))
    .map((tool) => toolOfScriptWord(tool)?.script?.textParser)
    .filter((parser): parser is string => parser !== undefined);
  return { parser: named.length > 0 ? combinedParserName(named) : 'generic' };
}

/** pnpm's words that run a script in several projects (`-r`, `--filter`, `recursive`, …). */
const PNPM_MANY_PROJECTS =
  /^(-r|--recursive|recursive|multi|m|--filter|-F|--filter-prod|--parallel|--stream)$|^--filter(-prod)?=/;

/**
 * Whether `<manager> run --silent` would hide what the script prints: the script runs a
 * nested `pnpm` over several projects (`pnpm -r check`, `pnpm --filter "./packages/*"
 * lint`), which reads the silence from the environment the outer run sets
 * (`npm_config_reporter` or `npm_config_loglevel`) and then prints none of its projects'
 * output, not even a failure's. A single-project nested run (`pnpm run lint`,
 * `pnpm --filter one lint` matching one package) keeps its output, but a filter cannot be
 * told from here to match one project, so any filter counts.
 */
export function silenceHidesOutput(body: string): boolean {
  for (const command of body.split(/&&|\|\||[;|&()\n]/)) {
    const words = command
      .trim()
      .split(/\s+/)
      .map((word) => word.replace(/^['"]|['"]$/g, ''));
    const pnpm = words.findIndex((word) => /(^|\/)pnpm(\.cmd)?$/.test(word));
    if (pnpm !== -1 && words.slice(pnpm + 1).some((word) => PNPM_MANY_PROJECTS.test(word)))
      return true;
  }
  return false;
}

import fs from 'node:fs';
import { load } from 'js-yaml';
import { parse as parseToml } from 'smol-toml';

/**
 * How large a gate source (package.json, .pre-commit-config.yaml, tox.toml, pyproject.toml,
 * deno.json, mcp-gates.json) may be. A source is the repository's text, read by `list` and
 * by a server before it answers `initialize`: a YAML alias bomb of a few hundred bytes
 * expands to gigabytes in the code that walks it, and a document nested thousands deep
 * overflows the stack of recursive readers. Past a limit the source is not served, and
 * `list` says why; every other source still is.
 */
export const SOURCE_LIMITS = {
  /** Bytes of the file. */
  bytes: 4 * 1024 * 1024,
  /** Nesting of arrays and objects. */
  depth: 64,
  /** YAML alias nodes (`*name`). */
  aliases: 1000,
  /**
   * Values and characters of the document as its readers see it, aliases expanded: a
   * source at the size limit stays under it (a value takes a byte or more of text), only
   * expansion gets past it.
   */
  expanded: 8 * 1024 * 1024,
} as const;

export type SourceFormat = 'json' | 'yaml' | 'toml';

/** A parsed source, or why it is not read (a sentence: `it is not valid YAML (...)`). */
export type SourceDocument = { value: unknown } | { problem: string };

const FORMAT_NAMES: Record<SourceFormat, string> = { json: 'JSON', yaml: 'YAML', toml: 'TOML' };

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Why a source of `bytes` is not read, or undefined when its size is within the limit. */
export function sizeProblem(bytes: number): string | undefined {
  return bytes > SOURCE_LIMITS.bytes ? tooLarge(bytes) : undefined;
}

function tooLarge(bytes: number): string {
  return `it is ${megabytes(bytes)}, past the ${megabytes(SOURCE_LIMITS.bytes)} a gate source may be`;
}

/**
 * Why a parsed document is not read, or undefined: walks it as its readers will (aliases
 * expanded, without recursion) until it has seen the whole of it or found it past the
 * depth or expansion limit.
 */
export function documentProblem(document: unknown): string | undefined {
  let weight = 0;
  let shared = false;
  const seen = new WeakSet<object>();
  const stack: { value: unknown; depth: number }[] = [{ value: document, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    weight += 1;
    if (typeof value === 'string') weight += value.length;
    if (weight > SOURCE_LIMITS.expanded)
      return shared
        ? `its aliases expand it past ${SOURCE_LIMITS.expanded} values and characters`
        : `it is past ${SOURCE_LIMITS.expanded} values and characters`;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= SOURCE_LIMITS.depth)
      return `it nests deeper than ${SOURCE_LIMITS.depth} levels of lists and tables`;
    if (seen.has(value)) shared = true;
    else seen.add(value);
    for (const [key, child] of Object.entries(value)) {
      weight += key.length;
      stack.push({ value: child, depth: depth + 1 });
    }
  }
  return undefined;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

/** The document `text` holds in `format`, read within SOURCE_LIMITS, or why not. */
export function parseSource(text: string, format: SourceFormat): SourceDocument {
  if (text.length > SOURCE_LIMITS.bytes) return { problem: tooLarge(text.length) };
  let value: unknown;
  try {
    value =
      format === 'json'
        ? JSON.parse(text.replace(/^\uFEFF/, ''))
        : format === 'yaml'
          ? load(text, { maxAliases: SOURCE_LIMITS.aliases, maxDepth: SOURCE_LIMITS.depth })
          : parseToml(text, { maxDepth: SOURCE_LIMITS.depth });
  } catch (error) {
    // js-yaml's and smol-toml's own limits throw as syntax errors do; so does a stack overflow.
    return { problem: `it is not valid ${FORMAT_NAMES[format]} (${firstLine(error)})` };
  }
  const problem = documentProblem(value);
  return problem === undefined ? { value } : { problem };
}

/**
 * A source file's text, or why it is not read (past the size limit, asked before it is
 * read); undefined when the file is missing or unreadable.
 */
export function readSourceText(file: string): string | { problem: string } | undefined {
  try {
    const tooLarge = sizeProblem(fs.statSync(file).size);
    return tooLarge === undefined ? fs.readFileSync(file, 'utf8') : { problem: tooLarge };
  } catch {
    return undefined;
  }
}

/**
 * A source file's document, read within SOURCE_LIMITS (its size asked before it is read),
 * or why not; undefined when the file is missing or unreadable.
 */
export function readSource(file: string, format: SourceFormat): SourceDocument | undefined {
  const text = readSourceText(file);
  return typeof text === 'string' ? parseSource(text, format) : text;
}

/** A JSON object a source holds, or undefined when it holds another value or is not read. */
export function objectOf(
  document: SourceDocument | undefined,
): Record<string, unknown> | undefined {
  const value = document && 'value' in document ? document.value : undefined;
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * A JSON object file, or undefined when missing, unreadable, past the source limits
 * (above) or not an object.
 */
export function readJson(file: string): Record<string, unknown> | undefined {
  return objectOf(readSource(file, 'json'));
}

/**
 * An integer id beyond +-(2^53-1): JSON.parse would round it, so the exact lexeme
 * from the input line is kept and written back verbatim (docs/PROTOCOL.md section 2).
 */
export class RawIntegerId {
  constructor(readonly lexeme: string) {}
}

export type RequestId = string | number | RawIntegerId;

/** A key under which two ids are equal exactly when the JSON values are equal ("0" and 0 differ). */
export function requestIdKey(id: RequestId): string {
  if (typeof id === 'string') return `s:${id}`;
  if (typeof id === 'number') return `n:${id}`;
  return `n:${id.lexeme}`;
}

export function isValidIdValue(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

/**
 * Finds the raw text of a number at a member path of a JSON object text, e.g.
 * ["id"] or ["params", "requestId"]. Returns undefined when the path does not
 * lead to a number. Called only on the rare path of unsafe integers.
 */
export function findNumberLexeme(text: string, path: readonly string[]): string | undefined {
  let position = 0;
  const skipSpace = () => {
    while (position < text.length && ' \t\r\n'.includes(text[position]!)) position++;
  };
  const skipString = () => {
    position++; // opening quote
    while (position < text.length && text[position] !== '"') {
      position += text[position] === '\\' ? 2 : 1;
    }
    position++;
  };
  const readString = (): string => {
    const start = position;
    skipString();
    return JSON.parse(text.slice(start, position)) as string;
  };
  // Skips any value; returns the raw text when the value is a number.
  const skipValue = (): string | undefined => {
    skipSpace();
    const char = text[position];
    if (char === '"') {
      readString();
      return undefined;
    }
    if (char === '{' || char === '[') {
      // A loop, not recursion: any nesting depth must not overflow the stack. The text
      // parsed as JSON, so matching brackets outside strings finds the value's end.
      let depth = 0;
      do {
        const next = text[position];
        if (next === '"') {
          skipString();
          continue;
        }
        if (next === '{' || next === '[') depth++;
        else if (next === '}' || next === ']') depth--;
        position++;
      } while (depth > 0 && position < text.length);
      return undefined;
    }
    const start = position;
    while (position < text.length && !',}] \t\r\n'.includes(text[position]!)) position++;
    const lexeme = text.slice(start, position);
    return /^-?\d/.test(lexeme) ? lexeme : undefined;
  };
  const descend = (depth: number): string | undefined => {
    skipSpace();
    if (depth === path.length) return skipValue();
    if (text[position] !== '{') return undefined;
    position++;
    for (;;) {
      skipSpace();
      if (text[position] === '}') return undefined;
      const key = readString();
      skipSpace();
      position++; // colon
      if (key === path[depth]) return descend(depth + 1);
      skipValue();
      skipSpace();
      if (text[position++] !== ',') return undefined;
    }
  };
  try {
    return descend(0);
  } catch {
    return undefined;
  }
}

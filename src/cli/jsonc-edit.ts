/**
 * Reads JSON with comments (JSONC: `//` and `/* *\/` comments, trailing commas), as VS Code
 * reads `.vscode/mcp.json`, and adds one member to an object in it by inserting text, so
 * that every comment, blank line and the file's own layout stay as they were. Small on
 * purpose: init adds one server entry, nothing else; a file it cannot read is refused with
 * the position of the problem, never rewritten.
 */

interface Token {
  kind: 'string' | 'punct' | 'literal' | 'comment';
  start: number;
  end: number;
}

interface ObjectNode {
  kind: 'object';
  /** Token index of `{` and of `}`. */
  open: number;
  close: number;
  members: { key: string; value: ValueNode; valueEnd: number }[];
}

type ValueNode = ObjectNode | { kind: 'other'; value: unknown };

export class JsoncError extends Error {}

/** Whether the text has a comment (so that rewriting it would lose something). */
export function hasComments(text: string): boolean {
  return tokenize(text).some((token) => token.kind === 'comment');
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text[at];
    if (/\s/.test(char)) {
      at += 1;
    } else if (char === '"') {
      let end = at + 1;
      while (end < text.length && text[end] !== '"' && text[end] !== '\n')
        end += text[end] === '\\' ? 2 : 1;
      if (text[end] !== '"')
        throw new JsoncError(`unterminated string at ${lineAndColumn(text, at)}`);
      tokens.push({ kind: 'string', start: at, end: end + 1 });
      at = end + 1;
    } else if (text.startsWith('//', at)) {
      const newline = text.indexOf('\n', at);
      const end = newline === -1 ? text.length : newline;
      tokens.push({ kind: 'comment', start: at, end });
      at = end;
    } else if (text.startsWith('/*', at)) {
      const close = text.indexOf('*/', at + 2);
      if (close === -1) throw new JsoncError(`unterminated comment at ${lineAndColumn(text, at)}`);
      tokens.push({ kind: 'comment', start: at, end: close + 2 });
      at = close + 2;
    } else if ('{}[],:'.includes(char)) {
      tokens.push({ kind: 'punct', start: at, end: at + 1 });
      at += 1;
    } else {
      let end = at;
      while (end < text.length && !/[\s{}[\],:"/]/.test(text[end])) end += 1;
      if (end === at) throw new JsoncError(`unexpected "${char}" at ${lineAndColumn(text, at)}`);
      tokens.push({ kind: 'literal', start: at, end });
      at = end;
    }
  }
  return tokens;
}

/** A recursive-descent parser over the tokens that are not comments. */
class Parser {
  private index = 0;
  private readonly significant: number[];

  constructor(
    private readonly text: string,
    private readonly tokens: Token[],
  ) {
    this.significant = tokens.flatMap((token, at) => (token.kind === 'comment' ? [] : [at]));
  }

  private peek(): Token | undefined {
    const at = this.significant[this.index];
    return at === undefined ? undefined : this.tokens[at];
  }

  private source(token: Token): string {
    return this.text.slice(token.start, token.end);
  }

  private fail(what: string): never {
    const token = this.peek();
    throw new JsoncError(
      token === undefined
        ? `${what} at the end of the file`
        : `${what} at ${lineAndColumn(this.text, token.start)} (found ${this.source(token)})`,
    );
  }

  private expect(punct: string): number {
    const token = this.peek();
    if (token?.kind !== 'punct' || this.source(token) !== punct) this.fail(`expected "${punct}"`);
    return this.significant[this.index++];
  }

  private isPunct(punct: string): boolean {
    const token = this.peek();
    return token?.kind === 'punct' && this.source(token) === punct;
  }

  document(): ValueNode {
    const value = this.value();
    if (this.peek() !== undefined) this.fail('expected the end of the file');
    return value;
  }

  private value(): ValueNode {
    const token = this.peek();
    if (token === undefined) this.fail('expected a value');
    if (this.isPunct('{')) return this.object();
    if (this.isPunct('[')) {
      this.index += 1;
      const items: unknown[] = [];
      while (!this.isPunct(']')) {
        items.push(plain(this.value()));
        if (!this.isPunct(']')) this.expect(',');
      }
      this.index += 1;
      return { kind: 'other', value: items };
    }
    if (token.kind === 'punct') this.fail('expected a value');
    this.index += 1;
    try {
      return { kind: 'other', value: JSON.parse(this.source(token)) as unknown };
    } catch {
      throw new JsoncError(
        `${this.source(token)} at ${lineAndColumn(this.text, token.start)} is not a JSON value`,
      );
    }
  }

  private object(): ObjectNode {
    const open = this.expect('{');
    const members: ObjectNode['members'] = [];
    while (!this.isPunct('}')) {
      const key = this.peek();
      if (key?.kind !== 'string') this.fail('expected a string key');
      this.index += 1;
      this.expect(':');
      const value = this.value();
      members.push({
        key: JSON.parse(this.source(key)) as string,
        value,
        valueEnd: this.significant[this.index - 1],
      });
      // A trailing comma before `}` is JSONC.
      if (!this.isPunct('}')) this.expect(',');
    }
    const close = this.expect('}');
    return { kind: 'object', open, close, members };
  }
}

function plain(node: ValueNode): unknown {
  if (node.kind === 'other') return node.value;
  const object: Record<string, unknown> = {};
  for (const member of node.members) object[member.key] = plain(member.value);
  return object;
}

function parse(text: string): { tokens: Token[]; root: ValueNode } {
  const tokens = tokenize(text);
  return { tokens, root: new Parser(text, tokens).document() };
}

/** The value of a JSONC text (comments and trailing commas allowed); throws JsoncError. */
export function parseJsonc(text: string): unknown {
  return plain(parse(text).root);
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function indentOf(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset)))![0];
}

/**
 * `text` with `"key": value` added to the object at `path` (object members from the
 * root), created as `{}` members where missing. The key must not be there yet. Comments,
 * blank lines and the layout of the rest stay byte for byte; the new member is indented
 * like its neighbours, with a trailing comma when the last member had one.
 */
export function addMember(
  text: string,
  path: readonly string[],
  key: string,
  value: unknown,
  /** How a value is written with the file's indent unit (before indentation). */
  stringify: (value: unknown, unit: string) => string = (inner, unit) =>
    JSON.stringify(inner, null, unit),
): string {
  const { tokens, root } = parse(text);
  if (root.kind !== 'object') throw new JsoncError('the file is not a JSON object');
  let node: ObjectNode = root;
  let missing: string[] = [];
  for (const [at, name] of path.entries()) {
    const member = node.members.find((entry) => entry.key === name);
    if (member === undefined) {
      missing = path.slice(at);
      break;
    }
    if (member.value.kind !== 'object')
      throw new JsoncError(`"${path.slice(0, at + 1).join('.')}" is not an object`);
    node = member.value;
  }
  if (missing.length === 0 && node.members.some((entry) => entry.key === key))
    throw new JsoncError(`"${[...path, key].join('.')}" is already there`);
  // What goes in: the new member, wrapped in the objects that are missing.
  const insertKey = missing.length > 0 ? missing[0] : key;
  const insertValue =
    missing.length === 0
      ? value
      : [...missing.slice(1), key].reduceRight<unknown>(
          (inner, name) => ({ [name]: inner }),
          value,
        );

  const close = tokens[node.close];
  const last = node.members[node.members.length - 1];
  const unit = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  const closeIndent = indentOf(text, close.start);
  const memberIndent = last
    ? indentOf(text, findKeyStart(text, tokens, last.valueEnd))
    : `${closeIndent}${unit}`;
  const body = stringify(insertValue, unit).split('\n').join(`\n${memberIndent}`);
  const member = `${JSON.stringify(insertKey)}: ${body}`;
  // The comma after the last member, if the file has one (a trailing comma).
  const after = last === undefined ? undefined : nextSignificant(tokens, last.valueEnd);
  const trailing = after !== undefined && text.slice(after.start, after.end) === ',';
  const edits: { at: number; insert: string }[] = [];
  if (last !== undefined && !trailing) edits.push({ at: tokens[last.valueEnd].end, insert: ',' });
  const onOwnLine = text.slice(lineStart(text, close.start), close.start).trim() === '';
  if (onOwnLine) {
    edits.push({
      at: lineStart(text, close.start),
      insert: `${memberIndent}${member}${trailing ? ',' : ''}\n`,
    });
  } else if (last === undefined && text.slice(tokens[node.open].end, close.start).trim() === '') {
    // `{}` in a file laid out on lines: the member on a line of its own.
    edits.push({ at: close.start, insert: `\n${memberIndent}${member}\n${closeIndent}` });
  } else {
    edits.push({ at: close.start, insert: `${last === undefined ? '' : ' '}${member} ` });
  }
  // From the end, so offsets stay valid; at one offset the edit listed first ends up first.
  let result = text;
  for (const edit of edits
    .map((entry, order) => ({ ...entry, order }))
    .sort((a, b) => b.at - a.at || b.order - a.order))
    result = result.slice(0, edit.at) + edit.insert + result.slice(edit.at);
  return result;
}

function nextSignificant(tokens: Token[], from: number): Token | undefined {
  for (let at = from + 1; at < tokens.length; at += 1)
    if (tokens[at].kind !== 'comment') return tokens[at];
  return undefined;
}

/** Where the key of the member whose value ends at token `valueEnd` starts. */
function findKeyStart(text: string, tokens: Token[], valueEnd: number): number {
  // Walk back over the value to its `:` (nesting counted), then to the key before it.
  let depth = 0;
  for (let at = valueEnd; at >= 0; at -= 1) {
    const token = tokens[at];
    if (token.kind !== 'punct') continue;
    const punct = text[token.start];
    if (punct === '}' || punct === ']') depth += 1;
    else if (punct === '{' || punct === '[') depth -= 1;
    else if (punct === ':' && depth === 0) {
      for (let key = at - 1; key >= 0; key -= 1)
        if (tokens[key].kind === 'string') return tokens[key].start;
    }
  }
  return tokens[valueEnd].start;
}

export interface DuplicateKey {
  /** Where the repeated key sits, e.g. `gates.lint.command` or `gates.lint`. */
  keyPath: string;
  /** 1-based line of the second occurrence. */
  line: number;
}

interface Frame {
  keys: Set<string> | null;
  /** The member being read: its key in an object, its index in an array. */
  member: string | number | null;
}

function joinKeyPath(frames: readonly Frame[], last: string): string {
  let keyPath = '';
  for (const frame of frames) {
    if (typeof frame.member === 'number') keyPath += `[${frame.member}]`;
    else if (frame.member !== null) keyPath += keyPath ? `.${frame.member}` : frame.member;
  }
  return keyPath ? `${keyPath}.${last}` : last;
}

/**
 * The first object key that occurs twice in the same object of `text`, which must be
 * valid JSON (JSON.parse keeps the last value silently). One pass, linear in the text.
 */
export function findDuplicateKey(text: string): DuplicateKey | undefined {
  const frames: Frame[] = [];
  let line = 1;
  let expectingKey = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\n') line += 1;
    else if (char === '{') {
      frames.push({ keys: new Set(), member: null });
      expectingKey = true;
    } else if (char === '[') {
      frames.push({ keys: null, member: 0 });
      expectingKey = false;
    } else if (char === '}' || char === ']') {
      frames.pop();
      expectingKey = false;
    } else if (char === ',') {
      const top = frames[frames.length - 1];
      if (top?.keys) expectingKey = true;
      else if (top && typeof top.member === 'number') top.member += 1;
    } else if (char === '"') {
      const start = index;
      index += 1;
      while (text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
      if (!expectingKey) continue;
      const top = frames[frames.length - 1]!;
      const key = JSON.parse(text.slice(start, index + 1)) as string;
      if (top.keys!.has(key)) return { keyPath: joinKeyPath(frames.slice(0, -1), key), line };
      top.keys!.add(key);
      top.member = key;
      expectingKey = false;
    }
  }
  return undefined;
}

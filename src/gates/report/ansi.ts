const ESC = 0x1b;
const BEL = 0x07;

const isParameterByte = (code: number) => code >= 0x30 && code <= 0x3f; // 0-9 : ; < = > ?
const isIntermediateByte = (code: number) => code >= 0x20 && code <= 0x2f; // space ! " # ... /
const isFinalByte = (code: number) => code >= 0x40 && code <= 0x7e; // @ A-Z [ \ ] ^ _ ` a-z { | } ~
const isPrintable = (code: number) => code >= 0x20 && code <= 0x7e;
// ESC ( B, ESC ) 0, ESC # 8: charset designations (rustfmt's diff prints `ESC ( B`).
const CHARSET_INTRODUCERS = new Set(['(', ')', '*', '+', '#'].map((c) => c.charCodeAt(0)));
// Two-byte escapes: ESC 7 / ESC 8 (save/restore cursor), ESC M, ESC c, ESC = / ESC > ...
const isShortEscape = (code: number) =>
  (code >= 0x30 && code <= 0x39) ||
  (code >= 0x40 && code <= 0x5a) ||
  (code >= 0x60 && code <= 0x7a) ||
  code === 0x3d ||
  code === 0x3e ||
  code === 0x3c ||
  code === 0x7e;

/**
 * The end (exclusive) of the escape sequence starting at `start` (an ESC or C1 CSI), or
 * -1 when what follows is not a complete sequence. Each scan stops at the first byte
 * that cannot continue the sequence, and never crosses another ESC, so stripping a text
 * looks at every character a bounded number of times: linear, whatever the input.
 */
function sequenceEnd(text: string, start: number): number {
  let index = start + 1;
  if (text.charCodeAt(start) === ESC) {
    const kind = text.charCodeAt(index);
    if (kind === 0x5b /* [ */) index += 1;
    else if (kind === 0x5d /* ] */) return oscEnd(text, index + 1);
    else if (CHARSET_INTRODUCERS.has(kind)) return index + 1 < text.length ? index + 2 : -1;
    else return isShortEscape(kind) ? index + 1 : -1;
  }
  // CSI: parameter bytes, intermediate bytes, one final byte.
  while (index < text.length && isParameterByte(text.charCodeAt(index))) index += 1;
  while (index < text.length && isIntermediateByte(text.charCodeAt(index))) index += 1;
  return index < text.length && isFinalByte(text.charCodeAt(index)) ? index + 1 : -1;
}

/** OSC (`ESC ] ... BEL` or `... ESC \`), e.g. hyperlinks and window titles. */
function oscEnd(text: string, from: number): number {
  for (let index = from; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === BEL) return index + 1;
    if (code === ESC) return text.charCodeAt(index + 1) === 0x5c /* \ */ ? index + 2 : -1;
    if (!isPrintable(code)) return -1;
  }
  return -1;
}

/**
 * Finds the next ESC or C1 CSI. Each character's next position is remembered until
 * passed: two plain indexOf calls per step would rescan the text after the last
 * ESC once per C1 CSI (and the other way round), which is quadratic.
 */
class EscapeFinder {
  private nextEsc = -2;
  private nextCsi = -2;

  constructor(private readonly text: string) {}

  from(position: number): number {
    if (this.nextEsc !== -1 && this.nextEsc < position)
      this.nextEsc = this.text.indexOf('\u001B', position);
    if (this.nextCsi !== -1 && this.nextCsi < position)
      this.nextCsi = this.text.indexOf('\u009B', position);
    if (this.nextEsc === -1) return this.nextCsi;
    if (this.nextCsi === -1) return this.nextEsc;
    return Math.min(this.nextEsc, this.nextCsi);
  }
}

/**
 * Removes terminal escape sequences (CSI, OSC, charset designations, two-byte escapes):
 * gates run with NO_COLOR, but not every tool obeys it. A hand-written scanner, linear
 * in the text's length (a regular expression for this backtracked quadratically on
 * `ESC[` followed by many `;`). An ESC that starts no complete sequence is kept.
 *
 * The kept characters are copied as UTF-16 code units into one buffer and decoded once:
 * a string per kept run (a colour around every word makes one every few characters)
 * filled the young generation, and its collections made 8x the output cost 14-28x the
 * time, where one buffer costs 8x.
 */
export function stripAnsi(text: string): string {
  const escapes = new EscapeFinder(text);
  let at = escapes.from(0);
  // Most output has no escape at all: return it without a copy.
  if (at === -1) return text;
  const kept = new Uint16Array(text.length);
  let length = 0;
  const keep = (from: number, to: number) => {
    for (let index = from; index < to; index += 1) kept[length++] = text.charCodeAt(index);
  };
  let copied = 0;
  while (at !== -1) {
    const end = sequenceEnd(text, at);
    if (end === -1) {
      at = escapes.from(at + 1);
      continue;
    }
    keep(copied, at);
    copied = end;
    at = escapes.from(end);
  }
  keep(copied, text.length);
  // utf16le decodes code unit by code unit: a lone surrogate stays as it was.
  return Buffer.from(kept.buffer, 0, length * 2).toString('utf16le');
}

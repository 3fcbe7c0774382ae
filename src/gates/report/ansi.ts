// CSI/OSC sequences and charset designations such as `ESC ( B` (rustfmt's diff prints those).
const ANSI_PATTERN =
  // eslint-disable-next-line no-control-regex
  /[\u001B\u009B][[\]()#;?]*(?:(?:(?:[a-zA-Z\d]*(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g;

/** Removes terminal escape sequences: gates run with NO_COLOR, but not every tool obeys it. */
export function stripAnsi(text: string): string {
  // Most output has no escape at all: skip the replace and its copy of a large text.
  return text.includes('\u001B') || text.includes('\u009B') ? text.replace(ANSI_PATTERN, '') : text;
}

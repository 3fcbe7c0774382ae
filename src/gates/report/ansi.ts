// CSI/OSC sequences and charset designations such as `ESC ( B` (rustfmt's diff prints those).
const ANSI_PATTERN =
  // eslint-disable-next-line no-control-regex
  /[\u001B\u009B][[\]()#;?]*(?:(?:(?:[a-zA-Z\d]*(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g;

// OSC sequences ended by ST (`ESC \\`), e.g. the hyperlinks `biome ci` prints around rule
// names: the pattern above only knows the BEL ending and would leave the URL in the text.
// eslint-disable-next-line no-control-regex
const OSC_ST_PATTERN = /\u001B\][^\u0007\u001B]*(?:\u0007|\u001B\\)/g;

/** Removes terminal escape sequences: gates run with NO_COLOR, but not every tool obeys it. */
export function stripAnsi(text: string): string {
  // Most output has no escape at all: skip the replace and its copy of a large text.
  return text.includes('\u001B') || text.includes('\u009B')
    ? text.replace(OSC_ST_PATTERN, '').replace(ANSI_PATTERN, '')
    : text;
}

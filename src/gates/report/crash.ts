import { stripAnsi } from './ansi.js';

/** At most this many lines of stderr go into a crash's note, each cut at LINE_CHARS. */
const NOTE_LINES = 6;
const LINE_CHARS = 200;
/** How much of each end of stderr is searched for a crash. */
const SCAN_CHARS = 64 * 1024;

/**
 * What a run's stderr shows when the tool (or a program its script runs) broke instead of
 * checking: an uncaught exception's trace, a panic, a program the shell could not find, a
 * process killed by a signal. Findings the run printed before are partial, so such a run
 * is an `error`, never a `failed` check. Each sign is one the runtime itself prints, at the
 * start of a line, which no linter's finding line looks like.
 */
const CRASH_SIGNS: readonly { what: string; sign: RegExp; stdout?: boolean }[] = [
  { what: 'a Python exception', sign: /^Traceback \(most recent call last\):$/m },
  {
    what: 'a JavaScript exception',
    sign: /^(?:Uncaught )?(?:[A-Z]\w*)?Error(?: \[[A-Z_]+\])?: .*\n(?:.*\n){0,3}?\s+at .+(?::\d+:\d+\)?|\(native\)|\(node:[\w/]+\))$/m,
  },
  { what: 'an ESLint crash', sign: /^Oops! Something went wrong! :\($/m },
  { what: 'a Go panic', sign: /^panic: .*\n(?:.*\n){0,20}?goroutine \d+ \[/m },
  { what: 'a Rust panic', sign: /^thread '[^']*' panicked at / },
  { what: 'a Java exception', sign: /^Exception in thread "[^"]*" / },
  // Node's and Prettier's words for a package its config loads (TypeScript's TS2307 is a
  // finding, written after a file name, never at the start of a line).
  {
    what: 'a package it loads was not found',
    sign: /^(?:\[error\] |Error(?: \[ERR_MODULE_NOT_FOUND\])?: )Cannot find (?:package|module) '[^']+'/m,
  },
  // A Go toolchain older than the module's `go` line cannot load the standard library it uses.
  {
    what: 'the Go toolchain is older than the module needs (its go line, the standard packages it uses)',
    sign: /: package [\w/]+ is not in (?:GOROOT|std) \(|^go: errors parsing go\.mod:$/m,
  },
  // pnpm's own failure, ` ERROR ` between thin spaces (its script's is ` ELIFECYCLE `),
  // on either stream.
  {
    what: 'the package manager could not run the script',
    sign: /^\sERROR\s+\S|^\s?ERR_PNPM_\w+/m,
    stdout: true,
  },
  {
    what: 'a program it runs was not found',
    sign: /^(?:\S*\/)?(?:sh|bash|dash|zsh)(?:: line \d+|: \d+)?: (?:[^\s:]+): (?:command )?not found$|^make(?:\[\d+\])?: [^\s:]+: No such file or directory$|^\S*python[\d.]*: No module named \S+$/m,
  },
  {
    what: 'a process it runs was killed',
    sign: /^(?:.*: )?(?:Segmentation fault|Bus error|Illegal instruction|Aborted|Killed)(?: \(core dumped\))?$/m,
  },
];

/** A shell's or make's word that a command it ran could not be found or was killed by a signal. */
const SHELL_EXIT_CODES: Readonly<Record<number, string>> = {
  126: 'a program it runs could not be executed (exit 126)',
  127: 'a program it runs was not found (exit 127)',
  134: 'a process it runs was aborted (SIGABRT, exit 134)',
  135: 'a process it runs crashed (SIGBUS, exit 135)',
  137: 'a process it runs was killed (SIGKILL, exit 137: out of memory?)',
  139: 'a process it runs crashed (SIGSEGV, exit 139)',
};

/** The first lines of a stream, blank ones left out, each cut short, for a note. */
export function firstLines(text: string, count = NOTE_LINES): string[] {
  const lines = stripAnsi(text)
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  const cut = (line: string) =>
    line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS - 1)}…` : line;
  const head = lines.slice(0, count).map(cut);
  // A Python traceback says what went wrong on its last line: keep it.
  const last = lines[lines.length - 1];
  if (lines.length > count && last !== undefined && /^Traceback /.test(lines[0] ?? ''))
    head.push('…', cut(last));
  return head;
}

/**
 * Why a run that exited non-zero crashed rather than checked, with the first lines of its
 * stderr; undefined when nothing says it did (a failing check prints findings, not these).
 */
export function crashOf(exitCode: number | null, stderr: string, stdout = ''): string | undefined {
  if (exitCode === null || exitCode === 0) return undefined;
  // A trace is at the start or the end of what the tool printed: the middle is not read.
  const ends = (stream: string) =>
    stripAnsi(
      stream.length > 2 * SCAN_CHARS
        ? `${stream.slice(0, SCAN_CHARS)}\n${stream.slice(-SCAN_CHARS)}`
        : stream,
    );
  const text = ends(stderr);
  const onStdout = CRASH_SIGNS.find(
    ({ sign, stdout: printed }) => printed && !sign.test(text) && sign.test(ends(stdout)),
  );
  if (onStdout) return stderrNote(`the tool crashed: ${onStdout.what}`, stdout, 'stdout');
  const what =
    CRASH_SIGNS.find(({ sign }) => sign.test(text))?.what ??
    (/^make(?:\[\d+\])?: \*\*\* \[.*\] Error 12[67]$/m.test(text)
      ? 'a program its recipe runs was not found'
      : SHELL_EXIT_CODES[exitCode]);
  if (what === undefined) return undefined;
  return stderrNote(`the tool crashed: ${what}`, stderr);
}

/** A note, then the first lines of stderr (or that it was empty). */
export function stderrNote(head: string, stderr: string, stream = 'stderr'): string {
  const lines = firstLines(stderr);
  return lines.length === 0
    ? `${head}; ${stream} was empty`
    : `${head}; ${stream} begins:\n${lines.join('\n')}`;
}

// Shared by the case files: where the checkouts are, the tools' PATH, and line helpers.
import fs from 'node:fs';
import path from 'node:path';

export const ACCEPT = '/work/ci31-accept';
/** Tools this machine has beside PATH: the repository's node_modules/.bin and test installs. */
export const env = {
  PATH: [
    '/work/main/node_modules/.bin',
    '/tmp/fresh/mcp-gates-test-js-markdownlint-0.50.0/node_modules/.bin',
    '/tmp/fresh/mcp-gates-test-js-cspell-10.4.1/node_modules/.bin',
    '/tmp/fresh/mcp-gates-test-js-stylelint-17.16.0/node_modules/.bin',
    '/tmp/fresh/mcp-gates-test-pyright-1.1.414/node_modules/.bin',
    '/tmp/fresh/mcp-gates-test-pnpm-10.34.9/node_modules/.bin',
    process.env.PATH,
  ].join(':'),
};
/** The text with `lines` appended, and the 1-based line of the first of them. */
export function append(text, ...lines) {
  const base = text === '' || text.endsWith('\n') ? text : `${text}\n`;
  return { text: base + lines.join('\n') + '\n', line: base.split('\n').length };
}
/** A case that appends `lines` to `file` and expects a finding on the first of them. */
export function appended(gate, root, file, lines, extra = {}) {
  const before = fs.existsSync(path.join(root, file))
    ? fs.readFileSync(path.join(root, file), 'utf8')
    : '';
  const { text, line } = append(before, ...lines);
  const { offset = 0, ...rest } = extra;
  return { gate, file, inject: () => text, expect: `${file}:${line + offset}`, ...rest };
}

/** A Go file of package `name` whose fmt.Printf misuse go vet reports (line 5). */
export function goPrintf(name) {
  return [`package ${name}`, '', 'import "fmt"', '', 'func acceptF() { fmt.Printf("%d", "x") }'];
}

/** A Go file of package `name` that gofmt would change (line 3). */
export function goUnformatted(name) {
  return [`package ${name}`, '', 'func  acceptG() {}'];
}

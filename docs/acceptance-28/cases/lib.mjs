import fs from 'node:fs';
import path from 'node:path';
export const read = (root, f) => fs.readFileSync(path.join(root, f), 'utf8');
export const write = (root, f, s) => fs.writeFileSync(path.join(root, f), s);
export const lines = (root, f) =>
  read(root, f).split('\n').length - (read(root, f).endsWith('\n') ? 1 : 0);
/** Appends text; returns the 1-based line of the first appended line plus `offset`. */
export function append(root, f, text) {
  const before = read(root, f);
  const n = before.split('\n').length - (before.endsWith('\n') ? 1 : 0);
  write(root, f, (before.endsWith('\n') ? before : before + '\n') + text);
  return n + 1;
}
export function prepend(root, f, text) {
  write(root, f, text + read(root, f));
}
export function replace(root, f, from, to) {
  const s = read(root, f);
  if (!s.includes(from)) throw new Error(`${f}: no ${from}`);
  write(root, f, s.replace(from, to));
}
export function remove(root, f) {
  fs.rmSync(path.join(root, f));
}

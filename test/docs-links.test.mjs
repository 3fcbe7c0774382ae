// Every relative link of README.md and docs/*.md reaches a file that exists, and an anchor
// (`#part`) reaches a heading of the page it names, slugged as GitHub slugs headings.
// Fast: reads the pages, runs nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';

const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** The page's lines outside fenced code blocks (a `#` line in a sh block is no heading). */
function proseLines(text) {
  const lines = [];
  let fence = null;
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line);
    if (marker && (fence === null || marker[1].startsWith(fence))) {
      fence = fence === null ? marker[1] : null;
      continue;
    }
    if (fence === null) lines.push(line);
  }
  return lines;
}

/** GitHub's anchor of a heading: its text lower-cased, punctuation dropped, spaces dashed. */
function slug(heading) {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a page defines: its headings (a repeated one gets -1, -2...) and named ids. */
function anchors(text) {
  const seen = new Map();
  const found = new Set();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      found.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const [, id] of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(id);
  }
  return found;
}

/** Relative link targets of a page, outside code: `[text](target)`, `[x]: target`. */
function links(text) {
  const targets = [];
  for (const line of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const [, target] of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      targets.push(target);
    const reference = /^\s*\[[^\]]+\]:\s*(\S+)/.exec(prose);
    if (reference) targets.push(reference[1]);
  }
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** Each broken relative link of the pages, as `page: target (why)`. */
function brokenLinks(root, pages) {
  const broken = [];
  for (const page of pages) {
    const text = fs.readFileSync(path.join(root, page), 'utf8');
    for (const target of links(text)) {
      const [file, anchor] = target.split('#', 2);
      const resolved =
        file === ''
          ? path.join(root, page)
          : path.resolve(root, path.dirname(page), decodeURI(file));
      if (!fs.existsSync(resolved)) {
        broken.push(`${page}: ${target} (no file ${path.relative(root, resolved)})`);
        continue;
      }
      if (anchor === undefined || !resolved.endsWith('.md')) continue;
      if (!anchors(fs.readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor)))
        broken.push(
          `${page}: ${target} (no heading #${anchor} in ${path.relative(root, resolved)})`,
        );
    }
  }
  return broken;
}

/** README.md and every page under docs/ (test logs included: they are read on GitHub too). */
function pages(root) {
  const docs = fs.existsSync(path.join(root, 'docs'))
    ? fs
        .readdirSync(path.join(root, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`)
    : [];
  return ['README.md', ...docs];
}

describe('links between README and docs', () => {
  it('every relative link in README.md and docs/*.md reaches an existing file and heading', () => {
    const checked = pages(REPO_ROOT);
    expect(checked).to.include('docs/PROTOCOL.md');
    expect(brokenLinks(REPO_ROOT, checked)).to.deep.equal([]);
  });

  it('the README links to every user page of docs/ (the reference is reachable from it)', () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const linked = new Set(links(readme).map((target) => target.split('#')[0]));
    const userPages = pages(REPO_ROOT).filter(
      (page) => page.startsWith('docs/') && !page.startsWith('docs/acceptance'),
    );
    expect(userPages.filter((page) => !linked.has(page))).to.deep.equal([]);
  });

  it('finds a missing file, a missing heading and a link to a heading inside code', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-gates-links-'));
    try {
      fs.mkdirSync(path.join(root, 'docs'));
      fs.writeFileSync(
        path.join(root, 'README.md'),
        [
          '# Title',
          'See [the tools](docs/tools.md#the-result-shape), [gone](docs/gone.md),',
          '[here](#title), [a fence](#not-a-heading), [ok](docs/tools.md#a-b--c) and',
          '[twice](docs/tools.md#twice-1); `[code](docs/nowhere.md)` is code.',
          '```sh',
          '# not a heading',
          '```',
        ].join('\n'),
      );
      fs.writeFileSync(
        path.join(root, 'docs', 'tools.md'),
        '# Tools\n\n## The result: `shape`\n\n## A, b & [c](../README.md)\n\n## Twice\n\n## Twice\n',
      );
      expect(brokenLinks(root, pages(root))).to.deep.equal([
        'README.md: docs/gone.md (no file docs/gone.md)',
        'README.md: #not-a-heading (no heading #not-a-heading in README.md)',
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

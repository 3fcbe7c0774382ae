// The import graph of src/ (issue 31 item 7): no circle of files, and the layers read
// downwards only. tools/ describes tools as data: detect, run, warm and hooks read it, and
// it reads none of them. `import type` counts: a type edge is still a circle to a reader.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { cleanupTemporary, makeRepo } from './fixtures/gates-support.mjs';

const SOURCE = fileURLToPath(new URL('../src/', import.meta.url));

/**
 * Every relative module a file names: import and export from, side-effect and dynamic
 * imports (with `loadedAtStart`, only what loads with the file: no dynamic import).
 */
function specifiers(text, loadedAtStart = false) {
  const found = [];
  const patterns = [
    /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g,
    /(?:^|[\s;])import\s*['"](\.{1,2}\/[^'"]+)['"]/g,
    ...(loadedAtStart ? [] : [/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g]),
  ];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.push(match[1]);
  return found;
}

/** file (relative to root, forward slashes) -> the files of root it imports. */
function importGraph(root, loadedAtStart = false) {
  const files = [];
  const visit = (directory) => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (/\.(m|c)?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(full);
    }
  };
  visit(root);
  const relative = (file) => path.relative(root, file).split(path.sep).join('/');
  const known = new Set(files.map(relative));
  const graph = new Map();
  for (const file of files) {
    const targets = specifiers(fs.readFileSync(file, 'utf8'), loadedAtStart)
      .map((specifier) =>
        relative(path.resolve(path.dirname(file), specifier)).replace(/\.(m|c)?js$/, '.$1ts'),
      )
      .filter((target) => known.has(target));
    graph.set(relative(file), [...new Set(targets)]);
  }
  return graph;
}

/** The circles of the graph (strongly connected sets of more than one file, or a self-import). */
function circles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const connect = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
    }
    if (low.get(node) !== index.get(node)) return;
    const members = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      members.push(member);
    } while (member !== node);
    if (members.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(members.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return found;
}

/** Each import from a file under `from` of a file under one of `forbidden`: `a -> b`. */
function layerBreaches(graph, from, forbidden) {
  const breaches = [];
  for (const [file, targets] of graph) {
    if (!file.startsWith(from)) continue;
    for (const target of targets)
      if (forbidden.some((folder) => target.startsWith(folder)))
        breaches.push(`${file} -> ${target}`);
  }
  return breaches;
}

describe('import graph of src/', () => {
  const graph = importGraph(SOURCE);
  after(cleanupTemporary);

  it('reads every kind of import, so a circle through any of them is seen', () => {
    const small = importGraph(
      makeRepo({
        'a.ts': "import type { B } from './b/b.js';\nexport type A = B;\n",
        'b/b.ts': "export { c } from '../c.js';\nexport type B = string;\n",
        'c.ts': "import '../outside.js';\nexport const c = () => import('./a.js');\n",
        'd.ts': "import {\n  c,\n} from './c.js';\nexport const d = c;\n",
      }),
    );
    expect(small.get('d.ts')).to.deep.equal(['c.ts']);
    expect(circles(small)).to.deep.equal([['a.ts', 'b/b.ts', 'c.ts']]);
    expect(layerBreaches(small, 'b/', ['c.ts'])).to.deep.equal(['b/b.ts -> c.ts']);
  });

  it('reads the real tree (the layers below are tested on files that exist)', () => {
    expect(graph.get('gates/tools/tool.ts')).to.include('gates/gate-spec.ts');
    expect(graph.get('gates/detect/detect.ts')).to.include('gates/tools/index.ts');
  });

  it('has no circle of files', () => {
    expect(circles(graph).map((members) => members.join(' <-> '))).to.deep.equal([]);
  });

  it('keeps src/gates/tools data: it imports nothing from detect, run, warm or hooks', () => {
    const above = ['gates/detect/', 'gates/run/', 'gates/warm/', 'gates/hooks/'];
    expect(layerBreaches(graph, 'gates/tools/', above)).to.deep.equal([]);
  });

  it('loads no gate-running code for a command hook the server answers (it runs on every edit)', () => {
    const atStart = importGraph(SOURCE, true);
    const loaded = new Set();
    const visit = (file) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const next of atStart.get(file) ?? []) visit(next);
    };
    visit('cli/main.ts');
    expect(loaded).to.include('gates/hooks/hook-channel.ts');
    // Before: main.ts loaded every command, and the channel run-hooks, for the budget.
    for (const heavy of [
      'gates/hooks/run-hooks.ts',
      'gates/load-gates.ts',
      'gates/detect/detect.ts',
      'gates/run/run-gate.ts',
      'gates/parsers/index.ts',
      'gates/warm/warm-pool.ts',
    ])
      expect(loaded, heavy).to.not.include(heavy);
  });

  it('keeps the protocol core free of capture and gates', () => {
    const core = ['server/', 'protocol/', 'transport/'].filter((folder) =>
      fs.existsSync(path.join(SOURCE, folder)),
    );
    expect(core.length).to.be.above(0);
    for (const folder of core)
      expect(layerBreaches(graph, folder, ['capture/', 'gates/']), folder).to.deep.equal([]);
  });
});

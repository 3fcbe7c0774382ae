// A real-shaped large TypeScript project for the large-project bench (issue 19), generated
// deterministically from (files, seed): hub modules in src/core/ export entity interfaces and
// a generic registry class; utility modules in src/util/ export generic helpers; feature
// modules in src/<area>/ extend a hub's entity, subclass its registry, call 1-3 earlier
// feature modules and one utility, and hold 1-12 helper functions (50-200 lines a file).
// Written unformatted: the caller runs the project's own `prettier --write` once and commits.
import fs from 'node:fs';
import path from 'node:path';
import { seededRandom } from '../../test/fixtures/warm/sequence.mjs';

const AREAS = [
  'orders',
  'users',
  'billing',
  'catalog',
  'search',
  'reports',
  'inventory',
  'shipping',
  'auth',
  'notifications',
  'analytics',
  'settings',
];
const KIND_WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];

/** The seeded PRNG of the test sequences, so the same (files, seed) gives the same project. */
const random = seededRandom;

const pad = (index) => String(index).padStart(4, '0');

function hubText(hub) {
  return `// Core entity ${hub}: the shape every feature built on it extends.
export interface Entity${hub} {
  readonly id: string;
  weight: number;
  tags: readonly string[];
}

export type EntityKey${hub} = keyof Entity${hub};

export type Comparator${hub}<T extends Entity${hub}> = (left: T, right: T) => number;

export class Registry${hub}<T extends Entity${hub}> {
  private readonly entries = new Map<string, T>();

  add(entity: T): this {
    this.entries.set(entity.id, entity);
    return this;
  }

  get(id: string): T | undefined {
    return this.entries.get(id);
  }

  remove(id: string): boolean {
    return this.entries.delete(id);
  }

  values(): T[] {
    return [...this.entries.values()];
  }

  sorted(compare: Comparator${hub}<T>): T[] {
    return this.values().sort(compare);
  }

  get size(): number {
    return this.entries.size;
  }
}

export function weigh${hub}(entity: Entity${hub}): number {
  let total = entity.weight;
  for (const tag of entity.tags) {
    total += tag.length % ${(hub % 5) + 2};
  }
  return total;
}

export function byWeight${hub}<T extends Entity${hub}>(left: T, right: T): number {
  return weigh${hub}(left) - weigh${hub}(right);
}
`;
}

function utilText(util) {
  return `// Generic helpers ${util}.
export function chunk${util}<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    chunks.push(items.slice(start, start + size));
  }
  return chunks;
}

export function clamp${util}(value: number, low: number, high: number): number {
  if (value < low) {
    return low;
  }
  return value > high ? high : value;
}

export function pick${util}<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) {
    picked[key] = value[key];
  }
  return picked;
}

export function unique${util}<T>(items: Iterable<T>): T[] {
  return [...new Set(items)];
}

export function sumBy${util}<T>(items: readonly T[], value: (item: T) => number): number {
  return items.reduce((total, item) => total + value(item), 0);
}

export function partition${util}<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  const passed: T[] = [];
  const failed: T[] = [];
  for (const item of items) {
    if (test(item)) {
      passed.push(item);
    } else {
      failed.push(item);
    }
  }
  return [passed, failed];
}

export function zip${util}<A, B>(left: readonly A[], right: readonly B[]): [A, B][] {
  const length = Math.min(left.length, right.length);
  const pairs: [A, B][] = [];
  for (let index = 0; index < length; index++) {
    pairs.push([left[index], right[index]]);
  }
  return pairs;
}
`;
}

/** One helper function of feature module i (template chosen by the PRNG). */
function helperText(i, fn, template, kinds, rand) {
  const name = `${['rank', 'labels', 'groupBy', 'best', 'load', 'histogram'][template]}${i}x${fn}`;
  const factor = Math.floor(rand() * 9) + 2;
  switch (template) {
    case 0:
      return `export function ${name}(items: readonly Item${i}[], threshold: number): number {
  let rank = 0;
  for (const item of items) {
    switch (item.kind) {
      case '${kinds[0]}':
        rank += item.score${i} * ${factor};
        break;
      case '${kinds[1]}':
        rank -= threshold;
        break;
      default:
        rank += item.tags.length;
    }
  }
  return rank;
}`;
    case 1:
      return `export function ${name}(items: readonly Item${i}[]): string[] {
  return items
    .filter((item) => item.weight > ${factor})
    .map((item) => \`\${item.id}:\${item.note${i} ?? 'none'}\`);
}`;
    case 2:
      return `export function ${name}<K extends string>(items: readonly Item${i}[], key: (item: Item${i}) => K): Map<K, Item${i}[]> {
  const groups = new Map<K, Item${i}[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) {
      group.push(item);
    } else {
      groups.set(key(item), [item]);
    }
  }
  return groups;
}`;
    case 3:
      return `export function ${name}(items: readonly Item${i}[]): Item${i} | undefined {
  return items.reduce<Item${i} | undefined>(
    (best, item) => (best === undefined || item.score${i} * ${factor} > best.score${i} ? item : best),
    undefined,
  );
}`;
    case 4:
      return `export async function ${name}(source: () => Promise<readonly Item${i}[]>): Promise<Summary${i}> {
  const items = await source();
  let total = 0;
  for (const item of items) {
    total += item.score${i} + ${factor};
  }
  return { count: items.length, total };
}`;
    default:
      return `export function ${name}(items: readonly Item${i}[]): Record<Kind${i}, number> {
  const counts: Record<Kind${i}, number> = { ${kinds.map((kind) => `${kind}: 0`).join(', ')} };
  for (const item of items) {
    counts[item.kind] += ${factor % 3 === 0 ? 2 : 1};
  }
  return counts;
}`;
  }
}

/**
 * Writes the project into root (which must exist and be empty of src/); returns
 * `{files, lines, bodyEdit, typeEdit}`: the count of source files, their total lines, and the
 * two edit targets (a feature module's function body; the hub interface the most modules use).
 */
export function generateProject(root, { files, seed = 19 }) {
  if (files < 20) throw new Error(`big-project: at least 20 files (asked for ${files})`);
  const rand = random(seed);
  const hubs = Math.max(4, Math.round(files / 40));
  const utils = Math.max(2, Math.round(files / 40));
  const features = files - hubs - utils;
  const written = new Map();
  const write = (relative, text) => {
    written.set(relative, text);
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };
  for (let hub = 0; hub < hubs; hub++) write(`src/core/entity-${pad(hub)}.ts`, hubText(hub));
  for (let util = 0; util < utils; util++)
    write(`src/util/helpers-${pad(util)}.ts`, utilText(util));
  const featurePath = [];
  const featureHub = [];
  const hubUsers = new Array(hubs).fill(0);
  for (let i = 0; i < features; i++) {
    const area = AREAS[Math.floor(rand() * AREAS.length)];
    featurePath.push(`src/${area}/${area}-${pad(i)}.ts`);
    // Hubs are not used evenly: lower numbers are the older, more shared ones.
    const hub = Math.floor(rand() * rand() * hubs);
    featureHub.push(hub);
    hubUsers[hub]++;
    const util = Math.floor(rand() * utils);
    const depCount = i === 0 ? 0 : Math.min(i, 1 + Math.floor(rand() * 3));
    const deps = new Set();
    while (deps.size < depCount) {
      // Mostly recent modules, sometimes an old one.
      const back =
        rand() < 0.7 ? 1 + Math.floor(rand() * Math.min(i, 25)) : 1 + Math.floor(rand() * i);
      deps.add(i - back);
    }
    const kindCount = 3 + Math.floor(rand() * 3);
    const start = Math.floor(rand() * (KIND_WORDS.length - kindCount + 1));
    const kinds = KIND_WORDS.slice(start, start + kindCount);
    const helperCount = 1 + Math.floor(rand() * 12);
    const dir = path.posix.dirname(featurePath[i]);
    const relativeTo = (target) => {
      const spec = path.posix.relative(dir, target).replace(/\.ts$/, '.js');
      return spec.startsWith('.') ? spec : `./${spec}`;
    };
    const hubFile = `src/core/entity-${pad(hub)}.ts`;
    const lines = [
      `import type { Entity${hub} } from '${relativeTo(hubFile)}';`,
      `import { Registry${hub}, byWeight${hub}, weigh${hub} } from '${relativeTo(hubFile)}';`,
      `import { chunk${util}, clamp${util} } from '${relativeTo(`src/util/helpers-${pad(util)}.ts`)}';`,
      ...[...deps]
        .sort((a, b) => a - b)
        .map((dep) => `import { summarize${dep} } from '${relativeTo(featurePath[dep])}';`),
      '',
      `export type Kind${i} = ${kinds.map((kind) => `'${kind}'`).join(' | ')};`,
      '',
      `export interface Item${i} extends Entity${hub} {`,
      `  readonly kind: Kind${i};`,
      `  score${i}: number;`,
      `  note${i}?: string;`,
      '}',
      '',
      `export type Summary${i} = Readonly<{ count: number; total: number; best?: Item${i} }>;`,
      '',
      `export const DEFAULT_LIMIT_${i} = ${5 + Math.floor(rand() * 40)};`,
      '',
      `export class Catalog${i} extends Registry${hub}<Item${i}> {`,
      '  private readonly limit: number;',
      '',
      `  constructor(limit = DEFAULT_LIMIT_${i}) {`,
      '    super();',
      '    this.limit = limit;',
      '  }',
      '',
      `  top(count: number): Item${i}[] {`,
      `    return this.sorted(byWeight${hub})`,
      `      .filter((item) => item.score${i} > 0)`,
      `      .slice(0, clamp${util}(count, 0, this.limit));`,
      '  }',
      '}',
      '',
      `export function summarize${i}(items: readonly Entity${hub}[]): number {`,
      '  let total = 0;',
      '  for (const item of items) {',
      `    total += weigh${hub}(item) * ${2 + (i % 7)};`,
      '  }',
      '  return total;',
      '}',
      '',
      `export function combine${i}(items: readonly Item${i}[]): Summary${i} {`,
      `  const total = ${[...[...deps].map((dep) => `summarize${dep}(items)`), `chunk${util}(items, 4).length`].join(' + ')};`,
      `  let best: Item${i} | undefined;`,
      '  for (const item of items) {',
      `    if (best === undefined || item.score${i} > best.score${i}) {`,
      '      best = item;',
      '    }',
      '  }',
      '  return best === undefined ? { count: items.length, total } : { count: items.length, total, best };',
      '}',
    ];
    for (let fn = 0; fn < helperCount; fn++) {
      lines.push('', helperText(i, fn, Math.floor(rand() * 6), kinds, rand));
    }
    write(featurePath[i], `${lines.join('\n')}\n`);
  }
  // The body edit: the feature module in the middle, inside summarize<i>'s loop (its API is
  // unchanged). The type edit: the interface of the hub the most feature modules extend.
  const middle = Math.floor(features / 2);
  const busiest = hubUsers.indexOf(Math.max(...hubUsers));
  let lines = 0;
  for (const text of written.values()) lines += text.split('\n').length - 1;
  return {
    files: written.size,
    lines,
    bodyEdit: {
      file: featurePath[middle],
      // `total += weigh<h>(item) * <n>;` -> another factor (same length while it is one digit).
      apply: (text, round) =>
        replaceOnce(
          text,
          new RegExp(`(total \\+= weigh${featureHub[middle]}\\(item\\) \\* )\\d+;`),
          (_, head) => `${head}${(round % 7) + 11};`,
        ),
    },
    typeEdit: {
      file: `src/core/entity-${pad(busiest)}.ts`,
      dependents: hubUsers[busiest],
      // A new optional field of the exported entity interface every user of the hub extends.
      apply: (text, round) =>
        replaceOnce(
          text,
          /( {2}tags: readonly string\[\];\n)/,
          (_, head) => `${head}  revision${round}?: number;\n`,
        ),
    },
  };
}

function replaceOnce(text, pattern, replacement) {
  if (!pattern.test(text)) throw new Error(`big-project: the edit target ${pattern} is missing`);
  return text.replace(pattern, replacement);
}

/** The project's own config files: ESLint flat config, tsconfig, Prettier, package.json. */
export function writeProjectConfig(root) {
  const files = {
    'package.json': `${JSON.stringify({ name: 'big-bench-project', private: true, type: 'module' }, null, 2)}\n`,
    '.gitignore': 'node_modules\n',
    '.prettierrc.json': `${JSON.stringify({ printWidth: 100, singleQuote: true }, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
          isolatedModules: true,
          noFallthroughCasesInSwitch: true,
        },
        include: ['src'],
      },
      null,
      2,
    )}\n`,
    'eslint.config.js': `import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      curly: 'error',
      eqeqeq: 'error',
      'no-var': 'error',
      'object-shorthand': 'error',
      'prefer-const': 'error',
      'prefer-template': 'error',
      'arrow-body-style': ['error', 'as-needed'],
      '@typescript-eslint/array-type': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/consistent-type-definitions': 'error',
    },
  },
);
`,
  };
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(root, name), text);
}

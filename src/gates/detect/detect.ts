import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_TIMEOUT_MS, type GateSpec } from '../gate-spec.js';
import { recipeGates } from './makefile.js';
import { detectPackageManager, scriptCommand, type PackageManager } from './package-manager.js';
import {
  classifyScript,
  planScript,
  silenceHidesOutput,
  toolsInBody,
  type ScriptKind,
} from './scripts.js';
import { usesProjectReferences } from '../run/tsc-build.js';

export interface Detection {
  gates: GateSpec[];
  packageManager: PackageManager | null;
}

/** ESLint's flat config files (eslint 9+), in the order ESLint looks for them. */
export const FLAT_ESLINT_CONFIGS = [
  'eslint.config.js',
  'eslint.config.mjs',
  'eslint.config.cjs',
  'eslint.config.ts',
  'eslint.config.mts',
  'eslint.config.cts',
];
export const ESLINT_CONFIGS = [
  ...FLAT_ESLINT_CONFIGS,
  '.eslintrc.js',
  '.eslintrc.cjs',
  '.eslintrc.json',
  '.eslintrc.yml',
  '.eslintrc.yaml',
  '.eslintrc',
];
const PRETTIER_CONFIGS = [
  '.prettierrc',
  '.prettierrc.json',
  '.prettierrc.json5',
  '.prettierrc.yml',
  '.prettierrc.yaml',
  '.prettierrc.toml',
  '.prettierrc.js',
  '.prettierrc.cjs',
  '.prettierrc.mjs',
  '.prettierrc.ts',
  'prettier.config.js',
  'prettier.config.cjs',
  'prettier.config.mjs',
  'prettier.config.ts',
];
const BIOME_CONFIGS = ['biome.json', 'biome.jsonc'];
const OXLINT_CONFIGS = ['.oxlintrc.json', '.oxlintrc.jsonc', 'oxlint.config.ts'];
const RUFF_CONFIGS = ['ruff.toml', '.ruff.toml'];
const OXFMT_CONFIGS = ['.oxfmtrc.json', '.oxfmtrc.jsonc'];
const MYPY_CONFIGS = ['mypy.ini', '.mypy.ini'];
const PYRIGHT_CONFIGS = ['pyrightconfig.json'];
/** mypy's flags for one `file:line:col: severity: message  [code]` line per problem. */
const MYPY_FLAGS = [
  '--show-column-numbers',
  '--no-error-summary',
  '--no-pretty',
  '--no-color-output',
];

/** A JSON object file, or undefined when missing, unreadable or not an object. */
export function readJson(file: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function firstExisting(root: string, names: readonly string[]): string | undefined {
  return names.find((name) => fs.existsSync(path.join(root, name)));
}

interface ScriptInfo {
  name: string;
  body: string;
  kind: ScriptKind;
}

function gateName(scriptName: string): string {
  return (
    scriptName
      .replace(/[^A-Za-z0-9_.-]/g, '_')
      .replace(/^[^A-Za-z]+/, '')
      .slice(0, 60) || 'script'
  );
}

/** The `<name>:fix` script, when the package has one. */
function namedFix(
  scripts: Record<string, unknown>,
  name: string,
): { name: string; body: string } | undefined {
  const body = scripts[`${name}:fix`];
  return typeof body === 'string' ? { name: `${name}:fix`, body } : undefined;
}

function scriptGates(
  root: string,
  packageJson: Record<string, unknown>,
  manager: PackageManager,
): GateSpec[] {
  const rawScripts = packageJson.scripts;
  if (!rawScripts || typeof rawScripts !== 'object') return [];
  const scripts: ScriptInfo[] = [];
  for (const [name, body] of Object.entries(rawScripts as Record<string, unknown>)) {
    if (typeof body !== 'string') continue;
    const kind = classifyScript(name, body);
    if (kind) scripts.push({ name, body, kind });
  }
  const ofKind = (kind: ScriptKind) => scripts.filter((script) => script.kind === kind);
  const named = (name: string) => scripts.find((script) => script.name === name);
  const gates: GateSpec[] = [];
  const used = new Set<string>();

  /** The script run with its pre/post hooks, `--silent` only where it hides nothing. */
  const runScript = (name: string) =>
    scriptCommand(manager, name, {
      keepNestedOutput: [name, `pre${name}`, `post${name}`].some((hook) => {
        const body = (rawScripts as Record<string, unknown>)[hook];
        return typeof body === 'string' && silenceHidesOutput(body);
      }),
    });
  const add = (gate: string, script: ScriptInfo, fix: ScriptInfo | undefined, what: string) => {
    // `<name>:fix` is the repo's own fixer of `<name>` (`check:fix` for `check`).
    const pairedFix = fix ?? namedFix(rawScripts as Record<string, unknown>, script.name);
    used.add(script.name);
    if (pairedFix) used.add(pairedFix.name);
    const hasHooks = [`pre${script.name}`, `post${script.name}`].some(
      (hook) => typeof (rawScripts as Record<string, unknown>)[hook] === 'string',
    );
    const plan = planScript(script.body, hasHooks);
    const runs = plan.steps
      ? `; runs ${plan.steps.map((step) => `\`${step.command.join(' ')}\``).join(', then ')}, each to the end`
      : '';
    gates.push({
      name: gate,
      description: `${what}: the package.json script "${script.name}" (${script.body})${runs}`,
      command: runScript(script.name),
      fix: pairedFix ? runScript(pairedFix.name) : null,
      parser: plan.parser,
      ...(plan.steps ? { steps: plan.steps } : {}),
      timeoutMs: DEFAULT_TIMEOUT_MS,
      paths: 'none',
      source: 'package.json',
    });
  };

  const lint = named('lint')?.kind === 'lint' ? named('lint') : ofKind('lint')[0];
  if (lint) {
    const fix =
      [`${lint.name}:fix`, 'lint:fix', 'fix']
        .map(named)
        .find((script) => script?.kind === 'lint-fix') ?? ofKind('lint-fix')[0];
    add('lint', lint, fix, 'Lint');
  }
  const format = ofKind('format-check')[0];
  const formatWrite = ofKind('format-write')[0];
  if (format) add('format', format, formatWrite, 'Format check');
  const typecheck = ofKind('typecheck')[0];
  if (typecheck) add('typecheck', typecheck, undefined, 'Typecheck');
  const check = ofKind('check')[0];
  if (check) add('check', check, undefined, 'Project check');
  for (const extra of ofKind('lint')) {
    if (used.has(extra.name)) continue;
    const fix = named(`${extra.name}:fix`);
    add(gateName(extra.name), extra, fix?.kind === 'lint-fix' ? fix : undefined, 'Lint');
  }
  return gates;
}

type MarkerGateFields = Omit<GateSpec, 'timeoutMs' | 'source'>;

function markerGate(partial: Omit<GateSpec, 'timeoutMs'>): GateSpec {
  return { ...partial, timeoutMs: DEFAULT_TIMEOUT_MS };
}

/** Tools already run by a detected script: their marker gates would run them twice. */
function coveredTools(
  gates: readonly GateSpec[],
  packageJson: Record<string, unknown> | undefined,
): Set<string> {
  const covered = new Set<string>();
  const scripts = (packageJson?.scripts ?? {}) as Record<string, unknown>;
  for (const gate of gates) {
    const scriptName = gate.command[gate.command.length - 1]!;
    const body = scripts[scriptName];
    if (typeof body === 'string') for (const tool of toolsInBody(body)) covered.add(tool);
  }
  const kinds = new Set(gates.map((gate) => gate.name));
  if (kinds.has('lint')) covered.add('eslint');
  if (kinds.has('format')) covered.add('prettier');
  if (kinds.has('typecheck')) covered.add('tsc');
  return covered;
}

function hasDependency(packageJson: Record<string, unknown> | undefined, name: string): boolean {
  return ['devDependencies', 'dependencies'].some((field) => {
    const value = packageJson?.[field];
    return Boolean(value && typeof value === 'object' && name in value);
  });
}

/** The mypy config and whether it names the files to check (then mypy runs with no target). */
function mypyConfig(
  root: string,
  pyproject: string | undefined,
): { source: string; namesFiles: boolean } | undefined {
  const candidates: [string, string | undefined, RegExp][] = [
    ...MYPY_CONFIGS.map((name): [string, string | undefined, RegExp] => [
      name,
      readText(path.join(root, name)),
      /^\s*\[mypy\]/m,
    ]),
    ['pyproject.toml', pyproject, /^\s*\[tool\.mypy\]/m],
    ['setup.cfg', readText(path.join(root, 'setup.cfg')), /^\s*\[mypy\]/m],
  ];
  for (const [source, text, section] of candidates) {
    if (text === undefined || !section.test(text)) continue;
    return { source, namesFiles: /^\s*files\s*=/m.test(text) };
  }
  return undefined;
}

/**
 * What a marker prettier gate never checks or rewrites, whatever the ignore files say:
 * dependencies, Yarn's committed releases and plug-ins, build output, vendored code.
 */
export const PRETTIER_NEVER = [
  'node_modules',
  '.yarn',
  'dist',
  'build',
  'coverage',
  'out',
  'vendor',
];

/** The installed prettier's major version (node_modules up from root), or undefined. */
function installedMajor(root: string, name: string): number | undefined {
  for (let current = path.resolve(root); ; current = path.dirname(current)) {
    const manifest = readJson(path.join(current, 'node_modules', name, 'package.json'));
    if (typeof manifest?.version === 'string') return Number.parseInt(manifest.version, 10);
    if (path.dirname(current) === current) return undefined;
  }
}

/**
 * The root .gitignore as prettier negative patterns, for prettier 2 (which reads one
 * ignore file only). Negations (`!keep`) are left out: the gate then skips a little more
 * than git does, never less. Nested .gitignore files are not read.
 */
export function gitignoreAsNegativePatterns(text: string): string[] {
  const patterns: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim().replace(/\/+$/, '');
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const anchored = line.slice(0, -1).includes('/') || line.startsWith('/');
    const pattern = line.replace(/^\/+/, '');
    if (pattern === '' || pattern === '**') continue;
    const base = anchored || pattern.startsWith('**/') ? pattern : `**/${pattern}`;
    patterns.push(`!${base}`, `!${base}/**`);
  }
  return [...new Set(patterns)];
}

/**
 * The marker prettier gate, scoped as the repository scopes it: its .gitignore and
 * .prettierignore, plus PRETTIER_NEVER, for check and fix alike. Prettier 3 reads both
 * ignore files when told; prettier 2 reads one, so .gitignore becomes negative patterns.
 */
function prettierGate(root: string): MarkerGateFields {
  const never = PRETTIER_NEVER.map((name) => `!**/${name}/**`);
  const major = installedMajor(root, 'prettier');
  const scope =
    major !== undefined && major < 3
      ? [
          '--ignore-path',
          '.prettierignore',
          ...gitignoreAsNegativePatterns(readText(path.join(root, '.gitignore')) ?? ''),
          ...never,
        ]
      : ['--ignore-path', '.gitignore', '--ignore-path', '.prettierignore', ...never];
  return {
    name: 'format',
    description: `Prettier format check (skips what .gitignore and .prettierignore list, and ${PRETTIER_NEVER.join(', ')})`,
    command: ['prettier', '--check', ...scope, '.'],
    fix: ['prettier', '--write', ...scope, '.'],
    parser: 'prettier',
    paths: 'append',
  };
}

/**
 * The marker typecheck: `tsc --noEmit`, or vue-tsc where the repository uses it. A root
 * tsconfig with references or `"files": []` checks nothing under --noEmit: it runs in
 * build mode through every referenced project instead, outputs kept out of the tree.
 */
function typecheckGate(
  root: string,
  packageJson: Record<string, unknown> | undefined,
): MarkerGateFields {
  const program = hasDependency(packageJson, 'vue-tsc') ? 'vue-tsc' : 'tsc';
  const what =
    program === 'vue-tsc' ? 'TypeScript and Vue typecheck (vue-tsc)' : 'TypeScript typecheck';
  if (usesProjectReferences(path.join(root, 'tsconfig.json'))) {
    return {
      name: 'typecheck',
      description: `${what} of tsconfig.json and every project it references (build mode; .tsbuildinfo and declarations go to a private temporary directory, never into the tree)`,
      command: [program, '-b', 'tsconfig.json', '--force', '--pretty', 'false'],
      fix: null,
      parser: 'tsc',
      paths: 'none',
      prepare: 'tsc-build',
    };
  }
  return {
    name: 'typecheck',
    description: `${what} (any .tsbuildinfo goes to a private temporary directory, never into the tree)`,
    command: [program, '--noEmit', '--pretty', 'false'],
    fix: null,
    parser: 'tsc',
    paths: 'none',
    prepare: 'tsc-noemit',
  };
}

function hasName(gates: readonly GateSpec[], name: string): boolean {
  return gates.some((gate) => gate.name === name);
}

/**
 * Finds a repository's gates with no config. Trust order: package.json scripts (the
 * repo's own way to run them), then config-file markers turned into default commands
 * for tools no script already runs, then Makefile and justfile targets named like checks
 * (makefile.ts; named `make.<target>` when an earlier gate has the name).
 */
export function detectGates(
  root: string,
  options: {
    /** A workspace package's scripts run with the workspace's package manager. */
    packageManager?: PackageManager;
  } = {},
): Detection {
  const packageJson = readJson(path.join(root, 'package.json'));
  const manager = packageJson
    ? (options.packageManager ?? detectPackageManager(root, packageJson))
    : null;
  const dependsOn = (name: string) => hasDependency(packageJson, name);
  const gates = packageJson && manager ? scriptGates(root, packageJson, manager) : [];
  const covered = coveredTools(gates, packageJson);

  // JavaScript tools: a marker gate only where no script already runs the tool.
  const markers: { tool: string; source: string | undefined; gate: MarkerGateFields }[] = [
    {
      tool: 'eslint',
      source:
        firstExisting(root, ESLINT_CONFIGS) ??
        (packageJson?.eslintConfig ? 'package.json' : undefined),
      gate: {
        name: 'lint',
        description: 'ESLint over the project',
        command: ['eslint', '--format', 'json', '.'],
        fix: ['eslint', '--fix', '.'],
        parser: 'eslint-json',
        paths: 'append',
      },
    },
    {
      tool: 'prettier',
      source:
        firstExisting(root, PRETTIER_CONFIGS) ??
        (packageJson?.prettier ? 'package.json' : undefined),
      gate: prettierGate(root),
    },
    {
      tool: 'tsc',
      source: fs.existsSync(path.join(root, 'tsconfig.json')) ? 'tsconfig.json' : undefined,
      gate: typecheckGate(root, packageJson),
    },
    {
      tool: 'biome',
      source: firstExisting(root, BIOME_CONFIGS),
      gate: {
        name: 'biome',
        description: 'Biome lint, format and import check (biome ci)',
        // `biome ci` is the read-only form of `biome check`: it never writes, whatever the flags.
        command: ['biome', 'ci', '--reporter=json'],
        fix: ['biome', 'check', '--write'],
        parser: 'biome-json',
        paths: 'append',
      },
    },
    {
      tool: 'oxlint',
      source: firstExisting(root, OXLINT_CONFIGS),
      gate: {
        name: 'oxlint',
        description: 'oxlint over the project',
        command: ['oxlint', '--format', 'json'],
        fix: ['oxlint', '--fix'],
        parser: 'oxlint-json',
        paths: 'append',
      },
    },
    {
      tool: 'oxfmt',
      source:
        firstExisting(root, OXFMT_CONFIGS) ?? (dependsOn('oxfmt') ? 'package.json' : undefined),
      gate: {
        name: 'oxfmt',
        description: 'oxfmt format check',
        command: ['oxfmt', '--check'],
        fix: ['oxfmt'],
        parser: 'oxfmt',
        paths: 'append',
      },
    },
    {
      tool: 'xo',
      source: packageJson?.xo || dependsOn('xo') ? 'package.json' : undefined,
      gate: {
        name: 'xo',
        description: 'xo over the project',
        command: ['xo'],
        fix: ['xo', '--fix'],
        parser: 'xo',
        paths: 'append',
      },
    },
  ];
  for (const { tool, source, gate } of markers) {
    if (source && !covered.has(tool) && !hasName(gates, gate.name)) {
      gates.push(markerGate({ ...gate, source }));
    }
  }
  const cargoToml = readText(path.join(root, 'Cargo.toml'));
  if (cargoToml !== undefined) {
    const workspace = /^\s*\[workspace\]/m.test(cargoToml) ? ['--workspace'] : [];
    gates.push(
      markerGate({
        name: 'clippy',
        description: 'cargo clippy on all targets, warnings denied',
        command: [
          'cargo',
          'clippy',
          ...workspace,
          '--all-targets',
          '--message-format=json',
          '--',
          '-D',
          'warnings',
        ],
        fix: null,
        parser: 'cargo-json',
        paths: 'none',
        source: 'Cargo.toml',
        derivedFiles: ['Cargo.lock'],
      }),
      markerGate({
        name: 'rustfmt',
        description: 'Rust formatting check over the whole workspace',
        command: ['cargo', 'fmt', '--all', '--check'],
        fix: ['cargo', 'fmt', '--all'],
        parser: 'rustfmt',
        paths: 'none',
        source: 'Cargo.toml',
      }),
    );
  }
  const pyproject = readText(path.join(root, 'pyproject.toml'));
  const ruffConfig =
    firstExisting(root, RUFF_CONFIGS) ??
    (pyproject && /^\s*\[tool\.ruff[\].]/m.test(pyproject) ? 'pyproject.toml' : undefined);
  if (ruffConfig) {
    gates.push(
      markerGate({
        name: 'ruff',
        description: 'Ruff lint',
        command: ['ruff', 'check', '--no-fix', '--output-format', 'json'],
        fix: ['ruff', 'check', '--fix'],
        parser: 'ruff-json',
        paths: 'append',
        source: ruffConfig,
      }),
      markerGate({
        name: 'ruff_format',
        description: 'Ruff format check',
        command: ['ruff', 'format', '--check'],
        fix: ['ruff', 'format'],
        parser: 'ruff-format',
        paths: 'append',
        source: ruffConfig,
      }),
    );
  }
  const mypy = mypyConfig(root, pyproject);
  if (mypy) {
    gates.push(
      markerGate({
        name: 'mypy',
        description: 'mypy typecheck',
        command: ['mypy', ...MYPY_FLAGS, ...(mypy.namesFiles ? [] : ['.'])],
        fix: null,
        parser: 'mypy',
        paths: 'append',
        source: mypy.source,
      }),
    );
  }
  const pyrightConfig =
    firstExisting(root, PYRIGHT_CONFIGS) ??
    (pyproject && /^\s*\[tool\.pyright\]/m.test(pyproject) ? 'pyproject.toml' : undefined);
  if (pyrightConfig) {
    gates.push(
      markerGate({
        name: 'pyright',
        description: 'pyright typecheck',
        command: ['pyright', '--outputjson'],
        fix: null,
        parser: 'pyright-json',
        paths: 'append',
        source: pyrightConfig,
      }),
    );
  }
  if (fs.existsSync(path.join(root, 'go.mod'))) {
    gates.push(
      markerGate({
        name: 'vet',
        description: 'go vet over every package',
        command: ['go', 'vet', './...'],
        fix: null,
        parser: 'go-vet',
        paths: 'none',
        source: 'go.mod',
      }),
      markerGate({
        name: 'gofmt',
        description: 'Go formatting check (files gofmt would change)',
        command: ['gofmt', '-l', '-d', '.'],
        fix: ['gofmt', '-w', '.'],
        parser: 'gofmt',
        paths: 'append',
        source: 'go.mod',
      }),
    );
  }
  // Make and just targets named like checks, after every other source (names taken first).
  gates.push(...recipeGates(root, new Set(gates.map((gate) => gate.name))));
  return { gates, packageManager: manager };
}

import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_TIMEOUT_MS, type GateSpec } from '../gate-spec.js';
import { detectPackageManager, scriptCommand, type PackageManager } from './package-manager.js';
import { classifyScript, toolsInBody, type ScriptKind } from './scripts.js';

export interface Detection {
  gates: GateSpec[];
  packageManager: PackageManager | null;
}

const ESLINT_CONFIGS = [
  'eslint.config.js',
  'eslint.config.mjs',
  'eslint.config.cjs',
  'eslint.config.ts',
  'eslint.config.mts',
  'eslint.config.cts',
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

const SCRIPT_PARSER: Record<string, string> = {
  tsc: 'tsc',
  'vue-tsc': 'tsc',
  prettier: 'prettier',
};

function readJson(file: string): Record<string, unknown> | undefined {
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

  const add = (gate: string, script: ScriptInfo, fix: ScriptInfo | undefined, what: string) => {
    used.add(script.name);
    if (fix) used.add(fix.name);
    const tools = toolsInBody(script.body);
    const parser = tools.length === 1 ? (SCRIPT_PARSER[tools[0]!] ?? 'generic') : 'generic';
    gates.push({
      name: gate,
      description: `${what}: the package.json script "${script.name}" (${script.body})`,
      command: scriptCommand(manager, script.name),
      fix: fix ? scriptCommand(manager, fix.name) : null,
      parser,
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

function hasName(gates: readonly GateSpec[], name: string): boolean {
  return gates.some((gate) => gate.name === name);
}

/**
 * Finds a repository's gates with no config. Trust order: package.json scripts (the
 * repo's own way to run them), then config-file markers turned into default commands
 * for tools no script already runs.
 */
export function detectGates(root: string): Detection {
  const packageJson = readJson(path.join(root, 'package.json'));
  const manager = packageJson ? detectPackageManager(root, packageJson) : null;
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
      gate: {
        name: 'format',
        description: 'Prettier format check',
        command: ['prettier', '--check', '.'],
        fix: ['prettier', '--write', '.'],
        parser: 'prettier',
        paths: 'append',
      },
    },
    {
      tool: 'tsc',
      source: fs.existsSync(path.join(root, 'tsconfig.json')) ? 'tsconfig.json' : undefined,
      gate: {
        name: 'typecheck',
        description: 'TypeScript typecheck',
        command: ['tsc', '--noEmit', '--pretty', 'false'],
        fix: null,
        parser: 'tsc',
        paths: 'none',
      },
    },
    {
      tool: 'biome',
      source: firstExisting(root, BIOME_CONFIGS),
      gate: {
        name: 'biome',
        description: 'Biome lint and format check',
        command: ['biome', 'check', '--reporter=json'],
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
        command: ['gofmt', '-l', '.'],
        fix: ['gofmt', '-w', '.'],
        parser: 'gofmt',
        paths: 'append',
        source: 'go.mod',
      }),
    );
  }
  return { gates, packageManager: manager };
}

import path from 'node:path';
import type { GateSpec } from '../gate-spec.js';

const SCRIPT = ['js', 'jsx', 'ts', 'tsx', 'mjs', 'cjs', 'mts', 'cts'];
const PYTHON = ['py', 'pyi'];

/**
 * The file extensions each known tool checks, so a changed-scope call passes it only
 * files it reads (eslint given a .md file reports "no matching configuration"). A tool
 * not listed here gets every changed file.
 */
const TOOL_EXTENSIONS: Record<string, readonly string[]> = {
  eslint: [...SCRIPT, 'vue'],
  eslint_d: [...SCRIPT, 'vue'],
  oxlint: [...SCRIPT, 'vue', 'svelte', 'astro'],
  biome: [...SCRIPT, 'json', 'jsonc', 'css', 'graphql', 'gql', 'html', 'vue', 'svelte', 'astro'],
  prettier: [
    ...SCRIPT,
    'json',
    'json5',
    'jsonc',
    'css',
    'scss',
    'less',
    'md',
    'mdx',
    'markdown',
    'yaml',
    'yml',
    'html',
    'htm',
    'vue',
    'graphql',
    'gql',
    'hbs',
    'handlebars',
  ],
  stylelint: ['css', 'scss', 'sass', 'less'],
  ruff: PYTHON,
  black: PYTHON,
  mypy: PYTHON,
  pyright: PYTHON,
  gofmt: ['go'],
  rustfmt: ['rs'],
  shellcheck: ['sh', 'bash'],
};

/** The known tool a gate's command runs (through npx, pnpm exec, node_modules/.bin...), if any. */
export function gateTool(gate: GateSpec): string | null {
  for (const word of gate.command.slice(0, 4)) {
    const name = path.basename(word).replace(/\.(cmd|exe|js|cjs|mjs)$/i, '');
    if (Object.hasOwn(TOOL_EXTENSIONS, name)) return name;
  }
  return null;
}

/** The changed files the gate's tool can check (all of them for an unknown tool). */
export function filesTheToolChecks(gate: GateSpec, files: readonly string[]): string[] {
  const tool = gateTool(gate);
  if (tool === null) return [...files];
  const extensions = new Set(TOOL_EXTENSIONS[tool]);
  return files.filter((file) => extensions.has(path.extname(file).slice(1).toLowerCase()));
}

/** For the report: the extensions the gate's tool checks, or null for any. */
export function checkedExtensions(gate: GateSpec): readonly string[] | null {
  const tool = gateTool(gate);
  return tool === null ? null : TOOL_EXTENSIONS[tool]!;
}

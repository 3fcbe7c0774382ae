import { ruffFormatParser } from '../parsers/ruff-format.js';
import { ruffJsonParser } from '../parsers/ruff-json.js';
import { PYTHON_EXTENSIONS } from './shared.js';
import type { MarkerGate, ProjectFacts, ToolDescriptor } from './tool.js';

/**
 * Whether the project formats with ruff: not where black is its formatter (its [tool.black]
 * section or black pre-commit hook) unless it says ruff formats too (a [tool.ruff.format]
 * section or the ruff-format hook). A project that lints with ruff and formats with black
 * would otherwise get a format check its CI never runs, failing on black's style.
 */
function formatsWithRuff(project: ProjectFacts): boolean {
  const pyproject = project.readText('pyproject.toml') ?? '';
  const hooks = project.preCommitHookIds();
  if (/^\s*\[tool\.ruff\.format\]/m.test(pyproject) || hooks.includes('ruff-format')) return true;
  return !(/^\s*\[tool\.black\]/m.test(pyproject) || hooks.includes('black'));
}

export const ruff: ToolDescriptor = {
  name: 'ruff',
  programs: ['ruff'],
  recognise: {
    configFiles: ['ruff.toml', '.ruff.toml'],
    configSections: [{ file: 'pyproject.toml', section: /^\s*\[tool\.ruff[\].]/m }],
    preCommitHooks: ['ruff-check', 'ruff', 'ruff-format'],
  },
  gates: (project, source): MarkerGate[] => [
    {
      name: 'ruff',
      description: 'Ruff lint',
      command: ['ruff', 'check', '--no-fix', '--output-format', 'json'],
      fix: ['ruff', 'check', '--fix'],
      parser: ruffJsonParser.name,
      paths: 'append',
      source,
    },
    ...(formatsWithRuff(project)
      ? [
          {
            name: 'ruff_format',
            description: 'Ruff format check',
            command: ['ruff', 'format', '--check'],
            fix: ['ruff', 'format'],
            parser: ruffFormatParser.name,
            paths: 'append' as const,
            source,
          },
        ]
      : []),
  ],
  extensions: PYTHON_EXTENSIONS,
  // Explicit paths bypass `exclude` unless told otherwise: a changed .venv file would be linted.
  explicitPathArgs: ['--force-exclude'],
  writes: [
    { path: '.ruff_cache', why: 'ruff caches lint results', redirect: { env: 'RUFF_CACHE_DIR' } },
  ],
  outputs: [{ parser: ruffJsonParser, machineFormat: true }, { parser: ruffFormatParser }],
  warm: { cold: 'Rust-based, starts fast' },
  commands: {
    // astral-sh/ruff-pre-commit: `ruff` is the legacy alias of `ruff-check`.
    hooks: {
      'ruff-check': { entry: ['ruff', 'check', '--force-exclude'] },
      ruff: { entry: ['ruff', 'check', '--force-exclude'] },
      'ruff-format': { entry: ['ruff', 'format', '--force-exclude'] },
    },
    exclude: { option: '--extend-exclude', takes: 'directories' },
    keepOptions: [
      '--config=',
      '--select=',
      '--extend-select=',
      '--ignore=',
      '--extend-ignore=',
      '--per-file-ignores=',
      '--extend-per-file-ignores=',
      '--exclude=',
      '--extend-exclude=',
      '--target-version=',
      '--line-length=',
      '--preview',
      '--no-preview',
      '--isolated',
      '--force-exclude',
      '--respect-gitignore',
      '--no-respect-gitignore',
    ],
  },
  install: {
    hint: 'install ruff in the project (uv add --dev ruff, or pip install ruff) and put its bin directory on PATH',
  },
};

import { golangciLintJsonParser } from '../parsers/golangci-json.js';
import { lintScriptKind, optionValue } from './shared.js';
import type { ProjectFacts, ToolDescriptor } from './tool.js';

const CONFIG_FILES = ['.golangci.yml', '.golangci.yaml', '.golangci.toml', '.golangci.json'];

/**
 * Whether the config is golangci-lint v2's: v2 refuses a config without `version: "2"`,
 * and v1 knows no such key, so the config says which major the repository runs.
 */
function isVersion2Config(project: ProjectFacts, source: string): boolean {
  // A gate read from another source (a workflow step, a hook) runs with the repository's config.
  const config = CONFIG_FILES.includes(source)
    ? source
    : (CONFIG_FILES.find((name) => project.exists(name)) ?? source);
  const text = project.readText(config) ?? '';
  return /^\s*["']?version["']?\s*[:=]\s*["']?2["']?\s*,?\s*(#.*)?$/m.test(text);
}

export const golangciLint: ToolDescriptor = {
  name: 'golangci-lint',
  programs: ['golangci-lint'],
  recognise: {
    configFiles: CONFIG_FILES,
    scriptWords: ['golangci-lint'],
    preCommitHooks: ['golangci-lint', 'golangci-lint-full'],
  },
  // v1 prints JSON with --out-format json; v2 dropped that flag for --output.json.path
  // (and prints statistics after the JSON unless --show-stats=false).
  gates: (project, source) => [
    {
      name: 'golangci-lint',
      description: `golangci-lint over every package (${isVersion2Config(project, source) ? 'v2' : 'v1'} config)`,
      command: isVersion2Config(project, source)
        ? ['golangci-lint', 'run', '--output.json.path', 'stdout', '--show-stats=false']
        : ['golangci-lint', 'run', '--out-format', 'json'],
      fix: ['golangci-lint', 'run', '--fix'],
      parser: golangciLintJsonParser.name,
      // It lints packages: named files must share one directory, so a call takes no paths.
      paths: 'none',
      source,
    },
  ],
  extensions: ['go'],
  // Its analysis cache is in the user cache directory (GOLANGCI_LINT_CACHE, default
  // ~/.cache/golangci-lint) and Go's build cache (GOCACHE), never the tree; both are keyed
  // by content, so a run that reuses them answers as a cold one.
  outputs: [{ parser: golangciLintJsonParser, machineFormat: true }],
  script: {
    // `run` only: `fmt` (v2) rewrites files. Its default text is `file:line:col: message (linter)`.
    commandParser(args) {
      if (args[0] !== 'run') return undefined;
      const v1 = optionValue(args, '--out-format');
      const v2 = optionValue(args, '--output.json.path');
      if (v1 === 'json' || v2 === 'stdout') return golangciLintJsonParser.name;
      return v1 === undefined && v2 === undefined ? 'generic' : undefined;
    },
    kind: lintScriptKind,
  },
  warm: { cold: 'native (Go), starts fast; it keeps its own content-keyed cache' },
  commands: {
    // golangci/golangci-lint's hooks fix. `--new-from-rev HEAD` is left out: on a clean
    // tree it reports nothing, and a gate checks the whole project.
    hooks: {
      'golangci-lint': { entry: ['golangci-lint', 'run', '--fix'] },
      'golangci-lint-full': { entry: ['golangci-lint', 'run', '--fix'] },
    },
    keepOptions: [
      '--config=',
      '-c=',
      '--enable=',
      '-E=',
      '--disable=',
      '-D=',
      '--enable-only=',
      '--build-tags=',
      '--timeout=',
      '--no-config',
    ],
  },
  install: {
    hint: 'install golangci-lint with go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@latest (v1 configs: .../golangci-lint/cmd/golangci-lint@v1.64.8), or a release binary (https://golangci-lint.run/welcome/install/); put its directory (~/go/bin) on PATH',
  },
};

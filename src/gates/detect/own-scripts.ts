import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_TIMEOUT_MS, GATE_NAME_PATTERN, type GateSpec } from '../gate-spec.js';
import type { ProjectFacts } from '../tools/tool.js';
import type { NotServed } from './tool-command.js';

/** Where a repository keeps its own scripts. */
const SCRIPT_DIRECTORIES = ['scripts', 'script', 'bin', 'tools', 'ci', 'hack', 'dev'];
/**
 * A lint script by its name (extension left out): `lint`, `run-lint`, `lint-docs`,
 * `check-style`, `check_format`, `verify-gofmt`. A `check` or `test` script may run
 * anything: not taken.
 */
const LINT_NAME =
  /(^|[-_.])lint([-_.]|$)|^check[-_](style|format|fmt|lint|spelling|headers?)$|^verify[-_](lint|style|gofmt|format|fmt)$/i;
/** How a script that is not executable is run, by its extension. */
const INTERPRETERS: Record<string, string> = {
  '.sh': 'bash',
  '.bash': 'bash',
  '.py': 'python3',
  '.js': 'node',
  '.mjs': 'node',
  '.cjs': 'node',
};
/** The gate sources that may run a script of the repository (then served from there). */
const RUNNING_SOURCES = [
  'package.json',
  'Makefile',
  'makefile',
  'GNUmakefile',
  'justfile',
  'Justfile',
  '.justfile',
  'tox.ini',
  'noxfile.py',
  '.pre-commit-config.yaml',
];

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return process.platform !== 'win32';
  } catch {
    return false;
  }
}

/** The argv that runs a repository script as its CI would, or undefined when none does. */
function scriptCommand(root: string, relative: string): string[] | undefined {
  const extension = path.extname(relative).toLowerCase();
  if (executable(path.join(root, relative))) return [`./${relative}`];
  const interpreter = INTERPRETERS[extension];
  return interpreter === undefined ? undefined : [interpreter, relative];
}

/**
 * The repository's own lint scripts (`scripts/lint.sh`, `tools/check_style.py`): served as
 * gates read by the generic parser, so a finding its output places at file:line is one.
 * A script another gate source names (a Make target, a package.json script, a hook) is
 * served from there, and said so. It is no known read-only check: the run's tree watch
 * fails one that changes the tree.
 */
export function ownScriptGates(
  project: ProjectFacts,
  taken: ReadonlySet<string>,
): { gates: GateSpec[]; notServed: NotServed[] } {
  const gates: GateSpec[] = [];
  const notServed: NotServed[] = [];
  const names = new Set(taken);
  const sources = RUNNING_SOURCES.map((file) => ({ file, text: project.readText(file) }));
  for (const directory of SCRIPT_DIRECTORIES) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(project.root, directory), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const base = entry.name.replace(/\.[^.]+$/, '');
      if (!entry.isFile() || !LINT_NAME.test(base)) continue;
      const relative = `${directory}/${entry.name}`;
      const name = `${relative} (the repository's own lint script)`;
      const runner = sources.find(({ text }) => text?.includes(relative));
      if (runner) {
        notServed.push({
          source: relative,
          name,
          why: `${runner.file} runs it: it is served as that source's gate, if that one is`,
        });
        continue;
      }
      const command = scriptCommand(project.root, relative);
      if (!command) {
        notServed.push({
          source: relative,
          name,
          why: 'it is neither executable nor a .sh, .py or .js file: how it runs is not known (name it in mcp-gates.json)',
        });
        continue;
      }
      const wanted = base.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^[^A-Za-z]+/, '');
      const gateName = names.has(wanted) ? `${directory}.${wanted}` : wanted;
      if (!GATE_NAME_PATTERN.test(gateName) || names.has(gateName)) continue;
      names.add(gateName);
      gates.push({
        name: gateName,
        description: `The repository's own lint script ${relative}, its output read as file:line findings; it is no known read-only check: a run that changes the tree fails`,
        command,
        fix: null,
        parser: 'generic',
        paths: 'none',
        timeoutMs: DEFAULT_TIMEOUT_MS,
        source: relative,
      });
    }
  }
  return { gates, notServed };
}

import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_TIMEOUT_MS, type FileFilter, type GateSpec } from '../gate-spec.js';
import { toolOfProgram } from '../tools/index.js';
import type { ProjectFacts } from '../tools/tool.js';
import { readOnlyProgram, unwrap } from './read-only-program.js';
import { splitChain } from './scripts.js';
import { parseSource, readSourceText } from './source-document.js';
import {
  inDirectory,
  toolCheck,
  withArguments,
  type CheckCoverage,
  type NotServed,
} from './tool-command.js';

/** A command a workflow step runs, read from its `run:` (or an action's inputs), and where. */
interface StepCommand {
  argv: string[];
  /** The command as the workflow writes it, for descriptions. */
  written: string;
  /** `find <dirs> -exec tool {} +` or `… | xargs tool`: the files come from the shell, in these directories. */
  fileSource?: { how: 'find' | 'xargs' | 'action'; directories: string[] };
  /** `NAME=value` words before the command: the gate does not set them. */
  assigns?: string[];
  /** The action installs golangci-lint v2, which refuses v1's options. */
  golangciV2?: boolean;
}

/** One step of a workflow job (or a GitLab job's script). */
interface WorkflowStep {
  file: string;
  job: string;
  /** The job's `name:`, when it has one (`Check types using supported type checkers`). */
  jobName?: string;
  /** The step's name, else what it uses or runs. */
  name: string;
  run?: string;
  uses?: string;
  with: Record<string, string>;
  env: Record<string, string>;
  workingDirectory?: string;
  shell?: string;
  /** The job's literal matrix: each name's values (scalars only). */
  matrix: Map<string, string[]>;
}

const WORKFLOW_DIRECTORY = '.github/workflows';
const GITLAB_CI = '.gitlab-ci.yml';
/** GitLab's top-level keys that are not jobs. */
const GITLAB_KEYWORDS = new Set([
  'stages',
  'variables',
  'default',
  'include',
  'workflow',
  'image',
  'services',
  'cache',
  'before_script',
  'after_script',
  'pages',
]);
/** Matrix combinations a `run:` is read for, at most (each is the same step with other values). */
const MATRIX_LIMIT = 32;

const scalar = (value: unknown): string | undefined =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : undefined;

function scalars(value: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  if (value && typeof value === 'object' && !Array.isArray(value))
    for (const [key, item] of Object.entries(value)) {
      const text = scalar(item);
      if (text !== undefined) result[key] = text;
    }
  return result;
}

function literalMatrix(strategy: unknown): Map<string, string[]> {
  const matrix = new Map<string, string[]>();
  const raw = (strategy as { matrix?: unknown } | undefined)?.matrix;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return matrix;
  for (const [name, values] of Object.entries(raw)) {
    if (!Array.isArray(values)) continue;
    const texts = values.map(scalar);
    if (texts.every((text): text is string => text !== undefined)) matrix.set(name, texts);
  }
  return matrix;
}

/** The steps of a GitHub Actions workflow document. */
function githubSteps(file: string, document: unknown): WorkflowStep[] {
  const steps: WorkflowStep[] = [];
  const workflow = (document ?? {}) as Record<string, unknown>;
  const workflowDefaults = scalars(
    (workflow.defaults as { run?: unknown } | undefined)?.run as unknown,
  );
  const jobs = workflow.jobs;
  if (!jobs || typeof jobs !== 'object') return steps;
  for (const [job, rawJob] of Object.entries(jobs as Record<string, unknown>)) {
    if (!rawJob || typeof rawJob !== 'object') continue;
    const definition = rawJob as Record<string, unknown>;
    const defaults = {
      ...workflowDefaults,
      ...scalars((definition.defaults as { run?: unknown } | undefined)?.run),
    };
    const matrix = literalMatrix(definition.strategy);
    if (!Array.isArray(definition.steps)) continue;
    for (const rawStep of definition.steps as unknown[]) {
      if (!rawStep || typeof rawStep !== 'object') continue;
      const step = rawStep as Record<string, unknown>;
      const run = scalar(step.run);
      const uses = scalar(step.uses);
      const workingDirectory = scalar(step['working-directory']) ?? defaults['working-directory'];
      const shell = scalar(step.shell) ?? defaults.shell;
      steps.push({
        file,
        job,
        ...(scalar(definition.name) !== undefined ? { jobName: scalar(definition.name)! } : {}),
        name: scalar(step.name) ?? uses ?? (run ?? '').trim().split('\n')[0]!,
        ...(run !== undefined ? { run } : {}),
        ...(uses !== undefined ? { uses } : {}),
        with: scalars(step.with),
        env: scalars(step.env),
        ...(workingDirectory !== undefined ? { workingDirectory } : {}),
        ...(shell !== undefined ? { shell } : {}),
        matrix,
      });
    }
  }
  return steps;
}

/** The `script:` of each job of a .gitlab-ci.yml, as one step each (`before_script` installs). */
function gitlabSteps(document: unknown): WorkflowStep[] {
  const steps: WorkflowStep[] = [];
  if (!document || typeof document !== 'object') return steps;
  for (const [job, rawJob] of Object.entries(document as Record<string, unknown>)) {
    if (GITLAB_KEYWORDS.has(job) || job.startsWith('.') || !rawJob || typeof rawJob !== 'object')
      continue;
    const script = (rawJob as { script?: unknown }).script;
    const lines = Array.isArray(script) ? script.map(scalar) : [scalar(script)];
    if (lines.some((line) => line === undefined)) continue;
    steps.push({
      file: GITLAB_CI,
      job,
      name: job,
      run: lines.join('\n'),
      with: {},
      env: {},
      matrix: new Map(),
    });
  }
  return steps;
}

/** A `run:` block's commands lines: continuations joined, comments and blank lines dropped. */
function runLines(run: string): string[] {
  const lines: string[] = [];
  let pending = '';
  for (const raw of run.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    // A trailing `# comment` is the shell's, where no quote could hold the `#`.
    const joined = (pending + line).replace(/^([^'"#]*?)\s+#.*$/, '$1').trim();
    pending = '';
    if (joined !== '' && !joined.startsWith('#')) lines.push(joined);
  }
  if (pending.trim() !== '') lines.push(pending.trim());
  return lines;
}

/**
 * The line with `${{ matrix.x }}` replaced by each literal value the job's matrix gives
 * (one line per combination), or why it cannot be read (another expression, a value
 * the matrix does not list literally).
 */
function expandMatrix(line: string, matrix: ReadonlyMap<string, string[]>): string[] | string {
  const expressions = [...line.matchAll(/\$\{\{\s*([^}]*?)\s*\}\}/g)];
  if (expressions.length === 0) return [line];
  let variants = [line];
  for (const expression of expressions) {
    const name = /^matrix\.([A-Za-z_][\w-]*)$/.exec(expression[1]!)?.[1];
    const values = name === undefined ? undefined : matrix.get(name);
    if (values === undefined)
      return `\`${expression[0]}\` is an expression a gate cannot evaluate (only a literal matrix value is read)`;
    variants = variants.flatMap((variant) =>
      values.map((value) => variant.split(expression[0]).join(value)),
    );
    if (variants.length > MATRIX_LIMIT)
      return `its matrix gives more than ${MATRIX_LIMIT} commands, which a gate does not expand`;
  }
  return [...new Set(variants)];
}

/** A line split at the shell's `&&`, `||`, `;` and `|` outside quotes, each with the separator before it. */
function splitShell(line: string): { text: string; after: string }[] | undefined {
  const parts: { text: string; after: string }[] = [];
  let current = '';
  let after = '';
  let quote: string | undefined;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    if (quote) {
      if (char === quote) quote = undefined;
      current += char;
      continue;
    }
    if (char === "'" || char === '"') quote = char;
    else if (char === '\\') {
      // `\;` ends a find -exec: a word, not a separator.
      current += line.slice(index, index + 2);
      index += 1;
      continue;
    } else if ('&|;'.includes(char)) {
      const double = line.slice(index, index + 2);
      const separator = double === '&&' || double === '||' ? double : char;
      if (separator === '&') return undefined; // a background job
      parts.push({ text: current.trim(), after });
      after = separator;
      current = '';
      index += separator.length - 1;
      continue;
    }
    current += char;
  }
  if (quote) return undefined;
  parts.push({ text: current.trim(), after });
  return parts.filter((part) => part.text !== '');
}

/** `NAME=value` words before a command set its environment. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=\S*$/;

/** A shell command's words, read as splitChain reads a script (quotes, no expansion), or undefined. */
function commandWords(text: string): { argv: string[]; assigns: string[] } | undefined {
  // find's `{}` and `\;` are words to the shell: quoted, splitChain reads them.
  const words = splitChain(text.replace(/(^|\s)\{\}(?=\s|$)/g, "$1'{}'").replace(/\\;/g, "';'"));
  if (!words || words.length !== 1) {
    // `FOO=1 ruff check .`: the assignments are left out of the command (and said).
    const [first, ...rest] = text.split(/\s+/);
    if (first !== undefined && ASSIGNMENT.test(first) && rest.length > 0) {
      const inner = commandWords(rest.join(' '));
      return inner && { argv: inner.argv, assigns: [first, ...inner.assigns] };
    }
    return undefined;
  }
  return { argv: words[0]!, assigns: [] };
}

/** xargs options that take no value, and those that take one (`-n 1`); `-I` replaces, which is not read. */
const XARGS_FLAGS = new Set(['-0', '--null', '-r', '--no-run-if-empty', '-t', '--verbose']);
const XARGS_VALUES = new Set(['-n', '--max-args', '-P', '--max-procs', '-d', '--delimiter']);

/**
 * What a line runs, each command's words, or why it cannot be read. `find <dirs> … -exec
 * tool … {} +` and `… | xargs tool …` run the tool on files the shell lists: the tool's
 * command is kept, with the directories find starts from.
 */
function lineCommands(line: string): StepCommand[] | string {
  const parts = splitShell(line);
  if (!parts) return `\`${line}\` has shell syntax a gate does not read`;
  const commands: StepCommand[] = [];
  let feeder: string[] | undefined;
  for (const part of parts) {
    const words = commandWords(part.text);
    if (!words) return `\`${part.text}\` has shell syntax a gate does not read`;
    const argv = words.argv;
    if (part.after === '|' && argv[0] === 'xargs') {
      let index = 1;
      while (index < argv.length && argv[index]!.startsWith('-')) {
        if (XARGS_VALUES.has(argv[index]!)) index += 1;
        else if (!XARGS_FLAGS.has(argv[index]!))
          return `\`${part.text}\`'s xargs option \`${argv[index]}\` is not read`;
        index += 1;
      }
      const directories =
        feeder?.[0] === 'find'
          ? findDirectories(feeder)
          : feeder?.[0] === 'git'
            ? ['.']
            : undefined;
      if (!directories)
        return `\`${line}\` gives xargs files from \`${(feeder ?? []).join(' ')}\`, which a gate does not read`;
      commands.pop();
      commands.push({
        argv: argv.slice(index),
        written: line,
        fileSource: { how: 'xargs', directories },
        ...(words.assigns.length > 0 ? { assigns: words.assigns } : {}),
      });
      feeder = undefined;
      continue;
    }
    if (part.after === '|') commands.pop(); // what a pipe reads is no check of its own
    feeder = argv;
    const exec = argv.findIndex((word) => word === '-exec' || word === '-execdir');
    if (argv[0] === 'find' && exec !== -1) {
      const end = argv.findIndex((word, index) => index > exec && (word === '+' || word === ';'));
      const tool = argv
        .slice(exec + 1, end === -1 ? undefined : end)
        .filter((word) => word !== '{}');
      commands.push({
        argv: tool,
        written: line,
        fileSource: { how: 'find', directories: findDirectories(argv) },
        ...(words.assigns.length > 0 ? { assigns: words.assigns } : {}),
      });
      continue;
    }
    commands.push({
      argv,
      written: line,
      ...(words.assigns.length > 0 ? { assigns: words.assigns } : {}),
    });
  }
  return commands;
}

/** What a `run:` script runs, line by line, or why it cannot be read as a whole. */
function runCommands(run: string, matrix: ReadonlyMap<string, string[]>): StepCommand[] | string {
  const commands: StepCommand[] = [];
  for (const line of runLines(run)) {
    const expanded = expandMatrix(line, matrix);
    if (typeof expanded === 'string') return expanded;
    for (const variant of expanded) {
      const read = lineCommands(variant);
      if (typeof read === 'string') return read;
      commands.push(...read);
    }
  }
  return commands;
}

/** Whether a script names a program of a known tool (`shellcheck`, `ruff`) as a word. */
function namesKnownTool(run: string): boolean {
  return run.split(/[\s;&|()'"`]+/).some((word) => {
    const tool = toolOfProgram(word);
    return tool !== undefined && tool.gates !== undefined && word === tool.programs[0];
  });
}

/** The directories `find` starts from (its words before the first test). */
function findDirectories(argv: readonly string[]): string[] {
  const directories: string[] = [];
  for (const word of argv.slice(1)) {
    if (word.startsWith('-') || word === '(' || word === '!') break;
    directories.push(word.replace(/^\.\/(?=.)/, '').replace(/(?<=.)\/+$/, ''));
  }
  return directories.length > 0 ? directories : ['.'];
}

/** Words that make a step a check in its name or command, for saying why it is not served. */
const CHECK_WORDS =
  /(^|[^a-z_])(lint|linter|linting|check|checks|format|fmt|spell|spelling|codespell|style|typecheck|type-check|typing|types|vet|eslint|prettier|mypy|pyright|ruff|black|flake8|pylint|shellcheck|shfmt|markdownlint|stylelint|golangci-lint)([^a-z_]|$)/i;
/** Programs and package scripts a check step never is (installs, tests, builds, publishing). */
const NEVER_CHECKS =
  /^(pip|pip3|pipx|uv|poetry|pdm|hatch|conda|npm|pnpm|yarn|bun|npx|apt|apt-get|brew|choco|docker|twine|pytest|jest|mocha|build|curl|wget|git|cd|echo|export|mkdir|cp|mv|rm|sudo|chmod|ls|cat|tee|gh|cog|gem)$/;
/** A known tool's commands that install, build or test (`go install …/shfmt@latest`): no check. */
const NEVER_CHECK_SUBCOMMANDS =
  /^(go (install|get|build|mod|generate|run|test)|cargo (install|build|test|run))$/;

function looksLikeCheck(step: WorkflowStep, argv: readonly string[]): boolean {
  return CHECK_WORDS.test(`${step.name} ${step.jobName ?? ''} ${argv.join(' ')}`);
}

/**
 * A command past the runners that fetch a tool to run it (`uvx --with tox-uv tox …`,
 * `pipx run tox …`): the tool's own command, as `unwrap` gives the project's runners'.
 */
function pastFetchers(words: readonly string[]): string[] {
  const fetcher = words[0] === 'uvx' ? 1 : words[0] === 'pipx' && words[1] === 'run' ? 2 : 0;
  if (fetcher === 0) return [...words];
  let index = fetcher;
  while (index < words.length && words[index]!.startsWith('-'))
    index += ['--with', '--from', '--python', '-p', '--spec'].includes(words[index]!) ? 2 : 1;
  return words.slice(index);
}

/** Runners of a project's own named tasks: their checks are served from those sources. */
export function runnerTask(
  argv: readonly string[],
): { runner: string; task: string; factor?: boolean } | undefined {
  const [program, first, second] = argv;
  if (program === undefined) return undefined;
  if (['npm', 'pnpm', 'yarn', 'bun'].includes(program)) {
    const task = first === 'run' || first === 'run-script' ? second : first;
    if (task === undefined || ['install', 'ci', 'add', 'exec', 'dlx', 'x'].includes(task))
      return undefined;
    return { runner: program, task };
  }
  if (program === 'make' || program === 'just')
    return first === undefined || first.startsWith('-')
      ? undefined
      : { runner: program, task: first };
  if (program === 'tox') {
    // `tox -e env`, `tox run -e env`, `tox run -f factor`.
    const args = first === 'run' || first === 'r' ? argv.slice(2) : argv.slice(1);
    const at = args.findIndex((word) => word === '-e' || word === '-f');
    if (at === -1 || args[at + 1] === undefined) return undefined;
    return args[at] === '-f'
      ? { runner: program, task: args[at + 1]!, factor: true }
      : { runner: program, task: args[at + 1]! };
  }
  if (program === 'nox' && first === '-s')
    return second === undefined ? undefined : { runner: program, task: second };
  if (program === 'pre-commit' && first === 'run') return { runner: program, task: 'run' };
  return undefined;
}

/**
 * What a package manager's task runs when it is one command of a known tool: the
 * package.json script's body (`"test:eslint": "eslint ."`), or, for a name that is no
 * script, the program yarn, pnpm and bun run by that name (`yarn prettier --check .`).
 */
function packageCommand(
  project: ProjectFacts,
  task: { runner: string; task: string },
  words: readonly string[],
): string[] | undefined {
  if (!['npm', 'pnpm', 'yarn', 'bun'].includes(task.runner)) return undefined;
  const scripts = (project.packageJson?.scripts ?? {}) as Record<string, unknown>;
  const body = scripts[task.task];
  const command =
    typeof body === 'string'
      ? splitChain(body)?.length === 1
        ? unwrap(splitChain(body)![0]!)
        : undefined
      : task.runner !== 'npm' && words[1] === task.task
        ? words.slice(1)
        : undefined;
  return command !== undefined && toolOfProgram(command[0] ?? '') !== undefined
    ? command
    : undefined;
}

/** Where a runner's tasks are written, and the gate that serves a task, if any. */
function taskGate(
  runner: string,
  task: string,
  gates: readonly GateSpec[],
  factor = false,
): GateSpec | undefined {
  // `tox -f typing` runs every env with that factor (`typing-mypy`, `typing-pyright`).
  if (factor)
    return gates.find(
      (gate) =>
        gate.source === 'tox.ini' &&
        (/tox env "([^"]+)"/.exec(gate.description)?.[1]?.split('-').includes(task) ?? false),
    );
  return gates.find((gate) => {
    const last = gate.command[gate.command.length - 1];
    if (['npm', 'pnpm', 'yarn', 'bun'].includes(runner))
      return (
        gate.source === 'package.json' &&
        (last === task || gate.description.includes(`package.json script "${task}"`))
      );
    if (runner === 'make' || runner === 'just') return gate.command[0] === runner && last === task;
    return (
      gate.source === (runner === 'tox' ? 'tox.ini' : 'noxfile.py') &&
      gate.description.includes(`"${task}"`)
    );
  });
}

/**
 * Why a command that runs a project's task (`make lint`, `npm run lint`, `tox -e lint`) is
 * no gate of its own: the gate that serves the task, or that none does.
 */
/**
 * The gate serving a repository script a step runs (`./scripts/lint.sh`, `bash
 * scripts/lint.sh`, `python tools/check.py`): the own-script gate whose source it is.
 */
function ownScriptGate(
  words: readonly string[],
  workingDirectory: string | undefined,
  gates: readonly GateSpec[],
): GateSpec | undefined {
  const program = /^(ba|z)?sh$|^python3?$|^node$/.test(words[0]!) ? words[1] : words[0];
  if (program === undefined || program.startsWith('-')) return undefined;
  const file = path.posix.normalize(path.posix.join(workingDirectory ?? '.', program));
  return gates.find((gate) => gate.source === file);
}

export function taskServedBy(
  words: readonly string[],
  task: { runner: string; task: string; factor?: boolean },
  gates: readonly GateSpec[],
): string {
  const gate = taskGate(task.runner, task.task, gates, task.factor);
  if (gate && task.factor) {
    const all = gates.filter(
      (candidate) =>
        candidate.source === 'tox.ini' &&
        (/tox env "([^"]+)"/.exec(candidate.description)?.[1]?.split('-').includes(task.task) ??
          false),
    );
    return `it runs \`${words.join(' ')}\`, the tox envs with factor "${task.task}": ${all.map((one) => `\`${one.name}\``).join(', ')} (tox.ini) serve those whose commands mcp-gates reads (list names the others)`;
  }
  if (gate)
    return `it runs \`${words.join(' ')}\`, which gate \`${gate.name}\` (${gate.source}) serves`;
  const where =
    task.runner === 'make' || task.runner === 'just'
      ? `the ${task.runner} target`
      : `the ${task.runner} task`;
  return `it runs \`${words.join(' ')}\`, which no gate serves (see what list says of ${where} "${task.task}")`;
}

/** Tools that find their config beside the files they check, so a step's working directory can be given as a path. */
const CONFIG_BY_FILE = new Set(['ruff', 'shellcheck', 'black']);

/** An action's input as words (`args: check --select E`), or none. */
function inputWords(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(/\s+/).filter(Boolean);
}

const truthy = (value: string | undefined) => value !== undefined && /^(true|yes|1)$/i.test(value);

/**
 * Actions that run a known tool, and the command their inputs make. A sentence is why
 * the step cannot be served as the action runs it.
 */
const CHECK_ACTIONS: Record<
  string,
  (step: WorkflowStep) => { command: StepCommand; notes: string[] } | string
> = {
  'ludeeus/action-shellcheck': (step) => {
    const input = step.with;
    const unapplied = ['ignore_paths', 'ignore_names'].filter((key) => input[key]);
    if (unapplied.length > 0)
      return `its ${unapplied.map((key) => `\`${key}: ${input[key]}\``).join(' and ')} cannot be applied: the check would fail on files the action leaves out`;
    const options = [
      ...(input.severity ? [`--severity=${input.severity}`] : []),
      ...inputWords(step.env.SHELLCHECK_OPTS),
    ];
    const directory = (input.scandir ?? '.').replace(/^\.\/(?=.)/, '').replace(/(?<=.)\/+$/, '');
    return {
      command: {
        argv: ['shellcheck', ...options],
        written: `ludeeus/action-shellcheck (${
          Object.entries(input)
            .map(([key, value]) => `${key}: ${value}`)
            .join(', ') || 'no inputs'
        })`,
        fileSource: { how: 'action', directories: [directory] },
      },
      notes: input.additional_files
        ? [
            `the action's additional_files (${input.additional_files}) are checked only where shellcheck's own selection takes them`,
          ]
        : [],
    };
  },
  // It runs ShellCheck over the shell scripts it finds and reports only what a change adds.
  'redhat-plumbers-in-action/differential-shellcheck': (step) => {
    const input = step.with;
    if (input['exclude-path'] || input['include-path'])
      return `its ${input['exclude-path'] ? `\`exclude-path: ${input['exclude-path']}\`` : `\`include-path: ${input['include-path']}\``} cannot be applied: the check would read other files than the action`;
    return {
      command: {
        argv: ['shellcheck', ...(input.severity ? [`--severity=${input.severity}`] : [])],
        written: `redhat-plumbers-in-action/differential-shellcheck${input.severity ? ` (severity: ${input.severity})` : ''}`,
        fileSource: { how: 'action', directories: ['.'] },
      },
      notes: [
        'the action reports only the findings a change adds; this gate reports every finding (a call with new: true compares with a baseline)',
      ],
    };
  },
  'codespell-project/actions-codespell': (step) => {
    const input = step.with;
    const options: string[] = [];
    const valued: Record<string, string> = {
      ignore_words_file: '--ignore-words',
      ignore_words_list: '--ignore-words-list',
      skip: '--skip',
      builtin: '--builtin',
      uri_ignore_words_list: '--uri-ignore-words-list',
    };
    for (const [key, option] of Object.entries(valued))
      if (input[key]) options.push(`${option}=${input[key]}`);
    if (truthy(input.check_filenames)) options.push('--check-filenames');
    if (truthy(input.check_hidden)) options.push('--check-hidden');
    if (input.exclude_file)
      return `its \`exclude_file: ${input.exclude_file}\` is not applied by a gate`;
    const notes = truthy(input.only_warn)
      ? ['the action only warns (only_warn): this gate fails where it warns']
      : [];
    return {
      command: {
        argv: ['codespell', ...options, ...inputWords(input.path)],
        written: `codespell-project/actions-codespell (${
          Object.entries(input)
            .map(([key, value]) => `${key}: ${value}`)
            .join(', ') || 'no inputs'
        })`,
      },
      notes,
    };
  },
  'golangci/golangci-lint-action': (step) => {
    const input = step.with;
    const notes = truthy(input['only-new-issues'])
      ? ['the action reports only new issues (only-new-issues); this gate reports every issue']
      : [];
    if (input.version) notes.push(`the action pins golangci-lint ${input.version}`);
    const args = inputWords(input.args);
    // golangci-lint-action v7 and later install v2 unless `version` says otherwise.
    const major = Number(/@v(\d+)/.exec(step.uses ?? '')?.[1] ?? 0);
    const v2 = input.version === undefined ? major >= 7 : /^v?2(\.|$)/.test(input.version);
    return {
      command: {
        ...(v2 ? { golangciV2: true } : {}),
        argv: ['golangci-lint', 'run', ...args],
        written: `golangci/golangci-lint-action${args.length > 0 ? ` (args: ${args.join(' ')})` : ''}`,
      },
      notes,
    };
  },
  'astral-sh/ruff-action': ruffAction('astral-sh/ruff-action'),
  'chartboost/ruff-action': ruffAction('chartboost/ruff-action'),
  'psf/black': (step) => {
    const input = step.with;
    const options = inputWords(input.options ?? '--check --diff');
    return {
      command: {
        argv: ['black', ...options, ...inputWords(input.src ?? '.')],
        written: `psf/black (options: ${options.join(' ')})`,
      },
      notes: [],
    };
  },
};

function ruffAction(
  name: string,
): (step: WorkflowStep) => { command: StepCommand; notes: string[] } {
  return (step) => {
    const args = inputWords(step.with.args ?? 'check');
    const src = inputWords(step.with.src);
    return {
      command: {
        argv: ['ruff', ...args, ...src],
        written: `${name} (args: ${args.join(' ')}${src.length > 0 ? `; src: ${src.join(' ')}` : ''})`,
      },
      notes: step.with.version ? [`the action pins ruff ${step.with.version}`] : [],
    };
  };
}

/** Check actions whose tool mcp-gates does not know (yet): listed, not served. */
const UNKNOWN_CHECK_ACTIONS = new Set([
  'github/super-linter',
  'super-linter/super-linter',
  'oxsecurity/megalinter',
  'hadolint/hadolint-action',
  'ibiqlik/action-yamllint',
  'rhysd/actionlint',
  'raven-actions/actionlint',
  'crate-ci/typos',
  'streetsidesoftware/cspell-action',
  'davidanson/markdownlint-cli2-action',
  'nosborn/github-action-markdown-cli',
  'articulate/actions-markdownlint',
  'wearerequired/lint-action',
  'py-actions/flake8',
  'errata-ai/vale-action',
  'mvdan/sh-action',
]);

/** The files of the root's workflows: .github/workflows/*.yml|yaml in name order, then .gitlab-ci.yml. */
function workflowFiles(project: ProjectFacts): string[] {
  let names: string[] = [];
  try {
    names = fs
      .readdirSync(path.join(project.root, WORKFLOW_DIRECTORY))
      .filter((name) => /\.ya?ml$/.test(name))
      .sort();
  } catch {
    // no workflows
  }
  const files = names.map((name) => `${WORKFLOW_DIRECTORY}/${name}`);
  if (project.exists(GITLAB_CI)) files.push(GITLAB_CI);
  return files;
}

/**
 * Gates from the checks the repository's CI workflows run (.github/workflows/*.yml,
 * .gitlab-ci.yml): each `run:` line is read as a script is (chains, `find … -exec tool {}
 * +`, `… | xargs tool`, `NAME=value` prefixes, a literal matrix's values), and the
 * actions of known check tools are read with their inputs. Only a known tool's read-only
 * check is served (readOnlyProgram decides, as for Make targets); installs, builds,
 * tests, deploys and publishing never are. A check an earlier gate runs (the same tool,
 * options that change findings and paths) is not served again, and says so; a check step
 * that cannot be served is listed with why.
 */
export function workflowGates(
  project: ProjectFacts,
  ruffFixes: boolean,
  earlierGates: readonly GateSpec[],
  coverage: CheckCoverage,
): { gates: GateSpec[]; notServed: NotServed[] } {
  const gates: GateSpec[] = [];
  const notServed: NotServed[] = [];
  const names = new Set(earlierGates.map((gate) => gate.name));
  for (const file of workflowFiles(project)) {
    const text = readSourceText(path.join(project.root, file));
    if (text === undefined) continue;
    const document = typeof text === 'string' ? parseSource(text, 'yaml') : text;
    if ('problem' in document) {
      notServed.push({ source: file, name: '(all jobs)', why: document.problem });
      continue;
    }
    const steps =
      file === GITLAB_CI ? gitlabSteps(document.value) : githubSteps(file, document.value);
    for (const step of steps) {
      const label = `job ${step.job}, step "${step.name}"`.slice(0, 120);
      const skip = (why: string) => {
        if (
          !notServed.some(
            (entry) => entry.source === file && entry.name === label && entry.why === why,
          )
        )
          notServed.push({ source: file, name: label, why });
      };
      const commands: { command: StepCommand; notes: string[] }[] = [];
      if (step.uses !== undefined) {
        const action = step.uses.split('@')[0]!.toLowerCase().split('/').slice(0, 2).join('/');
        const known = CHECK_ACTIONS[action];
        if (action === 'pre-commit/action') {
          skip(
            project.exists('.pre-commit-config.yaml')
              ? 'it runs pre-commit: each hook of .pre-commit-config.yaml whose tool is known is served from there (list names the others and why)'
              : 'it runs pre-commit, and there is no .pre-commit-config.yaml to read its hooks from',
          );
          continue;
        }
        if (!known) {
          // A problem matcher or a setup action checks nothing (codespell-problem-matcher).
          if (
            UNKNOWN_CHECK_ACTIONS.has(action) ||
            action.startsWith('reviewdog/') ||
            (/lint|spell|format|fmt/.test(action) && !/matcher|setup|install/.test(action))
          )
            skip(`mcp-gates knows no tool that the action ${action} runs`);
          continue;
        }
        const read = known(step);
        if (typeof read === 'string') {
          skip(read);
          continue;
        }
        commands.push(read);
      } else if (step.run !== undefined) {
        if (step.shell !== undefined && !/^(bash|sh)\b/.test(step.shell)) {
          if (CHECK_WORDS.test(step.name))
            skip(`it runs in \`shell: ${step.shell}\`, which a gate does not read`);
          continue;
        }
        // A script with a line a gate cannot read (control flow, variables, a multi-line
        // string) is not split into its lines: what they run depends on the rest.
        const read = runCommands(step.run, step.matrix);
        if (typeof read === 'string') {
          if (CHECK_WORDS.test(`${step.name} ${read}`) || namesKnownTool(step.run)) skip(read);
          continue;
        }
        commands.push(...read.map((command) => ({ command, notes: [] })));
      }
      for (const { command, notes } of commands) {
        let words = unwrap(pastFetchers(command.argv));
        if (words.length === 0) continue;
        const task = runnerTask(words);
        if (task) {
          if (task.runner === 'pre-commit') {
            skip('it runs pre-commit: the hooks of .pre-commit-config.yaml are served from there');
            continue;
          }
          const served = [...earlierGates, ...gates];
          const gate = taskGate(task.runner, task.task, served, task.factor);
          // A script no gate serves that is one known command (`"test:eslint": "eslint ."`),
          // or a package's program run by name (`yarn prettier --check .`), is that command.
          const inner = gate ? undefined : packageCommand(project, task, words);
          if (gate || (inner === undefined && CHECK_WORDS.test(task.task)))
            skip(taskServedBy(words, task, served));
          if (inner === undefined) continue;
          words = inner;
        }
        const check = toolCheck(
          words,
          relativeTo(asGolangciV2(project, file, command), step.workingDirectory),
          {
            source: file,
            ruffFixes,
            positionals: 'targets',
          },
        );
        if (check === undefined || typeof check === 'string') {
          const script = ownScriptGate(words, step.workingDirectory, [...earlierGates, ...gates]);
          if (script) {
            skip(
              `it runs \`${words.join(' ')}\`, which gate \`${script.name}\` (${script.source}) serves`,
            );
            continue;
          }
          if (
            !NEVER_CHECKS.test(words[0]!) &&
            !NEVER_CHECK_SUBCOMMANDS.test(words.slice(0, 2).join(' ')) &&
            looksLikeCheck(step, words)
          )
            skip(
              check === undefined
                ? `it runs \`${words.join(' ')}\`, which is not a check mcp-gates knows`
                : check,
            );
          continue;
        }
        // Only a check as written is served: `ruff format .`, `eslint --fix` change the tree.
        if (!readOnlyProgram(words, ruffFixes)) {
          if (looksLikeCheck(step, words))
            skip(
              `it runs \`${words.join(' ')}\`, which changes files or is not ${check.tool.name}'s check: a gate serves only read-only checks (${check.gate.command.slice(0, 3).join(' ')} …)`,
            );
          continue;
        }
        // A path CI checks that is not here: the whole tree is not that check.
        const missing = check.dropped.filter((item) => item.endsWith('(no such path)'));
        if (missing.length > 0) {
          skip(
            `it checks ${missing.map((item) => item.replace(' (no such path)', '')).join(', ')}, which this tree does not have`,
          );
          continue;
        }
        const stepNotes = [...notes];
        let { command: argv, fix, paths } = check.gate;
        let fileFilter: FileFilter | undefined;
        const wd = step.workingDirectory?.replace(/^\.\/(?=.)/, '').replace(/(?<=.)\/+$/, '');
        if (wd !== undefined && wd !== '.') {
          // A gate that runs in that directory (a Go module's) may run this very check.
          const there = coverage.covering([argv], inDirectory(wd));
          if (there) {
            skip(`it runs \`${words.join(' ')}\` in ${wd}, a check already run by ${there}`);
            continue;
          }
          if (!CONFIG_BY_FILE.has(check.tool.name) || !project.exists(wd)) {
            skip(
              `it runs in \`working-directory: ${wd}\`, where ${check.tool.name} reads its config from there; a gate runs from the root`,
            );
            continue;
          }
          const targets =
            check.targets.length > 0
              ? check.targets.map((target) => path.posix.join(wd, target))
              : [wd];
          argv = withArguments(argv.slice(0, argv.length - check.targets.length), [], targets);
          fix = fix && withArguments(fix.slice(0, fix.length - check.targets.length), [], targets);
          paths = 'none';
          stepNotes.push(`checks ${targets.join(', ')} (the step's working-directory)`);
        }
        if (command.fileSource) {
          const directories = command.fileSource.directories.filter(
            (directory) => directory !== '.',
          );
          const what = {
            find: 'the files find lists',
            xargs: 'the files xargs is given',
            action: 'the files the action finds',
          }[command.fileSource.how];
          if (directories.length > 0 && paths === 'append' && check.targets.length === 0) {
            const escaped = directories.map((directory) =>
              directory.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
            );
            fileFilter = {
              include: { source: `^(${escaped.join('|')})/`, flags: '' },
              ...(check.tool.extensions ? { extensions: check.tool.extensions } : {}),
              what: `the workflow step's ${command.fileSource.how} under ${directories.join(', ')}`,
            };
            stepNotes.push(
              `checks ${check.tool.name}'s files under ${directories.join(', ')} in place of ${what}`,
            );
          } else if (directories.length > 0) {
            if (!directories.every((directory) => project.exists(directory))) {
              skip(
                `it runs ${check.tool.name} on files under ${directories.join(', ')}, which are not all here`,
              );
              continue;
            }
            argv = withArguments(argv, [], directories);
            fix = fix && withArguments(fix, [], directories);
            paths = 'none';
            stepNotes.push(`checks ${directories.join(', ')} in place of ${what}`);
          } else
            stepNotes.push(
              `checks ${check.tool.name}'s own selection of files in place of ${what}`,
            );
        }
        if (command.assigns)
          stepNotes.push(
            `runs without the environment the step sets (${command.assigns.join(' ')})`,
          );
        if (check.dropped.length > 0)
          stepNotes.push(`leaves out ${check.dropped.join(', ')} of the step`);
        // A matrix's values that give one check again are that check: said once.
        const identity = JSON.stringify([argv, fileFilter]);
        if (
          gates.some(
            (gate) =>
              gate.source === file && JSON.stringify([gate.command, gate.fileFilter]) === identity,
          )
        )
          continue;
        const earlier = fileFilter ? undefined : coverage.covering([argv]);
        if (earlier) {
          // The same command under another environment may be another check (eslint-config-prettier
          // runs `eslint .` again with ESLINT_USE_FLAT_CONFIG=false: its .eslintrc.js).
          const environment = Object.entries(step.env).map(([name, value]) => `${name}=${value}`);
          skip(
            `it runs \`${words.join(' ')}\`, a check already run by ${earlier}${environment.length > 0 ? ` (which runs it without the step's environment: ${environment.join(' ')})` : ''}`,
          );
          continue;
        }
        const base = check.gate.name;
        const gateName = [
          base,
          `ci.${base}`,
          `ci.${step.job}.${base}`,
          `ci.${step.job}.${base}.${gates.length + 1}`,
        ]
          .map((candidate) => candidate.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60))
          .find((candidate) => !names.has(candidate))!;
        names.add(gateName);
        const what = `the workflow step "${step.name}" (job ${step.job}, ${file})`;
        coverage.add(gateName, [argv], { what });
        const alike = coverage.alike(gateName, [argv]);
        if (alike) stepNotes.push(alike);
        gates.push({
          ...check.gate,
          name: gateName,
          description: [
            `${check.gate.description}: ${what}, \`${command.written}\`, run with the project's ${check.tool.name}`,
            ...stepNotes,
          ].join('; '),
          command: argv,
          fix,
          paths,
          ...(fileFilter ? { fileFilter } : {}),
          timeoutMs: DEFAULT_TIMEOUT_MS,
          source: file,
        });
      }
    }
  }
  return { gates, notServed };
}

/**
 * The project as golangci-lint's module sees it for an action that installs v2: its gate
 * runs v2's command when the config the gate is read from says `version: "2"`, and with
 * no golangci config of the repository's own, that is what the action's version says.
 */
function asGolangciV2(project: ProjectFacts, file: string, command: StepCommand): ProjectFacts {
  const configs = toolOfProgram('golangci-lint')?.recognise.configFiles ?? [];
  if (!command.golangciV2 || configs.some((name) => project.exists(name))) return project;
  return {
    ...project,
    readText: (relative) => (relative === file ? 'version: "2"\n' : project.readText(relative)),
  };
}

/** The project as a step in `directory` sees paths: a path it names is looked up there. */
function relativeTo(project: ProjectFacts, directory: string | undefined): ProjectFacts {
  if (directory === undefined || directory === '.' || directory === './') return project;
  return { ...project, exists: (relative) => project.exists(path.posix.join(directory, relative)) };
}

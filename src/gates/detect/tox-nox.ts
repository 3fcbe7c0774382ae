import { DEFAULT_TIMEOUT_MS, type GateSpec, type GateStep, type PathsMode } from '../gate-spec.js';
import { combinedParserName } from '../parsers/combined.js';
import type { ProjectFacts } from '../tools/tool.js';
import { TOOLS } from '../tools/index.js';
import { bodyParser } from './makefile.js';
import { readOnlyProgram, unwrap } from './read-only-program.js';
import { splitChain } from './scripts.js';
import { parseSource } from './source-document.js';
import { toolCheck, type CheckCoverage, type NotServed } from './tool-command.js';

/**
 * tox environments and nox sessions named like checks, in this order, and what each
 * checks. Any other environment (tests, docs, build) is no gate.
 */
export const CHECK_ENVIRONMENTS: { names: string[]; what: string }[] = [
  { names: ['lint', 'linting', 'lint-check', 'flake8', 'ruff', 'pylint', 'style'], what: 'Lint' },
  { names: ['format-check', 'fmt-check', 'format', 'fmt'], what: 'Format check' },
  {
    names: ['typecheck', 'type-check', 'type', 'types', 'typing', 'mypy', 'pyright'],
    what: 'Typecheck',
  },
  { names: ['check', 'checks', 'pre-commit', 'precommit'], what: 'Project check' },
];

/** Words of an env name (`black-check`, `check_isort`) that make it a check too: a known tool's name. */
const TOOL_WORDS: ReadonlySet<string> = new Set(
  TOOLS.flatMap((tool) => [tool.name, ...tool.programs]),
);
const CHECK_WORDS = new Set(['lint', 'check', 'format', 'fmt', 'style', 'typecheck', 'types']);

/**
 * The environments that are checks, in CHECK_ENVIRONMENTS' order, then any other whose
 * name has a known tool's name or a check word in it (`black-check`, `isort`, `lint-docs`),
 * in the order they are written.
 */
function checkEnvironments(
  environments: readonly EnvironmentCommands[],
): { environment: EnvironmentCommands; what: string }[] {
  const chosen: { environment: EnvironmentCommands; what: string }[] = [];
  for (const kind of CHECK_ENVIRONMENTS)
    for (const name of kind.names) {
      const environment = environments.find((env) => env.name === name);
      if (environment) chosen.push({ environment, what: kind.what });
    }
  for (const environment of environments) {
    if (chosen.some((entry) => entry.environment === environment)) continue;
    const words = environment.name.toLowerCase().split(/[-_:.]/);
    if (words.some((word) => TOOL_WORDS.has(word) || CHECK_WORDS.has(word)))
      chosen.push({ environment, what: 'Check' });
  }
  return chosen;
}

/** One tox env or nox session: the commands it runs, as written, or why they cannot be read. */
export interface EnvironmentCommands {
  name: string;
  commands: string[][] | string;
  /** What the commands' reading left out or changed, for the description. */
  notes: string[];
  /**
   * What the environment sets that the project's own does not (`basepython = python3.10`,
   * `setenv = MYPYPATH=src`): a gate runs in the project's environment, so its checks are
   * never taken for another gate's, nor another's for its.
   */
  environment?: string[];
}

/**
 * Commands that set an environment up (`pip install -e .`, `poetry install`, `mypy
 * --install-types`): the gate runs none, it uses the project's environment as it is.
 */
function installs(words: readonly string[]): boolean {
  const [program, first, second] = words;
  return (
    (program === 'pip' && first === 'install') ||
    (program === 'uv' && (first === 'sync' || (first === 'pip' && second === 'install'))) ||
    (['poetry', 'pdm', 'pipenv'].includes(program ?? '') &&
      ['install', 'sync'].includes(first ?? '')) ||
    words.includes('--install-types')
  );
}

/** A command that only prints a version (`ruff version`, `python --version`): it checks nothing. */
function printsVersion(words: readonly string[]): boolean {
  return words.length === 2 && ['--version', '-V', 'version'].includes(words[1]!);
}

/** An environment runner's file read into environments. */
interface EnvironmentSource {
  file: string;
  runner: 'tox' | 'nox';
  environments: EnvironmentCommands[];
}

/** The sections of an INI file, each key's value with its continuation lines. */
export function parseIni(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let section: Map<string, string> | undefined;
  let key: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*[#;]/.test(raw)) continue;
    const header = /^\[([^\]]+)\]\s*$/.exec(raw);
    if (header) {
      section = new Map();
      sections.set(header[1]!.trim(), section);
      key = undefined;
      continue;
    }
    if (!section) continue;
    if (/^\s+\S/.test(raw) && key !== undefined) {
      section.set(key, `${section.get(key)}\n${raw.trim()}`);
      continue;
    }
    const entry = /^([\w.-]+)\s*[=:]\s*(.*)$/.exec(raw);
    if (entry) {
      key = entry[1]!;
      section.set(key, entry[2]!.trim());
    } else if (raw.trim() === '') key = key === undefined ? undefined : key;
  }
  return sections;
}

/**
 * A tox command line with tox's substitutions made as they mean in the project root:
 * `{posargs}` goes (its default stays), `{toxinidir}`/`{tox_root}` is the root,
 * `{envpython}` is the environment's python, `{envbindir}/` the environment's programs.
 * Undefined for any other substitution, which a gate cannot make.
 */
function substitute(line: string, notes: string[]): string | undefined {
  let unknown = false;
  // `{toxinidir}/src` is src where the gate runs; `{envbindir}/ruff` is the environment's ruff.
  let result = line.replace(/\{(toxinidir|tox_root|envbindir|env_bin_dir)\}\//g, '');
  // Innermost first: `{posargs:{toxinidir}}` takes two rounds.
  for (let round = 0; round < 4 && /\{[^{}]*\}/.test(result); round += 1)
    result = substituteOnce(result);
  return unknown ? undefined : result;

  function substituteOnce(text: string): string {
    return text.replace(/\{([^{}]*)\}/g, (_whole, inner: string) => {
      const [name, ...rest] = inner.split(':');
      const fallback = rest.join(':');
      switch (name!.trim()) {
        case 'posargs':
          return fallback;
        case 'toxinidir':
        case 'tox_root':
          return '.';
        case 'envpython':
        case 'env_python':
          return 'python';
        case 'envbindir':
        case 'env_bin_dir':
          return '';
        default:
          unknown = true;
          notes.push(`\`{${inner}}\` is a tox substitution a gate cannot make`);
          return '';
      }
    });
  }
}

/** Whether a factor-conditional line (`lint: ruff check .`) applies to the env. */
function factorLine(line: string, env: string): string | undefined {
  const match = /^([\w!,-]+):\s+(.*)$/.exec(line);
  if (!match) return line;
  const factors = env.split('-');
  const applies = match[1]!
    .split(',')
    .some((factor) =>
      factor.startsWith('!') ? !factors.includes(factor.slice(1)) : factors.includes(factor),
    );
  return applies ? match[2]! : undefined;
}

/** The commands of tox.ini lines (INI `commands`), or why not. */
function iniCommands(value: string, env: string, notes: string[]): string[][] | string {
  const commands: string[][] = [];
  for (const raw of value.replace(/\\\n/g, ' ').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const applying = factorLine(line, env);
    if (applying === undefined) continue;
    // tox ignores the exit status of a command written `- cmd`; the gate does not.
    const ignored = applying.startsWith('- ') || applying.startsWith('-\t');
    if (ignored) notes.push(`\`${applying}\`'s exit status counts here (tox ignores it)`);
    const substituted = substitute(ignored ? applying.slice(1).trim() : applying, notes);
    if (substituted === undefined) return `\`${line}\` has a tox substitution a gate cannot make`;
    const words = splitChain(substituted);
    if (!words || words.length !== 1) return `\`${line}\` is not one plain command`;
    if (words[0]!.length > 0) commands.push(words[0]!);
  }
  return commands;
}

/**
 * tox's generative names: `py3{11,12}-{lint,test}` is py311-lint, py311-test, py312-lint
 * and py312-test (braces do not nest); a numeric range is each number, `3.1{0-2}` is 3.10,
 * 3.11 and 3.12 (tox 4).
 */
export function expandFactors(name: string): string[] {
  const group = /\{([^{}]*)\}/.exec(name);
  if (!group) return [name];
  const before = name.slice(0, group.index);
  const after = name.slice(group.index + group[0].length);
  return group[1]!
    .split(',')
    .flatMap(factorRange)
    .flatMap((factor) => expandFactors(`${before}${factor}${after}`));
}

/** A factor, or the numbers of a range (`9-13`), within a bound a real envlist stays under. */
function factorRange(factor: string): string[] {
  const trimmed = factor.trim();
  const range = /^(\d+)-(\d+)$/.exec(trimmed);
  if (!range) return [trimmed];
  const [low, high] = [Number(range[1]), Number(range[2])];
  if (high < low || high - low > 100) return [trimmed];
  return Array.from({ length: high - low + 1 }, (_, index) => String(low + index));
}

/** An envlist's entries: split at commas and line breaks outside braces, then expanded. */
function envlistNames(value: string): string[] {
  const entries: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of value) {
    if (char === '{') depth += 1;
    if (char === '}') depth -= 1;
    if (depth === 0 && (char === ',' || char === '\n')) {
      entries.push(current.trim());
      current = '';
    } else current += char;
  }
  entries.push(current.trim());
  return entries.flatMap((entry) => (entry === '' ? [] : expandFactors(entry)));
}

/** The environments of a tox.ini (or pyproject.toml's `legacy_tox_ini`). */
export function parseToxIni(text: string): EnvironmentCommands[] {
  const sections = parseIni(text);
  const base = sections.get('testenv');
  // Each environment's own section: `[testenv:{lint,typing}]` is lint's and typing's.
  const ownSections = new Map<string, Map<string, string>>();
  for (const [section, values] of sections)
    if (section.startsWith('testenv:'))
      for (const name of expandFactors(section.slice(8))) ownSections.set(name, values);
  const names = new Set(ownSections.keys());
  const envlist = sections.get('tox')?.get('envlist') ?? sections.get('tox')?.get('env_list');
  for (const name of envlistNames(envlist ?? '')) if (/^[\w.-]+$/.test(name)) names.add(name);
  return [...names].map((name) => {
    const notes: string[] = [];
    const own = ownSections.get(name)?.get('commands');
    const value = own ?? base?.get('commands');
    const setting = (key: string) => ownSections.get(name)?.get(key) ?? base?.get(key) ?? undefined;
    // `py310-typing`'s factor names its Python as basepython would.
    const python =
      setting('basepython') ?? /(?:^|-)py(\d)(\d+)(?:-|$)/.exec(name)?.slice(1).join('.');
    const environment = [
      ...(python !== undefined ? [`basepython = ${python}`] : []),
      ...(setting('setenv') !== undefined
        ? [
            `setenv = ${setting('setenv')!
              .split('\n')
              .filter((line) => line.trim() !== '')
              .join(', ')}`,
          ]
        : []),
    ];
    return {
      ...(environment.length > 0 ? { environment } : {}),
      name,
      commands:
        value === undefined
          ? 'it has no commands'
          : /\{\[[^\]]*\][^}]*\}/.test(value)
            ? 'its commands refer to another section, which a gate does not follow'
            : iniCommands(value, name, notes),
      notes,
    };
  });
}

/** tox 4's TOML commands: lists of words, where `{ replace = "posargs", default = [...] }` is posargs. */
function tomlCommands(value: unknown, notes: string[]): string[][] | string {
  if (!Array.isArray(value)) return 'it has no commands';
  const commands: string[][] = [];
  for (const command of value as unknown[]) {
    if (!Array.isArray(command)) return 'a command is not a list of words';
    const words: string[] = [];
    for (const word of command as unknown[]) {
      if (typeof word === 'string') {
        const substituted = substitute(word, notes);
        if (substituted === undefined) return `\`${word}\` has a substitution a gate cannot make`;
        if (substituted !== '') words.push(substituted);
      } else if (
        word &&
        typeof word === 'object' &&
        (word as { replace?: unknown }).replace === 'posargs'
      ) {
        const fallback = (word as { default?: unknown }).default;
        if (Array.isArray(fallback)) words.push(...fallback.map(String));
      } else return 'a command word is a replacement a gate cannot make';
    }
    if (words.length > 0) commands.push(words);
  }
  return commands;
}

/** The environments of tox 4's TOML config (tox.toml, or pyproject.toml's `[tool.tox]`). */
export function parseToxToml(config: Record<string, unknown>): EnvironmentCommands[] {
  const envs = (config.env ?? {}) as Record<string, Record<string, unknown>>;
  const base = (config.env_run_base ?? {}) as Record<string, unknown>;
  const names = new Set([
    ...Object.keys(envs),
    ...(Array.isArray(config.env_list) ? config.env_list.map(String) : []),
  ]);
  return [...names].map((name) => {
    const notes: string[] = [];
    const python = envs[name]?.base_python ?? base.base_python;
    const variables = envs[name]?.set_env ?? base.set_env;
    const environment = [
      ...(python !== undefined ? [`base_python = ${JSON.stringify(python)}`] : []),
      ...(variables !== undefined ? [`set_env = ${JSON.stringify(variables)}`] : []),
    ];
    return {
      ...(environment.length > 0 ? { environment } : {}),
      name,
      commands: tomlCommands(envs[name]?.commands ?? base.commands, notes),
      notes,
    };
  });
}

function tomlDocument(text: string): Record<string, unknown> | string {
  const document = parseSource(text, 'toml');
  return 'problem' in document ? document.problem : (document.value as Record<string, unknown>);
}

/** The root's tox config, in tox's own order: tox.ini, then pyproject.toml's [tool.tox], then tox.toml. */
function toxSource(project: ProjectFacts, notServed: NotServed[]): EnvironmentSource | undefined {
  const ini = project.readText('tox.ini');
  if (ini !== undefined && /^\[(tox|testenv)/m.test(ini))
    return { file: 'tox.ini', runner: 'tox', environments: parseToxIni(ini) };
  const pyproject = project.readText('pyproject.toml');
  if (pyproject !== undefined && /^\s*\[tool\.tox[\].]/m.test(pyproject)) {
    const document = tomlDocument(pyproject);
    if (typeof document === 'string') {
      notServed.push({ source: 'pyproject.toml', name: '[tool.tox]', why: document });
      return undefined;
    }
    const tox = (document.tool as { tox?: Record<string, unknown> } | undefined)?.tox ?? {};
    const environments =
      typeof tox.legacy_tox_ini === 'string' ? parseToxIni(tox.legacy_tox_ini) : parseToxToml(tox);
    return { file: 'pyproject.toml', runner: 'tox', environments };
  }
  const toml = project.readText('tox.toml');
  if (toml === undefined) return undefined;
  const document = tomlDocument(toml);
  if (typeof document === 'string') {
    notServed.push({ source: 'tox.toml', name: '(all envs)', why: document });
    return undefined;
  }
  return { file: 'tox.toml', runner: 'tox', environments: parseToxToml(document) };
}

/** A Python string literal's value (no prefix, no escapes but `\\`, `\'`, `\"`), else undefined. */
function stringLiteral(expression: string): string | undefined {
  const match = /^(['"])((?:\\.|(?!\1).)*)\1$/.exec(expression.trim());
  return match ? match[2]!.replace(/\\(.)/g, '$1') : undefined;
}

/** An argument list split at its top-level commas. */
function splitArguments(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let current = '';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quote) {
      if (char === '\\') {
        current += char + (text[index + 1] ?? '');
        index += 1;
        continue;
      }
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) depth -= 1;
    else if (char === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts;
}

/** Python statements of an indented block: lines joined while brackets are open. */
function statements(lines: readonly string[]): string[] {
  const joined: string[] = [];
  let pending = '';
  let depth = 0;
  for (const line of lines) {
    const code = line.replace(/(^|\s)#.*$/, '').trim();
    if (code === '' && pending === '') continue;
    pending = pending === '' ? code : `${pending} ${code}`;
    for (const char of code.replace(/(['"])(?:\\.|(?!\1).)*\1/g, '')) {
      if ('([{'.includes(char)) depth += 1;
      if (')]}'.includes(char)) depth -= 1;
    }
    if (depth <= 0) {
      joined.push(pending);
      pending = '';
      depth = 0;
    }
  }
  if (pending !== '') joined.push(pending);
  return joined;
}

/** A noxfile value a gate can read: a string, or a list or tuple of strings. */
interface NoxValue {
  words: string[];
  list: boolean;
}

/**
 * The value of a Python expression made only of string literals (`"src"`, `["a", "b"]`,
 * `("a",)`, `"a", "b"`), names bound in `scope`, or `session.posargs or X` (a gate gives no
 * posargs: X); undefined for anything else.
 */
function noxValue(expression: string, scope: ReadonlyMap<string, NoxValue>): NoxValue | undefined {
  const text = expression.trim();
  const fallback = /^session\.posargs\s+or\s+(.+)$/s.exec(text);
  if (fallback) return noxValue(fallback[1]!, scope);
  if (/^[A-Za-z_]\w*$/.test(text)) return scope.get(text);
  const single = stringLiteral(text);
  if (single !== undefined) return { words: [single], list: false };
  const bracketed = /^[[(](.*)[\])]$/s.exec(text);
  const parts = splitArguments(bracketed ? bracketed[1]! : text);
  if (!bracketed && parts.length < 2) return undefined;
  const words: string[] = [];
  for (const part of parts) {
    const value = stringLiteral(part);
    if (value === undefined) return undefined;
    words.push(value);
  }
  return { words, list: true };
}

/** The names a noxfile binds at the top level to values a gate can read (`LOCATIONS = "src", "tests"`). */
function noxConstants(lines: readonly string[]): Map<string, NoxValue> {
  const constants = new Map<string, NoxValue>();
  const topLevel = lines.filter((line) => !/^\s/.test(line) || line.trim() === '');
  for (const statement of statements(topLevel)) {
    const assignment = /^([A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)\s*(.+)$/s.exec(statement);
    const value = assignment && noxValue(assignment[2]!, constants);
    if (assignment && value) constants.set(assignment[1]!, value);
  }
  return constants;
}

/** What a nox session's body runs, read only where it is literal, or why it cannot be read. */
function sessionCommands(
  body: readonly string[],
  notes: string[],
  constants: ReadonlyMap<string, NoxValue>,
): string[][] | string {
  const commands: string[][] = [];
  const scope = new Map(constants);
  let docstring = false;
  for (const statement of statements(body)) {
    const triple = statement.match(/"""|'''/g)?.length ?? 0;
    if (docstring || triple > 0) {
      if (triple % 2 === 1) docstring = !docstring;
      continue;
    }
    if (/^session\.(install|run_install|log|warn|debug)\(/.test(statement)) {
      if (/^session\.(install|run_install)\(/.test(statement))
        notes.push(`\`${statement}\` is not run: the gate uses the project's environment`);
      continue;
    }
    // `args = session.posargs or LOCATIONS`: a local name for a value a gate can read.
    const assignment = /^([A-Za-z_]\w*)\s*=(?!=)\s*(.+)$/s.exec(statement);
    const assigned = assignment && noxValue(assignment[2]!, scope);
    if (assignment && assigned) {
      scope.set(assignment[1]!, assigned);
      continue;
    }
    const run = /^session\.run\((.*)\)$/.exec(statement);
    if (!run)
      return `its body has \`${statement}\`, which a gate cannot follow: only session.run() with literal arguments or names bound to literals is read`;
    const words: string[] = [];
    for (const argument of splitArguments(run[1]!)) {
      if (argument === '*session.posargs') continue;
      if (/^(external|silent)\s*=/.test(argument)) continue;
      const starred = argument.startsWith('*') && !argument.startsWith('**');
      const value = noxValue(starred ? argument.slice(1) : argument, scope);
      if (value === undefined || value.list !== starred)
        return `\`session.run(${run[1]})\` has \`${argument}\`, which is neither a literal string nor a name bound to literals`;
      words.push(...value.words);
    }
    if (words.length > 0) commands.push(words);
  }
  return commands;
}

/**
 * The sessions of a noxfile.py: functions decorated `@nox.session` (or `@session`), named
 * by `name=` or the function. Only `session.run("ruff", "check", ".")` calls of literals
 * are read, or of names bound to literals at the top level or in the session
 * (`*LOCATIONS`, `args = session.posargs or LOCATIONS`); `*session.posargs` is left out,
 * `session.install` not run; a session with anything else (other expressions,
 * conditions, loops, parametrize) is not served, and says why.
 */
export function parseNoxfile(text: string): EnvironmentCommands[] {
  const lines = text.split(/\r?\n/);
  const constants = noxConstants(lines);
  const sessions: EnvironmentCommands[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    if (!/^@(nox\.)?session\b/.test(lines[index]!)) continue;
    let decorators = '';
    let cursor = index;
    while (cursor < lines.length && !/^(async\s+)?def\s/.test(lines[cursor]!)) {
      decorators += `${lines[cursor]} `;
      cursor += 1;
    }
    const definition = /^(?:async\s+)?def\s+(\w+)/.exec(lines[cursor] ?? '');
    if (!definition) break;
    const body: string[] = [];
    let end = cursor + 1;
    while (end < lines.length && (/^\s/.test(lines[end]!) || lines[end]!.trim() === ''))
      body.push(lines[end++]!);
    const named = /\bname\s*=\s*(['"])([^'"]+)\1/.exec(decorators)?.[2];
    const python = /\bpython\s*=\s*([^,)]+)/.exec(decorators)?.[1]?.trim();
    const notes: string[] = [];
    sessions.push({
      ...(python !== undefined ? { environment: [`python=${python}`] } : {}),
      name: named ?? definition[1]!,
      commands: /@nox\.parametrize|@parametrize/.test(decorators)
        ? 'it is parametrized: one session per parameter, which a gate does not expand'
        : sessionCommands(body, notes, constants),
      notes,
    });
    index = end - 1;
  }
  return sessions;
}

function noxSource(project: ProjectFacts): EnvironmentSource | undefined {
  const text = project.readText('noxfile.py');
  return text === undefined
    ? undefined
    : { file: 'noxfile.py', runner: 'nox', environments: parseNoxfile(text) };
}

/**
 * Gates from the tox environments and nox sessions named like checks (CHECK_ENVIRONMENTS).
 * tox and nox are never run: `tox -e lint` creates `.tox/` and installs from the network,
 * and tox 3.28 with its work directory sent elsewhere (`--workdir`) still builds the
 * package's `*.egg-info` into the tree. The gate runs the environment's commands itself,
 * with the project's own programs (its virtual environment first), each as a step: a
 * known tool's command becomes that tool's read-only check (detect/tool-command.ts), a
 * known read-only program runs as written, and anything else keeps the environment from
 * being served; so is one whose every check an earlier gate runs (`coverage`).
 */
export function environmentGates(
  project: ProjectFacts,
  ruffFixes: boolean,
  taken: ReadonlySet<string>,
  coverage: CheckCoverage,
): { gates: GateSpec[]; notServed: NotServed[] } {
  const gates: GateSpec[] = [];
  const notServed: NotServed[] = [];
  const names = new Set(taken);
  const preCommit = project.exists('.pre-commit-config.yaml');
  for (const source of [toxSource(project, notServed), noxSource(project)]) {
    if (!source) continue;
    const label = source.runner === 'tox' ? 'env' : 'session';
    for (const { environment, what } of checkEnvironments(source.environments)) {
      const envName = environment.name;
      const skip = (why: string) =>
        notServed.push({
          source: source.file,
          name: `${source.runner} ${label} ${envName}`,
          why,
        });
      if (typeof environment.commands === 'string') {
        skip(environment.commands);
        continue;
      }

      const steps: GateStep[] = [];
      const fixes: string[][] = [];
      const notes = [...environment.notes];
      let refused: string | undefined;
      // One known tool's check takes a call's paths as its marker gate does.
      let singlePaths: PathsMode = 'none';
      for (const command of environment.commands) {
        if (installs(unwrap([...command]))) {
          notes.push(
            `\`${command.join(' ')}\` is not run: the gate uses the project's environment`,
          );
          continue;
        }
        if (printsVersion(unwrap([...command]))) continue;
        const check = toolCheck(command, project, {
          source: source.file,
          ruffFixes,
          positionals: 'targets',
        });
        if (check && typeof check !== 'string') {
          steps.push({ command: check.gate.command, parser: check.gate.parser });
          singlePaths = check.gate.paths;
          if (check.fixes && check.gate.fix) fixes.push(check.gate.fix);
          if (check.dropped.length > 0)
            notes.push(`leaves out ${check.dropped.join(', ')} of \`${command.join(' ')}\``);
          continue;
        }
        const words = unwrap([...command]);
        if (readOnlyProgram(words, ruffFixes)) {
          steps.push({ command: words, parser: bodyParser([words.join(' ')]) });
          continue;
        }
        refused =
          words[0] === 'pre-commit' && preCommit
            ? `it runs \`${command.join(' ')}\`: its hooks are served from .pre-commit-config.yaml`
            : `it runs \`${command.join(' ')}\`, which is not a known read-only check${typeof check === 'string' ? ` (${check})` : ''}`;
        break;
      }
      if (refused || steps.length === 0) {
        skip(refused ?? 'it runs no check');
        continue;
      }
      const environmentNote = environment.environment?.join('; ');
      if (environmentNote !== undefined)
        notes.push(
          `${source.runner}'s \`${environmentNote}\` is not applied: the gate runs in the project's environment, and its checks are its own`,
        );
      const earlier =
        environmentNote === undefined
          ? coverage.covering(steps.map((step) => step.command))
          : undefined;
      if (earlier) {
        skip(`it runs only checks already run by ${earlier}`);
        continue;
      }
      const gateName = (names.has(envName) ? `${source.runner}.${envName}` : envName).slice(0, 60);
      names.add(gateName);
      coverage.add(
        gateName,
        steps.map((step) => step.command),
        {
          what: `the ${source.runner} ${label} "${envName}"`,
          ...(environmentNote !== undefined ? { environment: environmentNote } : {}),
        },
      );
      const alike = coverage.alike(
        gateName,
        steps.map((step) => step.command),
      );
      if (alike) notes.push(alike);
      const single = steps.length === 1 ? steps[0]! : undefined;
      gates.push({
        name: gateName,
        description: [
          `${what}: the ${source.runner} ${label} "${envName}" (${source.file}), its commands run with the project's own programs, not in ${source.runner}'s environment (${source.runner} is not run)`,
          ...notes,
        ].join('; '),
        // Several commands: `command` names the runner for hosts; the check runs the steps.
        command: single
          ? single.command
          : source.runner === 'tox'
            ? ['tox', '-e', envName]
            : ['nox', '-s', envName],
        fix: fixes.length === 1 ? fixes[0]! : null,
        parser: single ? single.parser : combinedParserName(steps.map((step) => step.parser)),
        ...(single ? {} : { steps }),
        timeoutMs: DEFAULT_TIMEOUT_MS,
        paths: single ? singlePaths : 'none',
        source: source.file,
      });
    }
  }
  return { gates, notServed };
}

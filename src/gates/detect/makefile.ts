import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_TIMEOUT_MS, type GateSpec } from '../gate-spec.js';
import { combinedParserName } from '../parsers/combined.js';
import { narrowCommand } from './narrow-command.js';
import { readOnlyProgram, unwrap } from './read-only-program.js';
import { planScript } from './scripts.js';
import { CheckCoverage, type NotServed } from './tool-command.js';
import { parseSource, readSourceText as readText } from './source-document.js';

/** One target of a Makefile or recipe of a justfile: what runs first, then its lines. */
export interface RecipeTarget {
  name: string;
  prerequisites: string[];
  /** Recipe lines, their `@`/`-`/`+` prefixes kept. */
  lines: string[];
  /** Why the target cannot be run as `<runner> <name>` alone (it takes parameters). */
  unrunnable?: string;
}

/** Targets served as gates, in this order, and the targets that fix what each checks. */
const CHECK_TARGETS: { names: string[]; what: string; fixes: string[] }[] = [
  { names: ['lint'], what: 'Lint', fixes: ['lint-fix', 'lint_fix', 'fix'] },
  {
    names: ['format-check', 'fmt-check', 'check-format', 'format_check', 'fmt_check'],
    what: 'Format check',
    fixes: ['format', 'fmt'],
  },
  { names: ['typecheck', 'type-check', 'types', 'mypy'], what: 'Typecheck', fixes: [] },
  { names: ['vet'], what: 'Vet', fixes: [] },
  { names: ['check'], what: 'Project check', fixes: [] },
];

const TARGET_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/** Lines with backslash continuations joined (Make and just both continue lines so). */
function logicalLines(text: string): string[] {
  const joined: string[] = [];
  let pending = '';
  for (const raw of text.split(/\r?\n/)) {
    // A continuation line's own indentation is not part of the joined line.
    const line = pending === '' ? raw : raw.trimStart();
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trimEnd()} `;
      continue;
    }
    joined.push(pending + line);
    pending = '';
  }
  if (pending !== '') joined.push(pending);
  return joined;
}

/**
 * The explicit rules of a Makefile, read conservatively: `target…: prerequisites` at the
 * start of a line and the tab-indented lines after it. Assignments, conditionals,
 * `define` blocks, pattern rules (`%`), special targets (`.PHONY`) and targets named with
 * variables are not rules we serve; a target that several rules give recipes keeps the
 * last, as make does (it warns).
 */
/**
 * A recipe line that is only `$(info text)` or `$(warning text)` with no reference in it:
 * make prints the text when it expands the line, which is then empty and runs no command
 * (spf13/cobra's `lint:` starts with one). Not a command: neither judged nor a step.
 */
const MAKE_MESSAGE = /^[@+-]*\$([({])(info|warning)\s[^$(){}]*[)}]$/;

export function parseMakefile(text: string): Map<string, RecipeTarget> {
  const targets = new Map<string, RecipeTarget>();
  let current: RecipeTarget[] = [];
  let inDefine = false;
  for (const line of logicalLines(text)) {
    if (inDefine) {
      if (/^\s*endef\b/.test(line)) inDefine = false;
      continue;
    }
    if (line.startsWith('\t')) {
      const recipe = line.slice(1).trim();
      if (recipe !== '' && !recipe.startsWith('#') && !MAKE_MESSAGE.test(recipe))
        for (const target of current) target.lines.push(recipe);
      continue;
    }
    if (/^\s*(#|$)/.test(line)) continue;
    if (/^\s*define\b/.test(line)) {
      inDefine = true;
      current = [];
      continue;
    }
    // `a: b` is a rule; `a := b`, `a ::= b`, `a = b`, `a ?= b`, `a += b` are assignments.
    const rule = /^([^:=#\t][^:=#]*?)\s*::?(?![=:])(.*)$/.exec(line);
    if (
      !rule ||
      /[=]/.test(rule[1]!) ||
      /^\s*(export|override|include|-include|sinclude|ifn?eq|ifn?def|else|endif|vpath)\b/.test(line)
    ) {
      current = [];
      continue;
    }
    const [prerequisitePart, inline] = splitOnce(withoutComment(rule[2]!), ';');
    if (/^\s*=/.test(prerequisitePart)) {
      current = [];
      continue;
    }
    const prerequisites = prerequisitePart.replace(/\|/g, ' ').split(/\s+/).filter(Boolean);
    current = [];
    for (const name of rule[1]!.trim().split(/\s+/)) {
      if (!TARGET_NAME.test(name)) continue;
      const target: RecipeTarget = { name, prerequisites, lines: [] };
      if (inline !== undefined && inline.trim() !== '') target.lines.push(inline.trim());
      targets.set(name, target);
      current.push(target);
    }
  }
  return targets;
}

/**
 * A rule line after its colon, its comment left out: `#` starts one (`lint: ## Lint the
 * code`, as `make help` targets are documented), unless escaped (`\#`) or in the recipe
 * written after `;`, which the shell reads.
 */
function withoutComment(text: string): string {
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\\') index += 1;
    else if (char === ';') return text;
    else if (char === '#') return text.slice(0, index);
  }
  return text;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const index = text.indexOf(separator);
  return index === -1 ? [text, undefined] : [text.slice(0, index), text.slice(index + 1)];
}

/**
 * The recipes of a justfile: `name params?: dependencies` at the start of a line and the
 * indented lines after it. Settings, aliases, assignments, attributes, imports and
 * modules are skipped; a recipe with parameters is kept but marked unrunnable alone.
 */
export function parseJustfile(text: string): Map<string, RecipeTarget> {
  const targets = new Map<string, RecipeTarget>();
  let current: RecipeTarget | undefined;
  for (const line of logicalLines(text)) {
    if (/^[ \t]/.test(line)) {
      const recipe = line.trim();
      if (current && recipe !== '' && !(recipe.startsWith('#') && !recipe.startsWith('#!')))
        current.lines.push(recipe);
      continue;
    }
    current = undefined;
    if (/^(#|$|\[|set\s|alias\s|export\s|import\b|mod\b)/.test(line)) continue;
    const header = /^@?([A-Za-z_][A-Za-z0-9_-]*)([^:]*):(?!=)(.*)$/.exec(line);
    if (!header || /:=/.test(line.slice(0, header[1]!.length + header[2]!.length + 2))) continue;
    const params = header[2]!.trim();
    current = {
      name: header[1]!,
      prerequisites: header[3]!.trim().split(/\s+/).filter(Boolean),
      lines: [],
      ...(params !== ''
        ? { unrunnable: `it takes parameters (${params}), which a gate cannot give` }
        : {}),
    };
    targets.set(current.name, current);
  }
  return targets;
}

/** What a target runs, judged: read-only, or the first command that may write. */
interface Judgement {
  readOnly: boolean;
  /** The first command not known to be read-only, and why. */
  writer?: string;
  /** Every recipe line, prerequisites first, for the parsers. */
  body: string[];
}

/**
 * Judges a target with its prerequisites (run first) and the targets its recipe runs
 * through the runner itself (`$(MAKE) lint`, `just lint`). A prerequisite with no rule
 * here may be built by a rule we do not read: it counts as a writer.
 */
export function judgeTarget(
  targets: ReadonlyMap<string, RecipeTarget>,
  name: string,
  runner: 'make' | 'just' | 'deno',
  ruffFixes: boolean,
  seen: Set<string> = new Set(),
): Judgement {
  if (seen.has(name)) return { readOnly: true, body: [] };
  seen.add(name);
  const target = targets.get(name);
  if (!target)
    return { readOnly: false, writer: `\`${name}\`, which no rule here makes`, body: [] };
  const body: string[] = [];
  const fail = (writer: string): Judgement => ({ readOnly: false, writer, body });
  for (const prerequisite of target.prerequisites) {
    // just passes arguments to dependencies as `(dep arg)`: not read.
    if (!TARGET_NAME.test(prerequisite)) return fail(`the dependency \`${prerequisite}\``);
    const inner = judgeTarget(targets, prerequisite, runner, ruffFixes, seen);
    body.push(...inner.body);
    if (!inner.readOnly) return fail(inner.writer!);
  }
  if (target.lines[0]?.startsWith('#!'))
    return fail(`the ${target.lines[0]} script of \`${name}\``);
  for (const line of target.lines) {
    body.push(line);
    const command = line.replace(/^[@+-]+/, '');
    // Redirections, substitutions, variables and globbing are a shell's: not judged.
    if (/[<>`$*?{}\\]/.test(command.replace(/\$\(MAKE\)|\$\{MAKE\}/g, 'make')))
      return fail(`\`${command}\` (shell syntax not judged)`);
    for (const part of command.split(/&&|\|\||;|\|/)) {
      const words = commandWords(part);
      if (words.length === 0) continue;
      if (
        (words[0] === runner && runner !== 'deno') ||
        (runner === 'deno' && words[0] === 'deno' && words[1] === 'task') ||
        (runner === 'make' && words[0] === '$(MAKE)')
      ) {
        if (runner === 'deno') words.splice(0, 1);
        const options = words.slice(1).filter((word) => word.startsWith('-'));
        // `make -C dir`, `just --justfile f`: another directory or file, not read here.
        if (
          options.some(
            (option) =>
              !['-s', '--silent', '--no-print-directory', '-k', '--keep-going'].includes(option),
          )
        )
          return fail(`\`${part.trim()}\` (another directory or file, not read)`);
        for (const subTarget of words.slice(1).filter((word) => !word.startsWith('-'))) {
          const inner = judgeTarget(targets, subTarget, runner, ruffFixes, seen);
          body.push(...inner.body);
          if (!inner.readOnly) return fail(inner.writer!);
        }
        continue;
      }
      if (!readOnlyProgram(words, ruffFixes))
        return fail(`\`${part.trim()}\`, which is not a known read-only check`);
    }
  }
  return { readOnly: true, body };
}

function unquote(word: string): string {
  return word.replace(/^(['"])(.*)\1$/, '$2');
}

/** A recipe command's words, past the runners of the project's environment (`uv run`). */
function commandWords(part: string): string[] {
  return unwrap(writtenWords(part));
}

/** A recipe command's words as written (`uv run ruff check`). */
function writtenWords(part: string): string[] {
  return part.trim().split(/\s+/).filter(Boolean).map(unquote);
}

/**
 * The commands of a judged body (recipe lines, prefixes and chains split): past their
 * environment runners for precedence, or as written (`uv run …`: uv runs too).
 */
function bodyCommands(body: readonly string[], written = false): string[][] {
  return body
    .flatMap((line) => line.replace(/^[@+-]+/, '').split(/&&|\|\||;|\|/))
    .map(written ? writtenWords : commandWords)
    .filter((words) => words.length > 0);
}

/** The parsers of the tools a body names (a make target's output is theirs), or generic. */
export function bodyParser(body: readonly string[]): string {
  const text = body.join(' && ');
  const parsers = [planScript(text, true).parser].filter((parser) => parser !== 'generic');
  if (/(^|[\s/])mypy(\s|$)/.test(text)) parsers.push('mypy');
  return parsers.length > 0 ? combinedParserName(parsers) : 'generic';
}

/**
 * The narrowed command (narrow-command.ts) of a script or recipe line that is one command:
 * plain words, quoted ones and globs (`shellcheck scripts/*.sh`, whose operands it leaves
 * out anyway), past `uv run`, `npx`…; undefined for any other shell syntax.
 */
export function narrowLine(line: string): ReturnType<typeof narrowCommand> {
  const text = line.replace(/^[@+-]+/, '').trim();
  if (text === '' || /[$`\\<>|;&()\n]/.test(text)) return undefined;
  const words = text.match(/'[^']*'|"[^"]*"|[^\s'"]+/g) ?? [];
  if (words.join('').length !== text.replace(/\s+/g, '').length) return undefined;
  return narrowCommand(unwrap(words.map(unquote)));
}

/** Whether the root's ruff config applies fixes on `ruff check` (`fix = true`). */
export function ruffConfigFixes(root: string): boolean {
  for (const name of ['ruff.toml', '.ruff.toml', 'pyproject.toml']) {
    const text = readText(path.join(root, name));
    if (typeof text === 'string' && /^\s*fix\s*=\s*true\b/m.test(text)) return true;
  }
  return false;
}

/**
 * The tasks of a deno.json (`"lint": "deno lint"` or `{"command": …, "dependencies": […]}`),
 * or why it is not read. deno.jsonc is read only when it parses as plain JSON (no
 * comments, no trailing commas).
 */
export function parseDenoTasks(text: string): Map<string, RecipeTarget> | string {
  const targets = new Map<string, RecipeTarget>();
  const document = parseSource(text, 'json');
  if ('problem' in document) return document.problem;
  const tasks = (document.value as { tasks?: unknown } | null)?.tasks;
  if (!tasks || typeof tasks !== 'object') return targets;
  for (const [name, value] of Object.entries(tasks as Record<string, unknown>)) {
    const task =
      typeof value === 'string'
        ? { command: value }
        : (value as { command?: unknown; dependencies?: unknown } | null);
    if (!TARGET_NAME.test(name) || typeof task?.command !== 'string') continue;
    const dependencies = 'dependencies' in task ? task.dependencies : undefined;
    targets.set(name, {
      name,
      prerequisites: Array.isArray(dependencies)
        ? dependencies.filter((item): item is string => typeof item === 'string')
        : [],
      lines: [task.command],
    });
  }
  return targets;
}

const RUNNERS: {
  runner: 'make' | 'just' | 'deno';
  files: string[];
  /** The targets, or why the file is not read. */
  parse: (text: string) => Map<string, RecipeTarget> | string;
  argv: (target: string) => string[];
}[] = [
  {
    runner: 'make',
    files: ['GNUmakefile', 'makefile', 'Makefile'],
    parse: parseMakefile,
    argv: (target) => ['make', target],
  },
  {
    runner: 'just',
    files: ['justfile', '.justfile', 'Justfile'],
    parse: parseJustfile,
    argv: (target) => ['just', target],
  },
  {
    runner: 'deno',
    files: ['deno.json', 'deno.jsonc'],
    parse: parseDenoTasks,
    argv: (target) => ['deno', 'task', target],
  },
];

/**
 * The commands `argv` runs when it is a recipe runner's call of a target (`make lint`,
 * `just lint`, `deno task lint`) in `root`: the target's recipe and its prerequisites',
 * split into commands as written (`uv run ruff check`; `$(info ...)` lines and prefixes
 * dropped). Undefined when argv is no such call, or the file or target cannot be read.
 */
export function recipeCommandsOf(root: string, argv: readonly string[]): string[][] | undefined {
  for (const { runner, files, parse, argv: callOf } of RUNNERS) {
    const target = argv[argv.length - 1];
    if (target === undefined || argv.length !== callOf(target).length) continue;
    if (!callOf(target).every((word, index) => word === argv[index])) continue;
    const file = files.find((name) => fs.existsSync(path.join(root, name)));
    const text = file === undefined ? undefined : readText(path.join(root, file));
    if (typeof text !== 'string') return undefined;
    const targets = parse(text);
    if (typeof targets === 'string' || !targets.has(target)) return undefined;
    return bodyCommands(judgeTarget(targets, target, runner, ruffConfigFixes(root)).body, true);
  }
  return undefined;
}

/**
 * Gates from the targets of the root's Makefile and justfile, and the tasks of its
 * deno.json, that are named like checks (`lint`, `format-check`, `typecheck`, `vet`,
 * `check`, …). Each runs `make <target>`, `just <target>` or `deno task <task>`. Its description says whether it only reads: read-only when every
 * command of the target and what it depends on is a known check; otherwise it may write,
 * and says which command. A gate is named after its target, or `<runner>.<target>` when
 * an earlier source already has that name (`taken`).
 */
export function recipeGates(
  root: string,
  taken: ReadonlySet<string>,
  coverage: CheckCoverage = new CheckCoverage(),
): { gates: GateSpec[]; notServed: NotServed[] } {
  const gates: GateSpec[] = [];
  const notServed: NotServed[] = [];
  const names = new Set(taken);
  const ruffFixes = ruffConfigFixes(root);
  for (const { runner, files, parse, argv } of RUNNERS) {
    const file = files.find((name) => fs.existsSync(path.join(root, name)));
    const text = file === undefined ? undefined : readText(path.join(root, file));
    if (file === undefined || text === undefined) continue;
    const targets = typeof text === 'string' ? parse(text) : text.problem;
    if (typeof targets === 'string') {
      notServed.push({
        source: file,
        name: `(all ${runner === 'deno' ? 'tasks' : 'targets'})`,
        why: targets,
      });
      continue;
    }
    for (const kind of CHECK_TARGETS) {
      for (const name of kind.names) {
        const target = targets.get(name);
        if (!target || target.unrunnable) continue;
        const judged = judgeTarget(targets, name, runner, ruffFixes);
        // A target that runs only checks an earlier gate runs would run them twice.
        const runs = bodyCommands(judged.body);
        const earlier = coverage.covering(runs);
        if (earlier) {
          notServed.push({
            source: file,
            name: `${runner === 'deno' ? 'task' : 'target'} ${name}`,
            why: `it runs only checks already run by ${earlier}`,
          });
          continue;
        }
        const fix = kind.fixes.find((fixName) => {
          const candidate = targets.get(fixName);
          return candidate !== undefined && candidate.unrunnable === undefined;
        });
        const gateName = names.has(name) ? `${runner}.${name}` : name;
        const command = argv(name);
        names.add(gateName);
        // Only a read-only target replaces a marker gate's check (never one that may write).
        coverage.add(
          gateName.slice(0, 60),
          runs,
          judged.readOnly
            ? { what: `the ${file} ${runner === 'deno' ? 'task' : 'target'} "${name}"` }
            : {},
        );
        // After add: a marker gate this one replaces is no longer one both are served beside.
        const alike = coverage.alike(gateName.slice(0, 60), runs);
        const writes = judged.readOnly
          ? 'runs only known read-only checks'
          : `may write: it runs ${judged.writer}`;
        // One command of a tool that reads each file on its own: a check on files runs it on
        // them (a glob in it makes the target one not judged, but its operands are left out).
        const lines = target.lines.filter(
          (line) => !/^[@+-]*(echo|printf|true|:)(\s|$)/.test(line),
        );
        const narrow =
          target.prerequisites.length === 0 && lines.length === 1
            ? narrowLine(lines[0]!)
            : undefined;
        gates.push({
          name: gateName.slice(0, 60),
          description: `${kind.what}: the ${file} ${runner === 'deno' ? 'task' : 'target'} "${name}" (${command.join(' ')}); ${writes}${alike ? `; ${alike}` : ''}`,
          command,
          fix: fix ? argv(fix) : null,
          parser: bodyParser(judged.body),
          ...(narrow ? { narrow } : {}),
          timeoutMs: DEFAULT_TIMEOUT_MS,
          paths: 'none',
          source: file,
        });
      }
    }
  }
  return { gates, notServed };
}

import path from 'node:path';
import type { GateSpec } from '../gate-spec.js';
import {
  programName,
  toolOfCommand,
  toolOfScriptWord,
  type ToolDescriptor,
} from '../tools/index.js';
import { recipeCommandsOf } from './makefile.js';
import { unwrap } from './read-only-program.js';
import { splitChain, toolsInBody } from './scripts.js';
import { readSource } from './source-document.js';

/**
 * What a gate's check runs underneath its runner, read from the sources the way detection
 * reads them: a package.json script's body (and its pre/post hooks, and the scripts it runs
 * in turn), a Makefile/justfile/deno target's recipe, a split chain's steps. A hook plans
 * with it which gates an edit concerns, whatever the gate's shape (a configured
 * `npm run lint` included), so it is read at the time of the call, from the files as they
 * are then.
 */
export interface GateCommands {
  /** The known tools the check runs. */
  tools: ToolDescriptor[];
  /**
   * Part of the check could not be read as known tools (a custom script, shell syntax, a
   * runner we do not expand): it may read any file.
   */
  opaque: boolean;
  /** The fewest warnings a tool it runs allows (`--max-warnings N`), undefined for no limit. */
  warningLimit: number | undefined;
  /**
   * The commands it runs in the end, as written (`uv run ruff check .`), past the scripts
   * and recipes that run them: what `doctor` finds the programs of.
   */
  commands: string[][];
}

/** Programs that check nothing (messages, moves): they neither add a tool nor make a check opaque. */
const INERT = new Set(['echo', 'printf', 'true', ':', 'cd', 'test', 'exit']);
const MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
/** Scripts that run scripts: past this depth the check counts as opaque (a cycle, say). */
const MAX_DEPTH = 6;

/** The script a package manager's command runs (`npm run --silent lint`, `pnpm lint`), if it is one. */
function scriptOf(argv: readonly string[]): string | undefined {
  if (!MANAGERS.has(programName(argv[0] ?? ''))) return undefined;
  const words = argv.slice(1).filter((word) => word !== '--silent' && word !== '-s');
  if (words[0] === 'run' || words[0] === 'run-script')
    return words.length === 2 ? words[1] : undefined;
  // `pnpm lint`, `yarn lint`, `bun lint`: a bare script name (npm needs `run`).
  if (programName(argv[0] ?? '') !== 'npm' && words.length === 1 && !words[0]!.startsWith('-'))
    return words[0];
  return undefined;
}

function readScripts(directory: string): Record<string, unknown> | undefined {
  // The bounded reader detection uses: a huge or hostile package.json is no script.
  const document = readSource(path.join(directory, 'package.json'), 'json');
  if (document === undefined || 'problem' in document) return undefined;
  const scripts = (document.value as { scripts?: unknown } | null)?.scripts;
  return typeof scripts === 'object' && scripts !== null
    ? (scripts as Record<string, unknown>)
    : undefined;
}

class Reader {
  readonly tools = new Map<string, ToolDescriptor>();
  readonly commands: string[][] = [];
  opaque = false;
  warningLimit: number | undefined;

  constructor(private readonly directory: string) {}

  command(argv: readonly string[], depth: number): void {
    const words = unwrap([...argv]);
    const program = programName(words[0] ?? '');
    if (program === '' || INERT.has(program)) return;
    const script = scriptOf(words);
    if (script !== undefined) return this.script(script, depth + 1);
    const recipe = recipeCommandsOf(this.directory, words);
    if (recipe !== undefined) {
      if (depth >= MAX_DEPTH) this.opaque = true;
      else for (const inner of recipe) this.command(inner, depth + 1);
      return;
    }
    this.commands.push([...argv]);
    const tool = toolOfCommand(words);
    if (tool) {
      this.tools.set(tool.name, tool);
      const limit = tool.warningLimit?.(words);
      if (limit !== undefined) this.warningLimit = Math.min(limit, this.warningLimit ?? limit);
    } else this.opaque = true;
  }

  script(name: string, depth: number): void {
    const scripts = readScripts(this.directory);
    const body = scripts?.[name];
    if (depth > MAX_DEPTH || typeof body !== 'string') {
      this.opaque = true;
      return;
    }
    for (const hook of [`pre${name}`, name, `post${name}`]) {
      const text = scripts?.[hook];
      if (typeof text === 'string') this.body(text, depth);
    }
  }

  /** A script body: its `&&` chain, else the tools it names, read as opaque beside them. */
  body(text: string, depth: number): void {
    const chain = splitChain(text);
    if (chain) {
      for (const segment of chain) this.command(segment, depth);
      return;
    }
    for (const word of toolsInBody(text)) {
      const tool = toolOfScriptWord(word);
      if (tool) this.tools.set(tool.name, tool);
    }
    // Shell syntax: what else it runs is not known.
    this.opaque = true;
  }
}

/** The known tools a gate's check runs and whether any part of it is opaque. */
export function gateCommands(gate: GateSpec, root: string): GateCommands {
  const directory = gate.cwd ? path.resolve(root, gate.cwd) : root;
  const reader = new Reader(directory);
  for (const command of gate.steps ? gate.steps.map((step) => step.command) : [gate.command])
    reader.command(command, 0);
  return {
    tools: [...reader.tools.values()],
    opaque: reader.opaque,
    warningLimit: reader.warningLimit,
    commands: reader.commands,
  };
}

import path from 'node:path';
import { GatesError } from '../../gates/gates-error.js';
import {
  HOOK_EVENTS,
  HOOK_HOSTS,
  hookAnswer,
  readHookInput,
  type HookEvent,
  type HookHost,
  type HookVerdict,
} from '../../gates/hooks/hook-hosts.js';
import { budgetProblem, clampBudget } from '../../gates/hooks/hook-budget.js';
import { askServer, CHANNEL_VERSION } from '../../gates/hooks/hook-channel.js';
import { loadSession, saveSession } from '../../gates/hooks/hook-session.js';
import type { CliArguments } from '../cli-arguments.js';
import type { CliOutput } from '../cli-output.js';
import { resolveProjectRoot } from '../project-root.js';

/** A host's hook JSON is small; more than this on stdin is not a hook's input. */
const MAX_INPUT_BYTES = 8 * 1024 * 1024;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > MAX_INPUT_BYTES)
      throw new GatesError('EGATES_USAGE', `more than ${MAX_INPUT_BYTES} bytes on stdin`, {
        fix: "run `mcp-gates hook` from a host's hook, which sends its hook JSON on stdin",
      });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function withNote(verdict: HookVerdict, text: string): HookVerdict {
  return { ...verdict, note: [verdict.note || 'mcp-gates', text].join('; ') };
}

/** A GatesError's message on one line: the problem, then its fix. */
function oneLine(message: string): string {
  return message.replace(/\n\s*fix: /g, '; fix: ').replace(/\s*\n\s*/g, ' ');
}

/**
 * What the hook answers when it cannot do its work (input it cannot read, a config error):
 * the host's JSON with a note that says what is wrong and how to fix it, exit 0. An exit
 * code would read as a block on some hosts, every time, until someone found out why.
 */
function cannotCheck(host: HookHost, event: HookEvent, output: CliOutput, why: string): number {
  const note = `mcp-gates: nothing checked: ${oneLine(why)}`;
  output.err(note);
  process.stdout.write(
    hookAnswer(host, event, { block: false, reason: '', note, unchecked: true }).stdout,
  );
  return 0;
}

/**
 * The exit code for a `mcp-gates hook` command line that could not be read (`argv` as
 * given), or undefined when `argv` is no hook's: the host's JSON saying why when the line
 * names a host and an event, else 1 (a hook error no host reads as a block).
 */
export function hookUsageAnswer(
  argv: readonly string[],
  output: CliOutput,
  why: string,
): number | undefined {
  // A person at a terminal gets the usual usage error.
  if (process.stdin.isTTY) return undefined;
  const at = argv.indexOf('hook');
  if (at < 0 || argv.slice(0, at).some((word) => !word.startsWith('-'))) return undefined;
  const hostAt = argv.findIndex((word) => word === '--host' || word.startsWith('--host='));
  const host = hostAt < 0 ? undefined : (argv[hostAt]!.split('=')[1] ?? argv[hostAt + 1]);
  const event = argv
    .slice(at + 1)
    .find((word) => (HOOK_EVENTS as readonly string[]).includes(word));
  if ((HOOK_HOSTS as readonly string[]).includes(host ?? '') && event !== undefined)
    return cannotCheck(host as HookHost, event as HookEvent, output, why);
  output.err(`mcp-gates: ${why}`);
  return 1;
}

/**
 * `mcp-gates hook <after-edit|before-stop> --host H`: a command hook for hosts without
 * MCP tool hooks. Reads the host's hook JSON on stdin and answers in the host's format
 * and exit-code convention: through the server running for the root when one can be
 * reached safely (warm; gates/hooks/hook-channel.ts), else by running the gates here,
 * cold, with the session (the findings it began with, the last stop it blocked) kept in
 * the per-root cache. What keeps it from checking (unreadable input, a config error) is
 * answered too, never with an exit code a host reads as a block.
 */
export async function hookCommand(args: CliArguments, output: CliOutput): Promise<number> {
  const host = args.host as HookHost;
  const event = args.positionals[0] as HookEvent;
  if (process.stdin.isTTY)
    throw new GatesError('EGATES_USAGE', 'no hook JSON on stdin', {
      fix: `run it from a host's hook (see \`mcp-gates init --hooks ${host}\`), or pipe the JSON in, e.g. echo '{"tool_input":{"file_path":"src/a.ts"}}' | mcp-gates hook after-edit --host ${host}`,
    });
  try {
    return await answerHook(args, output, host, event);
  } catch (error) {
    if (!(error instanceof GatesError)) throw error;
    return cannotCheck(host, event, output, error.message);
  }
}

async function answerHook(
  args: CliArguments,
  output: CliOutput,
  host: HookHost,
  event: HookEvent,
): Promise<number> {
  // A budget no timer holds is clamped to one it does, and the answer says so.
  const budgetIssue =
    args.budgetMs === undefined ? undefined : budgetProblem(args.budgetMs, '--budget-ms');
  const budgetMs = args.budgetMs === undefined ? undefined : clampBudget(args.budgetMs);
  let input: unknown;
  try {
    input = JSON.parse(await readStdin());
  } catch (error) {
    if (error instanceof GatesError) throw error;
    throw new GatesError('EGATES_USAGE', `stdin is not JSON: ${(error as Error).message}`, {
      fix: `configure the hook as \`mcp-gates init --hooks ${host}\` writes it; the host sends its hook JSON on stdin`,
    });
  }
  const hookInput = readHookInput(host, input);
  const root = resolveProjectRoot({
    root: args.root ?? hookInput.cwd,
    env: process.env,
    cwd: process.cwd(),
  });
  const sessionId = hookInput.sessionId ?? 'no-session-id';
  // A host names edited files relative to where it runs (Codex's patch paths), which
  // need not be the root.
  const paths = hookInput.paths.map((file) => path.resolve(hookInput.cwd ?? process.cwd(), file));
  const stop = {
    ...(args.base ? { base: args.base } : {}),
    loopFlag: hookInput.loopFlag,
  };
  const budget = budgetMs !== undefined ? { budgetMs } : {};
  // The host ending the hook (SIGTERM on its timeout, Ctrl-C) cancels the gates' trees.
  const cancel = new AbortController();
  const onSignal = () => cancel.abort();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  try {
    const request = { version: CHANNEL_VERSION, event, paths, sessionId };
    const served = await askServer(root, { ...request, ...stop, ...budget }, cancel.signal);
    let verdict: HookVerdict;
    if ('verdict' in served) {
      if (served.cancelled) return 130;
      output.err('mcp-gates: answered by the server running for this root (warm)');
      verdict = served.verdict;
    } else if (event === 'session-start') {
      // Loaded only here: a hook the server answers loads no gate code (it runs on every edit).
      const { hookContext, recordSessionStart } = await import('../../gates/hooks/run-hooks.js');
      // Run here, the baseline would hold up the prompt: the first edit's hook takes it.
      // Where the session began (HEAD) is recorded now, so its commits count at the stop.
      const session = loadSession(root, sessionId, process.env);
      await recordSessionStart({
        gates: [],
        context: hookContext(cancel.signal, 'cli'),
        options: { root },
        session,
      });
      saveSession(root, sessionId, session, process.env);
      output.err(
        `mcp-gates: no baseline taken now (${served.why}); the first edit's hook takes it`,
      );
      verdict = { block: false, reason: '', note: '' };
    } else {
      if (cancel.signal.aborted) return 130;
      output.err(`mcp-gates: running the gates here (cold): ${served.why}`);
      const [{ hookContext, runHookEvent }, { loadGates }] = await Promise.all([
        import('../../gates/hooks/run-hooks.js'),
        import('../../gates/load-gates.js'),
      ]);
      const session = loadSession(root, sessionId, process.env);
      const hook = {
        gates: loadGates(root).gates,
        context: hookContext(cancel.signal, 'cli'),
        options: { root },
        session,
        ...budget,
      };
      const outcome = await runHookEvent(event, hook, { paths, ...stop });
      if (outcome.cancelled) return 130;
      saveSession(root, sessionId, session, process.env);
      verdict = outcome.verdict;
      // A live server that could not take the call: the answer says it ran cold, and why.
      if (served.refused) verdict = withNote(verdict, `ran cold: ${served.why}`);
    }
    if (event === 'after-edit' && hookInput.paths.length === 0)
      output.err(`mcp-gates: the ${host} hook input named no edited file`);
    if (budgetIssue !== undefined) {
      const clamped = `${budgetIssue}; ran with ${budgetMs} ms (fix the hook's command line)`;
      output.err(`mcp-gates: ${clamped}`);
      verdict = withNote(verdict, clamped);
    }
    const answer = hookAnswer(host, event, verdict);
    process.stdout.write(answer.stdout);
    return answer.exitCode;
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
}

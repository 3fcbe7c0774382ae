import type { CommandName } from './cli-arguments.js';

const ROOT_LINE =
  '  --root DIR   the project root (default: $CLAUDE_PROJECT_DIR, else the nearest\n               ancestor of the working directory with mcp-gates.json, package.json,\n               Cargo.toml, pyproject.toml, go.mod or .git)';

const MAIN = `mcp-gates: serve a repository's own lint, format and typecheck gates as MCP tools.

Usage: mcp-gates [command] [options]

Commands:
  serve            serve the gates over MCP on stdio (the default command)
  list             show the gates that would be served
  run <gate>       run one gate in the terminal, exactly as the MCP tool does
  check            run every gate in parallel, one combined report
  baseline [gate]  record the current findings, so --new lists only new ones
  init             write mcp-gates.json from what detection finds
  doctor           check the setup: versions, capture mode, root, gates, programs
  hook <event>     a host's command hook: after-edit or before-stop (JSON on stdin)

Options:
${ROOT_LINE}
  -h, --help   show help (also: mcp-gates <command> --help)
  -V, --version

Exit codes: 0 ok or passed, 1 gate failed or problem found, 2 usage or config error,
3 a gate checked nothing (run, check: no pass), 130 interrupted (Ctrl-C).`;

const COMMAND_HELP: Record<CommandName, string> = {
  serve: `Usage: mcp-gates serve [--root DIR] [--no-warm] [--hook-tools]

Serves the project's gates over MCP on stdin/stdout: one tool per gate, plus
<gate>_fix for gates with a fix command. The gates come from mcp-gates.json at the
root, or from detection when there is none. A bad config stops the server (exit 2).
Checks run by the project's own eslint 8.57+, prettier 2.8+ and tsc (up to 6) answer from
warm worker processes kept for the server's life, with the cold run's result.
The hook tools (session_start, after_edit, before_stop) are served only when a hooks
file of the project calls them (.claude/settings.json, as \`init --hooks claude-code\`
writes it), or with --hook-tools.

Options:
${ROOT_LINE}
  --no-warm    run every gate cold (no warm workers)
  --hook-tools serve the hook tools even where no project hooks file calls them`,
  list: `Usage: mcp-gates list [--root DIR] [--json]

Shows the gates that would be served. --json prints an array of
{name, description, command, fix, parser, source, warm}; source is "config" or the file
detection read; warm is {warm, reason?}: whether serve answers the check from a warm
worker, and why not.

Options:
${ROOT_LINE}
  --json       machine-readable output`,
  run: `Usage: mcp-gates run <gate> [--root DIR] [--fix] [--json] [--no-warm] [--changed [--base REF]]
                     [--new] [--max-chars N] [paths...]

Runs one gate through the same code path as its MCP tool and prints the report.
Paths are relative to the working directory and must lie inside the root.
Exit 0 when the gate passed (or --changed found nothing it checks), 1 when it
failed, 2 on a usage or config error, 130 when interrupted (Ctrl-C; a second Ctrl-C stops at once).

Options:
${ROOT_LINE}
  --fix        run the gate's fix command instead (the <gate>_fix tool)
  --json       print the structured result (findings) as JSON
  --no-warm    accepted for symmetry with serve: a one-shot run is always cold
  --changed    only the files changed against HEAD (--base REF: the merge-base with REF)
  --new        only findings not in the baseline (see \`mcp-gates baseline\`); fails
               only on new errors
  --max-chars N  the report's budget in characters, 2000 to 10000000 (default 12000)`,
  check: `Usage: mcp-gates check [--root DIR] [--json] [--max-chars N]

Runs every gate's check in parallel (as many at once as there are cores) and prints
one report: a line per gate with its log, then the findings of the gates that did
not pass. Exit 0 when every gate passed, 1 otherwise, 130 when interrupted.

Options:
${ROOT_LINE}
  --json       print the structured result as JSON
  --max-chars N  the report's budget in characters, 2000 to 10000000 (default 12000)`,
  baseline: `Usage: mcp-gates baseline [gate...] [--root DIR] [--write-file]

Runs each named gate (default: every gate) and records its findings as the baseline
that \`run --new\` and the tools' "new": true compare with. Findings are matched by
their content and neighbouring lines, not line numbers. The baseline lives outside
the repository (~/.cache/mcp-gates/<root hash>/), or with --write-file in
.mcp-gates/baseline-<gate>.json at the root, to be committed (used when present).
Exit 0 when every baseline was recorded, 1 otherwise.

Options:
${ROOT_LINE}
  --write-file write the baseline into the repository`,
  init: `Usage: mcp-gates init [--root DIR]
       mcp-gates init --host HOST [--write] [--root DIR]
       mcp-gates init --hooks HOST [--root DIR]

Writes mcp-gates.json at the root from what detection finds, for you to edit.
Refuses to overwrite an existing file.

With --host, prints the config that makes HOST start this server instead (on
stdout; where it goes on stderr). Project files name no path of this machine: node
from PATH, the installed package relative to the project (\${workspaceFolder} in Cursor
and VS Code); Claude Desktop, which gives no project directory, gets absolute paths, and
init says which it wrote and why. HOST is one of
claude-code, claude-desktop, cursor, vscode, codex, gemini. With --write, adds it
to the host's project file (.mcp.json, .cursor/mcp.json, .vscode/mcp.json,
.codex/config.toml, .gemini/settings.json; Claude Desktop has none).

Options:
${ROOT_LINE}
With --hooks, writes HOST's hook configuration next to its server configuration,
so the gates run after every edit and before the agent stops, reporting only what
is new: Claude Code's hooks call the served session_start, after_edit and before_stop
tools (.claude/settings.json); Codex (.codex/hooks.json), Cursor (.cursor/hooks.json) and
Gemini CLI (.gemini/settings.json) run \`mcp-gates hook\`. HOST is one of
claude-code, codex, cursor, gemini. Refuses to overwrite hooks of its own already there.

Options:
${ROOT_LINE}
  --host HOST  print HOST's config for this server
  --write      with --host: write it into HOST's project file
  --hooks HOST write HOST's hook configuration`,
  hook: `Usage: mcp-gates hook session-start|after-edit|before-stop --host HOST
                      [--root DIR] [--base REF] [--budget-ms MS]

A command hook for hosts without MCP tool hooks (HOST: claude-code, codex, cursor,
gemini). Reads the host's hook JSON on stdin and answers in that host's decision
format on stdout (exit 0): session-start has the server take the session's baseline in
the background (on the first prompt; run cold it leaves it to the first edit); after-edit
runs the gates that check the edited file and blocks with the errors the edit
introduced; before-stop runs every gate on the files
changed against the merge base with REF (default: origin/HEAD, main or master, the first
that exists; else HEAD) and blocks while new errors remain, never twice in a row on the
same ones. Only findings new since the host's session began count. It asks the server
running for the same root first (a Unix socket in a directory private to you), which
answers warm; without one it runs the gates cold and keeps the session in
~/.cache/mcp-gates/<root hash>/hook-sessions/. It says which on stderr.

Options:
${ROOT_LINE}
  --host HOST    the host whose hook format is read and written
  --base REF     before-stop: the changed files against the merge base with REF
  --budget-ms MS how long to wait for the gates (default 60000 after an edit,
                 300000 before a stop); the answer names the gates that did not finish`,
  doctor: `Usage: mcp-gates doctor [--root DIR] [--json]

Reports the version, Node, platform, output capture mode (native or degraded, and
where the binding came from), the root, and the configured and detected gates with
whether each one's program can be found and starts: each program is run once with
--version (or its equivalent; no shell, no stdin, at most 10 s), and a crash is shown
with its first stderr line and the fix. Exit 1 when a served gate's program is
missing, refused (another user could have written it) or fails, 2 on a config error.

Options:
${ROOT_LINE}
  --json       machine-readable output`,
  help: MAIN,
};

export function helpText(command: CommandName | undefined): string {
  return command ? COMMAND_HELP[command] : MAIN;
}

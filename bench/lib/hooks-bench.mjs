// The hooks bench (issue 22): `after_edit` through `mcp-gates serve` on the generated large
// project, warm, beside what projects wire into a hook today: a command that runs
// `eslint <file>` cold, and one that also runs `tsc --noEmit` cold. One contender after
// another, each round edits the same function body (the body edit of big-project.mjs)
// and times the contender on it. Servers of their own: lint and format only (the lint +
// format target); the typecheck too; and that one again asked by `mcp-gates hook` as a
// command hook of Codex through the local channel.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { GATES_CLI, initializeClient } from './gate-bench.mjs';
import { installTools, makeLargeProject } from './large-bench.mjs';
import { RpcClient } from './rpc-client.mjs';
import { median } from './stats.mjs';

const CALL_TIMEOUT_MS = 10 * 60 * 1000;

function gateEnv() {
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  delete env.CLAUDE_PROJECT_DIR;
  return env;
}

const GATE = (command, parser, paths) => ({ command, parser, paths, timeoutMs: CALL_TIMEOUT_MS });
const LINT_FORMAT = {
  lint: GATE(['eslint', '--format', 'json', '.'], 'eslint-json', 'append'),
  format: GATE(['prettier', '--check', '.'], 'prettier', 'append'),
};
const WITH_TYPECHECK = {
  ...LINT_FORMAT,
  typecheck: GATE(['tsc', '--noEmit', '--pretty', 'false', '-p', 'tsconfig.json'], 'tsc', 'none'),
};

function timed(file, args, cwd) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(file, args, { cwd, env: gateEnv(), stdio: ['ignore', 'ignore', 'ignore'] });
    child.on('close', (code) =>
      resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, exitCode: code }),
    );
  });
}

/** A server of `gates` on the project; `call` times one after_edit of `file`. */
async function hookServer(root, gates) {
  fs.writeFileSync(path.join(root, 'mcp-gates.json'), `${JSON.stringify({ gates }, null, 2)}\n`);
  const client = new RpcClient(GATES_CLI, ['serve', '--root', root, '--hook-tools'], {
    cwd: root,
    env: gateEnv(),
  });
  await initializeClient(client);
  const call = async (file) => {
    const started = process.hrtime.bigint();
    const { result, receivedAt } = await client.request('tools/call', {
      name: 'after_edit',
      arguments: { path: file },
    });
    const content = result.structuredContent;
    if (!content) throw new Error(`after_edit gave no result: ${result.content?.[0]?.text}`);
    const unfinished = content.gates.filter((row) => !['passed', 'failed'].includes(row.status));
    return {
      ms: Number(receivedAt - started) / 1e6,
      ok: content.decision === 'allow' && unfinished.length === 0,
      gates: content.gates.map((row) => row.gate).join('+'),
      detail: JSON.stringify(content).slice(0, 300),
    };
  };
  return { call, close: () => client.close() };
}

/** `mcp-gates hook after-edit` as Codex runs it (its hook JSON on stdin), timed to its exit. */
function commandHook(root, file) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(
      process.execPath,
      [GATES_CLI, 'hook', 'after-edit', '--host', 'codex', '--root', root],
      { cwd: root, env: gateEnv(), stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => {
      const warm = stderr.includes('answered by the server');
      resolve({
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        ok: code === 0 && warm && !stdout.includes('"decision"'),
        detail: `exit ${code}: ${stdout.trim()} ${stderr.trim()}`.slice(0, 300),
      });
    });
    const tool_input = {
      command: `*** Begin Patch\n*** Update File: ${path.relative(root, file)}\n*** End Patch\n`,
    };
    child.stdin.end(
      JSON.stringify({ session_id: 'bench', cwd: root, tool_name: 'apply_patch', tool_input }),
    );
  });
}

/**
 * `{files, rounds, contenders: [{id, label, first, median, samples}], problems}`: each
 * contender's first call and the median of the later rounds, in ms.
 */
export async function benchHooks({ files, rounds }, progress = () => {}) {
  const tools = installTools(progress);
  progress(`hooks: generating ${files} files`);
  const project = makeLargeProject(tools.dir, files);
  const { root, bodyEdit, pristine } = project;
  const edited = path.join(root, bodyEdit.file);
  const bin = (name) => path.join(root, 'node_modules', '.bin', name);
  const problems = [];
  const contenders = [
    {
      id: 'serve-lint-format',
      label: '`after_edit` through serve, lint + format (warm)',
      gates: LINT_FORMAT,
    },
    {
      id: 'serve-all',
      label: '`after_edit` through serve, lint + format + typecheck (warm)',
      gates: WITH_TYPECHECK,
    },
    {
      id: 'hook-channel',
      label:
        '`mcp-gates hook after-edit --host codex` with serve running: lint + format + typecheck through the channel (warm)',
      gates: WITH_TYPECHECK,
      command: true,
    },
    {
      id: 'eslint-cold',
      label: 'command hook: `eslint <file>` cold',
      argv: [bin('eslint'), [bodyEdit.file]],
    },
    {
      id: 'eslint-tsc-cold',
      label: 'command hook: `eslint <file>` and `tsc --noEmit` cold',
      argv: [bin('eslint'), [bodyEdit.file]],
      then: [bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']],
    },
  ].map((contender) => ({ ...contender, samples: [], first: NaN }));
  try {
    for (const contender of contenders) {
      fs.writeFileSync(edited, pristine[bodyEdit.file]);
      const server = contender.gates ? await hookServer(root, contender.gates) : undefined;
      try {
        for (let round = 0; round <= rounds; round++) {
          fs.writeFileSync(edited, bodyEdit.apply(pristine[bodyEdit.file], round + 1));
          let result;
          if (server && contender.command) result = await commandHook(root, edited);
          else if (server) result = await server.call(edited);
          else {
            const first = await timed(contender.argv[0], contender.argv[1], root);
            const second = contender.then
              ? await timed(contender.then[0], contender.then[1], root)
              : { ms: 0, exitCode: 0 };
            result = {
              ms: first.ms + second.ms,
              ok: first.exitCode === 0 && second.exitCode === 0,
              detail: `exit ${first.exitCode}/${second.exitCode}`,
            };
          }
          if (!result.ok)
            problems.push(`${contender.id} round ${round}: not clean: ${result.detail}`);
          if (round === 0) contender.first = result.ms;
          else contender.samples.push(result.ms);
          progress(
            `hooks: ${contender.id} ${round === 0 ? 'first' : `round ${round}`}: ${Math.round(result.ms)} ms`,
          );
        }
      } finally {
        await server?.close();
      }
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  return {
    files: project.files,
    rounds,
    contenders: contenders.map(({ id, label, first, samples }) => ({
      id,
      label,
      first,
      median: median(samples),
      samples,
    })),
    problems,
  };
}

/** The hooks section of a report, as Markdown. */
export function renderHooksReport(hooks, command) {
  const ms = (value) => (Number.isFinite(value) ? `${Math.round(value)} ms` : 'n/a');
  const lines = [
    '## Hooks: after_edit warm beside a cold command hook',
    '',
    `${hooks.files} source files; the same function body edited each round; first call, then the median of ${hooks.rounds} rounds. Command: \`${command}\`.`,
    '',
    '| contender | first call | median |',
    '| --- | ---: | ---: |',
    ...hooks.contenders.map((c) => `| ${c.label} | ${ms(c.first)} | ${ms(c.median)} |`),
  ];
  if (hooks.problems.length > 0)
    lines.push('', 'Problems:', ...hooks.problems.map((p) => `- ${p}`));
  return `${lines.join('\n')}\n`;
}

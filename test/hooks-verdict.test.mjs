// The hooks' verdict is the gate's: a new warning that makes a gate fail (eslint
// --max-warnings 0) blocks, unless the gate already failed at the session's start; what
// could not be checked is named on every host (Cursor included); bad input and config
// errors are answered, never with an exit code a host reads as a block; budgets are ones a
// timer holds. The local channel never loses a live server's socket, makes its socket
// again when it goes, and says why it refuses a call.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { Ajv } from 'ajv';
import { hookAnswer, hookDecision, HOOK_HOSTS } from '../dist/gates/hooks/hook-hosts.js';
import { askServer, channelPath, listenForHooks } from '../dist/gates/hooks/hook-channel.js';
import { createHookTools } from '../dist/gates/hooks/hook-tools.js';
import { HookSession } from '../dist/gates/hooks/hook-session.js';
import {
  hookContext,
  runAfterEdit,
  runBeforeStop,
  startSession,
} from '../dist/gates/hooks/run-hooks.js';
import { loadGates } from '../dist/gates/load-gates.js';
import { cleanupTemporary, envWithTools, makeTempDir } from './fixtures/gates-support.mjs';
import { git, makeWarmRepo } from './fixtures/warm/warm-fixture.mjs';
import { inJavaScript } from './fixtures/js-sources.mjs';
import {
  blockText,
  hookInput,
  HOOK_OUTPUT_SCHEMAS,
  runHookRaw as runHookWith,
} from './fixtures/hook-formats.mjs';

const ajv = new Ajv({ strict: false, allErrors: true });
const TIMER_MAX = 2 ** 31 - 1;

function expectHostFormat(host, event, answer) {
  const validate = ajv.compile(HOOK_OUTPUT_SCHEMAS[host][event]);
  expect(validate(answer), `${host} ${event}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
}

/** The text of an answer a host shows (the model's or the user's), whatever the host. */
function shownText(host, event, answer) {
  return blockText(host, event, answer) ?? answer.systemMessage;
}

/**
 * The warm fixture in JavaScript (every verdict here is the lint's), committed, with its
 * gates in mcp-gates.json (`gates` overrides them); `mainJs` replaces src/main.js (default:
 * its old console.log error and TODO warning), and then math.js loses its old eqeqeq error too.
 */
function committedRepo({ gates = {}, mainJs } = {}) {
  const root = inJavaScript(makeWarmRepo('mcp-gates-hooks-verdict-'));
  const all = {
    lint: { command: ['eslint', '--format', 'json', '.'], parser: 'eslint-json', paths: 'append' },
    ...gates,
  };
  fs.writeFileSync(path.join(root, 'mcp-gates.json'), JSON.stringify({ gates: all }, null, 2));
  fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules\n');
  if (mainJs !== undefined) {
    fs.writeFileSync(path.join(root, 'src', 'main.js'), mainJs);
    const math = path.join(root, 'src', 'math.js');
    fs.writeFileSync(math, fs.readFileSync(math, 'utf8').replace('a == b', 'a === b'));
  }
  git(root, 'init', '-q');
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'start');
  return root;
}

/** A hook request run in this process, cold, with its own session. */
function hookRequest(root, session = new HookSession(), budgetMs = 60_000) {
  return {
    gates: loadGates(root).gates,
    context: hookContext(new AbortController().signal, 'test'),
    options: { root },
    session,
    budgetMs,
  };
}

const MAX_WARNINGS_LINT = {
  lint: {
    command: ['eslint', '--max-warnings', '0', '--format', 'json', '.'],
    parser: 'eslint-json',
    paths: 'append',
  },
};
/** main.js with only an old warning (a TODO): under --max-warnings 0 lint fails on it. */
const MAIN_WITH_OLD_WARNING = "// TODO: an old one\nexport const label = 'main';\n";
const MAIN_CLEAN = "export const label = 'main';\n";
/** --max-warnings 1: one warning is allowed; main.js with two old warnings fails it at the start. */
const MAX_ONE_WARNING_LINT = {
  lint: {
    ...MAX_WARNINGS_LINT.lint,
    command: ['eslint', '--max-warnings', '1', '--format', 'json', '.'],
  },
};
const MAIN_WITH_TWO_OLD_WARNINGS = `// TODO: an old one\n// TODO: another\n${MAIN_CLEAN}`;

function addTodo(root) {
  const file = path.join(root, 'src', 'math.js');
  fs.appendFileSync(file, '\n// TODO: a new one\n');
  return file;
}

describe('hooks: the verdict is the gate’s', function () {
  this.timeout(120000);
  after(cleanupTemporary);

  it('a new warning that makes the gate fail (--max-warnings 0) blocks after the edit and at the stop; the note says what the reason says', async () => {
    const root = committedRepo({ gates: MAX_WARNINGS_LINT, mainJs: MAIN_CLEAN });
    const request = hookRequest(root);
    const file = addTodo(root);
    const edit = await runAfterEdit(request, [file]);
    expect(edit.verdict.block, edit.verdict.note).to.equal(true);
    expect(edit.verdict.reason).to.match(
      /the edited file now has 1 new warning that fails lint since the session began/,
    );
    expect(edit.verdict.reason).to.match(/src\/math\.js:\d+:\d+ warning lint:local\/no-todo/);
    expect(edit.rows[0].newFailure).to.equal(true);
    // Never "no new error" beside a block.
    expect(edit.verdict.note).to.not.match(/no new error/);
    expect(edit.verdict.note).to.match(/blocked on 1 new warning that fails lint/);
    const stop = await runBeforeStop(request, { loopFlag: false });
    expect(stop.verdict.block, stop.verdict.note).to.equal(true);
    expect(stop.verdict.reason).to.match(/1 new warning that fails lint since the session began/);
    // Not twice in a row on the same findings.
    const again = await runBeforeStop(request, { loopFlag: true });
    expect(again.verdict.block).to.equal(false);
    expect(again.verdict.note).to.match(/not blocking again/);
  });

  it('a new warning under a gate that passes does not block; under --max-warnings 1 already failed at the session start it does not either, and says so; under --max-warnings 0 it blocks', async () => {
    // Without --max-warnings the gate passes with warnings: nothing blocks.
    const passing = committedRepo({ mainJs: MAIN_CLEAN });
    const plain = await runAfterEdit(hookRequest(passing), [addTodo(passing)]);
    expect(plain.verdict.block).to.equal(false);
    expect(plain.verdict.note).to.match(/1 new warning, no new error/);

    // Failing at the start on old warnings past --max-warnings 1: the new one is no new failure.
    const failing = committedRepo({
      gates: MAX_ONE_WARNING_LINT,
      mainJs: MAIN_WITH_TWO_OLD_WARNINGS,
    });
    const session = new HookSession();
    const request = hookRequest(failing, session);
    expect(await startSession(request)).to.equal('started');
    await session.priming;
    expect(session.state.gates.lint.startStatus).to.equal('failed');
    const edit = await runAfterEdit(request, [addTodo(failing)]);
    expect(edit.verdict.block, edit.verdict.reason).to.equal(false);
    expect(edit.verdict.note, JSON.stringify(edit.rows)).to.match(
      /lint failed before the session.s findings too/,
    );

    // Under --max-warnings 0 every warning fails the gate: a new one blocks even where old
    // warnings already failed it (fixing those would still leave the gate failing on it).
    const strict = committedRepo({ gates: MAX_WARNINGS_LINT, mainJs: MAIN_WITH_OLD_WARNING });
    const strictSession = new HookSession();
    const strictRequest = hookRequest(strict, strictSession);
    await startSession(strictRequest);
    await strictSession.priming;
    const strictEdit = await runAfterEdit(strictRequest, [addTodo(strict)]);
    expect(strictEdit.verdict.block, strictEdit.verdict.note).to.equal(true);

    // Passing at the start: the same edit blocks.
    const clean = committedRepo({ gates: MAX_WARNINGS_LINT, mainJs: MAIN_CLEAN });
    const cleanSession = new HookSession();
    const cleanRequest = hookRequest(clean, cleanSession);
    await startSession(cleanRequest);
    await cleanSession.priming;
    expect(cleanSession.state.gates.lint.startStatus).to.equal('passed');
    const blocked = await runAfterEdit(cleanRequest, [addTodo(clean)]);
    expect(blocked.verdict.block, blocked.verdict.note).to.equal(true);
  });

  it('a blocking answer with new errors never says "no new error" in its note', async () => {
    const root = committedRepo({ mainJs: MAIN_CLEAN });
    const file = path.join(root, 'src', 'math.js');
    fs.appendFileSync(file, '\nconsole.log(add(1, 2));\n// TODO: too\n');
    const edit = await runAfterEdit(hookRequest(root), [file]);
    expect(edit.verdict.block).to.equal(true);
    expect(edit.verdict.reason).to.match(/the edited file now has 1 new error/);
    expect(edit.verdict.note).to.not.match(/no new error/);
    expect(edit.verdict.note).to.match(/blocked on 1 new error/);
  });
});

describe('hooks: the answer says where the findings are and what ran whole', function () {
  this.timeout(120000);
  after(cleanupTemporary);

  it("a second edit elsewhere names the earlier edit's error as outside the edited file, not as this edit's", async () => {
    // A gate that runs whole (as a typecheck does) sees the earlier edit's error again.
    const root = committedRepo({
      gates: {
        lint: {
          command: ['eslint', '--format', 'json', '.'],
          parser: 'eslint-json',
          paths: 'none',
        },
      },
      mainJs: MAIN_CLEAN,
    });
    const request = hookRequest(root);
    const math = path.join(root, 'src', 'math.js');
    fs.appendFileSync(math, '\nconsole.log(add(1, 2));\n');
    const first = await runAfterEdit(request, [math]);
    expect(first.verdict.reason).to.match(/the edited file now has 1 new error /);
    const main = path.join(root, 'src', 'main.js');
    fs.appendFileSync(main, '\nconsole.log(label);\n');
    const second = await runAfterEdit(request, [main]);
    expect(second.verdict.block, second.verdict.note).to.equal(true);
    expect(second.verdict.reason).to.match(
      /2 new errors since the session began, 1 of them outside the edited file/,
    );
    expect(second.verdict.reason).to.not.match(/the edit introduced/);
    // The edited file's finding comes first.
    const lines = second.verdict.reason.split('\n');
    expect(lines[1]).to.match(/^src\/main\.js:/);
  });

  it('a stop after a settings edit says the gate ran on the whole project and why, not "on the N files changed"', async () => {
    const root = committedRepo({ mainJs: MAIN_CLEAN });
    const request = hookRequest(root);
    const config = path.join(root, 'eslint.config.js');
    fs.appendFileSync(config, '\n// a settings edit\n');
    const stop = await runBeforeStop(request, { loopFlag: false });
    expect(stop.verdict.note).to.match(
      /ran lint on the 1 file changed against [^;]+; on the whole project: lint \(eslint\.config\.js is read as settings\)/,
    );
  });
});

describe('hooks: what was not checked is named on every host', function () {
  this.timeout(120000);
  after(cleanupTemporary);

  it('a verdict with something unchecked is shown on every host, Cursor included, in its format', () => {
    const verdict = {
      block: false,
      reason: '',
      note: "mcp-gates: ran lint on src/a.ts: nothing new; typecheck did not finish within the hook's 30 s budget",
      unchecked: true,
    };
    for (const host of HOOK_HOSTS) {
      for (const event of ['after-edit', 'before-stop']) {
        const answer = JSON.parse(hookAnswer(host, event, verdict).stdout);
        expectHostFormat(host, event, answer);
        expect(shownText(host, event, answer), `${host} ${event}`).to.include(
          'typecheck did not finish',
        );
      }
    }
    // Nothing unchecked and nothing to block: Cursor stays quiet (its messages go to the model).
    const quiet = { block: false, reason: '', note: 'mcp-gates: ran lint: nothing new' };
    expect(hookDecision('cursor', 'before-stop', quiet)).to.deep.equal({});
  });

  it('a gate that cannot run is named on Cursor after an edit and at the stop, never a silent {}', async () => {
    const root = committedRepo({
      gates: {
        // A config that is not there: eslint cannot run its check.
        strict: {
          command: ['eslint', '--config', 'missing.config.js', '--format', 'json', '.'],
          parser: 'eslint-json',
          paths: 'append',
        },
      },
    });
    const cache = makeTempDir('mcp-gates-hook-cache-');
    const file = path.join(root, 'src', 'math.js');
    fs.appendFileSync(file, '\nexport const more = 1;\n');
    for (const event of ['after-edit', 'before-stop']) {
      const result = await runHook(
        root,
        'cursor',
        event,
        hookInput('cursor', event, { file, root }),
        cache,
      );
      expect(result.code, result.stderr).to.equal(0);
      const answer = JSON.parse(result.stdout);
      expectHostFormat('cursor', event, answer);
      expect(answer, event).to.not.deep.equal({});
      expect(shownText('cursor', event, answer)).to.match(/strict gave no verdict/);
    }
  });
});

/** Runs `mcp-gates hook` as a host would (`argv` after `hook`), `stdin` as given. */
function runHookRaw(argv, stdin, { cwd, cache, env = {} }) {
  return runHookWith(argv, stdin, { cwd, env: envWithTools({ XDG_CACHE_HOME: cache, ...env }) });
}

function runHook(root, host, event, input, cache, extra = []) {
  return runHookRaw([event, '--host', host, '--root', root, ...extra], JSON.stringify(input), {
    cwd: root,
    cache,
  });
}

describe('hooks: bad input is answered, never blocks forever', function () {
  this.timeout(120000);
  after(cleanupTemporary);

  it('stdin that is not JSON, a config error and a command line it cannot read: exit 0 and the host JSON saying what to fix', async () => {
    const root = committedRepo();
    const cache = makeTempDir('mcp-gates-hook-cache-');
    for (const host of HOOK_HOSTS) {
      const notJson = await runHookRaw(['before-stop', '--host', host, '--root', root], '{oops', {
        cwd: root,
        cache,
      });
      expect(notJson.code, `${host}: ${notJson.stderr}`).to.equal(0);
      const answer = JSON.parse(notJson.stdout);
      expectHostFormat(host, 'before-stop', answer);
      expect(shownText(host, 'before-stop', answer), host).to.match(/stdin is not JSON.*fix: /);
    }
    const badBudget = await runHookRaw(
      ['after-edit', '--host', 'codex', '--root', root, '--budget-ms', 'soon'],
      '{}',
      { cwd: root, cache },
    );
    expect(badBudget.code).to.equal(0);
    expect(JSON.parse(badBudget.stdout).systemMessage).to.match(/--budget-ms needs a whole number/);

    fs.writeFileSync(path.join(root, 'mcp-gates.json'), '{"gates": {"lint": {"command": 7}}}');
    const file = path.join(root, 'src', 'math.js');
    const config = await runHook(
      root,
      'gemini',
      'after-edit',
      hookInput('gemini', 'after-edit', { file, root }),
      cache,
    );
    expect(config.code, config.stderr).to.equal(0);
    const configAnswer = JSON.parse(config.stdout);
    expectHostFormat('gemini', 'after-edit', configAnswer);
    expect(configAnswer.systemMessage).to.match(/mcp-gates\.json.*fix: /);
  });

  it('a payload naming no file, a file outside the root or a directory is answered with a message that says so', async () => {
    const root = committedRepo();
    const cache = makeTempDir('mcp-gates-hook-cache-');
    const cases = [
      [{ session_id: 's', cwd: root, tool_input: {} }, /named no edited file/],
      [
        { session_id: 's', cwd: root, tool_input: { file_path: '/etc/hostname' } },
        /outside the project root/,
      ],
      [
        { session_id: 's', cwd: root, tool_input: { file_path: path.join(root, 'src') } },
        /is a directory, not an edited file/,
      ],
    ];
    for (const [input, expected] of cases) {
      const result = await runHook(root, 'claude-code', 'after-edit', input, cache);
      expect(result.code, result.stderr).to.equal(0);
      const answer = JSON.parse(result.stdout);
      expect(answer.decision).to.equal(undefined);
      expect(answer.systemMessage).to.match(expected);
      // Cursor, which shows the user nothing, tells the model.
      const cursor = await runHook(
        root,
        'cursor',
        'after-edit',
        { conversation_id: 's', workspace_roots: [root], file_path: input.tool_input.file_path },
        cache,
      );
      expect(JSON.parse(cursor.stdout).additional_context).to.match(expected);
    }
  });
});

describe('hooks: budgets are ones a timer holds', function () {
  this.timeout(120000);
  after(cleanupTemporary);

  it('the tool schema and the tool refuse a budget over 2^31-1 ms with a message; the CLI clamps it and says so', async () => {
    const root = committedRepo({ mainJs: MAIN_CLEAN });
    const tools = createHookTools(loadGates(root).gates, { root });
    const afterEdit = tools.find((tool) => tool.name === 'after_edit');
    expect(afterEdit.inputSchema.properties.budgetMs.maximum).to.equal(TIMER_MAX);
    const file = path.join(root, 'src', 'math.js');
    const refused = await afterEdit.run(
      { path: file, budgetMs: TIMER_MAX + 1 },
      hookContext(new AbortController().signal, 'test'),
    );
    expect(refused.isError).to.equal(true);
    expect(refused.text).to.match(/"budgetMs" 2147483648 is over 2147483647/);
    // A hook that names no file is answered (a host would read an error as a broken hook).
    const unnamed = await afterEdit.run({}, hookContext(new AbortController().signal, 'test'));
    expect(unnamed.isError).to.equal(false);
    expect(JSON.parse(unnamed.text).systemMessage).to.match(/named no edited file/);

    // Through the CLI: the edit's error is reported (no timer fired at once), and the note says the budget was clamped.
    fs.appendFileSync(file, '\nconsole.log(add(1, 2));\n');
    const cache = makeTempDir('mcp-gates-hook-cache-');
    const result = await runHook(
      root,
      'claude-code',
      'after-edit',
      hookInput('claude-code', 'after-edit', { file, root }),
      cache,
      ['--budget-ms', String(TIMER_MAX + 1)],
    );
    expect(result.code, result.stderr).to.equal(0);
    const answer = JSON.parse(result.stdout);
    expect(answer.decision, result.stdout).to.equal('block');
    expect(answer.reason).to.match(/src\/math\.js:\d+:\d+ error lint:no-console/);
    expect(result.stderr).to.match(
      /--budget-ms 2147483648 is over 2147483647.*ran with 2147483647 ms/,
    );
  });
});

/** A private runtime directory for the channel's sockets. */
function runtimeEnv() {
  const runtime = makeTempDir('mcp-gates-runtime-');
  fs.chmodSync(runtime, 0o700);
  return { XDG_RUNTIME_DIR: runtime };
}

const ALLOW = { verdict: { block: false, reason: '', note: 'served' }, cancelled: false };
const request = (extra = {}) => ({
  version: 1,
  event: 'after-edit',
  paths: [],
  loopFlag: false,
  sessionId: 's',
  ...extra,
});
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check, ms = 8000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await delay(100);
  }
  return check();
}

/** One raw request line to a socket: the answer line, parsed. */
function rawAsk(socket, line) {
  return new Promise((resolve, reject) => {
    const connection = net.connect(socket);
    let data = '';
    connection.on('data', (chunk) => (data += chunk));
    connection.on('end', () => resolve(data === '' ? null : JSON.parse(data)));
    connection.on('error', reject);
    connection.write(`${line}\n`);
  });
}

describe('hooks: the channel never loses a live server', function () {
  this.timeout(60000);
  after(cleanupTemporary);
  const open = [];
  afterEach(() => {
    for (const item of open.splice(0)) {
      if (item instanceof net.Socket) item.destroy();
      else if (typeof item.kill === 'function') item.kill('SIGKILL');
      else item.close();
    }
  });

  it('a socket held by a live but stalled process is not stale: a starting server leaves it and waits', async function () {
    if (process.platform === 'win32') this.skip();
    const env = runtimeEnv();
    const root = makeTempDir('mcp-gates-channel-root-');
    const { socket } = channelPath(root, env);
    fs.mkdirSync(path.dirname(socket), { mode: 0o700, recursive: true });
    // A live server whose backlog is full and who answers nothing for now (stopped).
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `require('net').createServer().listen({ path: ${JSON.stringify(socket)}, backlog: 1 }, () => console.log('up'))`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    open.push(holder);
    await new Promise((resolve) => holder.stdout.once('data', resolve));
    holder.kill('SIGSTOP');
    for (let index = 0; index < 8; index += 1) {
      const filler = net.connect(socket);
      filler.on('error', () => {});
      open.push(filler);
    }
    await delay(200);
    const inode = fs.statSync(socket).ino;
    const channel = await listenForHooks(root, async () => ALLOW, env);
    open.push(channel);
    expect(fs.statSync(socket).ino, 'the live socket was deleted').to.equal(inode);
    expect(channel.waiting).to.match(/another server .* answers/);
    // Once the holder is gone for good, the waiting server takes the socket over.
    holder.kill('SIGKILL');
    expect(
      await until(() => {
        try {
          return fs.statSync(socket).ino !== inode;
        } catch {
          return false;
        }
      }),
      'the waiting server never took over',
    ).to.equal(true);
    const answer = await askServer(root, request(), new AbortController().signal, env);
    expect(answer.verdict?.note).to.equal('served');
  });

  it('a server whose socket disappeared makes it again', async () => {
    const env = runtimeEnv();
    const root = makeTempDir('mcp-gates-channel-root-');
    const channel = await listenForHooks(root, async () => ALLOW, env);
    open.push(channel);
    fs.rmSync(channel.socket);
    expect(
      await until(() => fs.existsSync(channel.socket)),
      'the socket was not made again',
    ).to.equal(true);
    const answer = await askServer(root, request(), new AbortController().signal, env);
    expect(answer.verdict?.note).to.equal('served');
  });

  it('idle connections time out; at the limit a call is refused saying why; a nonsense budget is refused', async () => {
    const env = runtimeEnv();
    const root = makeTempDir('mcp-gates-channel-root-');
    let release;
    const held = new Promise((resolve) => (release = resolve));
    const channel = await listenForHooks(
      root,
      async (call) => (call.sessionId === 'slow' ? (await held, ALLOW) : ALLOW),
      env,
    );
    open.push(channel);
    for (const budgetMs of [0, -5, TIMER_MAX + 1]) {
      const answer = await rawAsk(channel.socket, JSON.stringify(request({ budgetMs })));
      expect(answer?.refused, String(budgetMs)).to.match(/"budgetMs"/);
    }
    // Eight connections that never send a request: they time out, and a hook is answered warm.
    const idle = [];
    for (let index = 0; index < 8; index += 1) {
      const connection = net.connect(channel.socket);
      connection.on('error', () => {});
      idle.push(connection);
      open.push(connection);
    }
    await delay(300);
    const busy = await askServer(root, request(), new AbortController().signal, env);
    expect(busy.why).to.match(/refused the request: the server is already answering 8 hook calls/);
    expect(busy.refused).to.equal(true);
    await until(
      () => idle.every((connection) => connection.destroyed || connection.readableEnded),
      6000,
    );
    const warm = await askServer(root, request(), new AbortController().signal, env);
    expect(warm.verdict?.note, warm.why).to.equal('served');
    release();
  });
});

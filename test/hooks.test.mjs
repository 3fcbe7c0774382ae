// Hook tools and command hooks: each host's answer parses as its documented hook JSON; a
// scripted session (an edit that introduces an error blocks with file:line, the fix
// clears it, old errors are never reported, a stop blocks once and never twice on the same
// errors) passes through real MCP clients (the mcp_tool shape) and through `mcp-gates
// hook` in each host's command-hook format; `init --hooks` writes each host's settings.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { Ajv } from 'ajv';
import {
  hookAnswer,
  patchFiles,
  readHookInput,
  HOOK_HOSTS,
} from '../dist/gates/hooks/hook-hosts.js';
import {
  CLI,
  REPO_ROOT,
  cleanupTemporary,
  envWithTools,
  makeTempDir,
  runCli,
} from './fixtures/gates-support.mjs';
import { git, makeWarmRepo } from './fixtures/warm/warm-fixture.mjs';
import { inJavaScript } from './fixtures/js-sources.mjs';
import {
  blockText,
  hookInput,
  HOOK_OUTPUT_SCHEMAS,
  runHook as runHookAs,
} from './fixtures/hook-formats.mjs';
import {
  clientCombinations,
  connect,
  expectValidFrames,
  textOf,
} from './helpers/official-clients.mjs';

const ajv = new Ajv({ strict: false, allErrors: true });
const EVENTS = ['session-start', 'after-edit', 'before-stop'];
const EVENT_OF_TOOL = {
  session_start: 'session-start',
  after_edit: 'after-edit',
  before_stop: 'before-stop',
};

function expectHostFormat(host, event, answer) {
  const validate = ajv.compile(HOOK_OUTPUT_SCHEMAS[host][event]);
  expect(validate(answer), `${host} ${event}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
}

const GATES = {
  lint: { command: ['eslint', '--format', 'json', '.'], parser: 'eslint-json', paths: 'append' },
  format: { command: ['prettier', '--check', '.'], parser: 'prettier', paths: 'append' },
  typecheck: { command: ['tsc', '--noEmit', '--pretty', 'false'], parser: 'tsc' },
};

/**
 * The warm fixture, committed: src/main.ts holds old errors (no-console, a TODO). `gates`:
 * mcp-gates.json's, every one of GATES unless a test needs fewer.
 */
function committedRepo(gates = GATES) {
  return commit(makeWarmRepo('mcp-gates-hooks-'), gates);
}

/**
 * The warm fixture in JavaScript (src/main.js, src/math.js), served with the lint alone:
 * for the tests whose every finding is the lint's (no TypeScript for ESLint to load).
 */
const lintRepo = () => commit(inJavaScript(makeWarmRepo('mcp-gates-hooks-')), { lint: GATES.lint });

function commit(root, gates) {
  fs.writeFileSync(path.join(root, 'mcp-gates.json'), JSON.stringify({ gates }, null, 2));
  fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules\n');
  git(root, 'init', '-q');
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'start');
  return root;
}

/**
 * `mcp-gates serve` of `root` through an official client (`index` into its combinations;
 * 0: v1 in the legacy era): the combination (for its revision) and the connected session.
 */
async function serveClient(root, { index = 0, args = [], env = {} } = {}) {
  const combination = clientCombinations({
    command: process.execPath,
    // The hook tools are served where hooks call them, or asked for.
    args: [CLI, 'serve', '--root', root, '--hook-tools', ...args],
    cwd: root,
    env: envWithTools(env),
    stderr: 'pipe',
  })[index];
  return { combination, session: await connect(combination) };
}

/** Calls a hook tool: a result that is no error, whose text is Claude Code's hook JSON. */
function hookCaller(session) {
  return async (name, args = {}) => {
    const result = await session.call({ name, arguments: args });
    expect(result.isError, textOf(result)).to.not.equal(true);
    const answer = JSON.parse(textOf(result));
    expectHostFormat('claude-code', EVENT_OF_TOOL[name], answer);
    return { answer, structured: result.structuredContent };
  };
}

/** The edits of the scripted session, on src/math.ts (src/math.js in a lintRepo). */
function edits(root) {
  const ts = path.join(root, 'src', 'math.ts');
  const file = fs.existsSync(ts) ? ts : path.join(root, 'src', 'math.js');
  const original = fs.readFileSync(file, 'utf8');
  return {
    file,
    /** An error in the edited file, on its new last line (9). */
    consoleLog: () => fs.writeFileSync(file, `${original}\nconsole.log(add(1, 2));\n`),
    restore: () => fs.writeFileSync(file, original),
    /** An error elsewhere: main.ts passes a number to add, whose a becomes a string. */
    breakCaller: () =>
      fs.writeFileSync(
        file,
        original.replace('a: number, b', 'a: string, b').replace('a + b', 'Number(a) + b'),
      ),
  };
}

describe('hook decision formats', () => {
  const verdicts = {
    block: { block: true, reason: 'mcp-gates: src/a.ts:3:1 error lint:no-console …', note: '' },
    allow: { block: false, reason: '', note: 'mcp-gates: ran lint on src/a.ts: nothing new' },
    silent: { block: false, reason: '', note: '' },
  };
  for (const host of HOOK_HOSTS) {
    for (const event of EVENTS) {
      it(`${host} ${event}: every answer is the host's hook JSON on stdout, exit 0`, () => {
        for (const [kind, verdict] of Object.entries(verdicts)) {
          const answer = hookAnswer(host, event, verdict);
          expect(answer.exitCode).to.equal(0);
          expect(answer.stdout.endsWith('\n')).to.equal(true);
          const parsed = JSON.parse(answer.stdout);
          expectHostFormat(host, event, parsed);
          if (kind === 'block' && event !== 'session-start')
            expect(blockText(host, event, parsed)).to.equal(verdict.reason);
          else expect(blockText(host, event, parsed)).to.equal(undefined);
        }
      });
    }
  }

  it("reads each host's hook input: edited files, loop flag, session", () => {
    const root = '/repo';
    for (const host of HOOK_HOSTS) {
      const edit = readHookInput(
        host,
        hookInput(host, 'after-edit', { file: '/repo/src/a.ts', root }),
      );
      expect(edit.paths, host).to.deep.equal([host === 'codex' ? 'src/a.ts' : '/repo/src/a.ts']);
      expect(edit.sessionId, host).to.equal('session-1');
      expect(edit.cwd, host).to.equal(root);
      for (const loop of [false, true]) {
        const stop = readHookInput(host, hookInput(host, 'before-stop', { root, loop }));
        expect(stop.loopFlag, `${host} loop ${loop}`).to.equal(loop);
      }
    }
    expect(
      patchFiles(
        '*** Begin Patch\n*** Add File: a.ts\n+x\n*** Update File: b.ts\n*** Move to: c.ts\n*** Delete File: d.ts\n*** End Patch',
      ),
    ).to.deep.equal(['a.ts', 'b.ts', 'c.ts']);
  });
});

describe('hook tools through a real MCP client (mcp_tool hooks)', function () {
  this.timeout(240000);
  after(cleanupTemporary);

  // v1 in the legacy era, v2 pinned to the modern one.
  for (const index of [0, 2]) {
    const combination = clientCombinations({})[index];
    it(`${combination.client}, ${combination.era}: edit → block at file:line, fix → nothing, old errors never, stop blocks once`, async () => {
      const root = committedRepo();
      const { session } = await serveClient(root, { index });
      const edit = edits(root);
      const call = hookCaller(session);
      try {
        const tools = (await session.client.listTools()).tools.map((tool) => tool.name);
        expect(tools).to.include.members([
          'session_start',
          'after_edit',
          'before_stop',
          'lint',
          'typecheck',
        ]);

        edit.consoleLog();
        let { answer, structured } = await call('after_edit', { path: edit.file });
        expect(answer.decision).to.equal('block');
        expect(answer.reason).to.match(/src\/math\.ts:9:\d+ error lint:no-console/);
        expect(answer.reason).to.include('ran lint, format, typecheck');
        // main.ts's own console.log is an old error: never reported.
        expect(answer.reason).to.not.include('src/main.ts');
        expect(structured.gates.map((row) => row.gate)).to.deep.equal([
          'lint',
          'format',
          'typecheck',
        ]);

        edit.restore();
        ({ answer } = await call('after_edit', { path: edit.file }));
        expect(answer.decision).to.equal(undefined);
        expect(answer.systemMessage).to.include('nothing new');

        edit.breakCaller();
        ({ answer } = await call('after_edit', { path: 'src/math.ts' }));
        expect(answer.decision).to.equal('block');
        expect(answer.reason).to.match(/src\/main\.ts:5:\d+ error typecheck:TS2345/);
        expect(answer.reason).to.not.include('no-console');

        ({ answer } = await call('before_stop', {}));
        expect(answer.decision).to.equal('block');
        expect(answer.reason).to.match(/src\/main\.ts:5:\d+ error typecheck:TS2345/);
        // The same errors again: the agent is let go.
        ({ answer } = await call('before_stop', { stopHookActive: 'true' }));
        expect(answer.decision).to.equal(undefined);
        expect(answer.systemMessage).to.include('not blocking again');

        edit.restore();
        ({ answer } = await call('before_stop', {}));
        expect(answer.decision).to.equal(undefined);
        expect(git(root, 'status', '--porcelain')).to.equal('');
        expectValidFrames(session, combination.expect.revision);
      } finally {
        await session.client.close();
      }
    });
  }

  it('session_start takes the baseline before the first edit: what that edit breaks elsewhere is new', async () => {
    // No format gate: the findings at stake are the typecheck's and the lint's.
    const root = committedRepo({ lint: GATES.lint, typecheck: GATES.typecheck });
    const { combination, session } = await serveClient(root);
    const call = hookCaller(session);
    try {
      let { answer, structured } = await call('session_start');
      expect(answer).to.deep.equal({});
      expect(structured.note).to.include('started');
      // A stop waits for the baseline: nothing changed yet, nothing blocks.
      ({ answer } = await call('before_stop'));
      expect(answer.decision).to.equal(undefined);
      ({ structured } = await call('session_start'));
      expect(structured.note).to.include('already started');
      // The very first edit breaks a caller, in a file it did not touch.
      const edit = edits(root);
      edit.breakCaller();
      ({ answer } = await call('after_edit', { path: edit.file }));
      expect(answer.decision).to.equal('block');
      expect(answer.reason).to.match(/src\/main\.ts:5:\d+ error typecheck:TS2345/);
      // main.ts's old errors (no-console, the TODO) are in the baseline.
      expect(answer.reason).to.not.include('no-console');
      edit.restore();
      expectValidFrames(session, combination.expect.revision);
    } finally {
      await session.client.close();
    }
  });

  it('keeps the reason within 4,000 characters, errors first, and says how many it left out', async () => {
    // The lint alone: every finding is its (no warm format and typecheck workers to start).
    const root = lintRepo();
    const { combination, session } = await serveClient(root);
    const call = hookCaller(session);
    try {
      const edit = edits(root);
      // 150 new warnings (a TODO each) above 150 new errors (a console.log each).
      const todos = Array.from({ length: 150 }, (_, i) => `// TODO ${i}`).join('\n');
      const logs = Array.from({ length: 150 }, (_, i) => `console.log(${i});`).join('\n');
      fs.appendFileSync(edit.file, `${todos}\n${logs}\n`);
      const { answer } = await call('after_edit', { path: edit.file });
      expect(answer.decision).to.equal('block');
      expect(answer.reason.length).to.be.at.most(4000);
      expect(answer.reason).to.match(/now has 150 new errors since the session began/);
      expect(answer.reason).to.match(/… and \d+ more \(run the gates for the full list\)/);
      const listed = answer.reason.split('\n').filter((line) => line.startsWith('src/'));
      expect(listed.length).to.be.at.least(10);
      // Every listed line is an error: the warnings come after all 150 errors.
      expect(listed.every((line) => / error lint:no-console /.test(line))).to.equal(true);
      edit.restore();
      expectValidFrames(session, combination.expect.revision);
    } finally {
      await session.client.close();
    }
  });

  it('before_stop checks the work the agent committed on its branch (the merge base with main)', async () => {
    // The lint alone: the finding at stake is its (no warm format and typecheck workers).
    const root = lintRepo();
    git(root, 'checkout', '-q', '-b', 'work');
    const { combination, session } = await serveClient(root);
    try {
      const edit = edits(root);
      edit.consoleLog();
      const first = await session.call({ name: 'after_edit', arguments: { path: edit.file } });
      expect(JSON.parse(textOf(first)).decision).to.equal('block');
      git(root, 'commit', '-qam', 'the agent commits its work');
      const stop = await session.call({ name: 'before_stop', arguments: {} });
      const answer = JSON.parse(textOf(stop));
      expect(answer.decision).to.equal('block');
      expect(answer.reason).to.match(/src\/math\.js:9:\d+ error lint:no-console/);
      expect(answer.reason).to.match(
        /on the 1 file changed against the session start and the merge base with main/,
      );
      expectValidFrames(session, combination.expect.revision);
    } finally {
      await session.client.close();
    }
  });

  it('a budget too small for the gates says which gates did not finish, and blocks on nothing', async () => {
    const root = committedRepo();
    const { combination, session } = await serveClient(root, { args: ['--no-warm'] });
    try {
      const edit = edits(root);
      edit.consoleLog();
      const result = await session.call({
        name: 'after_edit',
        arguments: { path: edit.file, budgetMs: 100 },
      });
      const answer = JSON.parse(textOf(result));
      expect(answer.decision).to.equal(undefined);
      expect(answer.systemMessage).to.match(/did not finish within the hook's 0\.1 s budget/);
      expect(result.structuredContent.gates.some((row) => row.overBudget)).to.equal(true);
      expectValidFrames(session, combination.expect.revision);
    } finally {
      await session.client.close();
    }
  });
});

/** Runs `mcp-gates hook` as a host would, its cache in `cache`. */
function runHook(root, host, event, input, cache, extraEnv = {}) {
  return runHookAs(root, host, event, input, envWithTools({ XDG_CACHE_HOME: cache, ...extraEnv }));
}

describe('hook tools: listed where hooks call them', function () {
  this.timeout(60000);
  after(cleanupTemporary);

  it('serve lists them only with a project hooks file that calls them (as init --hooks claude-code writes it) or --hook-tools', async () => {
    const root = makeTempDir('mcp-gates-hook-listing-');
    const gate = { command: [process.execPath, '-e', ''], parser: 'generic' };
    fs.writeFileSync(path.join(root, 'mcp-gates.json'), JSON.stringify({ gates: { ok: gate } }));
    const listed = async (args) => {
      const combination = clientCombinations({
        command: process.execPath,
        args: [CLI, 'serve', '--root', root, ...args],
        cwd: root,
        env: envWithTools(),
        stderr: 'pipe',
      })[0];
      const session = await connect(combination);
      try {
        const { tools } = await session.client.listTools();
        return {
          hooks: tools.filter((tool) => tool.name in EVENT_OF_TOOL),
          instructions: session.client.getInstructions(),
        };
      } finally {
        await session.client.close();
      }
    };
    const names = ({ hooks }) => hooks.map((tool) => tool.name).sort();
    const all = Object.keys(EVENT_OF_TOOL).sort();
    const bare = await listed([]);
    expect(names(bare)).to.deep.equal([]);
    expect(bare.instructions).to.include(': ok.').and.not.include('after_edit');
    const asked = await listed(['--hook-tools']);
    expect(names(asked)).to.deep.equal(all);
    for (const tool of asked.hooks)
      expect(tool.description).to.match(/^Called by the host's [^,]*hook.*, not by the agent/);
    // What init writes for Claude Code's mcp_tool hooks makes the tools they call served.
    expect(runCli(['init', '--hooks', 'claude-code', '--root', root]).code).to.equal(0);
    expect(names(await listed([]))).to.deep.equal(all);
  });
});

describe('command hooks in each host format (mcp-gates hook)', function () {
  this.timeout(600000);
  // The first host's session runs cold (no server for its root); the others run theirs, one
  // after the other, through one server's channel, warm. Host formats are the same code
  // either way, and a cold session cost each host a minute of the suite's CPU. The lint
  // alone: every finding at stake is its (the three gates together are the MCP tests').
  const warmHosts = HOOK_HOSTS.slice(1);
  let served;
  before(async function () {
    const runtime = makeTempDir('mcp-gates-runtime-');
    fs.chmodSync(runtime, 0o700);
    const root = lintRepo();
    const { session } = await serveClient(root, { env: { XDG_RUNTIME_DIR: runtime } });
    // The channel listens once the server serves: a first call proves it is up.
    await session.client.listTools();
    served = { root, session, env: { XDG_RUNTIME_DIR: runtime } };
  });
  after(async function () {
    await served?.session.client.close();
    cleanupTemporary();
  });

  for (const host of HOOK_HOSTS) {
    const warm = warmHosts.includes(host);
    it(`${host}: edit → block at file:line, fix → nothing, old errors never, stop never twice (${warm ? 'warm, through the server' : 'cold'})`, async () => {
      const root = warm ? served.root : lintRepo();
      const env = warm ? served.env : {};
      const cache = makeTempDir('mcp-gates-hook-cache-');
      const edit = edits(root);
      const hook = async (event, options = {}) => {
        const input = hookInput(host, event, {
          file: edit.file,
          root,
          session: `session-${host}`,
          ...options,
        });
        const result = await runHook(root, host, event, input, cache, env);
        expect(result.code, result.stderr).to.equal(0);
        if (warm)
          expect(result.stderr).to.include('answered by the server running for this root (warm)');
        const answer = JSON.parse(result.stdout);
        expectHostFormat(host, event, answer);
        return { answer, text: blockText(host, event, answer) };
      };
      // The prompt hook answers at once and leaves the baseline to the first edit (cold), or
      // the server takes it (warm).
      const start = await hook('session-start');
      expect(start.answer).to.deep.equal({});
      edit.consoleLog();
      let { text } = await hook('after-edit');
      expect(text).to.match(/src\/math\.js:9:\d+ error lint:no-console/);
      expect(text).to.not.include('src/main.js');

      edit.restore();
      ({ text } = await hook('after-edit'));
      expect(text).to.equal(undefined);

      edit.consoleLog();
      ({ text } = await hook('before-stop'));
      expect(text).to.match(/src\/math\.js:9:\d+ error lint:no-console/);
      ({ text } = await hook('before-stop', { loop: true }));
      expect(text).to.equal(undefined);
      edit.restore();
      expect(git(root, 'status', '--porcelain')).to.equal('');
    });
  }
});

describe('command hooks through the server running for the root (local channel)', function () {
  this.timeout(240000);
  after(cleanupTemporary);

  /**
   * A serve of a committed repo whose hook channel lives under `runtime`. The lint alone:
   * what the channel carries is any gate's answer (no format and typecheck runs to pay).
   */
  async function served(runtime) {
    const root = lintRepo();
    const { session } = await serveClient(root, { env: { XDG_RUNTIME_DIR: runtime } });
    // The channel listens once the server serves: a first call proves it is up.
    await session.client.listTools();
    return { root, session, stderr: () => session.stderr };
  }

  it('answers a command hook warm through the server, in the host format; the socket is private and goes with the server', async () => {
    const runtime = makeTempDir('mcp-gates-runtime-');
    fs.chmodSync(runtime, 0o700);
    // A socket a server killed outright left behind: the next server sweeps it.
    const stale = path.join(runtime, 'mcp-gates', 'stale.sock');
    fs.mkdirSync(path.dirname(stale), { mode: 0o700 });
    const killed = spawnSync(process.execPath, [
      '-e',
      `require('net').createServer().listen(${JSON.stringify(stale)}, () => process.kill(process.pid, 'SIGKILL'))`,
    ]);
    expect(killed.signal).to.equal('SIGKILL');
    expect(fs.lstatSync(stale).isSocket()).to.equal(true);
    const { root, session } = await served(runtime);
    const cache = makeTempDir('mcp-gates-hook-cache-');
    const edit = edits(root);
    const env = { XDG_RUNTIME_DIR: runtime };
    const directory = path.join(runtime, 'mcp-gates');
    try {
      const start = await runHook(
        root,
        'codex',
        'session-start',
        hookInput('codex', 'session-start', { root }),
        cache,
        env,
      );
      expect(start.stderr).to.include('answered by the server running for this root (warm)');
      expect(JSON.parse(start.stdout)).to.deep.equal({});
      edit.consoleLog();
      const input = hookInput('codex', 'after-edit', { file: edit.file, root });
      let result = await runHook(root, 'codex', 'after-edit', input, cache, env);
      expect(result.stderr).to.include('answered by the server running for this root (warm)');
      let answer = JSON.parse(result.stdout);
      expectHostFormat('codex', 'after-edit', answer);
      expect(answer.reason).to.match(/src\/math\.js:9:\d+ error lint:no-console/);
      expect(answer.reason).to.not.include('src/main.js');
      edit.restore();
      result = await runHook(root, 'codex', 'after-edit', input, cache, env);
      answer = JSON.parse(result.stdout);
      expect(answer.decision).to.equal(undefined);
      // Codex names patched files relative to where it runs: here a subdirectory.
      edit.consoleLog();
      const inSrc = {
        ...input,
        cwd: path.join(root, 'src'),
        tool_input: { command: '*** Begin Patch\n*** Update File: math.js\n*** End Patch\n' },
      };
      result = await runHook(root, 'codex', 'after-edit', inSrc, cache, env);
      expect(JSON.parse(result.stdout).reason).to.match(
        /src\/math\.js:9:\d+ error lint:no-console/,
      );
      edit.restore();
      // Nothing was kept on disk for it: the server held the session.
      expect(fs.existsSync(path.join(cache, 'mcp-gates'))).to.equal(false);
      expect(fs.statSync(directory).mode & 0o777).to.equal(0o700);
      const [socket] = fs.readdirSync(directory);
      expect(fs.existsSync(stale)).to.equal(false);
      expect(fs.statSync(path.join(directory, socket)).mode & 0o777).to.equal(0o600);
    } finally {
      await session.client.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(fs.readdirSync(directory)).to.deep.equal([]);
  });

  it('never uses a socket directory other users can open: the server does not listen, the hook runs cold and says why', async () => {
    const runtime = makeTempDir('mcp-gates-runtime-');
    fs.mkdirSync(path.join(runtime, 'mcp-gates'), { mode: 0o755 });
    fs.chmodSync(path.join(runtime, 'mcp-gates'), 0o755);
    const { root, session, stderr } = await served(runtime);
    const cache = makeTempDir('mcp-gates-hook-cache-');
    const edit = edits(root);
    try {
      expect(stderr()).to.match(
        /no hook channel \(command hooks run cold\): .* is open to other users/,
      );
      edit.consoleLog();
      const input = hookInput('gemini', 'after-edit', { file: edit.file, root });
      const result = await runHook(root, 'gemini', 'after-edit', input, cache, {
        XDG_RUNTIME_DIR: runtime,
      });
      expect(result.stderr).to.match(/running the gates here \(cold\): .* is open to other users/);
      const answer = JSON.parse(result.stdout);
      expectHostFormat('gemini', 'after-edit', answer);
      expect(blockText('gemini', 'after-edit', answer)).to.match(
        /src\/math\.js:9:\d+ error lint:no-console/,
      );
      expect(fs.readdirSync(path.join(runtime, 'mcp-gates'))).to.deep.equal([]);
    } finally {
      await session.client.close();
    }
  });
});

describe('init --hooks', function () {
  this.timeout(60000);
  after(cleanupTemporary);

  const files = {
    'claude-code': '.claude/settings.json',
    codex: '.codex/hooks.json',
    cursor: '.cursor/hooks.json',
    gemini: '.gemini/settings.json',
  };
  for (const host of HOOK_HOSTS) {
    it(`${host}: writes the hooks next to what is there, and refuses to write them twice`, () => {
      const root = makeTempDir('mcp-gates-init-hooks-');
      fs.writeFileSync(path.join(root, 'package.json'), '{"name":"x"}\n');
      const file = path.join(root, files[host]);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify({ keep: true }));
      const first = runCli(['init', '--hooks', host, '--root', root]);
      expect(first.code, first.stderr).to.equal(0);
      const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
      expect(settings.keep).to.equal(true);
      const events = Object.keys(settings.hooks);
      const expected = {
        'claude-code': ['UserPromptSubmit', 'PostToolUse', 'Stop'],
        codex: ['UserPromptSubmit', 'PostToolUse', 'Stop'],
        cursor: ['afterFileEdit', 'stop'],
        gemini: ['BeforeAgent', 'AfterTool', 'AfterAgent'],
      }[host];
      expect(events).to.deep.equal(expected);
      const text = JSON.stringify(settings);
      if (host === 'claude-code') {
        expect(settings.hooks.PostToolUse[0]).to.deep.include({ matcher: 'Edit|Write|MultiEdit' });
        expect(settings.hooks.PostToolUse[0].hooks[0]).to.deep.include({
          type: 'mcp_tool',
          server: 'gates',
          tool: 'after_edit',
        });
        expect(settings.hooks.PostToolUse[0].hooks[0].input.path).to.equal(
          '${tool_input.file_path}',
        );
      } else {
        expect(text).to.include(' hook after-edit --host ');
        expect(text).to.include(' hook before-stop --host ');
      }
      if (host === 'cursor') expect(settings.version).to.equal(1);
      // What it says is what happens: warm through the running server, cold without one.
      expect(first.stdout).not.to.include('cold on each event');
      expect(first.stdout).to.match(/warm/);
      const second = runCli(['init', '--hooks', host, '--root', root]);
      expect(second.code).to.equal(2);
      expect(second.stderr).to.include('already has mcp-gates hooks');
    });
  }

  // The files are committed: a command hook names the package installed in the project by
  // a path the host resolves (Codex: its working directory; Gemini: $GEMINI_PROJECT_DIR),
  // and the command, run as the host runs it, answers.
  for (const host of ['codex', 'gemini']) {
    it(`${host}: the hooks name no path of this machine, and run as ${host} runs them`, async function () {
      if (process.platform === 'win32') this.skip(); // reason: the hosts run hooks through sh here
      const root = makeTempDir('mcp-gates-init-hooks-');
      fs.writeFileSync(path.join(root, 'package.json'), '{"name":"x"}\n');
      fs.mkdirSync(path.join(root, 'node_modules'));
      fs.symlinkSync(REPO_ROOT, path.join(root, 'node_modules', 'mcp-gates'), 'junction');
      const result = runCli(['init', '--hooks', host, '--root', root]);
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stdout).to.include('so the file can be committed');
      const text = fs.readFileSync(path.join(root, files[host]), 'utf8');
      expect(text).not.to.include(process.execPath);
      expect(text).not.to.include(root);
      const settings = JSON.parse(text);
      const event = host === 'codex' ? 'UserPromptSubmit' : 'BeforeAgent';
      let command = settings.hooks[event][0].hooks[0].command;
      // Gemini CLI puts the project directory, shell-quoted, in place of the variable.
      command = command.split('$GEMINI_PROJECT_DIR').join(`'${root}'`);
      // `node` from PATH: this node's directory first, as a host's PATH would have it.
      const env = envWithTools({
        PATH: `${path.dirname(process.execPath)}${path.delimiter}/usr/bin:/bin`,
        XDG_CACHE_HOME: makeTempDir('mcp-gates-hook-cache-'),
        XDG_RUNTIME_DIR: makeTempDir('mcp-gates-hook-runtime-'),
      });
      const input = JSON.stringify(hookInput(host, 'session-start', { root }));
      const run = spawnSync('/bin/sh', ['-c', command], {
        cwd: root,
        env,
        input,
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).to.equal(0);
      expect(run.stderr).to.include('mcp-gates: no baseline taken now');
    });
  }
});

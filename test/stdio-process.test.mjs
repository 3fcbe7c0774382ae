// StdioTransport in a real process, through the example server: framing over a pipe,
// oversize lines and memory, shutdown on EOF / SIGTERM / a closed stdout.
import { expect } from 'chai';
import { frameViolations } from './helpers/schema.mjs';
import { MARKERS, ServerProcess, killAllServers, modernMeta } from './helpers/spawn-server.mjs';

const MiB = 1024 * 1024;
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const ping = (id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
const echoCall = (id, text) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text } },
  });

/** Starts a 30 s `slow` call and resolves once its first progress shows it running. */
async function startSlowCall(server) {
  await server.initialize();
  await server.send({
    jsonrpc: '2.0',
    id: 5,
    method: 'tools/call',
    params: { name: 'slow', arguments: { ms: 30000 }, _meta: { progressToken: 'p' } },
  });
  await server.waitFor((frame) => frame.method === 'notifications/progress');
}

/** A stack trace or an unhandled error printed by Node. */
const CRASH_OUTPUT = /^\s+at .+[:(]\d+|Unhandled|uncaught|EPIPE|ERR_STREAM/im;

describe('stdio transport in a real process (example server)', function () {
  this.timeout(20000);
  let server;

  beforeEach(() => {
    server = new ServerProcess();
  });

  afterEach(killAllServers);

  it('accepts \\r\\n line endings (case 3)', async () => {
    await server.write(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"crlf","version":"1"}}}\r\n',
    );
    expect((await server.response(1)).result.protocolVersion).to.equal('2025-06-18');
    await server.write(ping(2) + '\r\n' + echoCall(3, 'crlf') + '\r\n');
    expect((await server.response(2)).result).to.deep.equal({});
    expect((await server.response(3)).result.content[0].text).to.equal('crlf');
    expect(server.frames.every((frame) => !('error' in frame))).to.equal(true);
  });

  it('answers two requests written in one write (case 4)', async () => {
    await server.initialize();
    await server.write(echoCall(1, 'first') + '\n' + echoCall(2, 'second') + '\n');
    expect((await server.response(1)).result.content[0].text).to.equal('first');
    expect((await server.response(2)).result.content[0].text).to.equal('second');
  });

  for (const [name, character] of [
    ['a two-byte "é"', 'é'],
    ['a four-byte emoji', '🎉'],
  ]) {
    it(`decodes a request split mid-character (${name}) across two writes (case 4)`, async () => {
      await server.initialize();
      const text = `before ${character} after`;
      const bytes = Buffer.from(echoCall(7, text) + '\n', 'utf8');
      const cut = bytes.indexOf(Buffer.from(character, 'utf8')) + 1; // inside the character
      await server.write(bytes.subarray(0, cut));
      await delay(100); // lets the server read the first half on its own
      expect(server.lines).to.have.length(1); // the initialize result only
      await server.write(bytes.subarray(cut));
      const reply = await server.response(7);
      expect(reply.result.content[0].text).to.equal(text);
    });
  }

  it('discards a 20 MiB line with -32600 id null, keeps serving, memory bounded (case 19)', async function () {
    if (process.platform !== 'linux') this.skip(); // memory is read from /proc
    await server.initialize();
    await server.request(1, 'tools/list');
    const before = server.memory();
    const filler = Buffer.alloc(MiB, 'a');
    await server.write(
      '{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"echo","arguments":{"text":"',
    );
    for (let i = 0; i < 20; i++) await server.write(filler);
    await server.write('"}}}\n');
    await server.send(ping(2));
    const pong = await server.response(2, 10000);
    expect(pong.result).to.deep.equal({});

    const oversize = server.frames.filter((frame) => frame.error);
    expect(oversize).to.have.length(1);
    expect(oversize[0].id).to.equal(null);
    expect(oversize[0].error.code).to.equal(-32600);
    expect(server.frames.some((frame) => frame.id === 99)).to.equal(false);
    const index = server.frames.indexOf(oversize[0]);
    expect(server.frames.indexOf(pong)).to.be.greaterThan(index);
    expect(frameViolations(oversize[0], '2025-11-25')).to.deep.equal([]);

    const after = server.memory();
    expect(after.peak - before.peak, 'peak RSS growth').to.be.lessThan(32 * MiB);
    // Still serving tools after the discarded line.
    expect(
      (await server.request(3, 'tools/call', { name: 'echo', arguments: { text: 'ok' } })).result
        .content[0].text,
    ).to.equal('ok');
  });

  it('answers calls beyond 1,024 queued with an immediate busy isError result; memory stays bounded', async function () {
    await startSlowCall(server);
    const before = process.platform === 'linux' ? server.memory() : undefined;
    const first = 1000;
    const total = 50000;
    for (let start = 0; start < total; start += 5000) {
      const calls = Array.from({ length: 5000 }, (_, index) =>
        echoCall(first + start + index, 'queued'),
      );
      await server.write(calls.join('\n') + '\n');
    }
    // The last call is beyond the bound: its answer comes at once, not after the slow call.
    const last = await server.response(first + total - 1, 10000);
    expect(last.result.isError).to.equal(true);
    const answered = server.frames.filter((frame) => frame.id >= first);
    expect(answered, 'the calls beyond the bound').to.have.length(total - 1024);
    for (const frame of answered) {
      expect(frame.id).to.be.at.least(first + 1024);
      expect(frame.result.isError).to.equal(true);
      expect(frame.result.content[0].text).to.match(
        /^Server busy: 1024 tool calls are already queued .*Wait for the queued calls to finish/,
      );
    }
    if (before) {
      // Measured: 21 MB on an idle machine and 43 MB on a loaded one (parsing and answering,
      // garbage collected late), against 145 MB with no bound.
      const after = server.memory();
      expect(after.peak - before.peak, 'peak RSS growth').to.be.lessThan(80 * MiB);
    }
    // A full queue still shuts down within the budget.
    server.child.stdin.end();
    expect(await server.exitWithin(2000)).to.deep.equal({ code: 0, signal: null });
  });

  it('cancels a call whose integer id is beyond 2^53 (ids kept exact, PROTOCOL.md 1.3, 2.7)', async () => {
    await server.initialize();
    const bigId = '9007199254740993'; // JSON.parse rounds it to ...992
    await server.write(
      `{"jsonrpc":"2.0","id":${bigId},"method":"tools/call","params":{"name":"slow","arguments":{"ms":1500},"_meta":{"progressToken":"big"}}}\n`,
    );
    await server.waitFor((frame) => frame.method === 'notifications/progress');
    await server.write(
      `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${bigId}}}\n`,
    );
    // Serialized tool runs: echo is answered only after slow has finished or been aborted.
    const after = await server.request(2, 'tools/call', {
      name: 'echo',
      arguments: { text: 'after' },
    });
    expect(after.result.content[0].text).to.equal('after');
    const answered = server.lines.filter((line) => line.includes(`"id":${bigId}`));
    expect(answered, 'a cancelled call gets no response').to.deep.equal([]);
  });

  it('exits 0 within 2 s on stdin EOF with a slow call in flight (case 60)', async () => {
    await startSlowCall(server);
    const closedAt = Date.now();
    server.child.stdin.end();
    expect(await server.exitWithin(2000)).to.deep.equal({ code: 0, signal: null });
    expect(server.exitedAt - closedAt).to.be.lessThan(2000);
    expect(server.stderr).to.not.match(CRASH_OUTPUT);
  });

  it('exits 0 without a stack trace when the client closes its end of stdout (EPIPE)', async () => {
    await server.initialize();
    await server.request(1, 'ping');
    server.child.stdout.destroy();
    // Large replies fill the pipe fast, so the server's next writes meet the closed end.
    const text = 'x'.repeat(256 * 1024);
    for (let id = 2; id < 40 && server.child.exitCode === null; id++) {
      await server.send(echoCall(id, text));
      await delay(10);
    }
    const exit = await server.exitWithin(5000);
    expect(exit).to.deep.equal({ code: 0, signal: null });
    expect(server.stderr).to.not.match(CRASH_OUTPUT);
  });

  it('exits 0 promptly on SIGTERM when idle', async function () {
    // reason: on Windows child.kill('SIGTERM') terminates the process; no handler runs
    if (process.platform === 'win32') this.skip();
    await server.initialize();
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exitWithin(2000)).to.deep.equal({ code: 0, signal: null });
    expect(server.exitedAt - signalledAt).to.be.lessThan(2000);
    expect(server.stderr).to.not.match(CRASH_OUTPUT);
  });

  it('exits 0 promptly on SIGTERM with a slow call in flight', async function () {
    // reason: on Windows child.kill('SIGTERM') terminates the process; no handler runs
    if (process.platform === 'win32') this.skip();
    await startSlowCall(server);
    server.child.kill('SIGTERM');
    expect(await server.exitWithin(2000)).to.deep.equal({ code: 0, signal: null });
    expect(server.stderr).to.not.match(CRASH_OUTPUT);
    expect(server.stdoutBytes.length, 'no half-written frame').to.equal(0);
  });

  it('keeps stdout pure while noisy runs between other requests in both eras (case 59)', async () => {
    await server.initialize('2025-06-18');
    const calls = [];
    for (let round = 0; round < 3; round++) {
      calls.push(server.request(`legacy-${round}`, 'tools/call', { name: 'noisy' }));
      calls.push(server.request(`ping-${round}`, 'ping'));
      calls.push(
        server.request(round, 'tools/call', { name: 'noisy', arguments: {}, _meta: modernMeta() }),
      );
    }
    const replies = await Promise.all(calls);
    server.child.stdin.end();
    await server.exitWithin(5000);

    expect(server.stdoutBytes.length).to.equal(0);
    for (const line of server.lines) {
      const frame = JSON.parse(line); // throws on any stray line
      const modern = typeof frame.id === 'number';
      const method =
        typeof frame.id === 'string' && frame.id.startsWith('ping') ? 'ping' : 'tools/call';
      const revision = modern ? '2026-07-28' : '2025-06-18';
      expect(
        frameViolations(frame, revision, frame.id === 'init' ? 'initialize' : method),
      ).to.deep.equal([]);
    }
    for (const reply of replies.filter((frame) => 'content' in (frame.result ?? {}))) {
      const report = reply.result.content.map((block) => block.text).join('');
      for (const marker of MARKERS) expect(report).to.include(marker);
      // Each run's report holds its own output once, never a neighbour's.
      expect(report.split('marker: child stdout')).to.have.length(2);
    }
    expect(replies.filter((frame) => frame.result?.content)).to.have.length(6);
  });
});

// Interop: the example server as a real stdio process, driven by the official MCP
// clients (v1 @modelcontextprotocol/sdk, v2 @modelcontextprotocol/client in each era
// mode), plus a raw-wire check of what the server writes on stdout. The spec reporter's
// describe/it tree is the client x era x result matrix.
import { expect } from 'chai';
import { frameViolations } from './helpers/schema.mjs';
import {
  clientCombinations,
  connect,
  expectValidFrames,
  progressReadWithResponse,
  textOf,
} from './helpers/official-clients.mjs';
import {
  ECHO_SERVER,
  MARKERS,
  REPO_ROOT,
  ServerProcess,
  killAllServers,
  killPid,
  modernMeta,
} from './helpers/spawn-server.mjs';

const PV = 'io.modelcontextprotocol/protocolVersion';
const TOOL_NAMES = ['echo', 'fail', 'noisy', 'slow'];
const COMBINATIONS = clientCombinations({
  command: process.execPath,
  args: [ECHO_SERVER],
  cwd: REPO_ROOT,
  stderr: 'pipe',
});

describe('interop with the official clients (example server over stdio)', function () {
  this.timeout(30000);

  for (const combination of COMBINATIONS) {
    const { era: expectedEra, revision } = combination.expect;

    describe(`${combination.client} x ${combination.era}`, () => {
      let session;

      beforeEach(async () => {
        session = await connect(combination);
      });

      afterEach(async () => {
        const pid = session?.transport.pid;
        await session?.client.close();
        killPid(pid);
        session = undefined;
      });

      it(`negotiates the ${expectedEra} era at ${revision}`, () => {
        if (expectedEra === 'legacy') {
          const initialize = session.sent.find((message) => message.method === 'initialize');
          const reply = session.received.find((frame) => frame.id === initialize.id);
          expect(reply.result.protocolVersion).to.equal(revision);
          expect(reply.result.capabilities).to.have.property('tools');
        } else {
          expect(session.client.getProtocolEra()).to.equal('modern');
          expect(session.client.getDiscoverResult().supportedVersions).to.include(revision);
          // A modern session never opens with initialize on the real process.
          expect(session.sent.map((message) => message.method)).to.not.include('initialize');
        }
        expect(session.client.getServerVersion()).to.include({
          name: 'echo-server',
          version: '1.0.0',
        });
      });

      it('lists the four tools in sorted order with object input schemas', async () => {
        const { tools } = await session.client.listTools();
        expect(tools.map((tool) => tool.name)).to.deep.equal(TOOL_NAMES);
        for (const tool of tools) expect(tool.inputSchema.type).to.equal('object');
        if (expectedEra === 'modern') {
          const listId = session.sent.find((message) => message.method === 'tools/list').id;
          const reply = session.received.find((frame) => frame.id === listId);
          expect(reply.result).to.include({ resultType: 'complete' });
          expect(reply.result.ttlMs).to.be.a('number');
        }
        expectValidFrames(session, revision);
      });

      it('calls echo and gets its text back, multi-byte characters intact', async () => {
        const text = 'héllo wörld 🎉 \u2028 "quoted" \\ end';
        const result = await session.call({ name: 'echo', arguments: { text } });
        expect(result.isError).to.not.equal(true);
        expect(textOf(result)).to.equal(text);
        if (expectedEra === 'modern') {
          const callId = session.sent.find((message) => message.method === 'tools/call').id;
          expect(session.sent.find((message) => message.id === callId).params._meta[PV]).to.equal(
            revision,
          );
        }
        expectValidFrames(session, revision);
      });

      it('calls fail and gets an isError result saying it failed on purpose', async () => {
        const result = await session.call({ name: 'fail', arguments: {} });
        expect(result.isError).to.equal(true);
        expect(textOf(result)).to.match(/failed on purpose/);
        expectValidFrames(session, revision);
      });

      it('calls slow to completion with progress reported', async () => {
        const updates = [];
        const result = await session.call(
          { name: 'slow', arguments: { ms: 350 } },
          { onprogress: (update) => updates.push(update) },
        );
        expect(result.isError).to.not.equal(true);
        expect(textOf(result)).to.equal('waited 350 ms');
        expect(updates.length).to.be.greaterThan(0);
        const progress = updates.map((update) => update.progress);
        expect(progress).to.deep.equal([...progress].sort((a, b) => a - b));
        const response = session.received.findLast((frame) => 'result' in frame);
        const sent = session.received.filter(
          (frame) =>
            frame.method === 'notifications/progress' &&
            session.received.indexOf(frame) < session.received.indexOf(response),
        );
        // Every progress on the wire before the result, handed over unless read with it.
        expect(updates.map((update) => update.progress)).to.deep.equal(
          sent.slice(0, updates.length).map((frame) => frame.params.progress),
        );
        progressReadWithResponse(session, sent, updates, response, 'slow');
        expectValidFrames(session, revision);
      });

      it('calls noisy and gets every marker in its report, with stdout kept clean', async () => {
        const result = await session.call({ name: 'noisy', arguments: {} });
        expect(result.isError).to.not.equal(true);
        const report = textOf(result);
        for (const marker of MARKERS) expect(report).to.include(marker);
        // v1 reports any stray stdout line through onerror (checked in expectValidFrames).
        expectValidFrames(session, revision);
        for (const marker of MARKERS) expect(session.stderr).to.not.include(marker);
      });

      it('cancels a slow call via AbortSignal: no response for it, server still usable', async () => {
        const controller = new AbortController();
        const pending = session.call(
          { name: 'slow', arguments: { ms: 10000 } },
          { signal: controller.signal },
        );
        setTimeout(() => controller.abort(new Error('the test cancelled it')), 300);
        const started = Date.now();
        let rejection;
        await pending.catch((error) => (rejection = error));
        expect(rejection, 'the cancelled call rejects').to.be.an('error');
        expect(Date.now() - started).to.be.lessThan(5000);

        const slowId = session.sent.find(
          (message) => message.method === 'tools/call' && message.params.name === 'slow',
        ).id;
        const cancel = session.sent.find((message) => message.method === 'notifications/cancelled');
        expect(cancel?.params.requestId).to.equal(slowId);

        // Tool runs are serialized: echo is answered only once slow has wound down.
        const after = await session.call({ name: 'echo', arguments: { text: 'still here' } });
        expect(textOf(after)).to.equal('still here');
        await new Promise((resolve) => setTimeout(resolve, 200));
        const answers = session.received.filter(
          (frame) => frame.id === slowId && !('method' in frame),
        );
        expect(answers).to.deep.equal([]);
        expectValidFrames(session, revision);
      });
    });
  }
});

describe('raw wire: stdout carries only protocol frames when a tool prints', function () {
  this.timeout(20000);
  afterEach(killAllServers);

  const eras = [
    { name: 'legacy 2025-11-25', revision: '2025-11-25', meta: undefined },
    { name: 'modern 2026-07-28', revision: '2026-07-28', meta: modernMeta() },
  ];

  for (const { name, revision, meta } of eras) {
    it(`${name}: every stdout line is a schema-valid frame; markers only inside noisy's result`, async () => {
      const server = new ServerProcess();
      const methods = new Map();
      const ask = (id, method, params = {}) => {
        methods.set(id, method);
        return server.request(id, method, meta ? { ...params, _meta: meta } : params);
      };
      if (!meta) {
        await server.initialize(revision, 'init');
        methods.set('init', 'initialize');
      }
      const noisy = await ask(1, 'tools/call', { name: 'noisy', arguments: {} });
      await ask(2, 'tools/list');
      await ask(3, 'tools/call', { name: 'echo', arguments: { text: 'after noisy' } });
      server.child.stdin.end();
      expect(await server.exitWithin(5000)).to.deep.equal({ code: 0, signal: null });

      expect(server.stdoutBytes.length, 'no unterminated bytes after the last frame').to.equal(0);
      const expectedLines = meta ? 3 : 4;
      expect(server.lines).to.have.length(expectedLines);
      for (const [index, line] of server.lines.entries()) {
        const frame = JSON.parse(line);
        expect(frameViolations(frame, revision, methods.get(frame.id))).to.deep.equal([]);
        if (frame.id !== 1) {
          expect(line, `line ${index} outside the noisy result`).to.not.match(/marker:/);
        }
      }
      const report = noisy.result.content.map((block) => block.text).join('');
      for (const marker of MARKERS) expect(report).to.include(marker);
      for (const marker of MARKERS) expect(server.stderr).to.not.include(marker);
    });
  }
});

// The library's features through the official clients (v1 and v2, each era): every
// content type, logging, every progress value before the result, a Zod-typed tool.
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import {
  V1,
  clientCombinations,
  connect,
  expectValidFrames,
  progressReadWithResponse,
  textOf,
} from './helpers/official-clients.mjs';
import { REPO_ROOT, killPid } from './helpers/spawn-server.mjs';

const LIBRARY_SERVER = fileURLToPath(new URL('./fixtures/library-server.mjs', import.meta.url));
const COMBINATIONS = clientCombinations({
  command: process.execPath,
  args: [LIBRARY_SERVER],
  cwd: REPO_ROOT,
  stderr: 'pipe',
});
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

/**
 * The steps tool's progress, 0, 50 and 100, all on the wire before its result, and each
 * handed to onprogress: all but those the client read in one piece with the response.
 * The official clients (v1 and v2) handle such a response first and drop, or hand over
 * too late, the notifications read with it; the server waits 10 ms after a call's last
 * progress, but on a busy machine the client may still read them all at once. Only then.
 */
function expectProgress(session, updates, what) {
  const response = session.received.findLast((frame) => 'result' in frame);
  const at = session.received.indexOf(response);
  const call = session.received.slice(
    session.received.findLastIndex((frame, index) => index < at && 'result' in frame) + 1,
    at,
  );
  const sent = call.filter((frame) => frame.method === 'notifications/progress');
  expect(
    sent.map((frame) => frame.params.progress),
    `${what}: on the wire`,
  ).to.deep.equal([0, 50, 100]);
  expect(updates, `${what}: handed over`).to.deep.equal(
    sent.slice(0, updates.length).map((frame) => frame.params.progress),
  );
  progressReadWithResponse(session, sent, updates, response, what);
}

describe('the library through the official clients', function () {
  this.timeout(30000);

  for (const combination of COMBINATIONS) {
    const { era, revision } = combination.expect;

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

      it('returns text, image, audio, resource link and both embedded resources in one result, with _meta', async () => {
        const result = await session.call({ name: 'media', arguments: {} });
        expect(result.isError).to.not.equal(true);
        expect(result.content.map((block) => block.type)).to.deep.equal([
          'text',
          'image',
          'audio',
          'resource_link',
          'resource',
          'resource',
        ]);
        expect(result.content[0].text).to.equal(`media for ${revision}`);
        expect(result.content[1]).to.include({ mimeType: 'image/png' });
        expect(result.content[1].annotations).to.deep.equal({ audience: ['user'] });
        expect(result.content[3]).to.include({
          uri: 'file:///project/README.md',
          name: 'README.md',
        });
        expect(result.content[4].resource.text).to.equal('embedded text');
        expect(result.content[5].resource.blob).to.equal('AAEC');
        expect(result.content[5]._meta).to.deep.equal({ 'example.com/block': 1 });
        expect(result._meta).to.include({ 'example.com/result': 'kept' });
        const { tools } = await session.client.listTools();
        expect(tools.find((tool) => tool.name === 'media')._meta).to.deep.equal({
          'example.com/kind': 'showcase',
        });
        expectValidFrames(session, revision);
      });

      it('delivers every progress value, the last one included, before the result', async () => {
        const updates = [];
        const result = await session.call(
          { name: 'steps', arguments: {} },
          { onprogress: (update) => updates.push(update.progress) },
        );
        expect(textOf(result)).to.equal('done');
        expectProgress(session, updates, 'steps');
        expectValidFrames(session, revision);
      });

      it('answers a quick capture: false tool while a slow one runs (both opted out of capture)', async () => {
        const order = [];
        const slow = session.client
          .callTool({ name: 'slow_beside', arguments: { ms: 2000 } })
          .then((result) => order.push(textOf(result)));
        const quick = session.client
          .callTool({ name: 'quick_beside', arguments: {} })
          .then((result) => order.push(textOf(result)));
        await Promise.all([slow, quick]);
        expect(order).to.deep.equal(['quick done', 'slow done']);
      });

      it('types and parses arguments with a Zod schema: defaults applied, violations are isError', async () => {
        const result = await session.call({ name: 'repeat', arguments: { text: 'ab' } });
        expect(textOf(result)).to.equal('ab');
        expect(result.structuredContent).to.deep.equal({ out: 'ab' });
        const twice = await session.call({ name: 'repeat', arguments: { text: 'ab', times: 2 } });
        expect(twice.structuredContent).to.deep.equal({ out: 'abab' });
        const invalid = await session.call({ name: 'repeat', arguments: { text: '' } });
        expect(invalid.isError).to.equal(true);
        expect(textOf(invalid)).to.match(/\/text/);
        expectValidFrames(session, revision);
      });

      if (era === 'legacy') {
        it('sends log messages at or above the level the client set', async () => {
          const levels = () =>
            session.received
              .filter((frame) => frame.method === 'notifications/message')
              .map((frame) => frame.params.level);
          await session.call({ name: 'log', arguments: {} });
          // Before any logging/setLevel every level is sent (as the SDK servers do).
          expect(levels()).to.have.length(8);
          await session.client.setLoggingLevel('error');
          session.received.length = 0;
          await session.call({ name: 'log', arguments: {} });
          expect(levels()).to.deep.equal(['error', 'critical', 'alert', 'emergency']);
          const message = session.received.find(
            (frame) => frame.method === 'notifications/message',
          );
          expect(message.params).to.deep.equal({
            level: 'error',
            logger: 'library-server',
            data: { level: 'error', note: 'a error message' },
          });
          expectValidFrames(session, revision);
        });
      } else {
        it('sends log messages only for a request carrying a logLevel, at or above it', async () => {
          const messages = () =>
            session.received.filter((frame) => frame.method === 'notifications/message');
          await session.call({ name: 'log', arguments: {} });
          expect(messages()).to.deep.equal([]);
          await session.call({ name: 'log', arguments: {}, _meta: { [LOG_LEVEL]: 'alert' } });
          const sent = session.sent.findLast((message) => message.method === 'tools/call');
          expect(sent.params._meta[LOG_LEVEL]).to.equal('alert');
          expect(messages().map((frame) => frame.params.level)).to.deep.equal([
            'alert',
            'emergency',
          ]);
          expectValidFrames(session, revision);
        });
      }
    });
  }

  it(`${V1}: all progress values of 20 back-to-back calls arrive`, async () => {
    const session = await connect(COMBINATIONS[0]);
    try {
      for (let call = 0; call < 20; call++) {
        const updates = [];
        await session.call(
          { name: 'steps', arguments: {} },
          { onprogress: (update) => updates.push(update.progress) },
        );
        expectProgress(session, updates, `call ${call}`);
      }
    } finally {
      const pid = session.transport.pid;
      await session.client.close();
      killPid(pid);
    }
  });
});

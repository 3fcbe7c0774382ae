// PROTOCOL.md section 6, framing and JSON-RPC cases 1-20, over the replay double.
import { expect } from 'chai';
import { countingTool, eachConversation, modernMeta } from './helpers/conversation.mjs';

describe('framing and JSON-RPC (replay double)', () => {
  let conversation;
  eachConversation((c) => (conversation = c));

  const errorOf = (frame) => frame.error?.code;

  it('answers a non-JSON line with -32700 and id null (case 1)', async () => {
    conversation.send('hello');
    const [frame] = await conversation.settle();
    expect(frame).to.deep.include({ id: null });
    expect(errorOf(frame)).to.equal(-32700);
  });

  it('ignores blank lines and answers the next ping (case 2)', async () => {
    conversation.send('   ');
    const reply = await conversation.request('ping');
    expect(conversation.frames).to.have.length(1);
    expect(reply.result).to.deep.equal({});
  });

  it('answers non-object values with -32600 and id null (case 5)', async () => {
    for (const line of ['42', '"x"', '{}', 'null', 'true']) conversation.send(line);
    const frames = await conversation.settle();
    expect(frames).to.have.length(5);
    for (const frame of frames) {
      expect(frame.id).to.equal(null);
      expect(errorOf(frame)).to.equal(-32600);
    }
  });

  it('absorbs requests with id null as notifications and never runs them (case 6)', async () => {
    const counter = countingTool();
    conversation.server.register(counter);
    await conversation.initialize();
    conversation.send({ jsonrpc: '2.0', id: null, method: 'ping' });
    conversation.send({
      jsonrpc: '2.0',
      id: null,
      method: 'tools/call',
      params: { name: 'count' },
    });
    const frames = await conversation.settle(50);
    expect(frames).to.have.length(1); // the initialize result only
    expect(counter.runs).to.equal(0);
  });

  it('rejects a wrong jsonrpc version echoing the id (case 7)', async () => {
    conversation.send({ jsonrpc: '1.0', id: 5, method: 'ping' });
    const [frame] = await conversation.settle();
    expect(frame.id).to.equal(5);
    expect(errorOf(frame)).to.equal(-32600);
  });

  it('rejects a non-string method echoing the id (case 8)', async () => {
    conversation.send({ jsonrpc: '2.0', id: 1, method: 5 });
    const [frame] = await conversation.settle();
    expect(frame.id).to.equal(1);
    expect(errorOf(frame)).to.equal(-32600);
  });

  it('rejects fractional, boolean and object ids with id null (case 9)', async () => {
    conversation.send('{"jsonrpc":"2.0","id":1.5,"method":"ping"}');
    conversation.send('{"jsonrpc":"2.0","id":true,"method":"ping"}');
    conversation.send('{"jsonrpc":"2.0","id":{},"method":"ping"}');
    const frames = await conversation.settle();
    expect(frames.map((frame) => [frame.id, errorOf(frame)])).to.deep.equal([
      [null, -32600],
      [null, -32600],
      [null, -32600],
    ]);
  });

  it('keeps "0" and 0 apart, and echoes "" and -7 exactly (cases 10, 11)', async () => {
    await conversation.initialize();
    conversation.send({
      jsonrpc: '2.0',
      id: '0',
      method: 'tools/call',
      params: { name: 'slow', arguments: { ms: 50 } },
    });
    conversation.send({
      jsonrpc: '2.0',
      id: 0,
      method: 'tools/call',
      params: { name: 'slow', arguments: { ms: 50 } },
    });
    conversation.send({ jsonrpc: '2.0', id: '', method: 'ping' });
    conversation.send({ jsonrpc: '2.0', id: -7, method: 'ping' });
    await conversation.waitFor((frame) => frame.id === 0);
    await conversation.waitFor((frame) => frame.id === '0');
    const ids = conversation.frames.slice(1).map((frame) => frame.id);
    expect(ids).to.have.members(['0', 0, '', -7]);
    expect(conversation.transport.written.some((line) => line.includes('"id":"0"'))).to.equal(true);
    expect(conversation.transport.written.some((line) => line.includes('"id":0,'))).to.equal(true);
  });

  it('echoes an integer id beyond 2^53 verbatim (case 12)', async () => {
    conversation.send('{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}');
    conversation.send('{"jsonrpc":"2.0","id":-123456789012345678901234567890,"method":"ping"}');
    await conversation.settle();
    expect(conversation.transport.written).to.deep.equal([
      '{"jsonrpc":"2.0","id":9007199254740993,"result":{}}',
      '{"jsonrpc":"2.0","id":-123456789012345678901234567890,"result":{}}',
    ]);
  });

  it('rejects a duplicate in-flight id and lets the first complete (case 13)', async () => {
    await conversation.initialize();
    const call = {
      jsonrpc: '2.0',
      id: 'dup',
      method: 'tools/call',
      params: { name: 'slow', arguments: { ms: 80 } },
    };
    conversation.send(call);
    conversation.send(call);
    const duplicate = await conversation.waitFor((frame) => frame.id === 'dup' && frame.error);
    expect(errorOf(duplicate)).to.equal(-32600);
    const first = await conversation.waitFor((frame) => frame.id === 'dup' && frame.result);
    expect(first.result.content[0].text).to.equal('waited 80 ms');
  });

  it('serves a request with an extra top-level member (case 14)', async () => {
    conversation.send({ jsonrpc: '2.0', id: 3, method: 'ping', x: 1 });
    const [frame] = await conversation.settle();
    expect(frame).to.deep.equal({ jsonrpc: '2.0', id: 3, result: {} });
  });

  it('rejects string params with -32600 and array params with -32602 (case 15)', async () => {
    await conversation.initialize();
    conversation.send({ jsonrpc: '2.0', id: 'a', method: 'tools/list', params: 'str' });
    conversation.send({ jsonrpc: '2.0', id: 'b', method: 'tools/call', params: [] });
    conversation.send({ jsonrpc: '2.0', id: 'c', method: 'tools/list', params: null });
    await conversation.settle();
    const byId = Object.fromEntries(
      conversation.frames.slice(1).map((frame) => [frame.id, errorOf(frame)]),
    );
    expect(byId).to.deep.equal({ a: -32600, b: -32602, c: -32600 });
  });

  it('never answers notifications, and never runs a tools/call notification (case 16)', async () => {
    const counter = countingTool();
    conversation.server.register(counter);
    await conversation.initialize();
    conversation.send({ jsonrpc: '2.0', method: 'notifications/whatever' });
    conversation.send({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'count' } });
    const frames = await conversation.settle(50);
    expect(frames).to.have.length(1);
    expect(counter.runs).to.equal(0);
  });

  it('ignores client response objects (case 17)', async () => {
    conversation.send({ jsonrpc: '2.0', id: 99, result: {} });
    conversation.send({ jsonrpc: '2.0', id: 98, error: { code: 1, message: 'x' } });
    expect(await conversation.settle()).to.have.length(0);
  });

  it('rejects batches outside a 2025-03-26 session (case 18)', async () => {
    conversation.send('[]');
    conversation.send('[{"jsonrpc":"2.0","id":1,"method":"ping"}]');
    await conversation.initialize('2025-06-18');
    conversation.send('[{"jsonrpc":"2.0","id":2,"method":"ping"}]');
    await conversation.settle();
    const errors = conversation.frames.filter((frame) => frame.error);
    expect(errors.map((frame) => [frame.id, errorOf(frame)])).to.deep.equal([
      [null, -32600],
      [null, -32600],
      [null, -32600],
    ]);
  });

  it('answers batches in a 2025-03-26 session (case 18)', async () => {
    await conversation.initialize('2025-03-26');
    conversation.send('[{"jsonrpc":"2.0","id":1,"method":"ping"}]');
    await conversation.waitFor((frame) => Array.isArray(frame));
    conversation.send('[{"jsonrpc":"2.0","method":"notifications/initialized"}]');
    conversation.send('[]');
    conversation.send(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'l', method: 'tools/list' },
        { jsonrpc: '2.0', id: 'i', method: 'initialize', params: {} },
        {
          jsonrpc: '2.0',
          id: 'c',
          method: 'tools/call',
          params: { name: 'echo', arguments: { text: 'hi' } },
        },
      ]),
    );
    const batch = await conversation.waitFor((frame) => Array.isArray(frame) && frame.length === 3);
    const byId = Object.fromEntries(batch.map((frame) => [frame.id, frame]));
    expect(byId.l.result.tools).to.be.an('array');
    expect(byId.i.error.code).to.equal(-32600);
    expect(byId.c.result.content[0].text).to.equal('hi');
    const frames = await conversation.settle();
    expect(frames.filter((frame) => Array.isArray(frame))).to.have.length(2);
    expect(
      frames.filter(
        (frame) => !Array.isArray(frame) && frame.error?.code === -32600 && frame.id === null,
      ),
    ).to.have.length(1);
  });

  it('answers an over-long line with -32600 and keeps serving (case 19)', async () => {
    conversation.transport.sendOversize(20 * 1024 * 1024);
    const reply = await conversation.request('ping');
    expect(reply.result).to.deep.equal({});
    expect(conversation.frames[0].id).to.equal(null);
    expect(errorOf(conversation.frames[0])).to.equal(-32600);
  });

  it('answers concurrent requests out of order, each with its own id (case 20)', async () => {
    await conversation.initialize();
    conversation.send({
      jsonrpc: '2.0',
      id: 'slow',
      method: 'tools/call',
      params: { name: 'slow', arguments: { ms: 100 } },
    });
    conversation.send({ jsonrpc: '2.0', id: 'fast', method: 'ping' });
    await conversation.waitFor((frame) => frame.id === 'slow');
    const order = conversation.frames.slice(1).map((frame) => frame.id);
    expect(order).to.deep.equal(['fast', 'slow']);
  });

  it('treats modern and legacy traffic in one id table', async () => {
    await conversation.initialize();
    conversation.send({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'slow', arguments: { ms: 60 } },
    });
    const duplicate = await conversation.request(
      'tools/call',
      { name: 'echo', arguments: { text: 'x' }, _meta: modernMeta() },
      7,
    );
    expect(errorOf(duplicate)).to.equal(-32600);
  });
});

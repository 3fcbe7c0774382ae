// PROTOCOL.md section 6, modern cases 43-57, the 2026-07-28 column of the method table,
// and dual-era selection (section 4), over the replay double.
import { expect } from 'chai';
import { MODERN, PV, eachConversation, modernMeta } from './helpers/conversation.mjs';

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

describe('modern era 2026-07-28 (replay double)', () => {
  let conversation;
  eachConversation((c) => (conversation = c));

  it('stamps tools/list with resultType, cache hints and serverInfo (case 43)', async () => {
    const { result } = await conversation.modern('tools/list');
    expect(result.resultType).to.equal('complete');
    expect(result.ttlMs).to.equal(3600000);
    expect(result.cacheScope).to.equal('public');
    expect(result._meta[SERVER_INFO]).to.deep.include({ name: 'test-server', version: '1.2.3' });
    const structured = result.tools.find((tool) => tool.name === 'list_output');
    expect(structured.outputSchema).to.deep.equal({ type: 'array', items: { type: 'string' } });
    expect(result.tools.find((tool) => tool.name === 'echo')).to.deep.include({
      title: 'Echo',
      annotations: { readOnlyHint: true },
    });
  });

  it('stamps tools/call results, never errors (case 44)', async () => {
    const { result } = await conversation.modern('tools/call', { name: 'list_output' });
    expect(result.resultType).to.equal('complete');
    expect(result.structuredContent).to.deep.equal(['a', 'b']);
    expect(result._meta[SERVER_INFO].name).to.equal('test-server');
    const error = await conversation.modern('tools/call', { name: 'nope' });
    expect(error.error.code).to.equal(-32602);
    expect(error).to.not.have.property('result');
    expect(error.error).to.not.have.property('resultType');
  });

  it('answers unsupported versions with -32022 (cases 45, 46, 51)', async () => {
    for (const [method, version] of [
      ['tools/list', '1900-01-01'],
      ['tools/list', '2025-11-25'],
      ['unknown/method', '1900-01-01'],
    ]) {
      const reply = await conversation.request(method, {
        _meta: { ...modernMeta(), [PV]: version },
      });
      expect(reply.error.code).to.equal(-32022);
      expect(reply.error.data.requested).to.equal(version);
      expect(reply.error.data.supported).to.include(MODERN);
    }
  });

  it('answers malformed envelopes with -32602 (cases 47, 48)', async () => {
    const envelopes = [
      { [PV]: 20260728, 'io.modelcontextprotocol/clientCapabilities': {} },
      { [PV]: MODERN },
      { ...modernMeta(), 'io.modelcontextprotocol/clientInfo': 'x' },
      { ...modernMeta(), 'io.modelcontextprotocol/logLevel': 'verbose' },
      { ...modernMeta(), progressToken: 1.5 },
    ];
    for (const _meta of envelopes) {
      const reply = await conversation.request('tools/list', { _meta });
      expect(reply.error?.code, JSON.stringify(_meta)).to.equal(-32602);
    }
  });

  it('serves without clientInfo (case 49)', async () => {
    const reply = await conversation.request('tools/list', {
      _meta: { [PV]: MODERN, 'io.modelcontextprotocol/clientCapabilities': {} },
    });
    expect(reply.result.tools).to.have.length(5);
  });

  it('answers removed methods with -32601 (case 50)', async () => {
    for (const method of [
      'ping',
      'initialize',
      'logging/setLevel',
      'resources/list',
      'prompts/list',
    ]) {
      expect((await conversation.modern(method)).error.code, method).to.equal(-32601);
    }
  });

  it('answers server/discover (case 52)', async () => {
    const { result } = await conversation.modern('server/discover');
    expect(result.supportedVersions).to.include(MODERN);
    expect(result.capabilities).to.deep.equal({ tools: { listChanged: true }, logging: {} });
    expect(result).to.include({
      resultType: 'complete',
      ttlMs: 3600000,
      cacheScope: 'public',
      instructions: 'Use the tools.',
    });
    expect(result._meta[SERVER_INFO]).to.deep.equal({
      name: 'test-server',
      version: '1.2.3',
      title: 'Test Server',
      description: 'A server under test',
      websiteUrl: 'https://example.com',
    });
  });

  it('serves a legacy session after a discover probe (case 53)', async () => {
    await conversation.modern('server/discover');
    const init = await conversation.initialize('2025-06-18');
    expect(init.result.protocolVersion).to.equal('2025-06-18');
    expect((await conversation.request('tools/list')).result).to.not.have.property('resultType');
  });

  it('serves both eras side by side after initialize (case 54)', async () => {
    await conversation.initialize('2024-11-05');
    const modern = await conversation.modern('tools/list');
    expect(modern.result.resultType).to.equal('complete');
    expect(modern.result.tools.find((tool) => tool.name === 'echo').title).to.equal('Echo');
    const legacy = await conversation.request('tools/list');
    expect(legacy.result).to.not.have.property('resultType');
    expect(legacy.result.tools.find((tool) => tool.name === 'echo')).to.not.have.property('title');
  });

  it('answers a claim-less discover with -32602, then initialize works (case 55)', async () => {
    expect((await conversation.request('server/discover')).error.code).to.equal(-32602);
    expect((await conversation.initialize()).result.protocolVersion).to.equal('2025-11-25');
  });

  it('acknowledges subscriptions/listen, honouring toolsListChanged, and drops it on cancel (case 56)', async () => {
    for (const id of [41, 'forty-two']) {
      conversation.send({
        jsonrpc: '2.0',
        id,
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true }, _meta: modernMeta() },
      });
      const ack = await conversation.waitFor(
        (frame) =>
          frame.method === 'notifications/subscriptions/acknowledged' &&
          frame.params._meta['io.modelcontextprotocol/subscriptionId'] === id,
      );
      expect(ack.params.notifications).to.deep.equal({ toolsListChanged: true });
    }
    conversation.cancel(41);
    await conversation.settle();
    expect(conversation.frames.filter((frame) => 'id' in frame)).to.deep.equal([]);
    await conversation.end();
    // The open stream ends gracefully with a result; the cancelled one gets nothing.
    const results = conversation.frames.filter((frame) => 'id' in frame);
    expect(results.map((frame) => frame.id)).to.deep.equal(['forty-two']);
    expect(results[0].result.resultType).to.equal('complete');
  });

  it('requires the notifications filter on listen (case 57)', async () => {
    expect((await conversation.modern('subscriptions/listen')).error.code).to.equal(-32602);
  });

  it('judges each modern request on its own _meta', async () => {
    await conversation.modern('tools/list');
    const bare = await conversation.request('tools/list');
    expect(bare.error.code).to.equal(-32600); // no legacy session, no claim
  });

  it('reports progress and honours cancellation in the modern era', async () => {
    conversation.send({
      jsonrpc: '2.0',
      id: 'm',
      method: 'tools/call',
      params: { name: 'slow', arguments: { ms: 2000 }, _meta: modernMeta({ progressToken: 'mp' }) },
    });
    await conversation.waitFor((frame) => frame.method === 'notifications/progress');
    conversation.cancel('m');
    const count = conversation.frames.length;
    await conversation.settle(250);
    expect(conversation.frames.length).to.equal(count);
    expect(conversation.frames.some((frame) => frame.id === 'm')).to.equal(false);
  });
});

// PROTOCOL.md section 6, legacy lifecycle (cases 21-34) and the legacy columns of the
// method x revision table (section 5), over the replay double.
import { expect } from 'chai';
import { Conversation, eachConversation } from './helpers/conversation.mjs';

const LEGACY = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

describe('legacy lifecycle (replay double)', () => {
  let conversation;
  eachConversation((c) => (conversation = c));

  it('answers ping before initialize (case 21)', async () => {
    expect((await conversation.request('ping')).result).to.deep.equal({});
  });

  it('refuses tools/list before initialize with -32600 (case 22)', async () => {
    const reply = await conversation.request('tools/list');
    expect(reply.error.code).to.equal(-32600);
    expect(reply.error.message).to.match(/initialize/);
  });

  for (const revision of LEGACY) {
    it(`negotiates ${revision} when asked for it (case 23)`, async () => {
      const reply = await conversation.initialize(revision);
      expect(reply.result.protocolVersion).to.equal(revision);
      expect(reply.result.capabilities).to.deep.equal({
        tools: { listChanged: true },
        logging: {},
      });
      expect(reply.result.instructions).to.equal('Use the tools.');
      expect(reply.result).to.not.have.property('resultType');
      expect(reply.result).to.not.have.property('_meta');
    });
  }

  for (const requested of ['2026-07-28', '2024-10-07', '1900-01-01', 'x']) {
    it(`answers 2025-11-25 when asked for ${requested} (case 24)`, async () => {
      const reply = await conversation.initialize(requested);
      expect(reply.result.protocolVersion).to.equal('2025-11-25');
    });
  }

  it('rejects initialize without params, protocolVersion, capabilities or clientInfo (case 25)', async () => {
    const cases = [
      undefined,
      { capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      { protocolVersion: 5, capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      { protocolVersion: '2025-06-18', clientInfo: { name: 'c', version: '1' } },
      { protocolVersion: '2025-06-18', capabilities: {} },
    ];
    for (const params of cases) {
      const reply = await conversation.request('initialize', params);
      expect(reply.error?.code, JSON.stringify(params)).to.equal(-32602);
    }
    expect((await conversation.initialize('2025-06-18')).result.protocolVersion).to.equal(
      '2025-06-18',
    );
  });

  it('refuses a second initialize and keeps the first version (case 26)', async () => {
    await conversation.initialize('2025-03-26');
    const second = await conversation.initialize('2025-06-18');
    expect(second.error.code).to.equal(-32600);
    const list = await conversation.request('tools/list');
    expect(list.result.tools.find((tool) => tool.name === 'echo')).to.not.have.property('title');
    expect(list.result.tools.find((tool) => tool.name === 'echo')).to.have.property('annotations');
  });

  it('serves tools/list before notifications/initialized (case 27)', async () => {
    await conversation.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    expect((await conversation.request('tools/list')).result.tools).to.have.length(5);
  });

  it('absorbs notifications/initialized twice or before initialize (case 28)', async () => {
    conversation.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await conversation.initialize();
    conversation.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(await conversation.settle()).to.have.length(1);
  });

  it('ignores a cancellation naming the initialize id (case 29)', async () => {
    conversation.send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      },
    });
    conversation.cancel('init');
    const reply = await conversation.waitFor((frame) => frame.id === 'init');
    expect(reply.result.protocolVersion).to.equal('2025-06-18');
  });

  it('shapes tools/list for 2024-11-05: no title, annotations or outputSchema (case 30)', async () => {
    await conversation.initialize('2024-11-05');
    const { tools } = (await conversation.request('tools/list')).result;
    for (const tool of tools) {
      expect(Object.keys(tool).sort()).to.deep.equal(['description', 'inputSchema', 'name']);
    }
    const call = await conversation.request('tools/call', { name: 'structured' });
    expect(call.result).to.not.have.property('structuredContent');
    expect(call.result.content).to.deep.equal([{ type: 'text', text: '{"count":3}' }]);
  });

  it('shapes tools/list for 2025-03-26: annotations, no title or outputSchema (case 31)', async () => {
    await conversation.initialize('2025-03-26');
    const { tools } = (await conversation.request('tools/list')).result;
    const echo = tools.find((tool) => tool.name === 'echo');
    expect(echo.annotations).to.deep.equal({ readOnlyHint: true });
    expect(echo).to.not.have.property('title');
    expect(tools.find((tool) => tool.name === 'structured')).to.not.have.property('outputSchema');
  });

  for (const revision of ['2025-06-18', '2025-11-25']) {
    it(`wraps array structured output for ${revision} (case 32)`, async () => {
      await conversation.initialize(revision);
      const { tools } = (await conversation.request('tools/list')).result;
      const listOutput = tools.find((tool) => tool.name === 'list_output');
      expect(listOutput.outputSchema).to.deep.equal({
        type: 'object',
        properties: { result: { type: 'array', items: { type: 'string' } } },
        required: ['result'],
      });
      expect(tools.find((tool) => tool.name === 'echo').title).to.equal('Echo');
      const call = await conversation.request('tools/call', { name: 'list_output' });
      expect(call.result.structuredContent).to.deep.equal({ result: ['a', 'b'] });
      expect(call.result.content[0]).to.deep.equal({ type: 'text', text: '["a","b"]' });
      const structured = await conversation.request('tools/call', { name: 'structured' });
      expect(structured.result.structuredContent).to.deep.equal({ count: 3 });
    });
  }

  it('emits only the serverInfo fields each revision defines', async () => {
    const fields = {};
    for (const revision of LEGACY) {
      const other = new Conversation();
      fields[revision] = Object.keys((await other.initialize(revision)).result.serverInfo).sort();
      await other.end();
      expect(other.violations).to.deep.equal([]);
    }
    expect(fields).to.deep.equal({
      '2024-11-05': ['name', 'version'],
      '2025-03-26': ['name', 'version'],
      '2025-06-18': ['name', 'title', 'version'],
      '2025-11-25': ['description', 'name', 'title', 'version', 'websiteUrl'],
    });
  });

  it('offers tools and logging, no prompts or resources (case 34, changed: logging is offered)', async () => {
    const reply = await conversation.initialize('2025-06-18');
    expect(Object.keys(reply.result.capabilities).sort()).to.deep.equal(['logging', 'tools']);
    expect(
      (await conversation.request('logging/setLevel', { level: 'info' })).result,
    ).to.deep.equal({});
    for (const level of ['verbose', undefined, 3]) {
      const bad = await conversation.request('logging/setLevel', { level });
      expect(bad.error.code, String(level)).to.equal(-32602);
    }
    for (const method of [
      'resources/list',
      'prompts/list',
      'completion/complete',
      'server/unknown',
    ]) {
      const answer = await conversation.request(method, {});
      expect(answer.error?.code, method).to.equal(-32601);
    }
  });

  // Section 5: the legacy rows of the method x revision table.
  for (const revision of LEGACY) {
    it(`serves the ${revision} column of the method table`, async () => {
      await conversation.initialize(revision);
      expect((await conversation.request('ping')).result).to.deep.equal({});
      expect(
        (await conversation.request('tools/list')).result.tools.map((tool) => tool.name),
      ).to.deep.equal(['echo', 'list_output', 'slow', 'structured', 'throws']);
      const call = await conversation.request('tools/call', {
        name: 'echo',
        arguments: { text: revision },
      });
      expect(call.result).to.deep.equal({
        content: [{ type: 'text', text: revision }],
        isError: false,
      });
      expect((await conversation.request('server/discover')).error.code).to.equal(-32602);
      expect(
        (await conversation.request('subscriptions/listen', { notifications: {} })).error.code,
      ).to.equal(-32602);
      conversation.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
      const progressCall = await conversation.request('tools/call', {
        name: 'slow',
        arguments: { ms: 100 },
        _meta: { progressToken: 'p' },
      });
      const progress = conversation.frames.filter(
        (frame) => frame.method === 'notifications/progress',
      );
      expect(progress.length).to.be.greaterThan(0);
      for (const note of progress) {
        expect(note.params.progressToken).to.equal('p');
        expect('message' in note.params).to.equal(revision !== '2024-11-05');
      }
      expect(conversation.frames.indexOf(progressCall)).to.be.greaterThan(
        conversation.frames.indexOf(progress.at(-1)),
      );
    });
  }
});

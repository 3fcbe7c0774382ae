// The library's server features on the replay double, every frame schema-checked for
// its revision: content blocks shaped per revision, logging levels and scoping, the live
// tool list (unregister, list_changed once per tick, only to connected clients), _meta.
import { expect } from 'chai';
import { McpServer } from '../dist/index.js';
import { Conversation, eachConversation, modernMeta } from './helpers/conversation.mjs';

const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';

const BLOCKS = [
  {
    type: 'image',
    data: 'AAAA',
    mimeType: 'image/png',
    annotations: { audience: ['user'], priority: 0.5, lastModified: '2026-01-01T00:00:00Z' },
  },
  { type: 'audio', data: 'AAAAAAAA', mimeType: 'audio/wav', _meta: { 'example.com/x': 1 } },
  {
    type: 'resource_link',
    uri: 'file:///r/README.md',
    name: 'README.md',
    title: 'Read me',
    mimeType: 'text/markdown',
  },
  { type: 'resource', resource: { uri: 'file:///r/a.txt', text: 'inside', _meta: { k: 1 } } },
];

function mediaTool() {
  return {
    name: 'media',
    inputSchema: { type: 'object' },
    run: () => ({ text: 'first', content: BLOCKS }),
  };
}

function loggingTool() {
  return {
    name: 'logs',
    inputSchema: { type: 'object' },
    run: (_args, { log }) => {
      for (const level of ['debug', 'info', 'warning', 'error', 'emergency']) log(level, level);
      return { text: 'logged' };
    },
  };
}

function messagesOf(conversation) {
  return conversation.frames
    .filter((frame) => frame.method === 'notifications/message')
    .map((frame) => frame.params.level);
}

describe('content blocks per revision (replay double)', () => {
  const cases = {
    '2024-11-05': {
      types: ['text', 'image', 'text', 'text', 'resource'],
      degraded: [
        /^\[audio \(audio\/wav, 6 bytes\) left out: protocol 2024-11-05 has no audio/,
        /^Resource: Read me <file:\/\/\/r\/README\.md> \(text\/markdown\)$/,
      ],
    },
    '2025-03-26': {
      types: ['text', 'image', 'audio', 'text', 'resource'],
      degraded: [/^Resource: Read me <file:\/\/\/r\/README\.md>/],
    },
    '2025-06-18': { types: ['text', 'image', 'audio', 'resource_link', 'resource'], degraded: [] },
    '2025-11-25': { types: ['text', 'image', 'audio', 'resource_link', 'resource'], degraded: [] },
  };
  for (const [revision, expected] of Object.entries(cases)) {
    it(`${revision}: ${expected.types.join(', ')}`, async () => {
      const conversation = new Conversation({ tools: [mediaTool()] });
      await conversation.initialize(revision);
      const { result } = await conversation.request('tools/call', { name: 'media' });
      expect(result.content.map((block) => block.type)).to.deep.equal(expected.types);
      expect(result.content[0].text).to.equal('first');
      const degraded = result.content.slice(2, 4).filter((block) => block.type === 'text');
      expect(degraded.map((block) => block.text)).to.have.length(expected.degraded.length);
      degraded.forEach((block, index) => expect(block.text).to.match(expected.degraded[index]));
      const image = result.content[1];
      const metaKnown = revision >= '2025-06-18';
      expect('lastModified' in image.annotations).to.equal(metaKnown);
      expect('_meta' in result.content[4].resource).to.equal(metaKnown);
      await conversation.end();
      expect(conversation.violations).to.deep.equal([]);
    });
  }

  it('2026-07-28: every block as given', async () => {
    const conversation = new Conversation({ tools: [mediaTool()] });
    const { result } = await conversation.modern('tools/call', { name: 'media' });
    expect(result.content.slice(1)).to.deep.equal(BLOCKS);
    await conversation.end();
    expect(conversation.violations).to.deep.equal([]);
  });

  it('answers malformed content with an isError result naming the block', async () => {
    const conversation = new Conversation({
      tools: [
        {
          name: 'bad',
          inputSchema: { type: 'object' },
          run: ({ which }) =>
            [
              { content: [{ type: 'video', data: '' }] },
              { content: [{ type: 'image', data: 'AAAA' }] },
              { content: [{ type: 'resource', resource: { uri: 'x' } }] },
              { content: 'text' },
              {},
            ][which],
        },
      ],
    });
    await conversation.initialize();
    const problems = [];
    for (let which = 0; which < 5; which++) {
      const { result } = await conversation.request('tools/call', {
        name: 'bad',
        arguments: { which },
      });
      expect(result.isError).to.equal(true);
      problems.push(result.content[0].text);
    }
    expect(problems[0]).to.match(/content\[0\] has unknown type "video"/);
    expect(problems[1]).to.match(/content\[0\] \("image"\) needs a string "mimeType"/);
    expect(problems[2]).to.match(/\{uri, text\} or \{uri, blob\}/);
    expect(problems[3]).to.match(/"content" must be an array/);
    expect(problems[4]).to.match(/needs "text" or a "content" array/);
    await conversation.end();
  });
});

describe('logging (replay double)', () => {
  it('legacy: every level until logging/setLevel, then that level and above', async () => {
    const conversation = new Conversation({ tools: [loggingTool()] });
    await conversation.initialize('2025-06-18');
    await conversation.request('tools/call', { name: 'logs' });
    expect(messagesOf(conversation)).to.deep.equal([
      'debug',
      'info',
      'warning',
      'error',
      'emergency',
    ]);
    await conversation.request('logging/setLevel', { level: 'warning' });
    conversation.frames.length = 0;
    await conversation.request('tools/call', { name: 'logs' });
    expect(messagesOf(conversation)).to.deep.equal(['warning', 'error', 'emergency']);
    await conversation.end();
    expect(conversation.violations).to.deep.equal([]);
  });

  it('2026-07-28: only for a request with a logLevel, at or above it; logging/setLevel is -32601', async () => {
    const conversation = new Conversation({ tools: [loggingTool()] });
    await conversation.modern('tools/call', { name: 'logs' });
    expect(messagesOf(conversation)).to.deep.equal([]);
    await conversation.modern('tools/call', { name: 'logs', _meta: { [LOG_LEVEL]: 'error' } });
    expect(messagesOf(conversation)).to.deep.equal(['error', 'emergency']);
    expect((await conversation.modern('logging/setLevel', { level: 'debug' })).error.code).to.equal(
      -32601,
    );
    await conversation.end();
    expect(conversation.violations).to.deep.equal([]);
  });

  /** A tool that logs once it is cancelled, while it winds down, then settles. */
  function windingTool(started, logged = () => {}) {
    return {
      name: 'winding',
      inputSchema: { type: 'object' },
      run: (_args, { signal, log }) =>
        new Promise((resolve) => {
          started();
          signal.addEventListener('abort', () => {
            setTimeout(() => {
              log('info', 'winding down');
              logged();
              resolve({ text: 'stopped' });
            }, 5);
          });
        }),
    };
  }

  it("legacy: a tool's log after its cancellation is delivered (the session still listens); no response", async () => {
    let started;
    const running = new Promise((resolve) => (started = resolve));
    const conversation = new Conversation({ tools: [windingTool(started)] });
    await conversation.initialize('2025-06-18');
    conversation.send({
      jsonrpc: '2.0',
      id: 'w',
      method: 'tools/call',
      params: { name: 'winding' },
    });
    await running;
    conversation.cancel('w', 'user');
    await conversation.waitFor(
      (frame) => frame.method === 'notifications/message' && frame.params.data === 'winding down',
    );
    await conversation.settle(50);
    expect(conversation.frames.filter((frame) => frame.id === 'w')).to.deep.equal([]);
    await conversation.end();
    expect(conversation.violations).to.deep.equal([]);
  });

  it("2026-07-28: a tool's log after its cancellation is not sent (it belonged to the request)", async () => {
    let started;
    const running = new Promise((resolve) => (started = resolve));
    let logged;
    const done = new Promise((resolve) => (logged = resolve));
    const conversation = new Conversation({ tools: [windingTool(started, logged)] });
    conversation.send({
      jsonrpc: '2.0',
      id: 'w',
      method: 'tools/call',
      params: { name: 'winding', _meta: modernMeta({ [LOG_LEVEL]: 'debug' }) },
    });
    await running;
    conversation.cancel('w');
    await done;
    await conversation.settle(50);
    expect(messagesOf(conversation)).to.deep.equal([]);
    await conversation.end();
  });

  it('notifyLog reaches a legacy session only, filtered by its level', async () => {
    const conversation = new Conversation();
    expect(conversation.server.notifyLog('error', 'before any session')).to.equal(false);
    await conversation.initialize();
    await conversation.request('logging/setLevel', { level: 'error' });
    expect(conversation.server.notifyLog('info', 'too low')).to.equal(false);
    expect(conversation.server.notifyLog('critical', { why: 'test' }, 'me')).to.equal(true);
    const message = await conversation.waitFor((frame) => frame.method === 'notifications/message');
    expect(message.params).to.deep.equal({
      level: 'critical',
      logger: 'me',
      data: { why: 'test' },
    });
    await conversation.end();
  });
});

describe('live tool list (replay double)', () => {
  let conversation;
  eachConversation((c) => (conversation = c));

  const changes = () =>
    conversation.frames.filter((frame) => frame.method === 'notifications/tools/list_changed');
  const extra = (name) => ({ name, inputSchema: { type: 'object' }, run: () => ({ text: name }) });

  it('sends nothing before a client is connected, then one list_changed per tick of changes', async () => {
    conversation.server.register(extra('early'));
    await conversation.settle();
    expect(changes()).to.deep.equal([]);
    await conversation.initialize();
    conversation.server.register(extra('a'));
    conversation.server.register(extra('b'));
    expect(conversation.server.unregister('early')).to.equal(true);
    await conversation.settle();
    expect(changes()).to.deep.equal([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: {} },
    ]);
    const names = (await conversation.request('tools/list')).result.tools.map((tool) => tool.name);
    expect(names).to.include.members(['a', 'b']).and.not.include('early');
    expect((await conversation.request('tools/call', { name: 'early' })).error.code).to.equal(
      -32602,
    );
    expect(conversation.server.unregister('early')).to.equal(false);
    await conversation.settle();
    expect(changes()).to.have.length(1);
  });

  it('2026-07-28: list_changed only on listen streams that asked for it', async () => {
    for (const [id, toolsListChanged] of [
      ['wants', true],
      ['does-not', false],
    ]) {
      conversation.send({
        jsonrpc: '2.0',
        id,
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged }, _meta: modernMeta() },
      });
    }
    await conversation.waitFor((frame) => frame.params?._meta?.[SUBSCRIPTION] === 'does-not');
    conversation.server.register(extra('late'));
    await conversation.settle();
    expect(changes().map((frame) => frame.params._meta[SUBSCRIPTION])).to.deep.equal(['wants']);
  });

  it('a registration that throws changes nothing and notifies nobody', async () => {
    await conversation.initialize();
    expect(() =>
      conversation.server.register({
        name: 'bad',
        inputSchema: { type: 'object', $ref: '#/$defs/none' },
        run: () => ({ text: '' }),
      }),
    ).to.throw(/Tool "bad" inputSchema/);
    await conversation.settle();
    expect(changes()).to.deep.equal([]);
  });
});

describe('_meta on tools, calls and results (replay double)', () => {
  it('shows the request _meta to the tool and keeps tool and result _meta where the revision has them', async () => {
    let seen;
    const server = {
      tools: [
        {
          name: 'meta',
          inputSchema: { type: 'object' },
          _meta: { 'example.com/tool': true },
          run: (_args, context) => {
            seen = context.meta;
            return { text: 'ok', _meta: { 'example.com/result': 2 } };
          },
        },
      ],
    };
    const conversation = new Conversation(server);
    await conversation.initialize('2025-03-26');
    expect((await conversation.request('tools/list')).result.tools[0]).to.not.have.property(
      '_meta',
    );
    const legacy = await conversation.request('tools/call', {
      name: 'meta',
      _meta: { progressToken: 'p', 'example.com/trace': 'abc' },
    });
    expect(seen).to.deep.equal({ progressToken: 'p', 'example.com/trace': 'abc' });
    expect(legacy.result._meta).to.deep.equal({ 'example.com/result': 2 });
    const modern = await conversation.modern('tools/list');
    expect(modern.result.tools[0]._meta).to.deep.equal({ 'example.com/tool': true });
    const call = await conversation.modern('tools/call', { name: 'meta' });
    expect(call.result._meta).to.include({ 'example.com/result': 2 });
    expect(call.result._meta).to.have.property('io.modelcontextprotocol/serverInfo');
    await conversation.end();
    expect(conversation.violations).to.deep.equal([]);
  });

  it('rejects a Standard Schema without a JSON Schema conversion at register, naming the tool', () => {
    const server = new McpServer({ name: 's', version: '1' });
    const standardOnly = {
      '~standard': { version: 1, vendor: 'hand-made', validate: (value) => ({ value }) },
    };
    expect(() =>
      server.register({ name: 'std', inputSchema: standardOnly, run: () => ({ text: '' }) }),
    ).to.throw(
      /Tool "std" inputSchema is a Standard Schema \(hand-made\) with no JSON Schema conversion/,
    );
    for (const method of ['toJSONSchema', 'toJsonSchema']) {
      server.unregister('std');
      server.register({
        name: 'std',
        inputSchema: {
          ...standardOnly,
          [method]: () => ({ type: 'object', properties: { n: { type: 'number' } } }),
        },
        run: () => ({ text: '' }),
      });
    }
  });

  it('refuses a second tool of a registered name, naming it, and keeps the first (as SDK v2)', async () => {
    const first = {
      name: 'twice',
      inputSchema: { type: 'object' },
      run: () => ({ text: 'first' }),
    };
    const second = { ...first, run: () => ({ text: 'second' }) };
    const conversation = new Conversation({ tools: [first] });
    const { server } = conversation;
    expect(() => server.register(second))
      .to.throw(/Tool "twice" is already registered: .*unregister\("twice"\) first/)
      .with.property('code', 'EDUPLICATE_TOOL');
    expect(() => new McpServer({ name: 's', version: '1', tools: [first, second] }))
      .to.throw(/Tool "twice" is already registered/)
      .with.property('code', 'EDUPLICATE_TOOL');
    await conversation.initialize();
    const call = await conversation.request('tools/call', { name: 'twice' });
    expect(call.result.content).to.deep.equal([{ type: 'text', text: 'first' }]);
    // Replacing is explicit: unregister, then register.
    expect(server.unregister('twice')).to.equal(true);
    server.register(second);
    const again = await conversation.request('tools/call', { name: 'twice' });
    expect(again.result.content).to.deep.equal([{ type: 'text', text: 'second' }]);
    await conversation.end();
  });

  it('refuses schemas without an object root where one is required, naming the tool and the fix', () => {
    const server = new McpServer({ name: 's', version: '1' });
    const run = () => ({ text: '' });
    const cases = [
      [
        { inputSchema: { type: 'string' } },
        /Tool "t": inputSchema must have "type": "object" at its root \(got "type": "string"\): describe the arguments as \{ type: "object"/,
      ],
      [
        { inputSchema: { properties: {} } },
        /inputSchema must have "type": "object" at its root \(got no "type"\)/,
      ],
      [
        { inputSchema: { type: 'object' }, outputSchema: 'object' },
        /Tool "t": outputSchema must be a JSON Schema object or a Standard Schema \(got string\): describe structuredContent as/,
      ],
      [
        { inputSchema: { type: 'object' }, outputSchema: [] },
        /outputSchema must be .* \(got an array\)/,
      ],
    ];
    for (const [schemas, message] of cases) {
      expect(() => server.register({ name: 't', ...schemas, run }))
        .to.throw(message)
        .with.property('code', 'EINVALID_SCHEMA');
    }
    // Any root is a valid outputSchema in 2026-07-28 (and SDK v2 takes it); wrapped for 2025.
    server.register({
      name: 't',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'array' },
      run,
    });
  });
});

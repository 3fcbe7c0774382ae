// PROTOCOL.md section 6, tool cases 35-42, plus the tool registry and dispatch licence.
import { expect } from 'chai';
import { McpServer, ReplayTransport } from '../dist/index.js';
import { Conversation, eachConversation, modernMeta } from './helpers/conversation.mjs';

describe('tools (replay double)', () => {
  let conversation;
  eachConversation(
    (c) => (conversation = c),
    (c) => c.initialize('2025-11-25'),
  );

  it('rejects tools/call without a string name (case 35)', async () => {
    expect((await conversation.request('tools/call', {})).error.code).to.equal(-32602);
    expect((await conversation.request('tools/call', { name: 123 })).error.code).to.equal(-32602);
  });

  it('rejects non-object arguments (case 36)', async () => {
    for (const args of [[], 'x', null]) {
      const reply = await conversation.request('tools/call', { name: 'echo', arguments: args });
      expect(reply.error?.code, JSON.stringify(args)).to.equal(-32602);
    }
  });

  it('answers an unknown tool with -32602, not -32601 (case 37)', async () => {
    const reply = await conversation.request('tools/call', { name: 'nope' });
    expect(reply.error.code).to.equal(-32602);
    expect(reply.error.message).to.include('nope');
  });

  it('turns arguments failing the inputSchema into an isError result (case 38)', async () => {
    const wrongType = await conversation.request('tools/call', {
      name: 'echo',
      arguments: { text: 5 },
    });
    expect(wrongType.result.isError).to.equal(true);
    expect(wrongType.result.content[0].text).to.match(/\/text: must be string/);
    const missing = await conversation.request('tools/call', { name: 'echo', arguments: {} });
    expect(missing.result.isError).to.equal(true);
    expect(missing.result.content[0].text).to.match(/required property 'text'/);
  });

  it('runs a tool with omitted arguments and reports a throwing handler as isError (case 39)', async () => {
    const structured = await conversation.request('tools/call', { name: 'structured' });
    expect(structured.result.isError).to.equal(false);
    const thrown = await conversation.request('tools/call', { name: 'throws' });
    expect(thrown.result.isError).to.equal(true);
    expect(thrown.result.content[0].text).to.include('boom on purpose');
  });

  it('lists all tools sorted in one page and rejects any cursor (case 40)', async () => {
    const first = await conversation.request('tools/list');
    const second = await conversation.request('tools/list', {});
    expect(first.result).to.not.have.property('nextCursor');
    expect(first.result.tools.map((tool) => tool.name)).to.deep.equal(
      second.result.tools.map((tool) => tool.name),
    );
    expect(first.result.tools.map((tool) => tool.name)).to.deep.equal(
      [...first.result.tools.map((tool) => tool.name)].sort(),
    );
    expect((await conversation.request('tools/list', { cursor: 'bogus' })).error.code).to.equal(
      -32602,
    );
  });

  it('sends increasing progress before the result and none after (case 41)', async () => {
    const reply = await conversation.request('tools/call', {
      name: 'slow',
      arguments: { ms: 150 },
      _meta: { progressToken: 7 },
    });
    await conversation.settle(60);
    const index = conversation.frames.indexOf(reply);
    const progress = conversation.frames.filter(
      (frame) => frame.method === 'notifications/progress',
    );
    expect(progress.length).to.be.greaterThan(2);
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i].params.progress).to.be.greaterThan(progress[i - 1].params.progress);
    }
    for (const note of progress) {
      expect(note.params.progressToken).to.equal(7);
      expect(conversation.frames.indexOf(note)).to.be.lessThan(index);
    }
  });

  it('sends no progress without a progressToken', async () => {
    await conversation.request('tools/call', { name: 'slow', arguments: { ms: 60 } });
    expect(
      conversation.frames.filter((frame) => frame.method === 'notifications/progress'),
    ).to.deep.equal([]);
  });

  it('never answers a cancelled call, running or queued; later requests still answered (case 42)', async () => {
    const events = [];
    conversation.server.register({
      name: 'watch',
      inputSchema: { type: 'object' },
      run: (_args, { signal }) =>
        new Promise((resolve) => {
          events.push('started');
          signal.addEventListener('abort', () => {
            events.push('aborted');
            resolve({ text: 'stopped' });
          });
        }),
    });
    const call = (id, name, args = {}) =>
      conversation.send({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name, arguments: args, _meta: { progressToken: id } },
      });
    call('running', 'watch');
    call('queued', 'echo', { text: 'never' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    conversation.cancel('queued');
    conversation.cancel('running', 'user');
    conversation.cancel('unknown');
    const after = await conversation.request('tools/call', {
      name: 'echo',
      arguments: { text: 'after' },
    });
    expect(after.result.content[0].text).to.equal('after');
    await conversation.settle(50);
    expect(events).to.deep.equal(['started', 'aborted']);
    expect(
      conversation.frames.filter((frame) => frame.id === 'running' || frame.id === 'queued'),
    ).to.deep.equal([]);
    expect(
      conversation.frames.filter((frame) => frame.params?.progressToken === 'running'),
    ).to.deep.equal([]);
  });

  it('serializes tool runs but keeps answering ping, lists and discover meanwhile', async () => {
    const log = [];
    let release;
    conversation.server.register({
      name: 'gate',
      inputSchema: { type: 'object' },
      run: async ({ label }) => {
        log.push(`start ${label}`);
        if (label === 'a') await new Promise((resolve) => (release = resolve));
        log.push(`end ${label}`);
        return { text: label };
      },
    });
    conversation.send({
      jsonrpc: '2.0',
      id: 'a',
      method: 'tools/call',
      params: { name: 'gate', arguments: { label: 'a' } },
    });
    conversation.send({
      jsonrpc: '2.0',
      id: 'b',
      method: 'tools/call',
      params: { name: 'gate', arguments: { label: 'b' } },
    });
    expect((await conversation.request('ping')).result).to.deep.equal({});
    expect((await conversation.request('tools/list')).result.tools.length).to.equal(6);
    expect((await conversation.modern('server/discover')).result.supportedVersions).to.include(
      '2026-07-28',
    );
    expect(log).to.deep.equal(['start a']);
    release();
    await conversation.waitFor((frame) => frame.id === 'b');
    expect(log).to.deep.equal(['start a', 'end a', 'start b', 'end b']);
  });

  it('releases the queue when a cancelled tool never settles', async () => {
    conversation.server.register({
      name: 'stuck',
      inputSchema: { type: 'object' },
      run: () => new Promise(() => {}),
    });
    conversation.send({ jsonrpc: '2.0', id: 's', method: 'tools/call', params: { name: 'stuck' } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    conversation.cancel('s');
    const next = await conversation.request('tools/call', {
      name: 'echo',
      arguments: { text: 'free' },
    });
    expect(next.result.content[0].text).to.equal('free');
    expect(conversation.frames.some((frame) => frame.id === 's')).to.equal(false);
  });

  it('reports malformed and non-serializable results as isError', async () => {
    const cyclic = {};
    cyclic.self = cyclic;
    const tools = {
      nothing: () => undefined,
      number: () => 42,
      textless: () => ({ isError: false }),
      cyclic: () => ({ text: 'x', structuredContent: cyclic }),
      rejects: () => Promise.reject(new Error('rejected on purpose')),
      throwsString: () => {
        throw 'a string';
      },
    };
    for (const [name, run] of Object.entries(tools)) {
      conversation.server.register({ name, inputSchema: { type: 'object' }, run });
    }
    for (const name of Object.keys(tools)) {
      const reply = await conversation.request('tools/call', { name });
      expect(reply.result?.isError, name).to.equal(true);
    }
  });

  it('answers an isError result saying why when structured content violates the outputSchema', async () => {
    conversation.server.register({
      name: 'liar',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      run: () => ({ text: 'x', structuredContent: { n: 'not a number' } }),
    });
    const reply = await conversation.request('tools/call', { name: 'liar' });
    expect(reply.result.isError).to.equal(true);
    expect(reply.result).to.not.have.property('structuredContent');
    expect(reply.result.content[0].text)
      .to.include('liar')
      .and.match(/\/n: must be integer/);
  });

  it('answers an isError result when a tool with an outputSchema returns no structuredContent', async () => {
    conversation.server.register({
      name: 'forgetful',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
      run: () => ({ text: 'no structured content' }),
    });
    const reply = await conversation.request('tools/call', { name: 'forgetful' });
    expect(reply.result.isError).to.equal(true);
    expect(reply.result.content[0].text).to.match(/forgetful.*no structuredContent/);
    // A failure may leave structuredContent out: the schema describes successes.
    conversation.server.register({
      name: 'honest_failure',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
      run: () => ({ text: 'it failed', isError: true }),
    });
    const failed = await conversation.request('tools/call', { name: 'honest_failure' });
    expect(failed.result.content[0].text).to.equal('it failed');
  });

  it('throws at register, naming the tool, for a schema that does not compile or an unresolvable $ref', () => {
    const bad = {
      broken_schema: { type: 'object', properties: 5 },
      dangling_ref: { type: 'object', properties: { n: { $ref: '#/$defs/missing' } } },
    };
    for (const [name, inputSchema] of Object.entries(bad)) {
      expect(() =>
        conversation.server.register({ name, inputSchema, run: () => ({ text: 'never' }) }),
      )
        .to.throw(new RegExp(`Tool "${name}" inputSchema is not a valid JSON Schema`))
        .with.property('code', 'EINVALID_SCHEMA');
    }
    expect(() =>
      conversation.server.register({
        name: 'bad_output',
        inputSchema: { type: 'object' },
        outputSchema: { $ref: 'https://example.com/remote.json' },
        run: () => ({ text: 'never' }),
      }),
    ).to.throw(/Tool "bad_output" outputSchema is not a valid JSON Schema/);
  });

  it('keeps the tools it had when a registration throws', async () => {
    expect(() =>
      conversation.server.register({
        name: 'echo',
        inputSchema: { type: 'object', properties: { n: { $ref: '#/nowhere' } } },
        run: () => ({ text: 'never' }),
      }),
    ).to.throw(/echo/);
    const reply = await conversation.request('tools/call', {
      name: 'echo',
      arguments: { text: 'ok' },
    });
    expect(reply.result.content[0].text).to.equal('ok');
  });

  it('replaces a tool by unregister then register, listing it once', async () => {
    conversation.server.unregister('echo');
    conversation.server.register({
      name: 'echo',
      inputSchema: { type: 'object' },
      run: () => ({ text: 'replaced' }),
    });
    const reply = await conversation.request('tools/call', {
      name: 'echo',
      arguments: { text: 'x' },
    });
    expect(reply.result.content[0].text).to.equal('replaced');
    expect(
      (await conversation.request('tools/list')).result.tools.filter(
        (tool) => tool.name === 'echo',
      ),
    ).to.have.length(1);
  });

  it('validates draft-07 and 2020-12 input schemas', async () => {
    conversation.server.register({
      name: 'draft7',
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { n: { type: 'integer', exclusiveMinimum: 0 } },
        required: ['n'],
        definitions: { unused: { type: 'string' } },
      },
      run: ({ n }) => ({ text: String(n) }),
    });
    conversation.server.register({
      name: 'modern_schema',
      inputSchema: {
        type: 'object',
        $defs: { positive: { type: 'integer', minimum: 1 } },
        properties: { n: { $ref: '#/$defs/positive' } },
        dependentRequired: { n: [] },
        required: ['n'],
      },
      run: ({ n }) => ({ text: String(n) }),
    });
    for (const name of ['draft7', 'modern_schema']) {
      expect(
        (await conversation.request('tools/call', { name, arguments: { n: 2 } })).result.isError,
      ).to.equal(false);
      expect(
        (await conversation.request('tools/call', { name, arguments: { n: 0 } })).result.isError,
      ).to.equal(true);
    }
  });

  it('serves unexpected inputResponses/requestState normally (case 58)', async () => {
    const reply = await conversation.request('tools/call', {
      name: 'echo',
      arguments: { text: 'ok' },
      inputResponses: { x: {} },
      requestState: 'opaque',
      _meta: modernMeta(),
    });
    expect(reply.result.content[0].text).to.equal('ok');
    expect(reply.result.resultType).to.equal('complete');
  });
});

describe('queued tool calls (maxQueuedCalls)', () => {
  it('answers a call beyond the bound at once with a busy isError result, in both eras', async () => {
    const conversation = new Conversation({ maxQueuedCalls: 2 });
    try {
      await conversation.initialize('2025-11-25');
      const running = conversation.request('tools/call', { name: 'slow', arguments: { ms: 300 } });
      const queued = [1, 2].map((n) =>
        conversation.request('tools/call', { name: 'echo', arguments: { text: `q${n}` } }),
      );
      const legacy = await conversation.request('tools/call', {
        name: 'echo',
        arguments: { text: 'over' },
      });
      const modern = await conversation.request('tools/call', {
        name: 'echo',
        arguments: { text: 'over' },
        _meta: modernMeta(),
      });
      for (const busy of [legacy, modern]) {
        expect(busy.result.isError).to.equal(true);
        expect(busy.result.content[0].text).to.match(
          /^Server busy: 2 tool calls are already queued behind the running one \(the limit is 2\)/,
        );
      }
      expect(modern.result.resultType).to.equal('complete');
      // The queued calls still run, after the slow one; then there is room again.
      expect((await running).result.content[0].text).to.equal('waited 300 ms');
      expect(
        (await Promise.all(queued)).map((reply) => reply.result.content[0].text),
      ).to.deep.equal(['q1', 'q2']);
      const after = await conversation.request('tools/call', {
        name: 'echo',
        arguments: { text: 'room' },
      });
      expect(after.result.content[0].text).to.equal('room');
      expect(conversation.violations).to.deep.equal([]);
    } finally {
      await conversation.end();
    }
  });

  it('with a bound of 0 runs a call when idle and refuses one while a call runs', async () => {
    const conversation = new Conversation({ maxQueuedCalls: 0 });
    try {
      await conversation.initialize('2025-11-25');
      const echo = (text) =>
        conversation.request('tools/call', { name: 'echo', arguments: { text } });
      expect((await echo('idle')).result.content[0].text).to.equal('idle');
      const running = conversation.request('tools/call', { name: 'slow', arguments: { ms: 100 } });
      expect((await echo('refused')).result.content[0].text).to.match(
        /^Server busy: 0 tool calls are already queued .*\(the limit is 0\)/,
      );
      expect((await running).result.content[0].text).to.equal('waited 100 ms');
      expect((await echo('after')).result.content[0].text).to.equal('after');
    } finally {
      await conversation.end();
    }
  });

  it('refuses a bound that is not a non-negative integer', () => {
    for (const maxQueuedCalls of [-1, 1.5, Number.NaN, '4']) {
      expect(() => new McpServer({ name: 's', version: '1', maxQueuedCalls })).to.throw(
        TypeError,
        /maxQueuedCalls must be a non-negative integer/,
      );
    }
  });
});

describe('tool registry', () => {
  const base = { inputSchema: { type: 'object' }, run: () => ({ text: '' }) };
  const expectCode = (fn, code) => {
    try {
      fn();
    } catch (error) {
      expect(error).to.have.property('code', code);
      return;
    }
    expect.fail(`expected an error with code ${code}`);
  };

  it('rejects invalid tool names', () => {
    const server = new McpServer({ name: 's', version: '1' });
    for (const name of ['', 'has space', 'a/b', 'x'.repeat(129), 'émoji']) {
      expectCode(() => server.register({ ...base, name }), 'EINVALID_TOOL_NAME');
    }
    server.register({ ...base, name: 'A-z_0.9' });
    server.register({ ...base, name: 'x'.repeat(128) });
  });

  it('rejects input schemas without an object root and unknown dialects', () => {
    const server = new McpServer({ name: 's', version: '1' });
    expectCode(
      () => server.register({ ...base, name: 't', inputSchema: { type: 'string' } }),
      'EINVALID_SCHEMA',
    );
    expectCode(
      () =>
        server.register({
          ...base,
          name: 't',
          inputSchema: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' },
        }),
      'EUNSUPPORTED_SCHEMA_DIALECT',
    );
  });

  it('wraps every tool run in the dispatch wrapper', async () => {
    const seen = [];
    const transport = new ReplayTransport();
    const server = new McpServer({
      name: 's',
      version: '1',
      tools: [{ ...base, name: 't', run: () => ({ text: 'own text' }) }],
      dispatch: async (run, call) => {
        seen.push(call.toolName);
        const result = await run();
        return { ...result, text: `${result.text}\n[wrapped]` };
      },
    });
    const served = server.serve(transport);
    transport.send(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
    );
    transport.send('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}');
    await transport.next();
    const reply = await transport.next();
    expect(reply.result.content[0].text).to.equal('own text\n[wrapped]');
    expect(seen).to.deep.equal(['t']);
    transport.end();
    await served;
  });
});

describe('tools that need no capture (capture: false)', () => {
  /** A capture: false tool that runs until `release()`; `running` counts runs in progress. */
  function gatedTools(state) {
    return [
      {
        name: 'held',
        inputSchema: { type: 'object' },
        capture: false,
        run: () => {
          state.running += 1;
          state.most = Math.max(state.most, state.running);
          return new Promise((resolve) =>
            state.releases.push(() => {
              state.running -= 1;
              resolve({ text: 'held done' });
            }),
          );
        },
      },
      {
        name: 'quick',
        inputSchema: { type: 'object' },
        capture: false,
        run: () => ({ text: 'q' }),
      },
      { name: 'captured', inputSchema: { type: 'object' }, run: () => ({ text: 'c' }) },
    ];
  }

  it('answers a quick call while a slow one runs, outside the dispatch wrapper; captured calls still go through it', async () => {
    const state = { running: 0, most: 0, releases: [] };
    const wrapped = [];
    const conversation = new Conversation({
      tools: gatedTools(state),
      dispatch: (run, call) => {
        wrapped.push(call.toolName);
        return run();
      },
    });
    await conversation.initialize();
    conversation.send({
      jsonrpc: '2.0',
      id: 'slow',
      method: 'tools/call',
      params: { name: 'held' },
    });
    // Serialized, the quick call would wait for the held one, which waits for this answer.
    const quick = await conversation.request('tools/call', { name: 'quick' });
    expect(quick.result.content[0].text).to.equal('q');
    expect(conversation.frames.some((frame) => frame.id === 'slow')).to.equal(false);
    state.releases.shift()();
    await conversation.waitFor((frame) => frame.id === 'slow');
    await conversation.request('tools/call', { name: 'captured' });
    expect(wrapped).to.deep.equal(['captured']);
    await conversation.end();
    expect(conversation.violations).to.deep.equal([]);
  });

  it('runs at most maxConcurrentCalls at once; the rest wait their turn, in order', async () => {
    const state = { running: 0, most: 0, releases: [] };
    const conversation = new Conversation({ tools: gatedTools(state), maxConcurrentCalls: 2 });
    await conversation.initialize();
    for (const id of ['a', 'b', 'c']) {
      conversation.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'held' } });
    }
    await conversation.settle(30);
    expect(state.running).to.equal(2);
    state.releases.shift()(); // a ends: c starts
    await conversation.waitFor((frame) => frame.id === 'a');
    await conversation.settle(30);
    expect(state.running).to.equal(2);
    while (state.releases.length > 0) state.releases.shift()();
    await conversation.waitFor((frame) => frame.id === 'c');
    expect(state.most).to.equal(2);
    expect(() => new McpServer({ name: 's', version: '1', maxConcurrentCalls: 0 })).to.throw(
      /maxConcurrentCalls must be a positive integer/,
    );
    await conversation.end();
  });
});

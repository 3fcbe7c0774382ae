// Tool schemas are checked at register() without ajv (which is loaded on first use, to
// keep cold start fast): a bad schema throws naming the tool; a good one of either
// dialect, with every kind of local $ref, registers and validates.
import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { McpServer } from '../dist/index.js';
import { Conversation } from './helpers/conversation.mjs';

const run = () => ({ text: 'ok' });

describe('schema checks at registration', () => {
  const bad = {
    'properties is not an object': [
      { type: 'object', properties: 5 },
      /\/properties must be an object of schemas/,
    ],
    'a subschema is a number': [
      { type: 'object', properties: { a: 3 } },
      /\/properties\/a must be a schema/,
    ],
    'an unknown type': [
      { type: 'object', properties: { a: { type: 'strin' } } },
      /"strin" is not a JSON Schema type/,
    ],
    'required is a string': [{ type: 'object', required: 'a' }, /\/required must be an array/],
    'a bad pattern': [
      { type: 'object', properties: { a: { type: 'string', pattern: '(' } } },
      /\/properties\/a\/pattern is not a valid regular expression/,
    ],
    'a bad patternProperties key': [
      { type: 'object', patternProperties: { '[': {} } },
      /patternProperties key "\[" is not a valid regular expression/,
    ],
    'a minimum that is a string': [
      { type: 'object', properties: { n: { minimum: '5' } } },
      /\/properties\/n\/minimum must be a number/,
    ],
    'a dangling pointer': [
      { type: 'object', properties: { n: { $ref: '#/$defs/missing' } } },
      /"#\/\$defs\/missing" does not resolve inside the schema/,
    ],
    'an unknown anchor': [
      { type: 'object', properties: { n: { $ref: '#nowhere' } } },
      /"#nowhere" does not resolve/,
    ],
    'a remote ref': [
      { type: 'object', properties: { n: { $ref: 'https://example.com/s.json' } } },
      /remote \$refs are never fetched/,
    ],
    'anyOf is an object': [{ type: 'object', anyOf: {} }, /\/anyOf must be an array of schemas/],
  };
  for (const [what, [inputSchema, message]] of Object.entries(bad)) {
    it(`throws EINVALID_SCHEMA naming the tool: ${what}`, () => {
      const server = new McpServer({ name: 's', version: '1' });
      expect(() => server.register({ name: 'bad_tool', inputSchema, run }))
        .to.throw(/Tool "bad_tool" inputSchema is not a valid JSON Schema: /)
        .with.property('message')
        .that.matches(message);
    });
  }

  it('registers and validates schemas with local refs of every kind, in both dialects', async () => {
    const schemas = {
      pointer: {
        type: 'object',
        $defs: { 'a/b': { type: 'integer' }, 'c~d': { type: 'string' } },
        properties: { n: { $ref: '#/$defs/a~1b' }, s: { $ref: '#/$defs/c~0d' } },
      },
      anchor: {
        type: 'object',
        $defs: { positive: { $anchor: 'positive', type: 'integer', minimum: 1 } },
        properties: { n: { $ref: '#positive' } },
      },
      identified: {
        $id: 'https://example.com/tool.json',
        type: 'object',
        $defs: { count: { $id: 'https://example.com/count.json', type: 'integer' } },
        properties: {
          n: { $ref: 'https://example.com/count.json' },
          m: { $ref: 'tool.json#/$defs/count' },
        },
      },
      recursive: {
        type: 'object',
        properties: { n: { type: 'integer' }, child: { $ref: '#' } },
      },
      draft07: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        definitions: { count: { type: 'integer' } },
        properties: { n: { $ref: '#/definitions/count' }, list: { items: [{ type: 'integer' }] } },
        dependencies: { list: ['n'], m: { required: ['n'] } },
      },
    };
    const conversation = new Conversation({ tools: [] });
    await conversation.initialize();
    for (const [name, inputSchema] of Object.entries(schemas)) {
      if (name === 'identified') continue; // a relative $id base: see below
      conversation.server.register({ name, inputSchema, run });
      const good = await conversation.request('tools/call', { name, arguments: { n: 2 } });
      expect(good.result.isError, name).to.equal(false);
      const bad = await conversation.request('tools/call', { name, arguments: { n: 'x' } });
      expect(bad.result.isError, name).to.equal(true);
    }
    conversation.server.register({ name: 'identified', inputSchema: schemas.identified, run });
    const reply = await conversation.request('tools/call', {
      name: 'identified',
      arguments: { n: 'x' },
    });
    expect(reply.result.isError).to.equal(true);
    await conversation.end();
    expect(conversation.violations).to.deep.equal([]);
  });

  it('once ajv is loaded (after a first call), a schema only ajv refuses throws at register too', async () => {
    const conversation = new Conversation({ tools: [] });
    await conversation.initialize();
    expect(
      (await conversation.request('tools/call', { name: 'echo_missing' })).error.code,
    ).to.equal(-32602);
    conversation.server.register({ name: 'first', inputSchema: { type: 'object' }, run });
    await conversation.request('tools/call', { name: 'first' });
    expect(() =>
      conversation.server.register({
        name: 'odd',
        inputSchema: { type: 'object', uniqueItems: 'yes' },
        run,
      }),
    ).to.throw(/Tool "odd" inputSchema is not a valid JSON Schema: uniqueItems value must be/);
    await conversation.end();
  });

  it('a server that registers tools and lists them never loads ajv (cold start)', () => {
    const script = `
      import { createRequire } from 'node:module';
      const { McpServer } = await import(${JSON.stringify(new URL('../dist/index.js', import.meta.url).href)});
      const server = new McpServer({ name: 's', version: '1' });
      server.register({ name: 't', inputSchema: { type: 'object', properties: { n: { $ref: '#/$defs/n' } }, $defs: { n: { type: 'integer' } } }, run: () => ({ text: '' }) });
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => /[\\\\/]ajv[\\\\/]/.test(file));
      console.log(JSON.stringify(loaded.length));`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(result.stderr).to.equal('');
    expect(result.stdout.trim()).to.equal('0');
  });
});

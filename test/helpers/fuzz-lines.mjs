// Seeded malformed-input fuzzing for the server: arbitraries for hostile lines interleaved
// with valid requests, a materializer that gives valid requests unique ids of every JSON
// type, and the invariant checker shared by test/fuzz.test.mjs and scripts/fuzz-long.mjs.
import fc from 'fast-check';
import { frameViolations } from './schema.mjs';
import { ServerProcess } from './spawn-server.mjs';

export const DEFAULT_FUZZ_SEED = 20261130;
export const MODERN = '2026-07-28';
export const LEGACY_REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const PV = 'io.modelcontextprotocol/protocolVersion';
const META = { [PV]: MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
const MiB = 1024 * 1024;

/** The seed: FUZZ_SEED from the environment when set, else the fixed default. */
export function fuzzSeed(override) {
  const raw = override ?? process.env.FUZZ_SEED;
  if (raw === undefined || raw === '') return DEFAULT_FUZZ_SEED;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, got "${raw}"`);
  return seed;
}

// Valid requests use ids from a space the noise never uses, so that every answer in that
// space can be attributed: strings "ok:<n>:...", integers +-(5e9 + n), 22-digit integers.
const VALID_INT_BASE = 5_000_000_000;
const VALID_BIG = /^1\d{21}$/;
export const POISON_TEXT = 'MUST-NOT-RUN';

// ---------------------------------------------------------------------------- noise

const badInt = fc.integer({ min: -1_000_000, max: 1_000_000 });
const badIdLexeme = fc.oneof(
  badInt.map(String),
  fc.string({ maxLength: 12 }).map((tag) => JSON.stringify(`bad:${tag}`)),
  fc.constantFrom(
    '1.5',
    '-0.5',
    '0.1e1',
    '1e400',
    '-1e400',
    '1e21',
    '1E+300',
    '9007199254740993',
    '-9007199254740993',
    '18446744073709551616',
    '99999999999999999999999',
    '-0',
    '1.0',
    'true',
    'false',
    'null',
    '{}',
    '[]',
    '[1]',
    '{"id":1}',
    '""',
    '"0"',
  ),
);
const anyJson = fc.jsonValue({ maxDepth: 3 });
const toolName = fc.constantFrom(
  'echo',
  'fail',
  'nope',
  '',
  'ECHO',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
);
const methodName = fc.constantFrom(
  'ping',
  'tools/list',
  'tools/call',
  'initialize',
  'server/discover',
  'subscriptions/listen',
  'notifications/cancelled',
  'notifications/initialized',
  'notifications/progress',
  'resources/list',
  'logging/setLevel',
  'nope',
  '',
  '__proto__',
  'constructor',
  'toString',
);
const paramsLexeme = fc.oneof(
  anyJson.map((value) => JSON.stringify(value)),
  fc
    .record({ name: toolName, args: anyJson })
    .map(({ name, args }) => JSON.stringify({ name, arguments: args })),
  fc
    .record({ name: toolName, text: fc.string({ maxLength: 20 }) })
    .map(({ name, text }) => JSON.stringify({ name, arguments: { text }, _meta: META })),
  fc.constantFrom(
    'null',
    '"x"',
    '42',
    '[]',
    '{"cursor":"bogus"}',
    '{"cursor":null}',
    '{"_meta":null}',
    '{"_meta":{"io.modelcontextprotocol/protocolVersion":20260728}}',
    '{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}',
    '{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}',
    '{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"verbose"}}',
    '{"_meta":{"__proto__":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}',
    '{"__proto__":{"name":"echo","arguments":{"text":"polluted"}}}',
    '{"name":"echo","arguments":{"__proto__":{"text":"polluted"}}}',
    '{"name":"echo","arguments":{"text":"x","__proto__":{"polluted":true}}}',
    '{"name":"echo","arguments":{"constructor":{"prototype":{"polluted":true}}}}',
    '{"name":"echo","arguments":{"text":"x"},"_meta":{"progressToken":{"__proto__":1}}}',
    '{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"x","version":"1"}}',
    '{"protocolVersion":"2026-07-28","capabilities":{"__proto__":{"polluted":1}},"clientInfo":{"name":"x","version":"1"}}',
    '{"requestId":"bad:cancel"}',
    '{"requestId":1.5}',
    '{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}',
  ),
);

/** An object with a random subset of the JSON-RPC members, each of a right or wrong type. */
const wrongTypes = fc
  .record(
    {
      jsonrpc: fc.constantFrom('"2.0"', '"2.0"', '"1.0"', '2', '2.0', 'null', '"2.0 "'),
      id: badIdLexeme,
      method: fc.oneof(
        methodName.map((method) => JSON.stringify(method)),
        fc.constantFrom('5', 'null', '[]', '{}', 'true'),
      ),
      params: paramsLexeme,
      result: anyJson.map((value) => JSON.stringify(value)),
      extra: anyJson.map((value) => JSON.stringify(value)),
    },
    { requiredKeys: [] },
  )
  .map((members) => {
    const body = Object.entries(members).map(([key, lexeme]) => `"${key}":${lexeme}`);
    return `{${body.join(',')}}`;
  });

const truncated = fc
  .tuple(wrongTypes, fc.nat())
  .filter(([text]) => text.length > 2)
  .map(([text, cut]) => text.slice(0, 1 + (cut % (text.length - 1))));

const batch = fc.oneof(
  fc.array(wrongTypes, { maxLength: 5 }).map((items) => `[${items.join(',')}]`),
  fc.constantFrom('[]', '[1,2,3]', '[null]', '[[]]', '[{}]', '[{"jsonrpc":"2.0","method":"ping"}]'),
);

const nulls = fc.constantFrom(
  'null',
  '{"jsonrpc":"2.0","id":null,"method":"ping"}',
  `{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"echo","arguments":{"text":"${POISON_TEXT}"}}}`,
  `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":{"text":"${POISON_TEXT}"}}}`,
  `[{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":{"text":"${POISON_TEXT}"}}}]`,
  '{"jsonrpc":null,"id":null,"method":null,"params":null}',
  '{"jsonrpc":"2.0","id":"bad:n","method":"ping","params":null}',
  '{"jsonrpc":"2.0","id":"bad:n","method":"tools/call","params":{"name":null,"arguments":null}}',
  '\u0000',
  '{"jsonrpc":"2.0","id":"bad:\\u0000","method":"ping"}',
);

const depth = fc.constantFrom(10, 500, 5000, 100_000);
const deepNesting = fc.oneof(
  depth.map((d) => '['.repeat(d) + ']'.repeat(d)),
  depth.map((d) => '{"a":'.repeat(d) + '1' + '}'.repeat(d)),
  depth.map(
    (d) =>
      `{"jsonrpc":"2.0","params":{"name":"echo","arguments":${'['.repeat(d)}${']'.repeat(d)}},"id":9007199254740993,"method":"tools/call"}`,
  ),
  depth.map(
    (d) =>
      `{"jsonrpc":"2.0","id":"bad:deep","method":"tools/call","params":{"name":"echo","arguments":{"text":"x","deep":${'{"a":'.repeat(d)}1${'}'.repeat(d)}}}}`,
  ),
);

const prototypeKeys = fc.constantFrom(
  '{"__proto__":{"polluted":true},"jsonrpc":"2.0","id":"bad:p","method":"ping"}',
  '{"jsonrpc":"2.0","id":"bad:p","method":"__proto__","params":{}}',
  '{"jsonrpc":"2.0","id":"bad:p","method":"constructor","params":{"prototype":{"polluted":true}}}',
  '{"constructor":{"prototype":{"polluted":true}},"jsonrpc":"2.0","id":"bad:p","method":"tools/list"}',
  '{"jsonrpc":"2.0","id":"bad:p","method":"tools/call","params":{"__proto__":{"polluted":true},"name":"echo","arguments":{"text":"p"}}}',
  '[{"__proto__":{"polluted":true}},{"constructor":{"prototype":{"polluted":true}}}]',
  '{"jsonrpc":"2.0","id":"bad:p","method":"tools/call","params":{"name":"echo","arguments":{"text":"p","__proto__":{"text":"polluted"}}}}',
  '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"__proto__":{"requestId":"bad:p"}}}',
  '{"jsonrpc":"2.0","id":"bad:p","method":"initialize","params":{"__proto__":{"protocolVersion":"2025-11-25"}}}',
);

const invalidUtf8 = fc
  .tuple(
    fc.constantFrom(
      [0xc3],
      [0xff, 0xfe],
      [0xed, 0xa0, 0x80],
      [0xc0, 0xaf],
      [0xf4, 0x90, 0x80, 0x80],
      [0xe2, 0x82],
      [0x80],
    ),
    fc.constantFrom('{"jsonrpc":"2.0","id":"bad:u', '{"jsonrpc":"2.0","id":1,"method":"pi', ''),
    fc.constantFrom('","method":"ping"}', 'ng"}', ''),
  )
  .map(([bytes, head, tail]) =>
    Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(tail)]),
  );

const randomBytes = fc.uint8Array({ maxLength: 120 }).map((bytes) => Buffer.from(bytes));
const randomText = fc.string({ unit: 'binary', maxLength: 80 });
const whitespace = fc.constantFrom('', ' ', '\t', '\r', ' \r', '\u00a0', '\ufeff{}');
const cancelNoise = fc
  .oneof(badIdLexeme, fc.constantFrom('null', '"x"'))
  .map(
    (id) =>
      `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${id},"reason":"noise"}}`,
  );
const responseNoise = badIdLexeme.map((id) => `{"jsonrpc":"2.0","id":${id},"result":{}}`);
const oversize = fc.integer({ min: 1, max: 256 * 1024 }).map((extra) => ({
  oversize: 4 * MiB + extra,
}));

/** One hostile line: a string, raw bytes (Buffer), or `{oversize: bytes}`. */
export function noiseArbitrary({ oversizeWeight = 1 } = {}) {
  return fc.oneof(
    { weight: 10, arbitrary: randomBytes },
    { weight: 6, arbitrary: invalidUtf8 },
    { weight: 6, arbitrary: randomText },
    { weight: 14, arbitrary: truncated },
    { weight: 30, arbitrary: wrongTypes },
    { weight: 6, arbitrary: batch },
    { weight: 5, arbitrary: nulls },
    { weight: 3, arbitrary: deepNesting },
    { weight: 5, arbitrary: prototypeKeys },
    { weight: 4, arbitrary: cancelNoise },
    { weight: 3, arbitrary: responseNoise },
    { weight: 3, arbitrary: whitespace },
    { weight: oversizeWeight, arbitrary: oversize },
  );
}

// ---------------------------------------------------------------------------- valid

const validRequest = fc.record({
  idType: fc.constantFrom('int', 'negint', 'string', 'big'),
  tag: fc.string({ unit: 'grapheme', maxLength: 6 }),
  modern: fc.boolean(),
  kind: fc.constantFrom('ping', 'list', 'echo', 'echo', 'echo', 'fail', 'discover'),
  text: fc.string({ unit: 'binary', maxLength: 40 }),
});

/** A session's script: noise interleaved with valid requests (about one in four). */
export function stepsArbitrary({ minLength = 150, maxLength = 350, oversizeWeight = 1 } = {}) {
  return fc.array(
    fc.oneof(
      { weight: 1, arbitrary: validRequest.map((valid) => ({ valid })) },
      { weight: 3, arbitrary: noiseArbitrary({ oversizeWeight }).map((noise) => ({ noise })) },
    ),
    { minLength, maxLength },
  );
}

export const revisionArbitrary = fc.constantFrom(...LEGACY_REVISIONS);

/**
 * Turns steps into wire lines and the answers expected for valid requests. The session
 * opens with `initialize` at `revision`; it closes with probes that would fail if any
 * noise had polluted Object.prototype ("text", "cursor", "isError").
 */
export function materialize(steps, revision) {
  const lines = [];
  const expected = new Map();
  let counter = 0;
  const addValid = (valid) => {
    const n = ++counter;
    let idLexeme;
    if (valid.idType === 'int') idLexeme = String(VALID_INT_BASE + n);
    else if (valid.idType === 'negint') idLexeme = String(-(VALID_INT_BASE + n));
    else if (valid.idType === 'big') idLexeme = `1${String(n).padStart(21, '0')}`;
    else idLexeme = JSON.stringify(`ok:${n}:${valid.tag}`);
    const { kind } = valid;
    const modern = kind === 'discover' || (valid.modern && kind !== 'ping');
    let method;
    let params;
    if (kind === 'ping') method = 'ping';
    else if (kind === 'list') method = 'tools/list';
    else if (kind === 'discover') method = 'server/discover';
    else {
      method = 'tools/call';
      params =
        kind === 'echo'
          ? { name: 'echo', arguments: valid.text === undefined ? {} : { text: valid.text } }
          : { name: kind, arguments: {} };
    }
    if (modern) params = { ...params, _meta: META };
    const paramsText = params === undefined ? '' : `,"params":${JSON.stringify(params)}`;
    lines.push(`{"jsonrpc":"2.0","id":${idLexeme},"method":"${method}"${paramsText}}`);
    const expectation = { kind, method, modern, text: valid.text };
    expected.set(idLexeme, expectation);
    return expectation;
  };

  lines.push(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 'ok:0:init',
      method: 'initialize',
      params: {
        protocolVersion: revision,
        capabilities: {},
        clientInfo: { name: 'fuzz', version: '1' },
      },
    }),
  );
  expected.set('"ok:0:init"', { kind: 'initialize', method: 'initialize', revision });
  lines.push('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  for (const step of steps) {
    if (step.valid) addValid(step.valid);
    else lines.push(step.noise);
  }
  for (const modern of [false, true]) {
    addValid({ idType: 'string', tag: 'probe', modern, kind: 'echo' }).kind = 'echo-missing-text';
    addValid({ idType: 'int', modern, kind: 'list' });
    addValid({ idType: 'big', modern, kind: 'fail' });
    addValid({ idType: 'negint', modern, kind: 'echo', text: 'final' });
  }
  addValid({ idType: 'string', tag: 'ping', modern: false, kind: 'ping' });
  // Tool runs are serialized: once this last call is answered, every earlier one is too.
  addValid({ idType: 'string', tag: 'last', modern: false, kind: 'echo', text: 'last' });
  const lastId = `ok:${counter}:last`;
  return { lines, expected, lastId };
}

/** Decodes a line the way the stdio transport does, for the replay double. */
export function replayTexts(line) {
  const text = Buffer.isBuffer(line) ? new TextDecoder().decode(line) : line;
  return text.split('\n').map((piece) => (piece.endsWith('\r') ? piece.slice(0, -1) : piece));
}

/** The bytes a line puts on stdin, newline included. */
export function wireBytes(line) {
  if (typeof line === 'string') return Buffer.from(line + '\n', 'utf8');
  if (Buffer.isBuffer(line)) return Buffer.concat([line, Buffer.from('\n')]);
  const body = Buffer.alloc(line.oversize, 'a');
  body[0] = 0x7b; // "{": not that it matters, the line is never parsed
  return Buffer.concat([body, Buffer.from('\n')]);
}

/** The key of a response's id in the valid space, or undefined when it is noise. */
function validIdKey(frame, line) {
  const { id } = frame;
  if (typeof id === 'string') return id.startsWith('ok:') ? JSON.stringify(id) : undefined;
  if (typeof id !== 'number') return undefined;
  if (Number.isSafeInteger(id)) {
    const size = Math.abs(id);
    return size > VALID_INT_BASE && size < VALID_INT_BASE + 1e9 ? String(id) : undefined;
  }
  const lexeme = /"id":(-?[0-9][0-9.eE+-]*)[,}]/.exec(line)?.[1];
  // A valid big id echoed with any other lexeme (rounded) is left unattributed here and
  // then reported as unanswered.
  return lexeme !== undefined && VALID_BIG.test(lexeme) ? lexeme : undefined;
}

const TOOL_NAMES = ['echo', 'fail'];

function checkAnswer(expectation, frame, toolNames) {
  const { kind, modern } = expectation;
  if (!frame.result) return `expected a result, got ${JSON.stringify(frame).slice(0, 300)}`;
  const result = frame.result;
  if (modern && result.resultType !== 'complete') return 'modern result without resultType';
  if (!modern && 'resultType' in result) return 'legacy result with resultType';
  const text = () => (result.content ?? []).map((block) => block.text).join('');
  switch (kind) {
    case 'initialize':
      return result.protocolVersion === expectation.revision ? null : 'wrong protocolVersion';
    case 'ping':
      return Object.keys(result).length === 0 ? null : 'ping result not {}';
    case 'list': {
      const names = (result.tools ?? []).map((tool) => tool.name);
      if (JSON.stringify(names) !== JSON.stringify(toolNames)) return `tools ${names}`;
      if ('nextCursor' in result) return 'unexpected nextCursor';
      return modern && typeof result.ttlMs !== 'number' ? 'modern list without ttlMs' : null;
    }
    case 'discover':
      return result.supportedVersions?.includes(MODERN) ? null : 'discover without 2026-07-28';
    case 'echo':
      if (result.isError) return `echo failed: ${text()}`;
      return text() === expectation.text ? null : `echo returned ${JSON.stringify(text())}`;
    case 'echo-missing-text':
      return result.isError === true ? null : 'echo without text did not fail';
    case 'fail':
      return result.isError === true ? null : 'fail did not fail';
    default:
      return `unknown expectation ${kind}`;
  }
}

/**
 * Checks every output line against the invariants. Returns a list of problems (empty
 * when all hold). `toolNames` is the expected sorted tool list.
 */
export function checkOutput(outputLines, expected, revision, toolNames = TOOL_NAMES) {
  const problems = [];
  const answers = new Map();
  for (const line of outputLines) {
    let frame;
    try {
      frame = JSON.parse(line);
    } catch {
      problems.push(`stdout line is not JSON: ${line.slice(0, 200)}`);
      continue;
    }
    if (Array.isArray(frame)) {
      // id null is JSON-RPC-correct for an element whose id could not be read (PROTOCOL.md
      // 1.5); no MCP schema admits it, so it is checked with the id replaced, as for lines.
      const comparable = frame.map((item) =>
        item?.id === null && 'error' in item ? { ...item, id: 0 } : item,
      );
      const violations = frameViolations(comparable, revision);
      if (violations.length) problems.push(...violations);
      for (const item of frame) {
        if (item && validIdKey(item, JSON.stringify(item)) !== undefined) {
          problems.push(`a valid request was answered inside a batch: ${JSON.stringify(item)}`);
        }
      }
      continue;
    }
    if (frame === null || typeof frame !== 'object') {
      problems.push(`stdout line is not a JSON-RPC object: ${line.slice(0, 200)}`);
      continue;
    }
    const key = 'method' in frame ? undefined : validIdKey(frame, line);
    const expectation = key === undefined ? undefined : expected.get(key);
    if (key !== undefined && !expectation) {
      problems.push(`answer to an id never sent as a valid request: ${line.slice(0, 200)}`);
      continue;
    }
    if (expectation) {
      const frameRevision = expectation.modern ? MODERN : revision;
      problems.push(...frameViolations(frame, frameRevision, expectation.method));
      answers.set(key, (answers.get(key) ?? 0) + 1);
      const problem = checkAnswer(expectation, frame, toolNames);
      if (problem) problems.push(`${key}: ${problem}`);
      if (typeof frame.id !== (key.startsWith('"') ? 'string' : 'number')) {
        problems.push(`${key}: id type changed to ${typeof frame.id}`);
      }
      if (!line.includes(`"id":${key}`)) problems.push(`${key}: id not echoed verbatim`);
      continue;
    }
    // Noise: any frame is fine as long as it is valid for the session or the modern era.
    const candidates = [revision, MODERN, '2025-11-25'];
    const verdicts = candidates.map((candidate) => frameViolations(frame, candidate));
    if (verdicts.every((violations) => violations.length > 0)) problems.push(...verdicts[0]);
    if ('result' in frame && 'error' in frame) problems.push('frame with result and error');
  }
  for (const [key] of expected) {
    const count = answers.get(key) ?? 0;
    if (count !== 1) problems.push(`${key}: answered ${count} times, expected exactly once`);
  }
  return problems;
}

/** Own property names of the built-in prototypes, to detect pollution. */
export function prototypeSnapshot() {
  return JSON.stringify(
    [Object.prototype, Array.prototype, Function.prototype].map((proto) =>
      Object.getOwnPropertyNames(proto).sort(),
    ),
  );
}

/** Tools with the example server's contracts, counting runs of the poison text. */
export function fuzzTools(runs) {
  return [
    {
      name: 'echo',
      description: 'Returns the text it is given.',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
        additionalProperties: false,
      },
      run: ({ text }) => {
        if (text === POISON_TEXT) runs.poisoned++;
        return { text };
      },
    },
    {
      name: 'fail',
      description: 'Always fails.',
      inputSchema: { type: 'object', additionalProperties: false },
      run: () => ({ text: 'fail: this tool failed on purpose', isError: true }),
    },
  ];
}

/**
 * Plays one session through McpServer + ReplayTransport (no process) and returns the
 * problems found. `core` is the compiled package ({McpServer, ReplayTransport}).
 */
export async function runReplaySession(core, steps, revision) {
  const { lines, expected, lastId } = materialize(steps, revision);
  const before = prototypeSnapshot();
  const runs = { poisoned: 0 };
  const transport = new core.ReplayTransport();
  const server = new core.McpServer({ name: 'fuzz', version: '1.0.0', tools: fuzzTools(runs) });
  let serveError;
  const served = server.serve(transport).catch((error) => (serveError = error));
  let sent = 0;
  for (const line of lines) {
    if (typeof line === 'object' && !Buffer.isBuffer(line)) transport.sendOversize(line.oversize);
    else for (const text of replayTexts(line)) transport.send(text);
    sent++;
  }
  const problems = [];
  const last = `"id":${JSON.stringify(lastId)}`;
  const deadline = Date.now() + 10000;
  while (!transport.written.some((line) => line.includes(last))) {
    if (Date.now() > deadline) {
      problems.push(`the last request was not answered within 10 s (${lastId})`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await new Promise((resolve) => setTimeout(resolve, 5));
  transport.end();
  await served;
  if (serveError) problems.push(`serve() rejected: ${serveError?.stack ?? serveError}`);
  problems.push(...checkOutput(transport.written, expected, revision));
  if (runs.poisoned > 0)
    problems.push(`a tools/call without a usable id ran ${runs.poisoned} times`);
  if (prototypeSnapshot() !== before) problems.push('a built-in prototype gained properties');
  if ({}.polluted !== undefined || {}.text !== undefined)
    problems.push('Object.prototype polluted');
  return { problems, lines: sent };
}

const EXAMPLE_TOOLS = ['echo', 'fail', 'noisy', 'slow'];

/**
 * Plays one session into a real example-server process over stdio: every line written,
 * the last answer awaited, then EOF. Returns the problems found (exit status included).
 */
export async function runProcessSession(steps, revision) {
  const { lines, expected, lastId } = materialize(steps, revision);
  const server = new ServerProcess();
  try {
    let chunk = [];
    let size = 0;
    for (const line of lines) {
      const bytes = wireBytes(line);
      chunk.push(bytes);
      size += bytes.length;
      if (size > 64 * 1024) {
        await server.write(Buffer.concat(chunk));
        chunk = [];
        size = 0;
      }
    }
    await server.write(Buffer.concat(chunk));
    const problems = [];
    try {
      await server.response(lastId, 30000);
    } catch (error) {
      problems.push(error.message);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    server.child.stdin.end();
    const exit = await server.exitWithin(5000).catch((error) => ({ error: error.message }));
    if (exit.code !== 0)
      problems.push(`the server did not exit 0 after EOF: ${JSON.stringify(exit)}`);
    if (server.stdoutBytes.length > 0) problems.push('stdout ended with an unterminated line');
    problems.push(...checkOutput(server.lines, expected, revision, EXAMPLE_TOOLS));
    if (/^\s+at .+:\d+/m.test(server.stderr))
      problems.push(`stack trace on stderr:\n${server.stderr}`);
    return { problems, lines: lines.length };
  } finally {
    server.kill();
  }
}

/**
 * The replay-double property: one seeded session per run, failing with the problems
 * found. `onLines` receives each session's line count.
 */
export function replayProperty(core, onLines = () => {}) {
  return fc.asyncProperty(stepsArbitrary(), revisionArbitrary, async (steps, revision) => {
    const outcome = await runReplaySession(core, steps, revision);
    onLines(outcome.lines);
    if (outcome.problems.length > 0) {
      throw new Error(`revision ${revision}:\n${outcome.problems.slice(0, 20).join('\n')}`);
    }
  });
}

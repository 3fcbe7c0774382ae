// Method-level fuzzing for the server: every method with garbage params in both eras, and
// seeded interleavings of tool calls with cancellations. Shared by test/fuzz-methods.test.mjs
// and scripts/fuzz-long.mjs (--method-runs). Lines are built as JSON text, not objects,
// so that "__proto__" keys reach the server as own members and big ids keep their lexeme.
import fc from 'fast-check';
import { findNumberLexeme } from '../../dist/protocol/request-id.js';
import { Conversation, PV, testTools } from './conversation.mjs';
import { LEGACY_REVISIONS, prototypeSnapshot } from './fuzz-lines.mjs';

const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const INFO = 'io.modelcontextprotocol/clientInfo';
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';
export const ALLOWED_ERROR_CODES = new Set([-32700, -32600, -32601, -32602, -32603, -32022]);
const SERVER_NOTIFICATIONS = new Set([
  'notifications/progress',
  'notifications/subscriptions/acknowledged',
]);
/** Keys whose appearance on `{}` would mean some input was merged into Object.prototype. */
const POLLUTION_PROBES = ['polluted', 'text', 'name', 'arguments', 'ms', 'requestId', '_meta'];

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ------------------------------------------------------------------- JSON text building

const member = (key, lexeme) => `${JSON.stringify(key)}:${lexeme}`;
const object = (entries) => `{${entries.map(([key, lexeme]) => member(key, lexeme)).join(',')}}`;

const KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'polluted',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'name',
  'arguments',
  'text',
  'ms',
  '_meta',
  'cursor',
  'requestId',
  'reason',
  'protocolVersion',
  'capabilities',
  'clientInfo',
  'notifications',
  'level',
  'progressToken',
  'id',
  'method',
  PV,
  CAPS,
];

const numberLexeme = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
  fc.constantFrom(
    '-0',
    '1e400',
    '-1e400',
    '9007199254740993',
    '-9007199254740993',
    '1.0',
    '0.5',
    '1e21',
    '1E-7',
    '123456789012345678901234567890',
  ),
);
const stringLexeme = fc
  .oneof(
    fc.string({ unit: 'binary', maxLength: 16 }),
    fc.constantFrom(...KEYS, '2026-07-28', '2025-11-25', '1900-01-01', 'echo', 'slow', 'info'),
  )
  .map((text) => JSON.stringify(text));
const keyArbitrary = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...KEYS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);

/** Any JSON value, as text, with prototype-ish keys, odd numbers and nesting up to 4. */
export const garbageLexeme = fc.letrec((tie) => ({
  node: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'garbage' },
    tie('leaf'),
    tie('array'),
    tie('object'),
  ),
  leaf: fc.oneof(numberLexeme, stringLexeme, fc.constantFrom('null', 'true', 'false')),
  array: fc
    .array(tie('node'), { maxLength: 4, depthIdentifier: 'garbage' })
    .map((items) => `[${items.join(',')}]`),
  object: fc
    .array(fc.tuple(keyArbitrary, tie('node')), { maxLength: 5, depthIdentifier: 'garbage' })
    .map(object),
})).node;

const garbageObject = fc.array(fc.tuple(keyArbitrary, garbageLexeme), { maxLength: 5 }).map(object);

/** A value nested `depth` arrays or objects deep (30,000 exceeds a recursive scanner's stack). */
const deepLexeme = fc
  .tuple(fc.constantFrom(64, 1000, 30000), fc.boolean(), garbageLexeme)
  .map(([depth, arrays, inner]) =>
    arrays
      ? '['.repeat(depth) + inner + ']'.repeat(depth)
      : '{"a":'.repeat(depth) + inner + '}'.repeat(depth),
  );

// --------------------------------------------------------------------------- params

const VALID_META = [
  [PV, '"2026-07-28"'],
  [CAPS, '{}'],
];
const BROKEN_META = [
  object([[PV, '20260728']]),
  object([
    [PV, '"1900-01-01"'],
    [CAPS, '{}'],
  ]),
  object([
    [PV, '"2025-11-25"'],
    [CAPS, '{}'],
  ]),
  object([[PV, '"2026-07-28"']]),
  object([
    [PV, '"2026-07-28"'],
    [CAPS, '"x"'],
  ]),
  object([...VALID_META, [INFO, '"x"']]),
  object([...VALID_META, [INFO, '{"name":1,"version":"1"}']]),
  object([...VALID_META, [LOG_LEVEL, '"verbose"']]),
  object([...VALID_META, ['progressToken', '1.5']]),
  object([...VALID_META, ['progressToken', '{}']]),
  object([[PV, 'null']]),
  object([['__proto__', object(VALID_META)]]),
  object([['__proto__', '{"polluted":true}'], ...VALID_META.slice(0, 1)]),
  'null',
  '[]',
  '"2026-07-28"',
];

/** `_meta`: absent, a valid modern envelope (with optional extras), a broken one, or garbage. */
const metaLexeme = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.constant(object(VALID_META)) },
  {
    weight: 2,
    arbitrary: fc
      .record(
        {
          info: fc.constant('{"name":"fuzz","version":"1"}'),
          level: fc.constantFrom('"debug"', '"emergency"'),
          token: fc.oneof(fc.integer().map(String), stringLexeme),
          proto: fc.constant('{"polluted":true}'),
        },
        { requiredKeys: [] },
      )
      .map(({ info, level, token, proto }) => {
        const entries = [...VALID_META];
        if (info) entries.push([INFO, info]);
        if (level) entries.push([LOG_LEVEL, level]);
        if (token) entries.push(['progressToken', token]);
        if (proto) entries.push(['__proto__', proto]);
        return object(entries);
      }),
  },
  { weight: 3, arbitrary: fc.constantFrom(...BROKEN_META) },
  {
    weight: 1,
    arbitrary: fc.tuple(garbageLexeme, garbageLexeme).map(([version, capabilities]) =>
      object([
        [PV, version],
        [CAPS, capabilities],
      ]),
    ),
  },
  { weight: 1, arbitrary: garbageLexeme },
);

const TOOL_NAMES = ['echo', 'slow', 'throws', 'rejects', 'structured', 'inspect', 'fail', 'noisy'];
const toolNameLexeme = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(...TOOL_NAMES, 'nope', '', '__proto__', 'constructor', 'toString')
      .map((name) => JSON.stringify(name)),
  },
  { weight: 1, arbitrary: garbageLexeme },
);
const argumentsLexeme = fc.oneof(
  fc.string({ maxLength: 12 }).map((text) => object([['text', JSON.stringify(text)]])),
  fc.integer({ min: -2, max: 8 }).map((ms) => object([['ms', String(ms)]])),
  fc.constantFrom(
    '{}',
    '{"__proto__":{"polluted":true},"text":"p"}',
    '{"text":"p","__proto__":{"text":"polluted"}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"prototype":{"polluted":1},"ms":1}',
  ),
  garbageObject,
  garbageLexeme,
  deepLexeme,
);

/** The fields of every method at once: each method ignores the others' fields. */
const FIELDS = {
  name: toolNameLexeme,
  arguments: argumentsLexeme,
  cursor: fc.oneof(fc.constant('"bogus"'), garbageLexeme),
  requestId: fc.oneof(fc.integer({ min: 99990, max: 100010 }).map(String), garbageLexeme),
  reason: garbageLexeme,
  protocolVersion: fc.oneof(
    fc.constantFrom(...LEGACY_REVISIONS, '2026-07-28', 'x').map((v) => JSON.stringify(v)),
    garbageLexeme,
  ),
  capabilities: fc.oneof(fc.constant('{}'), garbageLexeme),
  clientInfo: fc.oneof(fc.constant('{"name":"fuzz","version":"1"}'), garbageLexeme),
  notifications: fc.oneof(fc.constant('{"toolsListChanged":true}'), garbageLexeme),
  level: fc.oneof(fc.constant('"info"'), garbageLexeme),
  protoKey: fc.constant('{"polluted":true,"name":"echo"}'),
  constructor: fc.constant('{"prototype":{"polluted":true}}'),
};

const paramsObject = fc
  .tuple(
    fc.record(FIELDS, { requiredKeys: [] }),
    metaLexeme,
    fc.array(fc.tuple(keyArbitrary, garbageLexeme), { maxLength: 3 }),
    fc.boolean(),
  )
  .map(([fields, meta, extra, metaFirst]) => {
    // "protoKey" goes on the wire as "__proto__" (an object literal could not hold it).
    const entries = Object.entries(fields)
      .map(([key, lexeme]) => [key === 'protoKey' ? '__proto__' : key, lexeme])
      .concat(extra);
    if (meta !== undefined) entries[metaFirst ? 'unshift' : 'push'](['_meta', meta]);
    return object(entries);
  });

/** Well-formed for every method at once (tools/call, initialize, listen, setLevel ...). */
const goodParams = fc
  .tuple(
    fc.constantFrom(...LEGACY_REVISIONS),
    fc.constantFrom('echo', 'slow', 'inspect', 'structured', 'throws', 'rejects'),
    fc.string({ maxLength: 12 }),
    fc.integer({ min: 0, max: 5 }),
    metaLexeme,
  )
  .map(([revision, name, text, ms, meta]) => {
    const entries = [
      ['protocolVersion', JSON.stringify(revision)],
      ['capabilities', '{}'],
      ['clientInfo', '{"name":"fuzz","version":"1"}'],
      ['name', JSON.stringify(name)],
      [
        'arguments',
        name === 'slow' ? object([['ms', String(ms)]]) : object([['text', JSON.stringify(text)]]),
      ],
      ['notifications', '{"toolsListChanged":true}'],
      ['level', '"info"'],
    ];
    if (meta !== undefined) entries.push(['_meta', meta]);
    return object(entries);
  });

const paramsLexeme = fc.oneof(
  { weight: 4, arbitrary: goodParams },
  { weight: 6, arbitrary: paramsObject },
  { weight: 2, arbitrary: garbageLexeme },
  { weight: 1, arbitrary: deepLexeme },
);

// --------------------------------------------------------------------------- messages

export const FUZZED_METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'server/discover',
  'subscriptions/listen',
  'notifications/cancelled',
  'notifications/initialized',
  'resources/list',
  'logging/setLevel',
];
const UNKNOWN_METHODS = [
  'nope',
  'prompts/list',
  '__proto__',
  'constructor',
  'toString',
  'TOOLS/LIST',
  '',
];

const VALID_ID_KINDS = ['int', 'negint', 'string', 'weird', 'big', 'bigneg', 'exp', 'float-int'];
const INVALID_ID_KINDS = ['fraction', 'bool', 'object', 'array', 'inf'];
const messageArbitrary = fc.record({
  method: fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...FUZZED_METHODS) },
    { weight: 1, arbitrary: fc.constantFrom(...UNKNOWN_METHODS) },
  ),
  id: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...VALID_ID_KINDS) },
    { weight: 1, arbitrary: fc.constantFrom(...INVALID_ID_KINDS) },
    { weight: 2, arbitrary: fc.constantFrom('absent', 'null') },
  ),
  tag: fc.string({ unit: 'grapheme', maxLength: 4 }),
  params: fc.option(paramsLexeme, { freq: 6, nil: undefined }),
  order: fc.constantFrom('plain', 'params-first', 'id-last', 'proto-top'),
});

/** One run: an opening move (none, a legacy initialize, a modern probe) then garbage. */
export const methodRunArbitrary = fc.record({
  opening: fc.constantFrom('none', 'modern-probe', ...LEGACY_REVISIONS),
  messages: fc.array(messageArbitrary, { minLength: 10, maxLength: 60, size: 'medium' }),
});

/**
 * The wire key of an id, with its JSON type: `s:<string>` or `n:<number>`. Unsafe integers
 * keep their lexeme, so an echo that rounded them would not match.
 */
function keyOfValue(value, lexeme) {
  if (typeof value === 'string') return `s:${value}`;
  if (typeof value === 'number' && Number.isInteger(value)) {
    return Number.isSafeInteger(value) ? `n:${value}` : `n:${lexeme}`;
  }
  return undefined;
}

/** A unique id lexeme of a kind, from a per-run counter. Big ids round to distinct doubles. */
function idLexeme(kind, n, tag) {
  const base = 100000 + n;
  switch (kind) {
    case 'int':
      return String(base);
    case 'negint':
      return String(-base);
    case 'string':
      return JSON.stringify(String(base)); // the twin of the integer id: a different id
    case 'weird':
      return JSON.stringify(`${tag}#${n}`);
    case 'big':
      return String(2n ** 53n * BigInt(n + 2) + 1n);
    case 'bigneg':
      return String(-(2n ** 53n * BigInt(n + 2) + 1n));
    case 'exp':
      return `${n + 2}e21`;
    case 'float-int':
      return `${base}.0`;
    case 'fraction':
      return `${base}.5`;
    case 'bool':
      return n % 2 ? 'true' : 'false';
    case 'object':
      return `{"id":${base}}`;
    case 'array':
      return `[${base}]`;
    case 'inf':
      return '1e400';
    case 'null':
      return 'null';
    default:
      return undefined;
  }
}

function messageLine({ method, id, params, order }) {
  const members = [['jsonrpc', '"2.0"']];
  if (id !== undefined) members.push(['id', id]);
  members.push(['method', JSON.stringify(method)]);
  if (params !== undefined) members.push(['params', params]);
  if (order === 'params-first') members.sort(([a]) => (a === 'params' ? -1 : 0));
  if (order === 'id-last') members.sort(([a], [b]) => (a === 'id') - (b === 'id'));
  if (order === 'proto-top') members.unshift(['__proto__', '{"polluted":true,"jsonrpc":"1.0"}']);
  return object(members);
}

/** The id key a notifications/cancelled line names, if any (as the server would read it). */
function cancelledKey(line) {
  const value = JSON.parse(line);
  const requestId = value?.params?.requestId;
  if (typeof requestId !== 'number') return keyOfValue(requestId);
  return keyOfValue(requestId, findNumberLexeme(line, ['params', 'requestId']));
}

/** Turns a run into wire lines and what each valid request must get. */
export function materializeMethodRun(run) {
  const lines = [];
  const expected = new Map();
  const cancelled = new Set();
  let invalidIds = 0;
  let n = 0;
  const expect = (line, key, method) => {
    const params = JSON.parse(line).params;
    const meta = params?._meta;
    const claim =
      meta !== null && typeof meta === 'object' && !Array.isArray(meta) && Object.hasOwn(meta, PV);
    expected.set(key, { method, claim, line });
  };
  if (run.opening === 'modern-probe') {
    const line = object([
      ['jsonrpc', '"2.0"'],
      ['id', '"opening"'],
      ['method', '"server/discover"'],
      ['params', object([['_meta', object(VALID_META)]])],
    ]);
    lines.push(line);
    expect(line, 's:opening', 'server/discover');
  } else if (run.opening !== 'none') {
    const line = JSON.stringify({
      jsonrpc: '2.0',
      id: 'opening',
      method: 'initialize',
      params: {
        protocolVersion: run.opening,
        capabilities: {},
        clientInfo: { name: 'fuzz', version: '1' },
      },
    });
    lines.push(line, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
    expect(line, 's:opening', 'initialize');
  }
  for (const message of run.messages) {
    const lexeme = message.id === 'absent' ? undefined : idLexeme(message.id, ++n, message.tag);
    const line = messageLine({ ...message, id: lexeme });
    lines.push(line);
    if (lexeme === undefined || lexeme === 'null') {
      if (message.method === 'notifications/cancelled') {
        const key = cancelledKey(line);
        if (key !== undefined) cancelled.add(key);
      }
      continue;
    }
    const key = keyOfValue(JSON.parse(lexeme), lexeme);
    if (key === undefined) invalidIds++;
    else expect(line, key, message.method);
  }
  return { lines, expected, cancelled, invalidIds };
}

// --------------------------------------------------------------------------- observing

/** Reads the frames a server wrote, raw lines first, so that big ids are compared exactly. */
export class FrameIndex {
  constructor() {
    this.cursor = 0;
    this.responses = new Map(); // key -> [{frame, line}]
    this.acknowledged = new Map(); // subscription key -> count
    this.nullIdErrors = [];
    this.problems = [];
    this.count = 0;
  }

  update(written) {
    for (; this.cursor < written.length; this.cursor++) this.add(written[this.cursor]);
    return this;
  }

  has(key) {
    return this.responses.has(key);
  }

  add(line) {
    this.count++;
    const frame = JSON.parse(line); // not JSON is a Conversation violation already
    if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) {
      this.problems.push(`not a single JSON-RPC object: ${line.slice(0, 200)}`);
      return;
    }
    if ('error' in frame && !ALLOWED_ERROR_CODES.has(frame.error?.code)) {
      this.problems.push(`error code outside the allowed set: ${line.slice(0, 300)}`);
    }
    if ('method' in frame) {
      if (!SERVER_NOTIFICATIONS.has(frame.method) || 'id' in frame) {
        this.problems.push(`unexpected server message: ${line.slice(0, 300)}`);
      }
      if (frame.method === 'notifications/subscriptions/acknowledged') {
        const id = frame.params?._meta?.[SUBSCRIPTION];
        const lexeme =
          typeof id === 'number' ? findNumberLexeme(line, ['params', '_meta', SUBSCRIPTION]) : id;
        const key = keyOfValue(id, lexeme);
        this.acknowledged.set(key, (this.acknowledged.get(key) ?? 0) + 1);
      }
      return;
    }
    if (frame.id === null) {
      this.nullIdErrors.push(frame);
      return;
    }
    const lexeme = typeof frame.id === 'number' ? findNumberLexeme(line, ['id']) : undefined;
    const key = keyOfValue(frame.id, lexeme);
    if (key === undefined) {
      this.problems.push(`response with an id of the wrong type: ${line.slice(0, 200)}`);
      return;
    }
    const list = this.responses.get(key) ?? [];
    list.push({ frame, line });
    this.responses.set(key, list);
  }
}

/** Waits until `done()` holds, updating the index from the transport; false on timeout. */
async function waitUntil(conversation, index, done, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    index.update(conversation.transport.written);
    if (done()) return true;
    if (Date.now() > deadline) return false;
    await delay(1);
  }
}

function pollutionProblems(before) {
  const problems = [];
  if (prototypeSnapshot() !== before) problems.push('a built-in prototype gained properties');
  for (const key of POLLUTION_PROBES) {
    if ({}[key] !== undefined) problems.push(`Object.prototype polluted: ({}).${key} is defined`);
  }
  if (Object.getPrototypeOf(Object.prototype) !== null)
    problems.push('Object.prototype re-parented');
  return problems;
}

// --------------------------------------------------------------------------- tools

/**
 * Tools for the garbage-params runs, made once so that their schemas compile once.
 * `inspect` accepts any object, so garbage (prototype keys, deep nesting) reaches a tool.
 */
export const METHOD_FUZZ_TOOLS = [
  // Conversation's own echo (text required, nothing else), throws and structured output.
  ...testTools().filter(({ name }) => ['echo', 'throws', 'structured'].includes(name)),
  {
    name: 'slow',
    description: 'Waits up to 5 ms, honours cancellation',
    inputSchema: {
      type: 'object',
      properties: { ms: { type: 'integer', minimum: 0, maximum: 5 } },
    },
    run: ({ ms = 1 }, { signal }) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ text: `waited ${ms} ms` }), ms);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve({ text: 'aborted' });
        });
      }),
  },
  {
    name: 'rejects',
    description: 'Rejects',
    inputSchema: { type: 'object' },
    run: () => Promise.reject(new Error('rejected on purpose')),
  },
  {
    name: 'inspect',
    description: 'Lists its argument keys and serializes them',
    inputSchema: { type: 'object' },
    run: (args) => ({
      text: `${Object.keys(args).sort().join(',')} ${JSON.stringify(args).length}`,
    }),
  },
];

// --------------------------------------------------------------------------- property 1

/**
 * Plays one garbage-params run through a fresh Conversation and returns the problems found
 * (empty when every invariant holds) and the number of lines sent.
 */
export async function runMethodFuzz(run) {
  const { lines, expected, cancelled, invalidIds } = materializeMethodRun(run);
  const before = prototypeSnapshot();
  const conversation = new Conversation({ tools: METHOD_FUZZ_TOOLS, abortGraceMs: 20 });
  const index = new FrameIndex();
  const problems = [];
  try {
    for (const line of lines) conversation.send(line);
    // Everything but listen streams (answered at shutdown) and maybe-cancelled calls.
    const mustAnswer = [...expected]
      .filter(([key, { method }]) => method !== 'subscriptions/listen' && !cancelled.has(key))
      .map(([key]) => key);
    const answered = await waitUntil(
      conversation,
      index,
      () => mustAnswer.every((key) => index.has(key)) && index.nullIdErrors.length >= invalidIds,
      5000,
    );
    if (!answered) {
      const missing = mustAnswer.filter((key) => !index.has(key));
      problems.push(`not answered within 5 s: ${missing.slice(0, 5).join(', ')}`);
      for (const key of missing.slice(0, 3))
        problems.push(`  sent: ${expected.get(key).line.slice(0, 300)}`);
    }
    await delay(2);
  } finally {
    await conversation.end();
  }
  index.update(conversation.transport.written);
  problems.push(...conversation.violations, ...index.problems);
  if (index.nullIdErrors.length !== invalidIds) {
    problems.push(`${index.nullIdErrors.length} "id": null errors for ${invalidIds} invalid ids`);
  }
  for (const frame of index.nullIdErrors) {
    if (frame.error?.code !== -32600) problems.push(`id null with code ${frame.error?.code}`);
  }
  for (const [key, responses] of index.responses) {
    const expectation = expected.get(key);
    if (!expectation) {
      problems.push(
        `a response to an id never sent as a valid request: ${responses[0].line.slice(0, 200)}`,
      );
      continue;
    }
    const mayBeCancelled =
      cancelled.has(key) && ['tools/call', 'subscriptions/listen'].includes(expectation.method);
    if (responses.length > 1 || (responses.length === 0 && !mayBeCancelled)) {
      problems.push(`${key} answered ${responses.length} times: ${expectation.line.slice(0, 200)}`);
    }
    const { frame } = responses[0];
    if ('result' in frame) {
      const modern = frame.result?.resultType === 'complete';
      if (modern !== expectation.claim) {
        problems.push(
          `${key}: resultType ${modern ? 'in a legacy' : 'missing from a modern'} result`,
        );
      }
    }
    if (expectation.method === 'subscriptions/listen') {
      const acks = index.acknowledged.get(key) ?? 0;
      if (acks !== ('result' in frame ? 1 : 0)) problems.push(`${key}: ${acks} acknowledgements`);
    }
  }
  for (const [key, expectation] of expected) {
    const mayBeCancelled = cancelled.has(key) && expectation.method === 'tools/call';
    if (!index.has(key) && !mayBeCancelled) {
      problems.push(
        `${key} (${expectation.method}) never answered: ${expectation.line.slice(0, 200)}`,
      );
    }
  }
  for (const [key, count] of index.acknowledged) {
    if (expected.get(key)?.method !== 'subscriptions/listen' || count !== 1) {
      problems.push(`acknowledgement for ${key} (${count} times), not a listen request`);
    }
  }
  problems.push(...pollutionProblems(before));
  return { problems, lines: lines.length };
}

/** The property over runs; `onLines` receives each run's line count. */
export function methodFuzzProperty(onLines = () => {}) {
  return fc.asyncProperty(methodRunArbitrary, async (run) => {
    const outcome = await runMethodFuzz(run);
    onLines(outcome.lines);
    if (outcome.problems.length > 0) {
      throw new Error(`opening ${run.opening}:\n${outcome.problems.slice(0, 20).join('\n')}`);
    }
  });
}

/** Garbage request lines for a real process (no expectations): one per message. */
export function garbageMethodLines(count, seed) {
  const [messages] = fc.sample(fc.array(messageArbitrary, { minLength: count, maxLength: count }), {
    seed,
    numRuns: 1,
  });
  return materializeMethodRun({ opening: 'none', messages }).lines;
}

// --------------------------------------------------------------------------- property 2

/** What each tool run saw, by tag (the call's id key); reset per run. */
let toolRuns = new Map();

function startRun(tag, signal) {
  const record = {
    tag,
    signal,
    finished: false,
    abortedAtFinish: false,
    runs: (toolRuns.get(tag)?.runs ?? 0) + 1,
  };
  toolRuns.set(tag, record);
  return record;
}

/** Marks a run finished, noting whether it had been told to stop by then. */
function finishRun(record) {
  record.finished = true;
  record.abortedAtFinish = record.signal.aborted;
}

const taggedSchema = (properties = {}) => ({
  type: 'object',
  properties: { tag: { type: 'string' }, ...properties },
  required: ['tag'],
});

/** Tools that record their signal, to check that a cancelled run was told so. */
export const CANCELLATION_TOOLS = [
  {
    name: 'echo',
    description: 'Answers at once',
    inputSchema: taggedSchema(),
    run: ({ tag }, { signal }) => {
      finishRun(startRun(tag, signal));
      return { text: `echo:${tag}` };
    },
  },
  {
    name: 'slow',
    description: 'Waits ms, stops when cancelled',
    inputSchema: taggedSchema({ ms: { type: 'integer' } }),
    run: ({ tag, ms }, { signal }) => {
      const record = startRun(tag, signal);
      return new Promise((resolve) => {
        const finish = () => {
          clearTimeout(timer);
          finishRun(record);
          resolve({ text: signal.aborted ? `aborted:${tag}` : `slow:${tag}` });
        };
        const timer = setTimeout(finish, ms);
        signal.addEventListener('abort', finish, { once: true });
      });
    },
  },
  {
    name: 'throwing',
    description: 'Throws at once or rejects after ms',
    inputSchema: taggedSchema({ ms: { type: 'integer' }, sync: { type: 'boolean' } }),
    run: ({ tag, ms, sync }, { signal }) => {
      const record = startRun(tag, signal);
      if (sync) {
        finishRun(record);
        throw new Error(`thrown:${tag}`);
      }
      return delay(ms).then(() => {
        finishRun(record);
        throw new Error(`thrown:${tag}`);
      });
    },
  },
  {
    name: 'stubborn',
    description: 'Ignores cancellation, answers after ms',
    inputSchema: taggedSchema({ ms: { type: 'integer' } }),
    run: ({ tag, ms }, { signal }) => {
      const record = startRun(tag, signal);
      return delay(ms).then(() => {
        finishRun(record);
        return { text: `stubborn:${tag}` };
      });
    },
  },
];

const callAction = fc.record({
  tool: fc.constantFrom('slow', 'slow', 'echo', 'throwing', 'stubborn'),
  idKind: fc.constantFrom('int', 'negint', 'string', 'big', 'exp'),
  ms: fc.integer({ min: 0, max: 20 }),
  sync: fc.boolean(),
  modern: fc.boolean(),
});
const cancelAction = fc.record({
  target: fc.constantFrom(
    'inflight',
    'inflight',
    'inflight',
    'finished',
    'any',
    'unknown',
    'twin',
    'listen',
  ),
  pick: fc.nat(),
  reason: fc.oneof(fc.constant(undefined), stringLexeme, numberLexeme),
});

/** A schedule of calls, cancellations, pauses and listen streams, after an initialize. */
export const cancellationRunArbitrary = fc.record({
  revision: fc.constantFrom(...LEGACY_REVISIONS),
  actions: fc.array(
    fc.oneof(
      { weight: 4, arbitrary: callAction.map((call) => ({ call })) },
      { weight: 3, arbitrary: cancelAction.map((cancel) => ({ cancel })) },
      { weight: 3, arbitrary: fc.integer({ min: 0, max: 6 }).map((wait) => ({ wait })) },
      { weight: 1, arbitrary: fc.constant({ listen: true }) },
    ),
    { minLength: 5, maxLength: 40 },
  ),
});

/** The same id with the other JSON type ("5" for 5 and back): a different id. */
function twinLexeme(lexeme) {
  const value = JSON.parse(lexeme);
  if (typeof value !== 'string') return JSON.stringify(lexeme);
  return /^-?[0-9]+$/.test(value) ? value : JSON.stringify(`${value}!`);
}

/**
 * Plays one cancellation schedule and returns the problems found. A cancellation that
 * reaches a call before its tool finished must suppress the response and abort the tool's
 * signal (or keep the tool from starting); every other call gets exactly one correct answer.
 */
export async function runCancellationFuzz({ revision, actions }) {
  toolRuns = new Map();
  const conversation = new Conversation({ tools: CANCELLATION_TOOLS, abortGraceMs: 15 });
  const index = new FrameIndex();
  const problems = [];
  const calls = [];
  const listens = [];
  let n = 0;
  const newId = (kind) => {
    const lexeme = idLexeme(kind, ++n, '');
    return { lexeme, key: keyOfValue(JSON.parse(lexeme), lexeme) };
  };
  const sendCancel = (lexeme, reason) => {
    const entries = [['requestId', lexeme]];
    if (reason !== undefined) entries.push(['reason', reason]);
    conversation.send(
      object([
        ['jsonrpc', '"2.0"'],
        ['method', '"notifications/cancelled"'],
        ['params', object(entries)],
      ]),
    );
  };
  try {
    await conversation.initialize(revision);
    for (const action of actions) {
      index.update(conversation.transport.written);
      if (action.call) {
        const { tool, idKind, ms, sync, modern } = action.call;
        const { lexeme, key } = newId(idKind);
        const args = { tag: key, ms, sync };
        const params = [
          ['name', JSON.stringify(tool)],
          ['arguments', JSON.stringify(args)],
        ];
        if (modern) params.push(['_meta', object(VALID_META)]);
        conversation.send(
          object([
            ['jsonrpc', '"2.0"'],
            ['id', lexeme],
            ['method', '"tools/call"'],
            ['params', object(params)],
          ]),
        );
        calls.push({ lexeme, key, tool, modern, cancelled: false, cancelledWhileRunning: false });
      } else if (action.listen) {
        const { lexeme, key } = newId('weird');
        conversation.send(
          object([
            ['jsonrpc', '"2.0"'],
            ['id', lexeme],
            ['method', '"subscriptions/listen"'],
            [
              'params',
              object([
                ['notifications', '{"toolsListChanged":true}'],
                ['_meta', object(VALID_META)],
              ]),
            ],
          ]),
        );
        listens.push({ lexeme, key, cancelled: false });
      } else if (action.cancel) {
        const { target, pick, reason } = action.cancel;
        const inflight = calls.filter((call) => !index.has(call.key));
        const finished = calls.filter((call) => index.has(call.key));
        const pool =
          target === 'inflight'
            ? inflight
            : target === 'finished'
              ? finished
              : target === 'listen'
                ? listens
                : target === 'any' || target === 'twin'
                  ? [...calls, ...listens]
                  : [];
        if (pool.length === 0 || target === 'unknown') {
          sendCancel(newId('int').lexeme, reason);
          continue;
        }
        const chosen = pool[pick % pool.length];
        if (target === 'twin') {
          sendCancel(twinLexeme(chosen.lexeme), reason);
          continue;
        }
        sendCancel(chosen.lexeme, reason);
        if ('tool' in chosen) {
          if (!index.has(chosen.key)) chosen.cancelled = true;
          const run = toolRuns.get(chosen.key);
          if (run && !run.finished) chosen.cancelledWhileRunning = true;
        } else {
          chosen.cancelled = true;
        }
      } else {
        await (action.wait === 0
          ? new Promise((resolve) => setImmediate(resolve))
          : delay(action.wait));
      }
    }
    // A later call and a ping must still be answered: the queue did not deadlock.
    const last = newId('weird');
    conversation.send(
      object([
        ['jsonrpc', '"2.0"'],
        ['id', last.lexeme],
        ['method', '"tools/call"'],
        [
          'params',
          object([
            ['name', '"echo"'],
            ['arguments', JSON.stringify({ tag: last.key })],
          ]),
        ],
      ]),
    );
    const ping = newId('weird');
    conversation.send(`{"jsonrpc":"2.0","id":${ping.lexeme},"method":"ping"}`);
    const live = calls.filter((call) => !call.cancelled);
    const done = await waitUntil(
      conversation,
      index,
      () => index.has(last.key) && index.has(ping.key) && live.every((call) => index.has(call.key)),
      5000,
    );
    if (!done)
      problems.push(
        'deadlock: the final call, the ping or a live call was not answered within 5 s',
      );
    // Abandoned stubborn runs finish in their own time; wait so their records are complete.
    await waitUntil(
      conversation,
      index,
      () => [...toolRuns.values()].every((run) => run.finished),
      1000,
    );
    await delay(2);
  } finally {
    await conversation.end();
  }
  index.update(conversation.transport.written);
  problems.push(...conversation.violations, ...index.problems);
  if (index.nullIdErrors.length > 0)
    problems.push(`${index.nullIdErrors.length} "id": null errors`);
  for (const call of calls) {
    const responses = index.responses.get(call.key) ?? [];
    const run = toolRuns.get(call.key);
    const what = `${call.tool} call ${call.lexeme}`;
    if (run && run.runs !== 1) problems.push(`${what}: the tool ran ${run.runs} times`);
    if (call.cancelled) {
      // The server reads lines in order and answers a synchronous tool before it reads the
      // next line, so a cancellation sent in the same burst may arrive after the call is
      // done (cancellation is advisory). An answer is legitimate only then: the tool ran to
      // completion untold. Once a tool was told to stop, or was running when the
      // cancellation was sent, there must be no answer and its signal must be aborted.
      const completedUntold = run?.finished && !run.abortedAtFinish && !call.cancelledWhileRunning;
      if (responses.length > 0 && !completedUntold) {
        problems.push(`${what}: cancelled, yet answered: ${responses[0].line.slice(0, 200)}`);
      }
      if (responses.length === 0 && run && !run.signal.aborted) {
        problems.push(`${what}: cancelled and unanswered, but its signal was not aborted`);
      }
      if (responses.length > 1) problems.push(`${what}: answered ${responses.length} times`);
      continue;
    }
    if (responses.length !== 1) {
      problems.push(`${what}: answered ${responses.length} times`);
      continue;
    }
    if (!run) problems.push(`${what}: answered, but its tool never ran`);
    else if (run.signal.aborted)
      problems.push(`${what}: not cancelled, but its signal was aborted`);
    const { result } = responses[0].frame;
    const text = (result?.content ?? []).map((block) => block.text).join('');
    const wanted = call.tool === 'throwing' ? `thrown:${call.key}` : `${call.tool}:${call.key}`;
    if (!text.includes(wanted)) problems.push(`${what}: wrong answer ${JSON.stringify(text)}`);
    if (Boolean(result?.isError) !== (call.tool === 'throwing'))
      problems.push(`${what}: isError wrong`);
    if ((result?.resultType === 'complete') !== call.modern)
      problems.push(`${what}: resultType wrong`);
  }
  for (const listen of listens) {
    const acks = index.acknowledged.get(listen.key) ?? 0;
    const results = (index.responses.get(listen.key) ?? []).filter(
      ({ frame }) => 'result' in frame,
    );
    if (acks !== 1) problems.push(`listen ${listen.lexeme}: ${acks} acknowledgements`);
    if (results.length !== (listen.cancelled ? 0 : 1)) {
      problems.push(
        `listen ${listen.lexeme} (cancelled: ${listen.cancelled}): ${results.length} results at shutdown`,
      );
    }
  }
  const known = new Set([...calls, ...listens].map(({ key }) => key));
  for (const [key, responses] of index.responses) {
    if (!known.has(key) && responses.some(({ frame }) => !('result' in frame))) {
      problems.push(`unexpected error for ${key}: ${responses[0].line.slice(0, 200)}`);
    }
  }
  return { problems, calls: calls.length, lines: conversation.transport.written.length };
}

/** The cancellation property over schedules; `onCalls` receives each run's call count. */
export function cancellationProperty(onCalls = () => {}) {
  return fc.asyncProperty(cancellationRunArbitrary, async (run) => {
    const outcome = await runCancellationFuzz(run);
    onCalls(outcome.calls);
    if (outcome.problems.length > 0) {
      throw new Error(`revision ${run.revision}:\n${outcome.problems.slice(0, 20).join('\n')}`);
    }
  });
}

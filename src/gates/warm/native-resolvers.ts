/**
 * Native module resolvers (unrs-resolver's and oxc-resolver's ResolverFactory) replayed as
 * ledger questions (read-ledger.ts). A resolver reads the disk from C++, where the ledger
 * cannot see it, and keeps what it read for its instance's life. With its cache emptied
 * (clearNativeCaches, before every call and every check), a resolution is a function of
 * the resolver's options, the method and its arguments, and the tree: so a call of a
 * resolving method is recorded as a question (kind `resolve`) whose answer is the result
 * the JavaScript side got, serialised completely (an error thrown is an answer too), and
 * checking it asks the same resolver the same thing on the tree as it is now. The same
 * answer means the code that asked would get the same values.
 *
 * Only synchronous methods are replayed: an async resolution settles after the code that
 * asked has moved on (a file's lint is synchronous and is kept before the promise
 * settles), so a ledger could be kept without its answer. They stay not replayable.
 *
 * A resolution kept in JavaScript instead (eslint-plugin-import-x's ModuleCache) is aged
 * out between file lints (clockAgesMemoOnly), so each file's lint asks the resolver itself and
 * its kept result carries the question; a memo kept for ever is an answer the worker holds
 * (worker-main.ts), checked after every call as any plugin's memory is.
 */

/** Methods of a ResolverFactory that resolve synchronously (unrs-resolver 1.x, oxc-resolver 11.x). */
export const RESOLVING_METHODS: readonly string[] = ['sync', 'resolveFileSync', 'resolveDtsSync'];

/** Whether an addon's exported class is a resolver this module replays. */
export function isReplayableResolver(name: string, prototype: Record<PropertyKey, unknown>) {
  return (
    name === 'ResolverFactory' &&
    typeof prototype.clearCache === 'function' &&
    typeof prototype.sync === 'function'
  );
}

type Resolving = (this: object, ...args: unknown[]) => unknown;

/** One resolver class of one addon, with its methods as the addon made them. */
export interface ResolverClass {
  /** The addon's file and the class name. */
  name: string;
  make: (options: unknown) => object;
  methods: Readonly<Record<string, Resolving>>;
}

/** Resolvers with the same class and options: one answers for all. */
interface Identity {
  resolverClass: ResolverClass;
  options: unknown;
  /** The latest live instance with these options. */
  live?: WeakRef<object>;
  /** One made to answer a check when no live instance is left. */
  spare?: object;
}

const identities: Identity[] = [];
const identityIds = new Map<string, number>();
const instanceIdentities = new WeakMap<object, number>();

type NativeCache = { clearCache(): unknown };
/** Live instances of native classes that cache what they read across calls. */
const nativeCaches = new Set<WeakRef<NativeCache>>();

/** Follows `value` when it is a native instance with a cache (clearNativeCaches empties it). */
export function trackedCache<T>(value: T): T {
  if (typeof (value as Partial<NativeCache> | null)?.clearCache === 'function')
    nativeCaches.add(new WeakRef(value as NativeCache));
  return value;
}

/** Empties the caches of the native instances followed (before each call and each check). */
export function clearNativeCaches(): void {
  for (const reference of nativeCaches) {
    const instance = reference.deref();
    if (instance === undefined) nativeCaches.delete(reference);
    else instance.clearCache();
  }
}

/**
 * Notes that `instance` of `resolverClass` resolves with `options` (as constructed or
 * cloned; undefined for the defaults): its resolutions become questions. Options that are
 * not plain data (a function: nothing here could construct its like) leave it unnamed, and
 * its resolutions not replayable.
 */
export function registerResolver(
  resolverClass: ResolverClass,
  instance: object,
  options: unknown,
): void {
  trackedCache(instance);
  const serialised = serialise(options);
  if (serialised === undefined) return;
  const key = `${resolverClass.name}\0${serialised}`;
  let id = identityIds.get(key);
  if (id === undefined) {
    id = identities.push({ resolverClass, options: structuredClone(options) }) - 1;
    identityIds.set(key, id);
  }
  identities[id]!.live = new WeakRef(instance);
  instanceIdentities.set(instance, id);
}

/**
 * The question a resolution asks: the resolver's identity, the method and its arguments
 * (strings, as every resolving method takes); undefined when it cannot be asked again.
 * JSON, so it holds no NUL (ledger keys are `kind\0question`).
 */
export function resolveQuestion(
  instance: object,
  method: string,
  args: readonly unknown[],
): string | undefined {
  const id = instanceIdentities.get(instance);
  if (id === undefined || !args.every((arg) => typeof arg === 'string')) return undefined;
  return JSON.stringify([id, method, ...args]);
}

/** A question as a reason names it: what was resolved, from where. */
export function describeQuestion(question: string): string {
  const [, method, from, request] = JSON.parse(question) as [number, string, string, string];
  return `the resolution of ${request} from ${from} (${method})`;
}

/**
 * Runs a resolution and says what the code that asked got: the result serialised
 * completely, or the error thrown; undefined when the result is not plain data (it could
 * not be compared). `outcome` is what to hand back (the value, or the error to throw).
 */
export function answerResolution(run: () => unknown): {
  answer: string | undefined;
  outcome: { value: unknown } | { error: unknown };
} {
  try {
    const value = run();
    const serialised = serialise(value);
    return { answer: serialised === undefined ? undefined : `=${serialised}`, outcome: { value } };
  } catch (error) {
    return { answer: thrownAnswer(error), outcome: { error } };
  }
}

function thrownAnswer(error: unknown): string | undefined {
  if (!(error instanceof Error)) {
    const serialised = serialise(error);
    return serialised === undefined ? undefined : `!${serialised}`;
  }
  const { code } = error as NodeJS.ErrnoException;
  return `!${error.name}\0${String(code)}\0${error.message}`;
}

/** Answers re-asked in the check pass running now, by question; undefined outside one. */
let passAnswers: Map<string, string> | undefined;
let passCleared = false;

/**
 * Opens a pass over recorded questions, in which each resolution is re-asked once: many
 * files ask the same (directory, specifier). Returns its close (idempotent); inside an open
 * pass, opening another joins it (its close does nothing). Never kept past the pass: the
 * tree moves on.
 */
export function openResolutionPass(): () => void {
  if (passAnswers !== undefined) return () => {};
  const answers = new Map<string, string>();
  passAnswers = answers;
  passCleared = false;
  return () => {
    if (passAnswers === answers) passAnswers = undefined;
  };
}

/**
 * Says the resolvers were used since the open pass emptied their caches (a tool ran): the
 * next resolution it re-asks empties them again, and reads the tree as it is.
 */
export function resolverCachesUsed(): void {
  passCleared = false;
}

/** Runs `work` within a resolution pass (openResolutionPass): the open one, or its own. */
function withinResolutionPass<T>(work: () => T): T {
  const close = openResolutionPass();
  try {
    return work();
  } finally {
    close();
  }
}

/** The answer `question` gets now, from a resolver with the same options on an emptied cache. */
export function answerNow(question: string): string {
  return withinResolutionPass(() => {
    const known = passAnswers!.get(question);
    if (known !== undefined) return known;
    // Emptied once a pass, when its first resolution is asked: a check reads the tree as it is.
    if (!passCleared) {
      clearNativeCaches();
      passCleared = true;
    }
    const answer = reask(question);
    passAnswers!.set(question, answer);
    return answer;
  });
}

function reask(question: string): string {
  const [id, method, ...args] = JSON.parse(question) as [number, string, ...string[]];
  const identity = identities[id];
  const resolve = identity?.resolverClass.methods[method];
  if (!identity || !resolve) return 'unknown resolver';
  let instance = identity.live?.deref();
  if (instance === undefined) {
    instance = identity.spare ??= trackedCache(identity.resolverClass.make(identity.options));
    // Made after this pass emptied the caches: empty by construction.
  }
  return answerResolution(() => resolve.apply(instance, args)).answer ?? 'not plain data';
}

/**
 * A value as text that names it completely: every own property of plain objects and
 * arrays, in order, undefined and -0 included; undefined for anything else (a function, a
 * class instance, an accessor), which could not be compared or remade.
 */
function serialise(value: unknown, depth = 0): string | undefined {
  if (depth > 32) return undefined;
  switch (typeof value) {
    case 'undefined':
      return 'u';
    case 'boolean':
      return value ? 't' : 'f';
    case 'number':
      return Object.is(value, -0) ? 'n-0' : `n${value}`;
    case 'string':
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      const prototype = Object.getPrototypeOf(value) as unknown;
      const array = Array.isArray(value);
      if (!array && prototype !== Object.prototype && prototype !== null) return undefined;
      const parts: string[] = [];
      for (const key of Reflect.ownKeys(value)) {
        if (array && key === 'length') continue;
        const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
        if (typeof key === 'symbol' || !('value' in descriptor)) return undefined;
        const item = serialise(descriptor.value, depth + 1);
        if (item === undefined) return undefined;
        parts.push(`${JSON.stringify(key)}:${item}`);
      }
      return array ? `[${parts.join(',')}]` : `{${parts.join(',')}}`;
    }
    default:
      return undefined;
  }
}

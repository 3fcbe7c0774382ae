/**
 * The read surface of a warm worker: every way the code a tool runs can learn something
 * about the world, each classified once. read-ledger.ts applies these tables; a test
 * (gates-warm-surface.test.mjs) enumerates what the running Node offers and checks that
 * every function is reached by them.
 *
 * The rule is default-deny. A function named here as a read is recorded with its answer;
 * every other function of the fs binding, of `fs`, of `os` and of the other modules listed
 * makes the call that used it not reusable. A Node version that adds a function therefore
 * costs reuse, never soundness.
 */

/**
 * What a recorded question asks of a path. `entries` is the cheap form of `list` used for
 * the directories module resolution probes: their stat, and their listing while recent.
 * `resolve` asks a native resolver a resolution (native-resolvers.ts): its "path" is the
 * question, not a path.
 */
export type Kind = 'content' | 'stat' | 'lstat' | 'list' | 'link' | 'entries' | 'resolve';

/**
 * The fs binding (`process.binding('fs')`, the same object Node's own fs module calls):
 * the lowest layer JavaScript reaches, so a new public fs function, a stream or an
 * internal helper that reads through it is seen without being listed. Path questions:
 */
export const BINDING_PATH_READS: Readonly<Record<string, Kind>> = {
  open: 'content',
  openFileHandle: 'content',
  readFileUtf8: 'content',
  internalModuleReadJSON: 'content',
  getFormatOfExtensionlessFile: 'content',
  stat: 'stat',
  existsSync: 'stat',
  access: 'stat',
  internalModuleStat: 'stat',
  lstat: 'lstat',
  readdir: 'list',
  readlink: 'link',
  realpath: 'link',
};

/** Binding functions that read through a file descriptor: replayable only when it was opened during the call. */
export const BINDING_DESCRIPTOR_READS: readonly string[] = ['read', 'readBuffers', 'fstat'];

/**
 * Binding functions that neither read nor change anything a rerun would see: closing and
 * flushing a descriptor, the request object async calls complete through, and the class
 * of the handles openFileHandle (recorded) returns, whose reads go through `read` with a
 * descriptor. Every other binding function, classes included (StatWatcher polls a path
 * from C++), makes the call not reusable.
 */
export const BINDING_HARMLESS: readonly string[] = [
  'close',
  'fsync',
  'fdatasync',
  'FSReqCallback',
  'FileHandle',
];

/**
 * Binding functions that write through a descriptor: allowed on the worker's own output
 * (fds 1 and 2) and on files it opened in its private directory; anything else is a write.
 */
export const BINDING_DESCRIPTOR_WRITES: readonly string[] = [
  'writeBuffer',
  'writeBuffers',
  'writeString',
  'ftruncate',
  'fchmod',
  'fchown',
  'futimes',
];

/**
 * Binding functions that write by path: allowed inside the worker's private directory
 * (a tool's own cache there), otherwise a write, so the call is not reusable.
 */
export const BINDING_PATH_WRITES: readonly string[] = [
  'mkdir',
  'mkdtemp',
  'rmdir',
  'rmSync',
  'unlink',
  'rename',
  'copyFile',
  'cpSyncCopyDir',
  'cpSyncOverrideFile',
  'cpSyncCheckPaths',
  'symlink',
  'link',
  'chmod',
  'chown',
  'lchown',
  'utimes',
  'lutimes',
  'writeFileUtf8',
];

/** Path writes whose first two arguments are both paths (the rest: the first only). */
export const TWO_PATH_WRITES: readonly string[] = [
  'rename',
  'copyFile',
  'link',
  'symlink',
  'cpSyncCopyDir',
  'cpSyncOverrideFile',
  'cpSyncCheckPaths',
];

/**
 * Public fs functions that reach the disk WITHOUT the fs binding (another binding, or
 * C++ that opens the path itself), so the binding cannot see them: recorded here.
 */
export const PUBLIC_READS: Readonly<Record<string, Kind>> = {
  // Directory streams read through the fs_dir binding.
  opendir: 'list',
  opendirSync: 'list',
  // A Blob opened from a path is read by C++.
  openAsBlob: 'content',
};

/**
 * Public fs functions whose answers cannot be recorded: watchers (events arrive later,
 * from outside the call) and glob (it lists through paths the ledger would have to
 * replay as a whole). Unknown public functions are treated the same way.
 */
export const PUBLIC_NOT_REPLAYABLE: readonly string[] = [
  'watch',
  'watchFile',
  'unwatchFile',
  'glob',
  'globSync',
];

/**
 * Public fs functions known to reach the disk only through the binding (so the binding's
 * wrappers see them), plus helpers that touch nothing. Any function of `fs` or
 * `fs.promises` named neither here nor above is wrapped as not replayable.
 */
export const PUBLIC_THROUGH_BINDING: readonly string[] = [
  'access',
  'appendFile',
  'chmod',
  'chown',
  'close',
  'copyFile',
  'cp',
  'createReadStream',
  'createWriteStream',
  'exists',
  'fchmod',
  'fchown',
  'fdatasync',
  'fstat',
  'fsync',
  'ftruncate',
  'futimes',
  'lchmod',
  'lchown',
  'link',
  'lstat',
  'lutimes',
  'mkdir',
  'mkdtemp',
  'open',
  'read',
  'readdir',
  'readFile',
  'readlink',
  'readv',
  'realpath',
  'rename',
  'rm',
  'rmdir',
  'stat',
  'statfs',
  'symlink',
  'truncate',
  'unlink',
  'utimes',
  'write',
  'writeFile',
  'writev',
  '_toUnixTimestamp',
  // Classes: data (Dirent, Stats), a directory stream over a handle opendir made
  // (recorded), and file streams that open and read through the binding.
  'Dir',
  'Dirent',
  'Stats',
  'ReadStream',
  'WriteStream',
  'FileReadStream',
  'FileWriteStream',
];

/**
 * `os` functions whose answer is fixed for the worker's life (the machine, and values the
 * environment sets: HOME, TMPDIR, both part of the worker's identity). Every other `os`
 * function (free memory, load, uptime, CPU speeds, network interfaces, priorities) varies
 * from run to run: not replayable.
 */
export const OS_FIXED: readonly string[] = [
  'arch',
  'availableParallelism',
  'endianness',
  'homedir',
  'hostname',
  'machine',
  'platform',
  'release',
  'tmpdir',
  'type',
  'userInfo',
  'version',
];

/**
 * Members of `performance` (and its prototypes) that read no clock: clearing and sizing
 * the entry buffers, an entry made from timings its caller gives, the event handler slot
 * and the EventTarget methods. Every other member (now, timeOrigin, mark, measure,
 * nodeTiming with its idle time, getEntries with the times of earlier marks...) reads
 * the clock: not replayable.
 */
export const PERFORMANCE_HARMLESS: readonly string[] = [
  'constructor',
  'clearMarks',
  'clearMeasures',
  'clearResourceTimings',
  'setResourceTimingBufferSize',
  'markResourceTiming',
  'onresourcetimingbufferfull',
  'addEventListener',
  'removeEventListener',
  'dispatchEvent',
];

/**
 * perf_hooks exports that read no clock (classes that cannot be constructed from
 * JavaScript, or a histogram filled only with the values its caller records). The rest
 * (PerformanceMark stamps the time when made, PerformanceObserver delivers timed entries,
 * monitorEventLoopDelay samples the event loop) is not replayable, as is the global of the
 * same name.
 */
export const PERF_HOOKS_HARMLESS: readonly string[] = [
  'Performance',
  'PerformanceEntry',
  'PerformanceMeasure',
  'PerformanceObserverEntryList',
  'PerformanceResourceTiming',
  'createHistogram',
];

/** Clocks: any of these during a call makes it not reusable (a rule that flags expired TODO dates). */
export const PROCESS_CLOCKS: readonly string[] = [
  'hrtime',
  'uptime',
  'cpuUsage',
  'resourceUsage',
  'memoryUsage',
  'constrainedMemory',
  'availableMemory',
];

/**
 * Functions of `process` that read nothing varying and change nothing a later call or a
 * rerun would see: the working directory and ids (fixed for the worker's life), warnings,
 * ticks, builtins (whose functions are wrapped where they are), the IPC channel to the
 * pool (which ignores what it does not expect), and ending the process (the pool sees the
 * worker die, as a cold run dies; _fatalException is Node's own uncaught-error path). Every other function of `process` (clocks, resource
 * and handle counts, signals, chdir, uid changes, loadEnvFile reading a file from C++,
 * native bindings, new ones) makes the call not reusable.
 */
export const PROCESS_HARMLESS: readonly string[] = [
  'cwd',
  'emitWarning',
  'nextTick',
  '_tickCallback',
  'getBuiltinModule',
  'hasUncaughtExceptionCaptureCallback',
  'assert',
  'getuid',
  'geteuid',
  'getgid',
  'getegid',
  'getgroups',
  'send',
  '_send',
  'disconnect',
  '_disconnect',
  'ref',
  'unref',
  'exit',
  'reallyExit',
  'abort',
  '_fatalException',
];

/** Randomness: a rerun would draw other numbers (prng, rng, pseudoRandomBytes: old names of randomBytes). */
export const CRYPTO_RANDOM: readonly string[] = [
  'randomBytes',
  'randomFillSync',
  'randomFill',
  'randomInt',
  'randomUUID',
  'getRandomValues',
  'generateKeyPair',
  'generateKeyPairSync',
  'generateKey',
  'generateKeySync',
  'generatePrime',
  'generatePrimeSync',
  'prng',
  'rng',
  'pseudoRandomBytes',
];

/**
 * crypto functions whose answer is a function of their arguments: hashes, MACs, key
 * derivation, ciphers with the caller's IV, parsing keys and certificates, verifying,
 * decrypting, lists of algorithms. `getRandomValues` is a getter whose function calls
 * the web crypto object's (wrapped). Every other crypto function (key generation, Diffie-
 * Hellman and ECDH key pairs, signing and public-key encryption, which pad or sign with
 * fresh randomness, engine and FIPS switches, new ones) makes the call not reusable.
 */
export const CRYPTO_DETERMINISTIC: readonly string[] = [
  'checkPrime',
  'checkPrimeSync',
  'createCipheriv',
  'createDecipheriv',
  'createCipher',
  'createDecipher',
  'createHash',
  'createHmac',
  'createPrivateKey',
  'createPublicKey',
  'createSecretKey',
  'createVerify',
  'diffieHellman',
  'getCipherInfo',
  'getCiphers',
  'getCurves',
  'getFips',
  'getHashes',
  'getRandomValues',
  'hash',
  'hkdf',
  'hkdfSync',
  'pbkdf2',
  'pbkdf2Sync',
  'privateDecrypt',
  'publicDecrypt',
  'scrypt',
  'scryptSync',
  'secureHeapUsed',
  'timingSafeEqual',
  'verify',
  'Certificate',
  'Cipher',
  'Cipheriv',
  'Decipher',
  'Decipheriv',
  'Hash',
  'Hmac',
  'KeyObject',
  'Verify',
  'X509Certificate',
];

/** SubtleCrypto methods whose answer is a function of their arguments; the rest generate, sign or encrypt with randomness. */
export const SUBTLE_DETERMINISTIC: readonly string[] = [
  'constructor',
  'decrypt',
  'deriveBits',
  'deriveKey',
  'digest',
  'exportKey',
  'importKey',
  'unwrapKey',
  'verify',
];

/**
 * Modules whose every function reaches outside the recorded filesystem (the network, a
 * new JavaScript realm with a clock of its own, the inspector): any use is not replayable.
 */
export const MODULES_NOT_REPLAYABLE: readonly string[] = [
  'node:dns',
  'node:dgram',
  'node:http',
  'node:https',
  'node:http2',
  'node:inspector',
  'node:net',
  'node:tls',
];

/** vm functions that make a new realm (with an unrecorded Date of its own). */
export const VM_NEW_REALM: readonly string[] = ['createContext', 'runInNewContext'];

/**
 * vm functions that run code in this realm (whose clocks and fs are wrapped) or in a
 * context createContext made; every other vm function (a new realm, measureMemory, the
 * module classes of --experimental-vm-modules, new ones) is not replayable.
 */
export const VM_HARMLESS: readonly string[] = [
  'Script',
  'compileFunction',
  'createScript',
  'isContext',
  'runInContext',
  'runInThisContext',
];

/** Methods of vm.Script (and its native base) that stay in an existing realm; runInNewContext makes one. */
export const VM_SCRIPT_HARMLESS: readonly string[] = [
  'constructor',
  'createCachedData',
  'runInContext',
  'runInThisContext',
];

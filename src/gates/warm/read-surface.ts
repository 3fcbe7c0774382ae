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
 */
export type Kind = 'content' | 'stat' | 'lstat' | 'list' | 'link' | 'entries';

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

/** Binding functions that neither read nor change anything a rerun would see. */
export const BINDING_HARMLESS: readonly string[] = ['close', 'fsync', 'fdatasync'];

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

/** Randomness: a rerun would draw other numbers. */
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

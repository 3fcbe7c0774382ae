import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { detectPackageManager, type PackageManager } from '../detect/package-manager.js';
import { toolOfProgram } from '../tools/index.js';
import { projectEnvironments } from './project-environments.js';

export type ResolvedCommand =
  | {
      ok: true;
      file: string;
      args: string[];
      via: string;
      /** Which environment the program was found in, and why that one (for `doctor`). */
      origin: string;
    }
  | {
      ok: false;
      /** `missing`: not found; `unsafe`: found where another user could have put it; `unrunnable`: found but cannot be started without a shell. */
      problem: 'missing' | 'unsafe' | 'unrunnable';
      program: string;
      reason: string;
      fix: string;
    };

/** Install hints for the package managers a script gate runs (the tools' own are in tools/). */
const PACKAGE_MANAGER_HINTS: Record<string, string> = {
  npm: 'install Node.js and npm, or set an absolute PATH in the host config',
  pnpm: 'install pnpm (corepack enable), or set an absolute PATH in the host config',
  yarn: 'install yarn (corepack enable), or set an absolute PATH in the host config',
  bun: 'install bun, or set an absolute PATH in the host config',
};

/**
 * Install hints for the runners a recipe, script or workflow step runs a check through,
 * each with its own ecosystem's installer; none of them lives in node_modules/.bin.
 */
const RUNNER_HINTS: Record<string, string> = {
  uv: 'install uv (pipx install uv, or https://docs.astral.sh/uv/getting-started/installation/) and put it on PATH',
  poetry: 'install Poetry (pipx install poetry) and put it on PATH',
  pdm: 'install PDM (pipx install pdm) and put it on PATH',
  hatch: 'install Hatch (pipx install hatch) and put it on PATH',
  pipenv: 'install Pipenv (pipx install pipenv) and put it on PATH',
  tox: 'install tox (pipx install tox, or pip install tox) and put it on PATH',
  nox: 'install nox (pipx install nox, or pip install nox) and put it on PATH',
  'pre-commit':
    'install pre-commit (pipx install pre-commit, or pip install pre-commit) and put it on PATH',
  python: 'install Python 3 and put it on PATH',
  python3: 'install Python 3 and put it on PATH',
  make: 'install make (Debian: apt-get install make; macOS: xcode-select --install)',
  just: 'install just (cargo install just, or your package manager) and put it on PATH',
  go: 'install Go (https://go.dev/dl/; Debian: apt-get install golang-go) and put it on PATH',
  cargo: 'install Rust with rustup (https://rustup.rs) and put ~/.cargo/bin on PATH',
};

/** Whether a missing program would come from npm: an npm tool, or one no ecosystem claims. */
function fromNpm(program: string): boolean {
  const tool = toolOfProgram(program);
  if (tool) return tool.install !== undefined && 'npmPackage' in tool.install;
  return !(program in RUNNER_HINTS);
}

/** A directory holding `name` (a file or a directory: `.git` is a file in worktrees). */
function holds(directory: string, name: string): boolean {
  return fs.existsSync(path.join(directory, name));
}

function readManifest(directory: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(
      fs.readFileSync(path.join(directory, 'package.json'), 'utf8'),
    );
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function declaresWorkspaces(directory: string): boolean {
  if (holds(directory, 'pnpm-workspace.yaml')) return true;
  const workspaces = readManifest(directory)?.workspaces;
  return workspaces !== undefined && workspaces !== null;
}

/**
 * The highest directory whose node_modules/.bin a gate of `root` may use: the root
 * itself, or the workspace root above it when the root is a package (package.json) of a
 * workspace (pnpm-workspace.yaml, or a package.json with `workspaces`). Never above the
 * nearest `.git`: a directory above the checkout (a shared /tmp, a home directory) is
 * not the project's, and whoever can write there must not choose our programs.
 */
export function findLookupBoundary(root: string): string {
  const start = path.resolve(root);
  // A checkout, a non-npm project, or a workspace root itself: nothing above is its own.
  if (holds(start, '.git') || !holds(start, 'package.json') || declaresWorkspaces(start))
    return start;
  let directory = start;
  for (;;) {
    const parent = path.dirname(directory);
    if (parent === directory) return start;
    directory = parent;
    if (declaresWorkspaces(directory)) return directory;
    if (holds(directory, '.git')) return start;
  }
}

/** node_modules/.bin of the root and each ancestor up to the lookup boundary, nearest first. */
export function nodeModulesBins(root: string): string[] {
  const boundary = findLookupBoundary(root);
  const bins: string[] = [];
  let directory = path.resolve(root);
  for (;;) {
    bins.push(path.join(directory, 'node_modules', '.bin'));
    const parent = path.dirname(directory);
    if (directory === boundary || parent === directory) return bins;
    directory = parent;
  }
}

interface ForeignWrite {
  problem: string;
  fix: string;
}

/**
 * Who may own a program we run: us, root, and the owner of the project root. The
 * project's owner already decides what its config and scripts run, so trusting their
 * files opens nothing new, and a checkout mounted into a container where we are root
 * (owned by the host user) keeps working.
 */
function trustedOwners(root: string): Set<number> {
  const owners = new Set([process.getuid!(), 0]);
  try {
    owners.add(fs.statSync(root).uid);
  } catch {
    // No root to read: only us and root.
  }
  return owners;
}

/** The entries of a colon-separated system database (/etc/group, /etc/passwd). */
function readDatabase(file: string): string[][] {
  try {
    return fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => line.split(':'));
  } catch {
    return [];
  }
}

const privateGroupCache = new Map<number, boolean>();

/**
 * Whether `gid` is our user-private group (Debian, Ubuntu and Fedora give each user a
 * group of their own name and a umask of 002, so npm installs group-writable files):
 * our primary group, named like us, with no other member and no other user's primary
 * group. Groups not listed in /etc/group (LDAP...) count as shared.
 */
function isOurPrivateGroup(gid: number): boolean {
  if (gid !== process.getgid?.()) return false;
  const cached = privateGroupCache.get(gid);
  if (cached !== undefined) return cached;
  const me = os.userInfo().username;
  const group = readDatabase('/etc/group').find((entry) => Number(entry[2]) === gid);
  const members = (group?.[3] ?? '').split(',').filter(Boolean);
  const sharedAsPrimary = readDatabase('/etc/passwd').some(
    (entry) => Number(entry[3]) === gid && entry[0] !== me,
  );
  const result =
    group !== undefined &&
    group[0] === me &&
    members.every((member) => member === me) &&
    !sharedAsPrimary;
  privateGroupCache.set(gid, result);
  return result;
}

/**
 * Why `target` could be replaced by another user, or undefined when it cannot: writable
 * by others, or by a group other than our private one (a directory with the sticky bit,
 * like /tmp, only lets others add entries of their own), or owned by a uid outside
 * `trusted`.
 */
function foreignWritable(target: string, trusted: ReadonlySet<number>): ForeignWrite | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    return undefined;
  }
  if (!trusted.has(stat.uid)) {
    const uid = process.getuid!();
    return {
      problem: `${target} is owned by uid ${stat.uid}, not by you (uid ${uid}), root or the project's owner`,
      fix: `remove it if you did not put it there; if it is yours, chown ${uid} ${target}`,
    };
  }
  const sticky = stat.isDirectory() && (stat.mode & 0o1000) !== 0;
  const writableByOthers =
    (stat.mode & 0o002) !== 0 || ((stat.mode & 0o020) !== 0 && !isOurPrivateGroup(stat.gid));
  if (writableByOthers && !sticky) {
    const mode = `mode ${(stat.mode & 0o7777).toString(8)}`;
    const who =
      (stat.mode & 0o002) !== 0 ? `everyone (${mode})` : `its group (gid ${stat.gid}, ${mode})`;
    return {
      problem: `${target} is writable by ${who}`,
      fix: `chmod go-w ${target} if it is yours; remove it if you did not put it there`,
    };
  }
  return undefined;
}

/** `from` and each directory above it up to and including `top` (or the filesystem root). */
function directoriesUpTo(from: string, top: string): string[] {
  const directories: string[] = [];
  for (let current = from; ; current = path.dirname(current)) {
    directories.push(current);
    if (current === top || path.dirname(current) === current) return directories;
  }
}

/**
 * The first reason another user could have put or changed a program found as `file` in
 * `bin` (a node_modules/.bin of `root` or of a directory above it): the file (followed
 * through its symlink), every directory from `bin` up to the lookup boundary, and, when
 * the link leads into the same tree (.bin/eslint -> ../eslint/bin/eslint.js), the
 * directories of its target too.
 */
function unsafeProgram(file: string, bin: string, root: string): ForeignWrite | undefined {
  // Windows has no POSIX modes or uids to read here (ACLs decide): nothing is checked.
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return undefined;
  const boundary = findLookupBoundary(root);
  const targets = [file, ...directoriesUpTo(bin, boundary)];
  try {
    const real = fs.realpathSync(file);
    const realTop = fs.realpathSync(boundary);
    if (real.startsWith(`${realTop}${path.sep}`))
      targets.push(...directoriesUpTo(path.dirname(real), realTop));
  } catch {
    // A link that no longer resolves is not executable either; the lookup moves on.
  }
  const trusted = trustedOwners(root);
  for (const target of targets) {
    const problem = foreignWritable(target, trusted);
    if (problem) return problem;
  }
  return undefined;
}

/** A directory of the project's own programs, and why it is searched first. */
interface ProjectBin {
  bin: string;
  why: string;
}

/**
 * The project's own program directories, nearest and most specific first: its Python
 * environments (project-environments.ts), then node_modules/.bin up to the lookup boundary.
 */
export function projectBins(root: string, env: NodeJS.ProcessEnv): ProjectBin[] {
  return [
    ...projectEnvironments(root, env),
    ...nodeModulesBins(root).map((bin) => ({ bin, why: `the project's ${bin}` })),
  ];
}

/**
 * The directories searched, in order: the project's own (projectBins), PATH, then
 * ~/.cargo/bin and ~/go/bin (GUI hosts often start servers with a bare PATH). PATH is the
 * user's own choice and is taken as given.
 */
export function searchDirectories(root: string, env: NodeJS.ProcessEnv): string[] {
  const pathVariable = env.PATH ?? env.Path ?? '';
  const home = os.homedir();
  const directories = [
    ...projectBins(root, env).map((entry) => entry.bin),
    ...pathVariable.split(path.delimiter).filter(Boolean),
    path.join(home, '.cargo', 'bin'),
    path.join(home, 'go', 'bin'),
  ];
  return [...new Set(directories)];
}

/**
 * The PATH a gate's process gets: the same search order, so its children find the same
 * tools, less any node_modules/.bin another user could write to.
 */
export function childPathValue(root: string, env: NodeJS.ProcessEnv): string {
  const unsafeBins = new Set(
    projectBins(root, env)
      .map((entry) => entry.bin)
      .filter((bin) => fs.existsSync(bin) && unsafeProgram(bin, bin, root)),
  );
  return searchDirectories(root, env)
    .filter((directory) => !unsafeBins.has(directory))
    .join(path.delimiter);
}

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (process.platform === 'win32') return true;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// npm's cmd-shim: `"%_prog%"  "%dp0%\..\eslint\bin\eslint.js" %*`; Node's own npm.cmd sets
// NPM_PREFIX_JS=...npm-prefix.js and then NPM_CLI_JS=%~dp0\node_modules\npm\bin\npm-cli.js.
const SHIM_SCRIPT = /%~?dp0%?\\?([^"%\r\n]+?\.[cm]?js)\b/gi;

/**
 * The script an npm-style .cmd shim runs, relative to the shim's directory (with
 * backslashes), or undefined when the batch file is not such a shim. When it names
 * several (npm.cmd), the `*-cli.js` one is the program.
 */
export function windowsShimScript(text: string): string | undefined {
  const scripts = [...text.matchAll(SHIM_SCRIPT)].map((match) => match[1]!);
  return scripts.find((script) => /-cli\.[cm]?js$/i.test(script)) ?? scripts[0];
}

/**
 * Windows: a .cmd/.bat cannot be spawned without a shell (EINVAL since Node's
 * CVE-2024-27980 fix), and we never use one. npm-style shims name the script they run,
 * so we run that script with this node instead.
 */
function resolveWindowsShim(shim: string, args: string[], origin: string): ResolvedCommand {
  const relative = windowsShimScript(fs.readFileSync(shim, 'utf8'));
  if (relative) {
    const script = path.resolve(path.dirname(shim), relative.replace(/\\/g, path.sep));
    if (fs.existsSync(script))
      return { ok: true, file: process.execPath, args: [script, ...args], via: shim, origin };
  }
  const program = path.basename(shim);
  return {
    ok: false,
    problem: 'unrunnable',
    program,
    reason: `${shim} is a batch file that mcp-gates cannot run without a shell`,
    fix: `set the gate's command in mcp-gates.json to the program itself, e.g. ["node", "path/to/script.js", ...] or an .exe`,
  };
}

function declaredIn(
  manifest: Record<string, unknown> | undefined,
  name: string,
): string | undefined {
  for (const field of ['dependencies', 'devDependencies'] as const) {
    const table = manifest?.[field];
    if (table !== null && typeof table === 'object' && Object.hasOwn(table, name)) return field;
  }
  return undefined;
}

function packageManagerOf(boundary: string, manifest = readManifest(boundary)): PackageManager {
  return detectPackageManager(boundary, manifest);
}

/** What installs the declared packages of `root` (run at its workspace root), e.g. `pnpm install`. */
export function installCommand(root: string): string {
  return `${packageManagerOf(findLookupBoundary(root))} install`;
}

const ADD_DEV: Record<PackageManager, string> = {
  npm: 'npm install --save-dev',
  pnpm: 'pnpm add --save-dev',
  yarn: 'yarn add --dev',
  bun: 'bun add --dev',
};

/**
 * How to get a missing program: `<manager> install` when the project (or its workspace
 * root) already declares the package, so only the install is missing; adding it as a dev
 * dependency only when it is not declared; the tool's own installer for non-npm tools.
 */
export function installFix(program: string, root: string): string {
  const boundary = findLookupBoundary(root);
  const workspaceManifest = readManifest(boundary);
  const manager = packageManagerOf(boundary, workspaceManifest);
  const tool = toolOfProgram(program);
  const npmPackage =
    tool?.install && 'npmPackage' in tool.install ? tool.install.npmPackage : undefined;
  const name = npmPackage ?? program;
  for (const directory of new Set([path.resolve(root), boundary])) {
    const field = declaredIn(
      directory === boundary ? workspaceManifest : readManifest(directory),
      name,
    );
    if (field)
      return `${name} is declared in ${path.join(directory, 'package.json')} (${field}) but not installed: run \`${manager} install\` in ${boundary}`;
  }
  if (npmPackage !== undefined) return `${ADD_DEV[manager]} ${name}`;
  const hint = tool?.install && 'hint' in tool.install ? tool.install.hint : undefined;
  return (
    hint ??
    PACKAGE_MANAGER_HINTS[program] ??
    RUNNER_HINTS[program] ??
    `install ${program}, or change the gate's command in mcp-gates.json`
  );
}

/**
 * Finds the program of `argv` as the repository would: its own node_modules/.bin first
 * (up to the lookup boundary), then PATH. Never installs anything (no npx). A program
 * given with a path separator is taken relative to the root. A program in a
 * node_modules/.bin that another user could have written is refused, not run.
 */
export function resolveCommand(
  argv: readonly string[],
  root: string,
  env: NodeJS.ProcessEnv,
): ResolvedCommand {
  const [program, ...args] = argv;
  if (program === undefined)
    return {
      ok: false,
      problem: 'missing',
      program: '',
      reason: 'the command is empty',
      fix: 'give the gate a command',
    };
  const windows = process.platform === 'win32';
  // Windows: npm puts an extensionless sh script beside each .cmd shim in .bin; only a
  // name that already has an extension may match as given.
  const extensions =
    windows && path.extname(program) === ''
      ? (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD')
          .split(';')
          .filter(Boolean)
          .map((ext) => ext.toLowerCase())
      : [''];
  const candidates = (base: string) => extensions.map((ext) => `${base}${ext}`);
  const found = (file: string, origin: string): ResolvedCommand => {
    if (windows && /\.(cmd|bat)$/i.test(file)) return resolveWindowsShim(file, args, origin);
    return { ok: true, file, args, via: file, origin };
  };
  if (program.includes('/') || (windows && program.includes('\\'))) {
    const base = path.resolve(root, program);
    const file = candidates(base).find(isExecutableFile);
    if (file) return found(file, "the path the gate's command gives");
    return {
      ok: false,
      problem: 'missing',
      program,
      reason: `${base} does not exist or is not executable`,
      fix: `check the path in the gate's command (relative paths are resolved against ${root})`,
    };
  }
  const own = projectBins(root, env);
  for (const { bin, why } of own) {
    const file = candidates(path.join(bin, program)).find(isExecutableFile);
    if (!file) continue;
    const unsafe = unsafeProgram(file, bin, root);
    if (unsafe) {
      return {
        ok: false,
        problem: 'unsafe',
        program,
        reason: `refusing to run ${file}: ${unsafe.problem}, so another user could have put it there or changed it`,
        fix: unsafe.fix,
      };
    }
    return found(file, why);
  }
  const bins = new Set(own.map((entry) => entry.bin));
  const onPath = new Set((env.PATH ?? env.Path ?? '').split(path.delimiter));
  // A Go or Python program is never in node_modules/.bin: only its own kind of place is named.
  const npm = fromNpm(program.toLowerCase());
  const ownPlaces = own
    .filter((entry) => npm || path.basename(path.dirname(entry.bin)) !== 'node_modules')
    .map((entry) => entry.bin);
  const notOwn =
    ownPlaces.length > 0
      ? `: not in the project's own environments (${[...new Set(ownPlaces)].join(', ')})`
      : '';
  for (const directory of searchDirectories(root, env)) {
    if (bins.has(directory)) continue;
    const file = candidates(path.join(directory, program)).find(isExecutableFile);
    if (file) return found(file, `${onPath.has(directory) ? 'PATH' : directory}${notOwn}`);
  }
  const boundary = findLookupBoundary(root);
  // Only where the program's own installer puts it is worth naming: a Go or Python
  // program is never in node_modules/.bin.
  const where = fromNpm(program.toLowerCase())
    ? `in ${
        boundary === path.resolve(root)
          ? path.join(root, 'node_modules', '.bin')
          : `node_modules/.bin from ${root} up to the workspace root ${boundary}`
      } nor on PATH`
    : `on PATH nor in ${[
        ...projectEnvironments(root, env).map((entry) => entry.bin),
        path.join(os.homedir(), 'go', 'bin'),
        path.join(os.homedir(), '.cargo', 'bin'),
      ].join(', ')}`;
  return {
    ok: false,
    problem: 'missing',
    program,
    reason: `\`${program}\` was not found ${where}`,
    fix: `${installFix(program.toLowerCase(), root)}; mcp-gates never downloads tools${fromNpm(program.toLowerCase()) ? ' (no npx auto-install)' : ''}`,
  };
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type ResolvedCommand =
  | { ok: true; file: string; args: string[]; via: string }
  | { ok: false; program: string; reason: string; fix: string };

const INSTALL_HINTS: Record<string, string> = {
  eslint: 'npm install --save-dev eslint',
  prettier: 'npm install --save-dev prettier',
  tsc: 'npm install --save-dev typescript',
  biome: 'npm install --save-dev @biomejs/biome',
  oxlint: 'npm install --save-dev oxlint',
  oxfmt: 'npm install --save-dev oxfmt',
  xo: 'npm install --save-dev xo',
  stylelint: 'npm install --save-dev stylelint',
  vitest: 'npm install --save-dev vitest',
  pyright:
    'install pyright in the project (npm install --save-dev pyright, or pip install pyright)',
  mypy: 'install mypy in the project (uv add --dev mypy, or pip install mypy) and put its bin directory on PATH',
  cargo:
    'install Rust with rustup (https://rustup.rs), or put ~/.cargo/bin on the PATH the host gives the server',
  ruff: 'install ruff in the project (uv add --dev ruff, or pip install ruff) and put its bin directory on PATH',
  go: 'install Go and put it on the PATH the host gives the server',
  gofmt: 'install Go and put it on the PATH the host gives the server',
  npm: 'install Node.js and npm, or set an absolute PATH in the host config',
  pnpm: 'install pnpm (corepack enable), or set an absolute PATH in the host config',
  yarn: 'install yarn (corepack enable), or set an absolute PATH in the host config',
  bun: 'install bun, or set an absolute PATH in the host config',
};

/** node_modules/.bin of the root and every ancestor (what `npm run` puts on PATH). */
export function nodeModulesBins(root: string): string[] {
  const bins: string[] = [];
  let directory = path.resolve(root);
  for (;;) {
    bins.push(path.join(directory, 'node_modules', '.bin'));
    const parent = path.dirname(directory);
    if (parent === directory) return bins;
    directory = parent;
  }
}

/**
 * The directories searched, in order: node_modules/.bin up from the root, PATH, then
 * ~/.cargo/bin and ~/go/bin (GUI hosts often start servers with a bare PATH).
 */
export function searchDirectories(root: string, env: NodeJS.ProcessEnv): string[] {
  const pathVariable = env.PATH ?? env.Path ?? '';
  const home = os.homedir();
  const directories = [
    ...nodeModulesBins(root),
    ...pathVariable.split(path.delimiter).filter(Boolean),
    path.join(home, '.cargo', 'bin'),
    path.join(home, 'go', 'bin'),
  ];
  return [...new Set(directories)];
}

/** The PATH a gate's process gets: the same search order, so its children find the same tools. */
export function childPathValue(root: string, env: NodeJS.ProcessEnv): string {
  return searchDirectories(root, env).join(path.delimiter);
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
function resolveWindowsShim(shim: string, args: string[]): ResolvedCommand {
  const relative = windowsShimScript(fs.readFileSync(shim, 'utf8'));
  if (relative) {
    const script = path.resolve(path.dirname(shim), relative.replace(/\\/g, path.sep));
    if (fs.existsSync(script))
      return { ok: true, file: process.execPath, args: [script, ...args], via: shim };
  }
  const program = path.basename(shim);
  return {
    ok: false,
    program,
    reason: `${shim} is a batch file that mcp-gates cannot run without a shell`,
    fix: `set the gate's command in mcp-gates.json to the program itself, e.g. ["node", "path/to/script.js", ...] or an .exe`,
  };
}

/**
 * Finds the program of `argv` as the repository would: its own node_modules/.bin first,
 * then PATH. Never installs anything (no npx). A program given with a path separator is
 * taken relative to the root.
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
  const found = (file: string): ResolvedCommand => {
    if (windows && /\.(cmd|bat)$/i.test(file)) return resolveWindowsShim(file, args);
    return { ok: true, file, args, via: file };
  };
  if (program.includes('/') || (windows && program.includes('\\'))) {
    const base = path.resolve(root, program);
    const file = candidates(base).find(isExecutableFile);
    if (file) return found(file);
    return {
      ok: false,
      program,
      reason: `${base} does not exist or is not executable`,
      fix: `check the path in the gate's command (relative paths are resolved against ${root})`,
    };
  }
  for (const directory of searchDirectories(root, env)) {
    const file = candidates(path.join(directory, program)).find(isExecutableFile);
    if (file) return found(file);
  }
  const hint =
    INSTALL_HINTS[program.toLowerCase()] ??
    `install ${program}, or change the gate's command in mcp-gates.json`;
  return {
    ok: false,
    program,
    reason: `\`${program}\` was not found in ${path.join(root, 'node_modules', '.bin')} (or its ancestors' node_modules/.bin) nor on PATH`,
    fix: `${hint}; mcp-gates never downloads tools (no npx auto-install)`,
  };
}

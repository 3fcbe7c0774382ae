import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The project's own environments whose programs a gate runs before PATH's: a virtual
 * environment in the project (`.venv`/`venv`, which uv and Poetry's in-project setting
 * create), the one UV_PROJECT_ENVIRONMENT names, and Poetry's environment for the project
 * in its cache. Found from files only: no `poetry env info`, no network.
 */
export interface ProjectEnvironment {
  /** The directory its programs are in (bin/, Scripts/ on Windows). */
  bin: string;
  /** Which environment, and why it was chosen, for `doctor`. */
  why: string;
}

const BIN = process.platform === 'win32' ? 'Scripts' : 'bin';

/** A virtual environment: pyvenv.cfg beside its bin directory. */
function isVirtualEnvironment(directory: string): boolean {
  return (
    fs.existsSync(path.join(directory, 'pyvenv.cfg')) && fs.existsSync(path.join(directory, BIN))
  );
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** A table's `key = "value"` in TOML text, read without a TOML parser (first match). */
function tomlString(text: string, table: string, key: string): string | undefined {
  const escaped = table.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const start = text.search(new RegExp(`^\\s*\\[${escaped}\\]\\s*$`, 'm'));
  if (start === -1) return undefined;
  const rest = text.slice(start).split(/\r?\n/).slice(1);
  for (const line of rest) {
    if (/^\s*\[/.test(line)) return undefined;
    const match = new RegExp(`^\\s*${key}\\s*=\\s*["']([^"']*)["']`).exec(line);
    if (match) return match[1];
  }
  return undefined;
}

/** Where Poetry keeps its environments (POETRY_VIRTUALENVS_PATH, else its cache directory). */
function poetryVirtualenvsPath(env: NodeJS.ProcessEnv): string {
  if (env.POETRY_VIRTUALENVS_PATH) return env.POETRY_VIRTUALENVS_PATH;
  if (env.POETRY_CACHE_DIR) return path.join(env.POETRY_CACHE_DIR, 'virtualenvs');
  const home = os.homedir();
  const cache =
    process.platform === 'win32'
      ? path.join(env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'pypoetry', 'Cache')
      : process.platform === 'darwin'
        ? path.join(home, 'Library', 'Caches', 'pypoetry')
        : path.join(env.XDG_CACHE_HOME ?? path.join(home, '.cache'), 'pypoetry');
  return path.join(cache, 'virtualenvs');
}

/**
 * Poetry's name for a project's environment (poetry's EnvManager.generate_env_name): the
 * package name, sanitised and cut to 42 characters, then the first 8 characters of the
 * url-safe base64 SHA-256 of the project's real path.
 */
export function poetryEnvironmentName(name: string, root: string): string {
  const sanitised = name
    .toLowerCase()
    .replace(/[ $`!*@"\\\r\n\t]/g, '_')
    .slice(0, 42);
  let real = fs.realpathSync(root);
  if (process.platform === 'win32') real = real.toLowerCase().replace(/\//g, '\\');
  const hash = createHash('sha256').update(real).digest('base64url').slice(0, 8);
  return `${sanitised}-${hash}`;
}

/** Poetry's environment of a Poetry project, when one exists for it. */
function poetryEnvironment(root: string, env: NodeJS.ProcessEnv): ProjectEnvironment | undefined {
  const pyproject = readText(path.join(root, 'pyproject.toml'));
  if (pyproject === undefined || !/^\s*\[tool\.poetry\]/m.test(pyproject)) return undefined;
  const name =
    tomlString(pyproject, 'tool.poetry', 'name') ?? tomlString(pyproject, 'project', 'name');
  if (!name) return undefined;
  const store = poetryVirtualenvsPath(env);
  const prefix = `${poetryEnvironmentName(name, root)}-py`;
  let candidates: string[];
  try {
    candidates = fs
      .readdirSync(store)
      .filter((entry) => entry.startsWith(prefix))
      .sort();
  } catch {
    return undefined;
  }
  // envs.toml records the Python version `poetry env use` chose.
  const chosen = tomlString(
    readText(path.join(store, 'envs.toml')) ?? '',
    prefix.slice(0, -3),
    'minor',
  );
  const pick =
    (chosen !== undefined && candidates.find((entry) => entry === `${prefix}${chosen}`)) ||
    candidates.at(-1);
  if (!pick || !isVirtualEnvironment(path.join(store, pick))) return undefined;
  return {
    bin: path.join(store, pick, BIN),
    why: `Poetry's environment for this project (${path.join(store, pick)}: pyproject.toml has [tool.poetry], named "${name}")`,
  };
}

/** The project's environments, in the order their programs are preferred. */
export function projectEnvironments(root: string, env: NodeJS.ProcessEnv): ProjectEnvironment[] {
  const found: ProjectEnvironment[] = [];
  const seen = new Set<string>();
  const add = (directory: string, why: string) => {
    const resolved = path.resolve(root, directory);
    if (seen.has(resolved) || !isVirtualEnvironment(resolved)) return;
    seen.add(resolved);
    found.push({ bin: path.join(resolved, BIN), why });
  };
  if (env.UV_PROJECT_ENVIRONMENT)
    add(
      env.UV_PROJECT_ENVIRONMENT,
      `uv's project environment (UV_PROJECT_ENVIRONMENT=${env.UV_PROJECT_ENVIRONMENT})`,
    );
  for (const name of ['.venv', 'venv'])
    add(name, `the project's virtual environment ${name} (it holds pyvenv.cfg)`);
  const poetry = found.length === 0 ? poetryEnvironment(root, env) : undefined;
  if (poetry) found.push(poetry);
  return found;
}

import { commandParser } from './scripts.js';

/**
 * How a command written in a gate source (a Make or just recipe, a tox env, a pre-commit
 * entry, a workflow step) reads: the program a runner wraps, and whether it only reads
 * the tree. One reader for every source, so each judges a command alike.
 */

/** Runners that run a program of the project's environment: their argv is the program's. */
export function unwrap(words: string[]): string[] {
  const prefixes = [
    ['uv', 'run'],
    ['poetry', 'run'],
    ['pipenv', 'run'],
    ['pdm', 'run'],
    ['hatch', 'run'],
    ['pnpm', 'exec'],
    ['yarn', 'exec'],
    ['npm', 'exec'],
    ['npx'],
    ['bunx'],
    ['python', '-m'],
    ['python3', '-m'],
  ];
  for (const prefix of prefixes) {
    if (prefix.every((word, index) => words[index] === word))
      return unwrap(words.slice(prefix.length).filter((word, index) => index > 0 || word !== '--'));
  }
  return words;
}

/** A program run with none of the given flags (any `--flag=…` form counts). */
function without(args: readonly string[], ...flags: string[]): boolean {
  return !args.some((arg) => flags.some((flag) => arg === flag || arg.startsWith(`${flag}=`)));
}

function has(args: readonly string[], ...flags: string[]): boolean {
  return !without(args, ...flags);
}

/**
 * Whether a program with these arguments only reads the tree (caches aside): the known
 * linters, typecheckers and formatters in their check modes. Anything else may write.
 */
export function readOnlyProgram(argv: readonly string[], ruffFixes: boolean): boolean {
  const [program, ...args] = argv;
  if (program === undefined) return true;
  if (commandParser(argv) !== undefined) return true;
  switch (program) {
    case 'echo':
    case 'printf':
    case 'true':
    case ':':
    case 'cd':
    case 'test':
      return true;
    case 'mypy':
    case 'pyright':
    case 'basedpyright':
    case 'flake8':
    case 'pylint':
    case 'pyflakes':
    case 'pycodestyle':
    case 'pydocstyle':
    case 'bandit':
    case 'vulture':
    case 'shellcheck':
    case 'hadolint':
    case 'yamllint':
    case 'staticcheck':
    case 'tsgo':
      return program !== 'tsgo' || has(args, '--noEmit');
    case 'codespell':
      return without(args, '-w', '--write-changes');
    case 'ruff':
      if (args[0] === 'format') return has(args, '--check', '--diff');
      // `ruff check` applies fixes when asked, or when its config says `fix = true`.
      return (
        args[0] === 'check' &&
        without(args, '--fix') &&
        (!ruffFixes || has(args, '--no-fix', '--diff'))
      );
    case 'black':
      return has(args, '--check', '--diff');
    case 'isort':
      return has(args, '--check', '--check-only', '-c', '--diff');
    case 'golangci-lint':
      return args[0] === 'run' && without(args, '--fix');
    case 'gofmt':
      return without(args, '-w');
    case 'go':
      return args[0] === 'vet';
    case 'cargo':
      return (
        (args[0] === 'clippy' && without(args, '--fix')) ||
        (args[0] === 'fmt' && has(args, '--check'))
      );
    case 'deno':
      return (
        (args[0] === 'lint' && without(args, '--fix')) ||
        (args[0] === 'fmt' && has(args, '--check')) ||
        args[0] === 'check'
      );
    default:
      return false;
  }
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  captureProcessOutput,
  optionValues,
  resolveInstalledPackage,
  type ToolAdapter,
  type ToolOutcome,
} from './tool-adapter.js';

/**
 * Prettier kept warm: the repository's own prettier 3 CLI module, loaded once and run
 * in process for each call. The CLI itself expands files, directories and globs, reads
 * .prettierignore/.gitignore and resolves each file's config, so the file set and the
 * messages are the cold command's by construction; what stays warm is the loaded
 * prettier and its plugins. Only read-only checks are served (--check, --list-different).
 */

interface PrettierCli {
  run(rawArguments: string[]): Promise<void>;
}

/** Arguments that write files, read stdin or answer something other than a check. */
const COLD_ONLY_ARGUMENT =
  /^(--write|-w|--cache.*|--stdin-filepath.*|--find-config-path.*|--file-info.*|--support-info|--help|-h|--version|-v|--experimental-cli|--debug-.*)$/;
const CHECK_ARGUMENT = /^(--check|-c|--list-different|-l)$/;

export async function loadPrettierAdapter(root: string): Promise<ToolAdapter | string> {
  const installed = resolveInstalledPackage(root, 'prettier');
  if (typeof installed === 'string') return installed;
  const cliFile = path.join(installed.directory, 'internal', 'legacy-cli.mjs');
  if (installed.major !== 3 || !existsSync(cliFile)) {
    return `prettier ${installed.version} is not one warm gates know (prettier 3 is)`;
  }
  const cli = (await import(pathToFileURL(cliFile).href)) as PrettierCli;

  const run = async (args: string[]): Promise<ToolOutcome> => {
    const coldOnly = args.find((argument) => COLD_ONLY_ARGUMENT.test(argument));
    if (coldOnly) return { notWarmable: `prettier ${coldOnly} runs cold` };
    if (!args.some((argument) => CHECK_ARGUMENT.test(argument))) {
      return { notWarmable: 'only prettier --check and --list-different run warm' };
    }
    process.exitCode = undefined;
    const captured = await captureProcessOutput(() => cli.run(args));
    const exitCode = Number(process.exitCode ?? 0);
    process.exitCode = undefined;
    return { exitCode, stdout: captured.stdout, stderr: captured.stderr, order: captured.order };
  };
  const configFilesNamed = (args: string[]) =>
    optionValues(root, args, ['--config', '--ignore-path']);
  return { run, configFilesNamed };
}

#!/usr/bin/env node
import { closestName } from '../gates/closest-name.js';
import { GatesError } from '../gates/gates-error.js';
import { parseCliArguments, type CliArguments } from './cli-arguments.js';
import { processOutput, type CliOutput } from './cli-output.js';
import { hookCommand, hookUsageAnswer } from './commands/hook.js';
import { helpText } from './help-text.js';
import { COMMANDS, type CommandName } from './cli-arguments.js';
import { packageVersion } from './package-version.js';

const USAGE_EXIT_CODE = 2;

/**
 * Runs a command, its module loaded only then: a command hook runs on every edit of a
 * session, and one the server answers needs none of the gate code the others load.
 */
async function dispatch(args: CliArguments, output: CliOutput): Promise<number> {
  switch (args.command) {
    case 'serve':
      return (await import('./commands/serve.js')).serveCommand(args);
    case 'list':
      return (await import('./commands/list.js')).listCommand(args, output);
    case 'run':
      return (await import('./commands/run.js')).runCommand(args, output);
    case 'check':
      return (await import('./commands/run.js')).checkCommand(args, output);
    case 'baseline':
      return (await import('./commands/run.js')).baselineCommand(args, output);
    case 'init':
      return (await import('./commands/init.js')).initCommand(args, output);
    case 'doctor':
      return (await import('./commands/doctor.js')).doctorCommand(args, output);
    case 'hook':
      return hookCommand(args, output);
    case 'help': {
      const topic = args.positionals[0];
      if (topic && !(COMMANDS as readonly string[]).includes(topic)) {
        const close = closestName(topic, COMMANDS);
        throw new GatesError('EGATES_USAGE', `no help for "${topic}"`, {
          fix: `${close ? `did you mean \`mcp-gates help ${close}\`? ` : ''}commands: ${COMMANDS.join(', ')}`,
        });
      }
      output.out(helpText(topic as CommandName | undefined));
      return 0;
    }
  }
}

async function main(argv: readonly string[], output: CliOutput): Promise<number> {
  try {
    const args = parseCliArguments(argv);
    if (args.version) {
      output.out(packageVersion());
      return 0;
    }
    if (args.help) {
      output.out(
        helpText(args.command === 'serve' && !argv.includes('serve') ? undefined : args.command),
      );
      return 0;
    }
    return await dispatch(args, output);
  } catch (error) {
    if (!(error instanceof GatesError)) throw error;
    // A host reads a hook's exit code 2 as a block: a hook's command line is answered instead.
    const hook = hookUsageAnswer(argv, output, error.message);
    if (hook !== undefined) return hook;
    output.err(`mcp-gates: ${error.message}`);
    return error.code === 'EGATES_NOTHING_DETECTED' ? 1 : USAGE_EXIT_CODE;
  }
}

// A reader that stops early (`mcp-gates list | head`) closes the pipe: stop quietly with
// the status a shell gives a program its pipe ended (128 + SIGPIPE), not a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(141);
});

main(process.argv.slice(2), processOutput).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `mcp-gates: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 70;
  },
);

/** Where the CLI's human output goes. Only list/run/init/doctor write to stdout; never serve. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

export const processOutput: CliOutput = {
  out: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

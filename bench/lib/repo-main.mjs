// The command line of the large-repository benches (issue 30): `node bench/vue.mjs` and
// `node bench/repo.mjs --repo NAME` run this with their repository.
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { VUE_FAMILIES, benchRepo } from './vue-bench.mjs';
import { largeReportText, renderRepoReport, spliceLargeReport } from './report.mjs';

/**
 * Runs the bench of repository `name` with the command line `argv` (`command` is how the
 * report names the run): [--rounds 3] [--families ...] [--peaks] [--results PATH] [--json]
 * [--phases].
 */
export async function benchMain(name, argv, command) {
  const { values } = parseArgs({
    args: argv,
    options: {
      rounds: { type: 'string', default: '3' },
      families: { type: 'string' },
      results: { type: 'string' },
      json: { type: 'boolean', default: false },
      peaks: { type: 'boolean' },
      phases: { type: 'boolean', default: false },
    },
  });
  // Hook calls answer with where their time went (phase-timing.ts): serve reads it from here.
  if (values.phases) process.env.MCP_GATES_TIMING = '1';
  const families = values.families?.split(',') ?? VUE_FAMILIES;
  const unknown = families.filter((family) => !VUE_FAMILIES.includes(family));
  if (unknown.length > 0) {
    process.stderr.write(
      `bench: unknown families ${unknown.join(', ')} (${VUE_FAMILIES.join(', ')})\n`,
    );
    process.exit(2);
  }
  const resultsPath =
    values.results ??
    (values.families ? undefined : fileURLToPath(new URL('../RESULTS.md', import.meta.url)));
  const progress = (line) => process.stderr.write(`bench: ${line}\n`);
  const load = () =>
    os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');

  const meta = {
    date: new Date().toISOString(),
    command: `${command} ${argv.join(' ')}`.trim(),
    cores: os.availableParallelism(),
    node: process.version,
    load: load(),
  };
  const figures = await benchRepo(
    name,
    { rounds: Number(values.rounds), families, peaks: values.peaks ?? !values.families },
    progress,
  );
  figures.loadAfter = load();
  const parts = renderRepoReport(name, { meta, figures });
  if (resultsPath) {
    const existing = fs.existsSync(resultsPath) ? fs.readFileSync(resultsPath, 'utf8') : '';
    fs.writeFileSync(resultsPath, spliceLargeReport(existing, parts));
    progress(`wrote ${resultsPath}`);
  }
  process.stdout.write(
    values.json
      ? `${JSON.stringify({ meta, [name]: figures }, null, 2)}\n`
      : `${largeReportText(parts)}\n`,
  );
}

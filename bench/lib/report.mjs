// Renders a run's figures as markdown tables: printed, and written to bench/RESULTS.md.
import { SERVERS } from './servers.mjs';

const MB = 2 ** 20;

function table(header, rows) {
  const lines = [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
  ];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}

const fixed = (value, digits) =>
  value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);
const thousands = (value) =>
  value === undefined ? '–' : Math.round(value).toLocaleString('en-US');
const label = (id) => SERVERS.find((server) => server.id === id)?.label ?? id;

function protocolTable(figures) {
  const rows = Object.entries(figures).map(([id, f]) => [
    label(id),
    fixed(f.coldStartMs, 0),
    fixed(f.idleRssBytes / MB, 1),
    thousands(f.seq.requestsPerSecond),
    fixed(f.seq.p50Ms, 3),
    fixed(f.seq.p99Ms, 3),
    thousands(f.pipe.requestsPerSecond),
    fixed(f.pipe.p50Ms, 1),
    fixed(f.pipe.p99Ms, 1),
    fixed(f.peakRssBytes / MB, 1),
  ]);
  return table(
    [
      'server',
      'cold start ms',
      'idle RSS MB',
      'seq req/s',
      'seq p50 ms',
      'seq p99 ms',
      'pipe req/s',
      'pipe p50 ms',
      'pipe p99 ms',
      'peak RSS MB',
    ],
    rows,
  );
}

/** Ours (capture on and off) divided by each other server, per figure. */
function ratioTable(figures) {
  const others = Object.keys(figures).filter((id) => !id.startsWith('ours'));
  const rows = [];
  for (const id of ['ours', 'ours-nocapture'].filter((ours) => figures[ours])) {
    const ours = figures[id];
    for (const other of others) {
      const them = figures[other];
      rows.push([
        `${label(id)} / ${label(other)}`,
        fixed(ours.pipe.requestsPerSecond / them.pipe.requestsPerSecond, 2),
        fixed(ours.seq.requestsPerSecond / them.seq.requestsPerSecond, 2),
        fixed(ours.seq.p50Ms / them.seq.p50Ms, 2),
        fixed(ours.coldStartMs / them.coldStartMs, 2),
        fixed(ours.idleRssBytes / them.idleRssBytes, 2),
        fixed(ours.peakRssBytes / them.peakRssBytes, 2),
      ]);
    }
  }
  return table(
    ['ratio', 'pipe req/s', 'seq req/s', 'seq p50', 'cold start', 'idle RSS', 'peak RSS'],
    rows,
  );
}

function targetTable(targets) {
  const rows = targets.map((target) => {
    if (target.skipped) return [target.name, '–', '–', `skipped: ${target.skipped}`];
    const digits = target.unit === 'x' ? 2 : 1;
    return [
      target.name,
      `${fixed(target.value, digits)} ${target.unit}`,
      `${target.atMost ? '≤' : '≥'} ${target.limit} ${target.unit}`,
      target.pass ? 'PASS' : '**MISS**',
    ];
  });
  return table(['target', 'measured', 'limit', 'verdict'], rows);
}

const ratioText = (value, reference) => `${fixed(value / reference, 2)}x`;

/** The `check` tool beside each gate alone and the gates one after the other (issue 10). */
export function checkTable(figures) {
  const rows = Object.entries(figures.gates).map(([name, gate]) => [
    `${name} alone (\`${gate.label}\`)`,
    fixed(gate.aloneMs, 0),
    ratioText(gate.aloneMs, figures.slowestAloneMs),
  ]);
  rows.push(
    [
      'gates one after the other',
      fixed(figures.sequentialMs, 0),
      ratioText(figures.sequentialMs, figures.slowestAloneMs),
    ],
    [
      '**check** (every gate at once)',
      fixed(figures.checkMs, 0),
      ratioText(figures.checkMs, figures.slowestAloneMs),
    ],
  );
  return [
    table(
      ['call (tools/call through `mcp-gates serve`)', 'median ms', 'ratio to slowest gate alone'],
      rows,
    ),
    '',
    `check / slowest gate alone: ${ratioText(figures.checkMs, figures.slowestAloneMs)}; ` +
      `check / sequential: ${ratioText(figures.checkMs, figures.sequentialMs)}. Median of ${figures.rounds} rounds ` +
      '(check, then each gate alone, interleaved); "one after the other" is the sum of a round\'s single-gate calls. ' +
      `check runs at most os.availableParallelism() = ${figures.parallelism} gates at once, in the ` +
      'order given. The gates are chosen so that this is fair on 2 cores: tsc (the longest, ' +
      'CPU-bound) holds one slot while prettier (CPU-bound) then the script (mostly waiting, an ' +
      'I/O-bound check) share the other and together take less than tsc alone, so a perfect ' +
      'check equals the slowest gate alone. Whatever else loads the machine slows the parallel ' +
      'run more than the single ones. Warm workers are off for these gates.',
  ].join('\n');
}

/** Warm gates (issue 11), each as a ratio to the command run cold, and TypeScript 7 beside. */
export function warmTable(figures) {
  const ms = (value) => `${fixed(value, 0)} ms`;
  const withRatio = (value, cold) => `${ms(value)} (${ratioText(value, cold)})`;
  const rows = figures.gates.map((row) => [
    `${row.gate} (\`${row.command}\`)`,
    ms(row.cold),
    withRatio(row.mcpWarmOff, row.cold),
    withRatio(row.mcpFirst, row.cold),
    withRatio(row.mcpRepeat, row.cold),
    withRatio(row.mcpEdit, row.cold),
    withRatio(row.repeat, row.cold),
    withRatio(row.edit, row.cold),
  ]);
  const ts7 = figures.typescript7;
  const typecheck = figures.gates.find((row) => row.gate === 'typecheck');
  const ts7Line = ts7.skipped
    ? `TypeScript 7: skipped: ${ts7.skipped}`
    : `TypeScript ${ts7.version} (native \`${ts7.command}\`, cold, same fixture): ${ms(ts7.cold)}, ` +
      `${ratioText(ts7.cold, typecheck.cold)} of TypeScript 6 cold; TypeScript 6 warm after a one-file edit: ` +
      `${ms(typecheck.mcpEdit)} through MCP (${ratioText(typecheck.mcpEdit, ts7.cold)} of TypeScript 7 cold). ` +
      `Its own incremental mode (\`--incremental\`, build info outside the tree, nothing changed): ${ms(ts7.incremental)} ` +
      `(${ratioText(ts7.incremental, ts7.cold)} of its cold run): start-up, not checking, is its cost, so it runs cold ` +
      '(its tsc is a native binary, not a Node program a worker can keep loaded).';
  return [
    `${figures.files} source files (a formatted git repository), median of ${figures.runs}, ratio to the cold command run directly. ` +
      'MCP columns: one tools/call through `mcp-gates serve` (tree watch, capture, parse, report included); ' +
      '"repeat" returns the earlier result when nothing the run read has changed (read ledger). ' +
      'Worker columns: the same asked of the warm pool directly.',
    '',
    table(
      [
        'gate',
        'cold',
        'MCP, warm off',
        'MCP first call',
        'MCP repeat, unchanged',
        'MCP after a one-file edit',
        'worker repeat',
        'worker after edit',
      ],
      rows,
    ),
    '',
    ts7Line,
  ].join('\n');
}

export function renderReport({ meta, sizes, results, targets }) {
  const parts = [];
  parts.push(
    `# Benchmark results${meta.quick ? ' (quick smoke run: tiny N, figures not meaningful)' : ''}`,
    '',
  );
  parts.push(
    `- Date: ${meta.date}`,
    `- Machine: ${meta.cpu}, ${meta.cores} cores (nproc), ${fixed(meta.memoryBytes / 2 ** 30, 1)} GiB RAM, ${meta.os}`,
    `- Node: ${meta.node}`,
    `- Packages: ${meta.packages}`,
    `- Command: \`${meta.command}\``,
    `- Sizes: ${Object.entries(sizes)
      .map(([key, value]) => `${key}=${value}`)
      .join(', ')}`,
    '',
    'Every figure is a median over rounds run interleaved across servers (A B A B). The client is the',
    'same raw JSON-RPC client over pipes for every server; it shares the machine with the server, so',
    'only ratios measured in the same run mean anything. Latencies are per request: in the pipelined',
    'run all requests are written at once, so its latencies are mostly queueing.',
  );
  for (const [era, figures] of Object.entries(results.protocol ?? {})) {
    parts.push(
      '',
      `## Protocol: ${era === 'legacy' ? 'legacy era (initialize 2025-06-18)' : 'modern era (2026-07-28, per-request _meta)'}`,
      '',
    );
    parts.push(protocolTable(figures), '', ratioTable(figures));
  }
  if (results.capture) {
    const { cycle, flood } = results.capture;
    parts.push('', `## Capture (mode: ${cycle.mode})`, '');
    parts.push(
      table(
        ['figure', 'median'],
        [
          [
            `bare dup2 pair (redirect + restore fd 2), ${cycle.cycles} cycles`,
            `${fixed(cycle.bareDup2PairUs, 2)} µs`,
          ],
          ['native begin + end (fds 1 and 2)', `${fixed(cycle.nativeCycleUs, 2)} µs`],
          [
            'beginCapture + endCapture (what each tool call pays)',
            `${fixed(cycle.captureCycleUs, 2)} µs`,
          ],
          [
            `${flood.megabytes} MB from a child into a plain file (${flood.runs} runs)`,
            `${fixed(flood.plainMs, 1)} ms`,
          ],
          [
            `${flood.megabytes} MB from a child through the capture`,
            `${fixed(flood.capturedMs, 1)} ms`,
          ],
          [
            'server RSS growth during the capture (worst run)',
            `${fixed(flood.rssGrowthBytes / MB, 1)} MB`,
          ],
        ],
      ),
    );
  }
  if (results.gates !== undefined) {
    parts.push(
      '',
      '## Gates (a gate called through `mcp-gates serve` beside the same argv run directly)',
      '',
    );
    if (results.gates === null) parts.push('Not measured: `dist/cli/main.js` is not built.');
    else {
      parts.push(
        table(
          ['gate', 'command', 'pairs', 'direct ms', 'through MCP ms', 'added ms (median of pairs)'],
          Object.entries(results.gates).map(([name, gate]) => [
            name,
            `\`${gate.label}\`${gate.note ? ` (${gate.note})` : ''}`,
            String(gate.pairs),
            fixed(gate.directMs, 1),
            fixed(gate.mcpMs, 1),
            fixed(gate.addedMs, 2),
          ]),
        ),
      );
    }
  }
  if (results.check !== undefined) {
    parts.push('', '## check (every gate at once, issue 10)', '');
    if (results.check === null) parts.push('Not measured: `dist/cli/main.js` is not built.');
    else if (results.check.failed) parts.push(`Not measured: ${results.check.failed}`);
    else parts.push(checkTable(results.check));
  }
  if (results.warm !== undefined) {
    parts.push('', '## Warm gates (issue 11)', '', warmTable(results.warm));
  }
  parts.push('', '## Targets (issues 5, 10, 11)', '', targetTable(targets), '');
  return parts.join('\n');
}

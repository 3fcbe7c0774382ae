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
  parts.push('', '## Targets (issue 5)', '', targetTable(targets), '');
  return parts.join('\n');
}

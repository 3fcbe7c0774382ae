// Renders a run's figures as markdown tables: printed, and written to bench/RESULTS.md.
import { SERVERS } from './servers.mjs';

/** Phases (ms, and counts as counted), the largest first. */
export function phaseLine(phases) {
  return Object.entries(phases)
    .sort(([, a], [, b]) => b - a)
    .map(([name, value]) => `${name} ${Number.isInteger(value) ? value : value.toFixed(1)}`)
    .join(', ');
}

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
  if (results.large !== undefined || results.treecost !== undefined) {
    parts.push('', largeReportText(renderLargeReport({ meta, results })));
  }
  parts.push('', '## Targets (issues 5, 10, 11)', '', targetTable(targets), '');
  return parts.join('\n');
}

const STEP_LABELS = {
  first: 'first call',
  repeat: 'repeat, nothing changed',
  body: 'after a one-file edit in a function body',
  type: 'after an edit of an exported type',
};
const ms0 = (value) =>
  value === undefined || Number.isNaN(value) ? '–' : `${thousands(value)} ms`;

/** What serve's `warm` said at a step, over the rounds (most frequent first). */
function warmSummary(records) {
  const counts = new Map();
  for (const warm of records ?? []) {
    let text = !warm
      ? 'no warm record'
      : !warm.used
        ? `cold (${warm.reason ?? 'no reason given'})`
        : warm.reused
          ? 'reused the earlier result'
          : warm.started
            ? `warm, worker started${warm.reason ? ` (${warm.reason})` : ''}`
            : 'warm, same worker';
    const parts = warm?.incremental;
    if (parts) text += `, kept ${parts.kept} checked ${parts.checked}`;
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  return [...counts.entries()].map(([text, count]) => `${text} ×${count}`).join('; ');
}

/**
 * `ratio(family, id, anchor, step)`: one contender's median over another's, of a bench's
 * families (large, vue); `judge`: a target at most `limit`, skipped when not measured.
 */
function judging(figures) {
  const find = (family, id) => figures?.families?.[family]?.find((c) => c.id === id)?.steps;
  const ratio = (family, id, anchor, step) => {
    const ours = find(family, id)?.[step];
    const theirs = find(family, anchor)?.[step];
    return ours === undefined || theirs === undefined ? undefined : ours / theirs;
  };
  const judge = (name, value, limit, unit = 'x') =>
    value === undefined || Number.isNaN(value)
      ? { name, skipped: 'not measured in this run' }
      : { name, value, limit, unit, atMost: true, pass: value <= limit };
  return { ratio, judge };
}

/** Issue 19's targets on the large project and the tree-cost figures (each may be absent). */
export function judgeLargeTargets(large, treecost) {
  const targets = [];
  const { ratio, judge } = judging(large);
  if (large) {
    for (const step of ['body', 'type']) {
      const when = step === 'body' ? 'body edit' : 'exported-type edit';
      targets.push(
        judge(
          `lint after a one-file ${when} vs \`eslint --cache\``,
          ratio('lint', 'serve', 'eslint-cache', step),
          0.5,
        ),
        large.eslintD.skipped
          ? {
              name: `lint after a one-file ${when} vs \`eslint_d\``,
              skipped: large.eslintD.skipped,
            }
          : judge(
              `lint after a one-file ${when} vs \`eslint_d\``,
              ratio('lint', 'serve', 'eslint_d', step),
              1.5,
            ),
        judge(
          `typecheck (TS 6, warm) after a one-file ${when} vs TS 7 \`tsgo --incremental\``,
          ratio('typecheck', 'serve', 'tsgo-incremental', step),
          0.5,
        ),
        judge(
          `typecheck (TS 7 through serve) after a one-file ${when} vs TS 7 \`tsgo --incremental\``,
          ratio('typecheck', 'serve-tsgo', 'tsgo-incremental', step),
          1.0,
        ),
        judge(
          `format after a one-file ${when} vs \`prettier --check --cache\``,
          ratio('format', 'serve', 'prettier-cache', step),
          0.5,
        ),
      );
    }
  }
  const biggest = treecost?.rows?.reduce(
    (best, row) => (row.files > (best?.files ?? 0) ? row : best),
    undefined,
  );
  if (treecost)
    targets.push(
      biggest?.files >= 150000
        ? judge(
            `fixed cost of a gate call at ${thousands(biggest.files)} tracked files (above the command)`,
            biggest.addedMs,
            20,
            'ms',
          )
        : {
            name: 'fixed cost of a gate call at 150,000 tracked files',
            skipped: 'the 150,000-file tree was not part of this run (quick mode)',
          },
    );
  return targets;
}

/**
 * Per family: ms per contender and step, serve's ratios to each anchor and what serve said
 * (`warm`); then the memory of serve's tree and of eslint_d (the large and vue benches).
 */
function familiesAndMemory(figures) {
  const parts = [];
  for (const [family, contenders] of Object.entries(figures.families)) {
    parts.push('', `### ${family}`, '');
    parts.push(
      table(
        ['step', ...contenders.map((c) => c.label)],
        ['first', 'repeat', 'body', 'type'].map((step) => [
          STEP_LABELS[step],
          ...contenders.map((c) =>
            c.cold && step === 'repeat' ? `(${ms0(c.steps.first)})` : ms0(c.steps[step]),
          ),
        ]),
      ),
      '',
    );
    const anchors = contenders.filter((c) => !c.serve);
    for (const ours of contenders.filter((c) => c.serve)) {
      for (const step of ['first', 'repeat', 'body', 'type']) {
        const ratios = anchors.map((anchor) => {
          const theirs = anchor.cold && step === 'repeat' ? anchor.steps.first : anchor.steps[step];
          return `${fixed(ours.steps[step] / theirs, 2)}x ${anchor.label}`;
        });
        parts.push(
          `- ${ours.label}, ${STEP_LABELS[step]}: ${ms0(ours.steps[step])} = ${ratios.join(', ')}`,
        );
      }
      const warm = figures.warm[`${family}/${ours.id}`];
      if (warm)
        parts.push(
          `- ${ours.label}, what serve said (\`warm\`): ${['first', 'repeat', 'body', 'type']
            .map((step) => `${step}: ${warmSummary(warm[step])}`)
            .join(' · ')}`,
        );
    }
  }
  parts.push('', '### Memory', '');
  const memory = figures.serveMemory;
  if (memory) {
    const role = (p, index) =>
      /worker-main\.js \S+ (\S+)/.exec(p.cmdline)?.[1] ??
      (/ serve /.test(p.cmdline)
        ? index === 0
          ? 'serve'
          : 'a serve child process'
        : p.cmdline.split(' ')[0]);
    // Each process's own peak beside its RSS: a worker's peak is what item 7 compares with
    // the peak of the cold command it replaces.
    const breakdown = memory.processes
      .map(
        (p, index) =>
          `${fixed(p.rss / MB, 0)} MB ${role(p, index)}, peak ${fixed(p.peak / MB, 0)} MB`,
      )
      .join('; ');
    parts.push(
      `- warm \`serve\` after all its gates ran (server + every process under it, VmRSS from /proc): median ${fixed(memory.rssMedian / MB, 0)} MB, ` +
        `largest ${fixed(memory.rssMax / MB, 0)} MB (${breakdown}); sum of each process's peak (VmHWM) ${fixed(memory.peakMax / MB, 0)} MB.`,
    );
  }
  const daemon = figures.eslintDMemory;
  parts.push(
    daemon
      ? `- eslint_d daemon after its four calls: median ${fixed(daemon.rssMedian / MB, 0)} MB, largest ${fixed(daemon.rssMax / MB, 0)} MB; peak ${fixed(daemon.peakMax / MB, 0)} MB.`
      : `- eslint_d daemon: not measured${figures.eslintD.skipped ? ` (${figures.eslintD.skipped})` : ''}.`,
  );
  if (figures.retries?.length)
    parts.push(
      `- eslint_d launcher retries (its 2 s start-up wait timed out; all attempts counted): ${figures.retries.join('; ')}.`,
    );
  return parts;
}

/** The large-project section (issue 19): ms per contender and step, ratios, warm, memory. */
export function largeSection(figures, meta) {
  const parts = [];
  const v = figures.versions;
  parts.push(
    `Run ${meta.date} (\`${meta.command}\`), ${meta.cores} cores shared with other jobs (load varied during the run: ` +
      'absolute times are noisy, ratios within a round are what to read), Node ' +
      `${meta.node}. Median of ${figures.rounds} round${figures.rounds === 1 ? '' : 's'}.`,
    '',
    `Project: ${thousands(figures.files)} TypeScript files, ${thousands(figures.lines)} lines before formatting, generated by ` +
      '`bench/lib/big-project.mjs` (seed 19: hub modules exporting entity interfaces and a generic registry class, ' +
      'generic utilities, feature modules in 12 areas extending a hub entity, subclassing its registry and calling ' +
      '1-3 earlier modules), formatted by its Prettier and committed to git. ESLint flat config: `@eslint/js` ' +
      'recommended + typescript-eslint recommended (no type information) + 10 stylistic rules. Tools ' +
      `(installed with \`npm install --prefix\` into \`os.tmpdir()/mcp-gates-bench-tools\`, linked into the project's ` +
      `node_modules): eslint ${v.eslint}, typescript-eslint ${v['typescript-eslint']}, prettier ${v.prettier}, ` +
      `typescript ${v.typescript}, @typescript/native-preview (tsgo) ${v['@typescript/native-preview']}, ` +
      (figures.eslintD.skipped
        ? `eslint_d: not measured (${figures.eslintD.skipped}).`
        : `eslint_d ${figures.eslintD.version}.`),
    '',
    'Protocol, per round and gate family, each contender in an order rotated every round: the edited files are put ' +
      "back to their committed bytes and the contender's cache starts empty (a new cache or build-info file in a " +
      'temp dir outside the project, eslint_d stopped, a new `mcp-gates serve` per round for all its gates); then ' +
      `**first** call; **repeat** with nothing changed; **body**: an edit inside a function body of \`${figures.bodyEdit}\` ` +
      `(its API unchanged); **type**: then, on top of it, an optional field added to the exported interface in ` +
      `\`${figures.typeEdit.file}\` (extended by ${figures.typeEdit.dependents} feature modules). The edit bytes are the ` +
      'same for every contender in a round and new in each round. Cold commands keep nothing, so they are not run at ' +
      '"repeat" (their first-call figure stands for it). serve times are one `tools/call` (request written to answer ' +
      `read); starting the server and \`initialize\` took ${ms0(figures.serveStartMs)}, not counted. eslint_d runs with ` +
      '`--cache` (its fastest mode), its first call starts the daemon.',
  );
  parts.push(...familiesAndMemory(figures));
  parts.push(
    '',
    'Reading: `serve` typecheck7 runs a cold `tsgo` on every call (its `warm` line says so), the same work as the ' +
      'cold `tsgo` column; at TypeScript 7 times (a few seconds here) the shared machine moved single runs by more ' +
      'than the differences between the tsgo contenders, so their ratios to each other are noise, not a gain or ' +
      "a loss. The issue's TypeScript 7 target (at most 1.0x `tsgo --incremental`) is meant for TypeScript 7 " +
      'projects; this project runs both.',
  );
  parts.push(
    '',
    figures.problems.length === 0
      ? 'Every call of every contender reported the tree clean (exit 0 / passed), as it is.'
      : `Calls that did not report the tree clean: ${figures.problems.join('; ')}`,
  );
  return parts.join('\n');
}

/** The fixed cost of a gate call against tree size. */
export function treeCostSection(figures) {
  return [
    `The same trivial gate (\`${figures.command}\`) through \`mcp-gates serve\` and run directly, in interleaved pairs ` +
      'after one warm-up call, on a clean git repository of N tracked files (empty files in directories of 500, one ' +
      'commit). "added" is the median of the pairwise differences.',
    '',
    table(
      ['tracked files', 'pairs', 'direct ms', 'through serve ms', 'added ms'],
      figures.rows.map((row) => [
        thousands(row.files),
        String(row.pairs),
        fixed(row.directMs, 1),
        fixed(row.mcpMs, 1),
        fixed(row.addedMs, 1),
      ]),
    ),
  ].join('\n');
}

/** Each part's markers: `<!-- bench:NAME:begin -->` … `<!-- bench:NAME:end -->`. */
const marksOf = (name) => [`<!-- bench:${name}:begin -->`, `<!-- bench:${name}:end -->`];
const MARKS = { large: marksOf('large'), treecost: marksOf('treecost') };

/**
 * The issue 19 parts of the report that ran, each between markers of its own (so a run of
 * only `large` or only `treecost` replaces its part and keeps the other): `{large?, treecost?}`.
 */
export function renderLargeReport({ meta, results }) {
  const parts = {};
  if (results.large) {
    parts.large = [
      MARKS.large[0],
      '',
      '## Large project (issue 19)',
      '',
      largeSection(results.large, meta),
      '',
      '### Targets (issue 19, large project)',
      '',
      targetTable(judgeLargeTargets(results.large, undefined)),
      '',
      MARKS.large[1],
    ].join('\n');
  }
  if (results.treecost) {
    parts.treecost = [
      MARKS.treecost[0],
      '',
      '## Fixed cost of a gate call against tree size (issue 19)',
      '',
      `Run ${meta.date} (\`${meta.command}\`), ${meta.cores} cores shared with other jobs.`,
      '',
      treeCostSection(results.treecost),
      '',
      targetTable(judgeLargeTargets(undefined, results.treecost)),
      '',
      MARKS.treecost[1],
    ].join('\n');
  }
  return parts;
}

/** The parts as one text (printed, or a full report's). */
export const largeReportText = (parts) => Object.values(parts).join('\n\n');

/** `text` with each of `parts` replaced (or, when new, inserted before the targets). */
export function spliceLargeReport(text, parts) {
  let result = text;
  for (const [name, section] of Object.entries(parts)) {
    const [begin, end] = marksOf(name);
    const from = result.indexOf(begin);
    const to = result.indexOf(end);
    if (from !== -1 && to > from) {
      result = result.slice(0, from) + section + result.slice(to + end.length);
      continue;
    }
    const targets = result.indexOf('\n## Targets (issues');
    result =
      targets !== -1
        ? `${result.slice(0, targets)}\n${section}\n${result.slice(targets)}`
        : `${result.trimEnd()}\n\n${section}\n`;
  }
  return result;
}

/** Issue 30's targets on a large repository: serve's ratios to the anchors users run instead. */
export function judgeVueTargets(vue) {
  const { format } = vue.repo;
  const judged = judging(vue);
  const judge = judged.judge;
  const ratio = (family, anchor, step) => judged.ratio(family, 'serve', anchor, step);
  const eslintD = (name, value, limit) =>
    vue.eslintD.skipped ? { name, skipped: vue.eslintD.skipped } : judge(name, value, limit);
  const hook = (id) => vue.hooks?.contenders.find((c) => c.id === id)?.median;
  return [
    judge('lint, body edit, vs `eslint --cache`', ratio('lint', 'eslint-cache', 'body'), 0.5),
    eslintD('lint, body edit, vs `eslint_d --cache`', ratio('lint', 'eslint_d', 'body'), 1.5),
    judge('lint, exact repeat, vs `eslint --cache`', ratio('lint', 'eslint-cache', 'repeat'), 0.1),
    ...[
      [`format, body edit, vs ${format.label}`, 'format', format.id, 'body', 0.5],
      [
        'typecheck TS 6, body edit, vs `tsc --incremental`',
        'typecheck-ts6',
        'tsc-incremental',
        'body',
        0.5,
      ],
      [
        'typecheck TS 6, exported-type edit, vs `tsc --incremental`',
        'typecheck-ts6',
        'tsc-incremental',
        'type',
        0.5,
      ],
      [
        'typecheck TS 7 through serve, body edit, vs `tsgo --incremental`',
        'typecheck-ts7',
        'tsgo-incremental',
        'body',
        0.3,
      ],
      [
        'typecheck TS 7 through serve, first call, vs `tsgo --incremental`',
        'typecheck-ts7',
        'tsgo-incremental',
        'first',
        1,
      ],
    ].map(([name, family, anchor, step, limit]) => judge(name, ratio(family, anchor, step), limit)),
    judge('after_edit, lint + format (median)', hook('serve-lint-format'), 300, 'ms'),
    judge('after_edit with the typecheck (median)', hook('serve-with-check'), 1000, 'ms'),
  ];
}

/** A large repository's section (issue 30), in the words of its bench (`figures.repo`). */
export function vueSection(figures, meta) {
  const v = figures.versions;
  const { repo } = figures;
  const parts = [
    `Run ${meta.date} (\`${meta.command}\`), ${meta.cores} cores shared with other jobs, load average ` +
      `${meta.load ?? '–'} at the start and ${figures.loadAfter ?? '–'} at the end (absolute times are noisy; ` +
      `ratios within a round are what to read), Node ${meta.node}. Median of ${figures.rounds} ` +
      `round${figures.rounds === 1 ? '' : 's'}.`,
    '',
    `Project: ${repo.source} (${thousands(figures.files)} tracked files), set up by ` +
      `\`bench/lib/vue-bench.mjs\` outside this tree (${repo.install}, with \`init --hooks claude-code\` ` +
      `committed on top). serve's gates are ${repo.gates.replace('PNPM', v.pnpm ?? '')}. ` +
      `Tools: eslint ${v.eslint}, typescript-eslint ${v['typescript-eslint']}, ` +
      (v.prettier ? `prettier ${v.prettier}, ` : `oxfmt ${v.oxfmt}, `) +
      `typescript ${v.typescript}, @typescript/native-preview (tsgo) ${v['@typescript/native-preview']}, ` +
      (figures.eslintD.skipped
        ? `eslint_d: not measured (${figures.eslintD.skipped}).`
        : `eslint_d ${figures.eslintD.version}.`),
    '',
    `Protocol: the large bench's (first, repeat, **body**: ${repo.body} ` +
      `\`${figures.bodyEdit}\`, **type**: ${repo.type} ` +
      `\`${figures.typeEdit.file}\`), contenders rotated each round, a new serve per round, direct commands ` +
      'under `setsid -w`, one environment for all.',
  ];
  if (figures.families) parts.push(...familiesAndMemory(figures));
  if (figures.peaks) {
    parts.push('', 'Peak RSS of the commands serve replaces (`/usr/bin/time`, one run each):', '');
    for (const [command, bytes] of Object.entries(figures.peaks))
      parts.push(`- \`${command}\`: ${bytes === undefined ? 'n/a' : `${fixed(bytes / MB, 0)} MB`}`);
  }
  if (figures.hooks) {
    const ms = (value) => (Number.isFinite(value) ? `${Math.round(value)} ms` : 'n/a');
    parts.push(
      '',
      '### hooks',
      '',
      `session_start first, then per round the body edit and one \`after_edit\`; the first call, then the median of ${figures.hooks.rounds}.`,
      '',
      table(
        ['contender', 'session_start', 'first after_edit', 'median after_edit'],
        figures.hooks.contenders.map((c) => [
          c.label,
          ms(c.sessionStart),
          ms(c.first),
          ms(c.median),
        ]),
      ),
    );
    for (const c of figures.hooks.contenders.filter((contender) => contender.phases))
      parts.push(
        '',
        `Phases of ${c.id} (median ms per phase, counts as counted; MCP_GATES_TIMING=1): ${phaseLine(c.phases)}`,
      );
    if (figures.hooks.problems.length > 0)
      parts.push('', `Hook problems: ${figures.hooks.problems.join('; ')}`);
  }
  parts.push(
    '',
    figures.problems?.length
      ? `Calls that did not report the tree clean: ${figures.problems.join('; ')}`
      : 'Every call of every contender reported the tree clean (exit 0 / passed).',
  );
  return parts.join('\n');
}

/** The vue part of the report, between its markers: `{vue}`. */
export function renderVueReport({ meta, results }) {
  return renderRepoReport('vue', { meta, figures: results.vue });
}

/** A large repository's part of the report (vue's, or NAME's), between its markers: `{NAME}`. */
export function renderRepoReport(name, { meta, figures }) {
  const [begin, end] = marksOf(name);
  const { title } = figures.repo;
  return {
    [name]: [
      begin,
      '',
      `## ${title} (issue 30)`,
      '',
      vueSection(figures, meta),
      '',
      `### Targets (issue 30, ${title})`,
      '',
      targetTable(judgeVueTargets(figures)),
      '',
      end,
    ].join('\n'),
  };
}

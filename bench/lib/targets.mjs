// The targets of issues 5 (protocol, capture, gates), 10 (check) and 11 (warm gates), judged on figures measured in one run.

/** One judged target: `ratio`/`value` against `limit`, or `skipped` with the reason. */
function judge(name, value, limit, { atMost, unit = 'x' }) {
  if (value === undefined || Number.isNaN(value))
    return { name, skipped: 'not measured in this run' };
  const pass = atMost ? value <= limit : value >= limit;
  return { name, value, limit, unit, atMost, pass };
}

function protocolTargets(eraName, figures, reference) {
  const ours = figures?.ours;
  const bare = figures?.['ours-nocapture'];
  const ref = figures?.[reference];
  const floor = figures?.floor;
  const ratio = (a, b) => (a === undefined || b === undefined ? undefined : a / b);
  const refLabel = reference === 'sdk-v1' ? 'SDK v1' : 'SDK v2';
  const era = `[${eraName}]`;
  return [
    judge(
      `${era} pipelined req/s, capture on, vs ${refLabel}`,
      ratio(ours?.pipe.requestsPerSecond, ref?.pipe.requestsPerSecond),
      3,
      { atMost: false },
    ),
    judge(
      `${era} pipelined req/s, capture off, vs floor`,
      ratio(bare?.pipe.requestsPerSecond, floor?.pipe.requestsPerSecond),
      0.5,
      { atMost: false },
    ),
    judge(
      `${era} sequential p50, capture on, vs ${refLabel}`,
      ratio(ours?.seq.p50Ms, ref?.seq.p50Ms),
      0.6,
      { atMost: true },
    ),
    judge(`${era} cold start vs ${refLabel}`, ratio(ours?.coldStartMs, ref?.coldStartMs), 0.6, {
      atMost: true,
    }),
    judge(`${era} idle RSS vs ${refLabel}`, ratio(ours?.idleRssBytes, ref?.idleRssBytes), 0.8, {
      atMost: true,
    }),
  ];
}

/** The targets of the sections that ran (a section left out by --only has no rows). */
export function judgeTargets(results) {
  const targets = results.protocol
    ? [
        ...protocolTargets('legacy', results.protocol.legacy, 'sdk-v1'),
        ...protocolTargets('modern', results.protocol.modern, 'sdk-v2'),
      ]
    : [];
  const cycle = results.capture?.cycle;
  const flood = results.capture?.flood;
  if (results.capture)
    targets.push(
      judge('capture begin/end cycle, median', cycle?.captureCycleUs, 20, {
        atMost: true,
        unit: 'µs',
      }),
      judge(
        'capture cycle vs bare dup2 pair',
        cycle && cycle.captureCycleUs / cycle.bareDup2PairUs,
        3,
        { atMost: true },
      ),
      judge(
        `${flood?.megabytes ?? 100} MB captured vs plain file`,
        flood && flood.capturedMs / flood.plainMs,
        1.5,
        { atMost: true },
      ),
      judge(
        `server RSS growth while capturing ${flood?.megabytes ?? 100} MB`,
        flood && flood.rssGrowthBytes / 2 ** 20,
        32,
        { atMost: true, unit: 'MB' },
      ),
    );
  if (results.gates === null) {
    targets.push({ name: 'gate call overhead', skipped: 'dist/cli/main.js is not built' });
  } else {
    for (const [name, gate] of Object.entries(results.gates ?? {})) {
      targets.push(
        judge(`gate call overhead: ${name} (\`${gate.label}\`)`, gate.addedMs, 5, {
          atMost: true,
          unit: 'ms',
        }),
      );
    }
  }
  if (results.check === null) {
    targets.push({ name: 'check vs slowest gate alone', skipped: 'dist/cli/main.js is not built' });
  } else if (results.check?.failed) {
    targets.push({ name: 'check vs slowest gate alone', skipped: results.check.failed });
  } else if (results.check !== undefined) {
    const check = results.check;
    targets.push(
      judge('check vs slowest gate alone', check.checkMs / check.slowestAloneMs, 1.15, {
        atMost: true,
      }),
    );
  }
  const warm = Object.fromEntries((results.warm?.gates ?? []).map((row) => [row.gate, row]));
  const warmRatio = (gate, figure) => warm[gate] && warm[gate][figure] / warm[gate].cold;
  if (results.warm !== undefined) {
    targets.push(
      judge('warm lint through MCP, repeat, vs cold', warmRatio('lint', 'mcpRepeat'), 0.15, {
        atMost: true,
      }),
      judge(
        'warm lint through MCP after a one-file edit vs cold',
        warmRatio('lint', 'mcpEdit'),
        0.25,
        {
          atMost: true,
        },
      ),
      judge('warm format through MCP, repeat, vs cold', warmRatio('format', 'mcpRepeat'), 0.3, {
        atMost: true,
      }),
      judge(
        'warm typecheck (TypeScript 6) through MCP after a one-file edit vs cold',
        warmRatio('typecheck', 'mcpEdit'),
        0.2,
        { atMost: true },
      ),
    );
  }
  return targets;
}

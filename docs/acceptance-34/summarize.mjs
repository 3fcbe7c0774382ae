// Rows of docs/acceptance-34.md from the driver's results: per session, each hooked step's
// verdict and time, the stop against cold ground truth (blocked as it should, how many new
// errors it told and listed), and whether it named what is not new (fixed again, on the side
// branch). usage: node summarize.mjs <case>... (results in $ACCEPT_RESULTS, default /work/outside2/results)
import fs from 'node:fs';
const steps = ['lint-error', 'error-added', 'error-fixed', 'branch-edit', 'ignored-edit'];
const results = process.env.ACCEPT_RESULTS ?? '/work/outside2/results';
console.log(`| repo | mode | host | ${steps.join(' | ')} | stop | truth at stop | verdict |`);
console.log(`|${'---|'.repeat(steps.length + 6)}`);
for (const repo of process.argv.slice(2)) {
  const dir = `${results}/${repo}`;
  const truth = JSON.parse(fs.readFileSync(`${dir}/truth-new.json`, 'utf8'));
  const errors = truth.fresh.filter((f) => f.severity === 'error');
  const shouldBlock = errors.length > 0 || truth.failing.length > 0;
  for (const mode of ['cold', 'warm'])
    for (const host of ['claude-code', 'codex', 'cursor', 'gemini']) {
      const file = `${dir}/run-${mode}-${host}.json`;
      if (!fs.existsSync(file)) continue;
      const calls = JSON.parse(fs.readFileSync(file, 'utf8'));
      // Cursor's rows are read again from the text (the first runs matched "new warning").
      const blocked = (c) =>
        host === 'cursor' ? /since the session began|blocked on/.test(c.text) : c.blocked;
      const cell = (c) =>
        c
          ? `${blocked(c) ? 'block' : 'allow'} ${(c.ms / 1000).toFixed(1)}s${c.channel === mode ? '' : ` (${c.channel})`}`
          : '–';
      const stop = calls.find((c) => c.step === 'stop');
      const told = /(\d+) new errors?/.exec(stop.text)?.[1] ?? '0';
      // Listed: named at its file and line (ground truth's line; gofmt names a hunk's first line).
      const listed = errors.filter((f) => stop.text.includes(`${f.file}:${f.line}`)).length;
      const named = (stop.absent ?? []).filter((a) => a.named).map((a) => a.file);
      const verdict =
        `${blocked(stop) === shouldBlock ? 'ok' : 'MISMATCH'} (told ${told}, listed ${listed}/${errors.length})` +
        (named.length ? `; NAMED ${named.join(', ')}` : '');
      console.log(
        `| ${repo} | ${mode} | ${host} | ${steps.map((s) => cell(calls.find((c) => c.step === s))).join(' | ')} | ${cell(stop)} | ${errors.length} new errors; newly failing: ${truth.failing.join(', ') || '–'} | ${verdict} |`,
      );
    }
}

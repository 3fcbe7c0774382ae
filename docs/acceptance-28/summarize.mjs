import fs from 'node:fs';
const repos = process.argv.slice(2);
const steps = ['session-start', 'lint-error', 'type-error', 'bad-format', 'config-rule-on', 'stop'];
console.log(`| repo | mode | host | ${steps.join(' | ')} | truth at stop | verdict |`);
console.log(`|${'---|'.repeat(steps.length + 5)}`);
for (const repo of repos) {
  // ACCEPT_RESULTS: docs/acceptance-33's results are summarized by this script too.
  const dir = `${process.env.ACCEPT_RESULTS ?? '/work/accept/results'}/${repo}`;
  const truth = JSON.parse(fs.readFileSync(`${dir}/truth-new.json`, 'utf8'));
  const final = JSON.parse(fs.readFileSync(`${dir}/truth-final.json`, 'utf8'));
  // What the final tree's cold gates show, as text: an injected finding counts only if they show it.
  const shown = Object.entries(final)
    .flatMap(([g, r]) => r.findings.map((f) => `${f.file}:${f.line} ${g}:${f.rule} ${f.message}`))
    .join('\n');
  const errors = truth.fresh.filter((f) => f.severity === 'error').length;
  const shouldBlock = errors > 0 || truth.failing.length > 0;
  for (const mode of ['cold', 'warm'])
    for (const host of ['claude-code', 'codex', 'cursor', 'gemini']) {
      const file = `${dir}/run-${mode}-${host}.json`;
      if (!fs.existsSync(file)) continue;
      const calls = JSON.parse(fs.readFileSync(file, 'utf8'));
      const cells = steps.map((name) => {
        const c = calls.find((x) => x.step === name);
        if (!c) return '–';
        const s = (c.ms / 1000).toFixed(1) + 's';
        if (name === 'session-start') return `${c.channel} ${s}`;
        const found = (c.found ?? [])
          .filter((f) => mentions(shown, f))
          .map((f) => ({ ...f, reported: mentions(c.text, f) }));
        const hit = found.filter((f) => f.reported).length;
        return `${c.blocked ? 'block' : 'allow'} ${hit}/${found.length} ${s}${c.channel === mode ? '' : ` (${c.channel})`}`;
      });
      const stop = calls.find((x) => x.step === 'stop');
      const told = /(\d+) new errors?/.exec(stop.text)?.[1] ?? '0';
      const listed = truth.fresh.filter(
        (f) =>
          f.severity === 'error' &&
          stop.text.includes(f.line === null ? f.file : `${f.file}:${f.line}`),
      ).length;
      const ok =
        (stop.blocked === shouldBlock ? 'ok' : 'MISMATCH') +
        ` (told ${told}, listed ${listed}/${errors})`;
      console.log(
        `| ${repo} | ${mode} | ${host} | ${cells.join(' | ')} | ${errors} new errors; newly failing: ${truth.failing.join(', ') || '–'} | ${ok} |`,
      );
    }
}

/** The text names the finding at file:line (a line number not followed by more digits). */
function mentions(text, e) {
  if (!text) return false;
  const at = e.line
    ? new RegExp(`${e.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${e.line}(?![0-9])`)
    : undefined;
  return (at ? at.test(text) : text.includes(e.file)) && (!e.text || text.includes(e.text));
}

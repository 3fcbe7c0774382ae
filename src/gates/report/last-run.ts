import type { GateRunData, ResultView } from './gate-result.js';
import type { Finding } from './finding.js';
import { fileMatcher } from './file-filter.js';
import { compareTrees, fingerprintTree, type TreeFingerprint } from '../run/tree-fingerprint.js';

/**
 * Paging: a check's call with `file` or `offset` on a tree as the tool's last run left it
 * answers from that run's findings (`source: "reused"`) instead of running again.
 */

/** The last run of each tool, for paging calls (`file`, `offset`) on an unchanged tree. */
interface LastRun {
  data: GateRunData;
  after: TreeFingerprint;
  scope?: ResultView['scope'];
}
const lastRuns = new Map<string, LastRun>();

/** Which call a run belongs to: a tool in a served root. */
interface RunOwner {
  root: string;
  toolName: string;
}

/** Whether the tree is as the last run left it (so its findings still hold). */
async function unchangedSince(last: LastRun, runDir: string, env: NodeJS.ProcessEnv) {
  const now = await fingerprintTree(runDir, env);
  const watch = compareTrees(last.after, now);
  return watch.changedFiles.length === 0 && !watch.capped;
}

function lastRunKey(root: string, toolName: string): string {
  return `${root}\0${toolName}`;
}

/** Every finding of the last run of a tool in `root` (the `check` tool combines them). */
export function lastRunFindings(root: string, toolName: string): readonly Finding[] | undefined {
  return lastRuns.get(lastRunKey(root, toolName))?.data.parsed.findings;
}

/** The page a call asks for (`file`, `offset`), if it pages. */
export function pageOf(args: { file?: string; offset?: number }): ResultView['page'] {
  return args.file !== undefined || args.offset !== undefined
    ? {
        file: args.file ?? null,
        offset: args.offset ?? 0,
        ...(args.file !== undefined ? { matches: fileMatcher(args.file) } : {}),
      }
    : undefined;
}

/** The last run a paging check reuses, when the tree where it ran is as that run left it. */
export async function lastRunToReuse(
  owner: RunOwner & { fixing: boolean; paging: boolean; runDir: string; env: NodeJS.ProcessEnv },
): Promise<LastRun | undefined> {
  if (!owner.paging || owner.fixing) return undefined;
  const last = lastRuns.get(lastRunKey(owner.root, owner.toolName));
  return last && (await unchangedSince(last, owner.runDir, owner.env)) ? last : undefined;
}

/** Keeps a check's run for the paging calls after it (a run without a tree print cannot be reused). */
export function rememberRun(
  owner: RunOwner & { fixing: boolean },
  run: { data: GateRunData; after: TreeFingerprint | undefined },
  scope: ResultView['scope'],
): void {
  if (owner.fixing || !run.after) return;
  // The raw streams (up to 8 MiB each) are not kept between calls: a reused result's
  // log has the findings and the shown output.
  const outcome = { ...run.data.outcome, stdout: '', stderr: '' };
  lastRuns.set(lastRunKey(owner.root, owner.toolName), {
    data: { ...run.data, outcome },
    after: run.after,
    scope,
  });
}

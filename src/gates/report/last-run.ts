import type { GateRunData, ResultView } from './gate-result.js';
import { fileMatcher } from './file-filter.js';
import { sameTree, type TreeFingerprint } from '../run/tree-fingerprint.js';

/**
 * Paging: a check's call with `file` or `offset` answers from the tool's last run
 * (`source: "reused"`) instead of running again, only when that run is the one the call
 * would make: the same run identity (run/run-identity.ts: the gate as configured, every
 * argument but `file`, `offset` and `maxChars`, the environment, the config's content)
 * on the same tree (files, HEAD and index, by fingerprint). Anything else runs again.
 */

/** The last run of each tool, for paging calls (`file`, `offset`). */
interface LastRun {
  identity: string;
  data: GateRunData;
  /** The tree the run saw: the same before and after it. */
  tree: TreeFingerprint;
  scope?: ResultView['scope'];
}
const lastRuns = new Map<string, LastRun>();

/** Which call a run belongs to: a tool in a served root, and the run it makes. */
interface RunOwner {
  root: string;
  toolName: string;
  fixing: boolean;
  /** The run's identity (run/run-identity.ts). */
  identity: string;
}

function lastRunKey(root: string, toolName: string): string {
  return `${root}\0${toolName}`;
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

/**
 * The last run a paging check reuses: the tool's last run, when it has the call's
 * identity and the tree where it ran is as that run saw it (`fingerprint`: the tree where
 * the call runs, as run-gate takes it).
 */
export async function lastRunToReuse(
  owner: RunOwner & { paging: boolean; fingerprint: () => Promise<TreeFingerprint> },
): Promise<LastRun | undefined> {
  if (!owner.paging || owner.fixing) return undefined;
  const last = lastRuns.get(lastRunKey(owner.root, owner.toolName));
  if (!last || last.identity !== owner.identity) return undefined;
  return sameTree(last.tree, await owner.fingerprint()) ? last : undefined;
}

/**
 * Keeps a check's run for the paging calls after it. A run without tree prints, or whose
 * tree changed while it ran (its findings may be of either state), is not kept, and the
 * tool's earlier run is forgotten: a page never answers from a run older than the last.
 */
export function rememberRun(
  owner: RunOwner,
  run: { data: GateRunData; before: TreeFingerprint; after: TreeFingerprint | undefined },
  scope: ResultView['scope'],
): void {
  const key = lastRunKey(owner.root, owner.toolName);
  if (owner.fixing) return;
  if (!run.after || !sameTree(run.before, run.after)) {
    lastRuns.delete(key);
    return;
  }
  // The raw streams (up to 8 MiB each) are not kept between calls: a reused result's
  // log has the findings and the shown output.
  const outcome = { ...run.data.outcome, stdout: '', stderr: '' };
  lastRuns.set(key, {
    identity: owner.identity,
    data: { ...run.data, outcome },
    tree: run.after,
    scope,
  });
}

import os from 'node:os';
import type { Tool, ToolContext, ToolResult } from '../server/tool.js';
import { MIN_MAX_CHARS, writeFullLog } from './report/budget.js';
import type { Finding } from './report/finding.js';
import {
  GATE_OUTPUT_SCHEMA,
  emptyExtra,
  failureResult,
  NOT_FAILING_STATUSES,
  shapeResult,
  type GateStatus,
  type GateStructuredContent,
} from './report/gate-result.js';
import { fullLogDirectory } from './report/log-directory.js';
import type { GateSpec } from './gate-spec.js';
import { runGateCall, type GateToolOptions } from './run/run-gate.js';

/** Runs `tasks` with at most `limit` at once; results in the order given. */
export async function inParallel<T>(
  tasks: readonly (() => Promise<T>)[],
  limit: number,
): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next;
      next += 1;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/**
 * The combined status: failed when any gate failed, else the first gate's failing status;
 * nothing-checked when a gate's tool checked nothing (the whole is then no pass); passed
 * when every gate passed or had nothing to check and at least one ran clean.
 */
function combinedStatus(statuses: readonly GateStatus[]): GateStatus {
  if (statuses.every((status) => NOT_FAILING_STATUSES.has(status))) {
    if (statuses.includes('nothing-checked')) return 'nothing-checked';
    return statuses.includes('passed') ? 'passed' : 'nothing-to-check';
  }
  if (statuses.includes('cancelled')) return 'cancelled';
  if (statuses.includes('failed')) return 'failed';
  return statuses.find((status) => !NOT_FAILING_STATUSES.has(status))!;
}

/**
 * Every gate's check at once (in parallel, as many as the machine has cores), one
 * combined result within the budget: a line per gate, then the findings of the gates
 * that did not pass. Each gate's output is read from its own pipes (never the shared
 * capture, which would interleave them) and kept whole in its own log.
 */
export async function runAllChecks(
  gates: readonly GateSpec[],
  args: Record<string, unknown>,
  context: ToolContext,
  options: GateToolOptions,
): Promise<ToolResult> {
  const unknown = Object.keys(args).filter((key) => key !== 'maxChars');
  if (unknown.length > 0)
    return failureResult(
      'check',
      [],
      `unknown argument "${unknown[0]}"; check takes only "maxChars"`,
    );
  const maxChars = args.maxChars;
  if (
    maxChars !== undefined &&
    (!Number.isSafeInteger(maxChars) || (maxChars as number) < MIN_MAX_CHARS)
  )
    return failureResult(
      'check',
      [],
      `"maxChars" is a whole number of characters, at least ${MIN_MAX_CHARS}`,
    );
  const started = Date.now();
  // Spelled out, not spread: the server's context is a class whose signal and log live on
  // its prototype (a spread dropped them, and every gate then failed on signal.aborted).
  const quiet: ToolContext = {
    get signal() {
      return context.signal;
    },
    wantsProgress: false,
    progress: () => {},
    log: (level, data, logger) => context.log?.(level, data, logger),
    revision: context.revision,
    meta: context.meta,
  };
  const isolated: GateToolOptions = { ...options, ownTranscript: true };
  const limit = Math.max(1, os.availableParallelism());
  let done = 0;
  const results = await inParallel(
    gates.map((gate) => async () => {
      const outcome = await runGateCall(gate, false, {}, quiet, isolated);
      done += 1;
      if (context.wantsProgress)
        context.progress({
          progress: done,
          total: gates.length,
          message: `check: ${done} of ${gates.length} gates done (${gate.name} last)`,
        });
      return outcome;
    }),
    limit,
  );
  const rows = results.map(({ result, run }, index) => {
    const gate = gates[index]!;
    const structured = result.structuredContent as unknown as GateStructuredContent;
    // Every finding of this call's own run (the result lists only what fits its budget).
    const findings: readonly Finding[] = run?.parsed.findings ?? structured.findings;
    let logPath = structured.logPath;
    if (logPath === null) {
      try {
        logPath = writeFullLog(fullLogDirectory(), {
          name: gate.name,
          verdict: result.text ?? '',
          findings,
          output: '',
        });
      } catch {
        logPath = null;
      }
    }
    return {
      gate: gate.name,
      status: structured.status,
      durationMs: structured.durationMs,
      findingCount: findings.length,
      errors: findings.filter((finding) => finding.severity === 'error').length,
      logPath,
      verdict: (result.text ?? '').split('\n')[0]!,
      findings,
    };
  });
  const status = combinedStatus(rows.map((row) => row.status));
  const passedCount = rows.filter((row) => row.status === 'passed').length;
  const failing = rows.filter((row) => !NOT_FAILING_STATUSES.has(row.status));
  // Each finding's rule names its gate: the combined list mixes tools.
  const findings = failing.flatMap((row) =>
    row.findings.map((finding) => ({ ...finding, rule: `${row.gate}:${finding.rule ?? ''}` })),
  );
  const durationMs = Date.now() - started;
  return shapeResult({
    toolName: 'check',
    status,
    isError: !NOT_FAILING_STATUSES.has(status),
    verdictTail: `${rows.length} gates, ${passedCount} passed, ${(durationMs / 1000).toFixed(1)} s`,
    details: rows.map((row) => `${row.verdict}${row.logPath ? `; log: ${row.logPath}` : ''}`),
    allFindings: findings,
    findings,
    output: '',
    outputBytes: 0,
    fullOutput: () => '',
    ...(maxChars !== undefined ? { maxChars: maxChars as number } : {}),
    extra: {
      ...emptyExtra([]),
      durationMs,
      gates: rows.map(
        ({ gate, status: rowStatus, durationMs: ms, findingCount, errors, logPath }) => ({
          gate,
          status: rowStatus,
          durationMs: ms,
          findingCount,
          errors,
          logPath,
        }),
      ),
    },
  });
}

export function createCheckTool(gates: readonly GateSpec[], options: GateToolOptions): Tool {
  return {
    name: 'check',
    title: 'Every check',
    description: `Runs every gate's check (${gates.map((gate) => gate.name).join(', ')}) in parallel; one result: a line per gate, then the findings of the gates that did not pass, within a size budget. Each gate's full output is in its own log.`,
    inputSchema: {
      type: 'object',
      properties: {
        maxChars: {
          type: 'integer',
          minimum: MIN_MAX_CHARS,
          description: 'The result budget in characters (default 12000).',
        },
      },
      additionalProperties: false,
    },
    outputSchema: GATE_OUTPUT_SCHEMA,
    annotations: {
      title: 'Every check',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    run: (args, context) => runAllChecks(gates, args, context, options),
  };
}

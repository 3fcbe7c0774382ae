import path from 'node:path';
import type { Finding } from '../report/finding.js';
import { shellLine } from '../report/gate-result.js';
import type { GateStep } from '../gate-spec.js';
import type { ParseResult } from '../parsers/index.js';
import type { NotChecked } from '../parsers/parser.js';
import { parseGateOutput } from '../parsers/parse-off-loop.js';
import { runGateCommand, type RunOutcome, type RunRequest } from './runner.js';

/**
 * The parse step of one finished command: ANSI stripping and the parser, off the event
 * loop for large outputs (parsers/parse-off-loop.ts), paths relative to where it ran.
 * The outcome's stdout comes back stripped when the report shows it (an unparsed machine
 * format); a command that did not run to its end has no verdict to parse. The parser is
 * told the argv and the call's paths, to weigh what the tool says it did not check.
 */
export async function parseOutcome(
  parserName: string,
  outcome: RunOutcome,
  runDir: string,
  signal: AbortSignal,
  command: { argv: readonly string[]; paths: readonly string[] },
): Promise<{ outcome: RunOutcome; parsed: ParseResult }> {
  const step = await parseGateOutput(
    {
      parser: parserName,
      stdout: outcome.stdout,
      stderr: outcome.stderr,
      exitCode: outcome.exitCode,
      truncated: outcome.parseTruncated,
      root: runDir,
      argv: command.argv,
      paths: command.paths,
    },
    signal,
  );
  const stripped = step.stdout === undefined ? outcome : { ...outcome, stdout: step.stdout };
  if (outcome.end !== 'exited')
    return { outcome: stripped, parsed: { findings: [], passed: false } };
  return { outcome: stripped, parsed: step.parsed };
}

/**
 * Findings of a gate that ran in a subdirectory (a workspace package) made relative to
 * the served root, as every finding is. Absolute paths outside it stay as printed.
 */
export function rebaseFindings(findings: Finding[], runDir: string, root: string): Finding[] {
  if (path.resolve(runDir) === path.resolve(root)) return findings;
  return findings.map((finding) => {
    if (finding.file === null || path.isAbsolute(finding.file)) return finding;
    return { ...finding, file: rebasePath(finding.file, runDir, root) };
  });
}

function rebasePath(file: string, runDir: string, root: string): string {
  return path.relative(root, path.resolve(runDir, file)).split(path.sep).join('/');
}

/** A parse's findings and the paths it says were not checked, relative to the served root. */
export function rebaseParsed(parsed: ParseResult, runDir: string, root: string): ParseResult {
  if (path.resolve(runDir) === path.resolve(root)) return parsed;
  const notChecked = parsed.notChecked?.map((entry): NotChecked =>
    path.isAbsolute(entry.path) ? entry : { ...entry, path: rebasePath(entry.path, runDir, root) },
  );
  return {
    ...parsed,
    findings: rebaseFindings(parsed.findings, runDir, root),
    ...(notChecked ? { notChecked } : {}),
  };
}

export interface StepsRequest extends Omit<RunRequest, 'argv' | 'stdoutInReport' | 'root'> {
  /** The served root (findings are relative to it) and the directory the steps run in. */
  root: string;
  runDir: string;
  steps: readonly GateStep[];
  /** Parsers whose stdout is a machine format, kept out of the report. */
  isMachineFormat: (parser: string) => boolean;
  /** Runs one step's command (default runGateCommand; a server's gates may run it warm). */
  runCommand?: (request: RunRequest) => Promise<RunOutcome>;
}

export interface StepsOutcome {
  /** The steps as one run: the first abnormal end, the first failing exit, all output. */
  outcome: RunOutcome;
  parsed: ParseResult;
  /** The steps' argv joined with `&&`, as the script spelled them. */
  argv: string[];
}

/**
 * Runs a multi-step check: each step in turn with the remaining time, every step even
 * when an earlier one failed (its findings would otherwise stay hidden), stopping only on
 * cancel or timeout. Each step's output is read by its own parser; the gate passes only
 * when every step passed.
 */
export async function runSteps(request: StepsRequest): Promise<StepsOutcome> {
  const started = Date.now();
  const outcomes: RunOutcome[] = [];
  const findings: Finding[] = [];
  const notChecked: NotChecked[] = [];
  const nothingChecked: (string | undefined)[] = [];
  const notes: string[] = [];
  let passed = true;
  for (const step of request.steps) {
    const remainingMs = request.timeoutMs - (Date.now() - started);
    // The first step always starts (the runner reports a cancel before it as its own end).
    if (outcomes.length > 0 && (request.signal.aborted || remainingMs <= 0)) break;
    const bytesBefore = outcomes.reduce((sum, earlier) => sum + earlier.outputBytes, 0);
    const { onProgress } = request;
    const { runCommand = runGateCommand, ...common } = request;
    const outcome = await runCommand({
      ...common,
      // Progress counts from the gate's start, so it keeps increasing across steps.
      ...(onProgress
        ? {
            onProgress: (_stepMs: number, bytes: number) =>
              onProgress(Date.now() - started, bytesBefore + bytes),
          }
        : {}),
      root: request.runDir,
      argv: step.command,
      timeoutMs: Math.max(remainingMs, 1),
      stdoutInReport: !request.isMachineFormat(step.parser),
    });
    const read = await parseOutcome(step.parser, outcome, request.runDir, request.signal, {
      argv: step.command,
      paths: [],
    });
    outcomes.push(read.outcome);
    const parsed = rebaseParsed(read.parsed, request.runDir, request.root);
    findings.push(...parsed.findings);
    notChecked.push(...(parsed.notChecked ?? []));
    nothingChecked.push(parsed.nothingChecked);
    passed &&= outcome.end === 'exited' && parsed.passed;
    if (parsed.note) notes.push(`${step.command[0]}: ${parsed.note}`);
    if (outcome.end === 'timed-out' || outcome.end === 'cancelled') break;
  }
  const argv = request.steps.flatMap((step, index) =>
    index === 0 ? step.command : ['&&', ...step.command],
  );
  const skipped = request.steps.length - outcomes.length;
  if (skipped > 0) {
    passed = false;
    notes.push(`${skipped} step${skipped === 1 ? '' : 's'} not run (cancelled or out of time)`);
  }
  // Nothing was checked only when no step checked anything.
  const nothing =
    skipped === 0 && nothingChecked.length > 0 && nothingChecked.every((why) => why !== undefined)
      ? nothingChecked.join('; ')
      : undefined;
  return {
    outcome: mergeOutcomes(outcomes, request.steps, Date.now() - started),
    parsed: {
      findings,
      passed: passed && nothing === undefined,
      ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
      ...(notChecked.length > 0 ? { notChecked } : {}),
      ...(nothing !== undefined ? { nothingChecked: nothing } : {}),
    },
    argv,
  };
}

function mergeOutcomes(
  outcomes: readonly RunOutcome[],
  steps: readonly GateStep[],
  durationMs: number,
): RunOutcome {
  const abnormal = outcomes.find((outcome) => outcome.end !== 'exited');
  const failing = outcomes.find((outcome) => outcome.exitCode !== 0);
  const problems = outcomes.flatMap((outcome, index) =>
    outcome.problem ? [`${steps[index]!.command[0]}: ${outcome.problem}`] : [],
  );
  const totalBytes = outcomes.reduce((sum, outcome) => sum + outcome.output.totalBytes, 0);
  const text = outcomes
    .map((outcome, index) => {
      const body = outcome.output.text.trimEnd();
      return `$ ${shellLine([steps[index]!.command])}\n${body === '' ? '(no output)' : body}`;
    })
    .join('\n\n');
  const logPath = outcomes.find((outcome) => outcome.output.logPath)?.output.logPath;
  return {
    end: abnormal?.end ?? 'exited',
    exitCode: abnormal ? null : (failing?.exitCode ?? 0),
    signal: abnormal?.signal ?? null,
    durationMs,
    stdout: outcomes.map((outcome) => outcome.stdout).join('\n'),
    stderr: outcomes.map((outcome) => outcome.stderr).join('\n'),
    parseTruncated: outcomes.some((outcome) => outcome.parseTruncated),
    outputBytes: outcomes.reduce((sum, outcome) => sum + outcome.outputBytes, 0),
    output: {
      text: totalBytes > 0 ? text : '',
      totalBytes,
      truncated: outcomes.some((outcome) => outcome.output.truncated),
      ...(logPath ? { logPath } : {}),
    },
    resolved: (abnormal ?? outcomes[0])!.resolved,
    ...(problems.length > 0 ? { problem: problems.join('\n') } : {}),
  };
}

// The session's start tree (a copy written from the start commit, no git work tree) answers for
// gates that list their files with git: a gate run whole there (a settings edit, or a gate that
// takes no paths) lists the start commit's files, so its old findings stay old (pallets/click's
// codespell, docs/acceptance-34.md: 11 old findings blocked every hook as new).
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { loadGates } from '../dist/gates/load-gates.js';
import { HookSession } from '../dist/gates/hooks/hook-session.js';
import {
  hookContext,
  runAfterEdit,
  runBeforeStop,
  startSession,
} from '../dist/gates/hooks/run-hooks.js';
import {
  cleanupTemporary,
  hasCommand,
  makeTempDir,
  treeSnapshot,
} from './fixtures/gates-support.mjs';
import { gateEnv, git } from './fixtures/warm/warm-fixture.mjs';

/** A hook call's request on `root` (the named gates, or all), in a session of its own. */
const requestFor = (root, names) => ({
  gates: loadGates(root).gates.filter((gate) => !names || names.includes(gate.name)),
  context: hookContext(new AbortController().signal, 'test'),
  options: { root, env: gateEnv() },
  session: new HookSession(),
});

describe('hooks: the start tree lists its files for gates that list them with git', function () {
  this.timeout(60_000);
  after(cleanupTemporary);

  it('a settings edit runs shellcheck whole on the start tree too: an old finding is not new', async function () {
    if (!hasCommand('shellcheck')) this.skip(); // reason: ShellCheck not installed
    const root = makeTempDir('mcp-gates-start-tree-');
    git(root, 'init', '-q');
    fs.writeFileSync(path.join(root, '.shellcheckrc'), '# the project keeps the defaults\n');
    fs.writeFileSync(path.join(root, 'old.sh'), '#!/bin/sh\necho $1\n');
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'start');
    // No baseline (a cold session-start records none): the stop asks the start tree.
    fs.appendFileSync(path.join(root, '.shellcheckrc'), 'disable=SC2034\n');
    const before = treeSnapshot(root);
    const outcome = await runBeforeStop(requestFor(root, ['shellcheck']), { loopFlag: false });
    expect(outcome.rows.map((row) => row.gate)).to.deep.equal(['shellcheck']);
    expect(outcome.verdict.note).to.not.include('could not be checked');
    expect(outcome.newFindings, outcome.verdict.note).to.deep.equal([]);
    expect(outcome.verdict.block).to.equal(false);
    expect(treeSnapshot(root)).to.deep.equal(before);
  });

  it("an edit made while session_start's baseline runs is no start: what it breaks on an unchanged line blocks", async () => {
    const root = makeTempDir('mcp-gates-start-race-');
    git(root, 'init', '-q');
    // A check that reads the tree a second after it starts: an edit lands in the meantime,
    // and what it breaks is reported on a line the edit did not change (as clippy reports an
    // item after the test module when a function is appended below it: scoped-tls warm).
    const check =
      "sleep 1; if grep -q BREAK b.txt; then echo 'a.txt:1:1: error: b.txt broke it'; exit 1; fi";
    fs.writeFileSync(
      path.join(root, 'mcp-gates.json'),
      JSON.stringify({ gates: { check: { command: ['sh', '-c', check], parser: 'generic' } } }),
    );
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\n');
    fs.writeFileSync(path.join(root, 'b.txt'), 'two\n');
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'start');
    const request = requestFor(root);
    const { session } = request;
    await startSession(request);
    await new Promise((resolve) => setTimeout(resolve, 300));
    fs.appendFileSync(path.join(root, 'b.txt'), 'BREAK\n');
    await session.priming;
    const outcome = await runAfterEdit(request, [path.join(root, 'b.txt')]);
    expect(
      outcome.newFindings.map((finding) => `${finding.file}:${finding.line}`),
      outcome.verdict.note,
    ).to.deep.equal(['a.txt:1']);
    expect(outcome.verdict.block).to.equal(true);
  });

  it('new warnings of a gate that failed at the start already do not block: the start tree says how it ended', async function () {
    if (!hasCommand('shellcheck')) this.skip(); // reason: ShellCheck not installed
    const root = makeTempDir('mcp-gates-start-status-');
    git(root, 'init', '-q');
    fs.writeFileSync(path.join(root, '.shellcheckrc'), '# defaults\n');
    // An old warning fails shellcheck before the session (SC2154: never assigned).
    fs.writeFileSync(path.join(root, 'old.sh'), '#!/bin/sh\necho "$never_set"\n');
    fs.writeFileSync(path.join(root, 'new.sh'), '#!/bin/sh\necho hello\n');
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'start');
    fs.appendFileSync(path.join(root, 'new.sh'), 'echo "$also_never_set"\n');
    const outcome = await runAfterEdit(requestFor(root, ['shellcheck']), [
      path.join(root, 'new.sh'),
    ]);
    expect(
      outcome.newFindings.map((finding) => `${finding.file}:${finding.line} ${finding.rule}`),
    ).to.deep.equal(['new.sh:3 shellcheck:SC2154']);
    expect(outcome.verdict.block, outcome.verdict.note).to.equal(false);
    expect(outcome.verdict.note).to.include('shellcheck failed before');
  });

  it('a check that wrote in the tree is named: its run failed with no finding, and the answer said nothing', async () => {
    const root = makeTempDir('mcp-gates-hook-write-');
    git(root, 'init', '-q');
    // As `go vet` under GOFLAGS=-mod=mod adds a go directive to go.mod (google/uuid): the run
    // fails for the write alone.
    fs.writeFileSync(
      path.join(root, 'mcp-gates.json'),
      JSON.stringify({
        gates: { check: { command: ['sh', '-c', 'echo more >> go.mod'], parser: 'generic' } },
      }),
    );
    fs.writeFileSync(path.join(root, 'go.mod'), 'module example.com/m\n');
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\n');
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'start');
    fs.appendFileSync(path.join(root, 'a.txt'), 'two\n');
    const outcome = await runAfterEdit(requestFor(root), [path.join(root, 'a.txt')]);
    expect(outcome.rows.map((row) => `${row.gate} ${row.status}`)).to.deep.equal(['check failed']);
    expect(outcome.verdict.note).to.include('check changed go.mod while it ran');
  });
});

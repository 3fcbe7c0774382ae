// Narrowable whole-project gates (issue 31, item 3): a package.json script or Makefile target
// that runs one tool which reads each file on its own (markdownlint, shellcheck, cspell,
// stylelint) stays the whole check CI runs, and a check on files (a call's paths, a
// changed scope, a hook after an edit) runs that tool on those files alone.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createGateTools, detectGates } from '../dist/gates/index.js';
import { planRuns } from '../dist/gates/hooks/hook-plan.js';
import {
  cleanupTemporary,
  envWithTools,
  gitRepo,
  hasCommand,
  makeRepo,
  toolContext,
  treeSnapshot,
} from './fixtures/gates-support.mjs';

const byName = (gates) => Object.fromEntries(gates.map((gate) => [gate.name, gate]));

describe('narrowable whole-project gates', function () {
  this.timeout(60000);
  afterEach(cleanupTemporary);

  it('reads the narrowed command of a script or target that runs one such tool, its options kept and operands left out', () => {
    const root = makeRepo({
      'package.json': {
        name: 'x',
        scripts: {
          'lint:md': 'markdownlint "**/*.md" --ignore node_modules --config .markdownlint.json',
          'lint:css': 'stylelint "src/**/*.css" --max-warnings 0',
          'lint:spell': 'cspell lint --no-progress "**"',
          // An option whose value or path cannot be told, a chain, a format it does not read.
          'lint:md2': 'markdownlint --disable MD013 MD033 -- "**/*.md"',
          'lint:both': 'markdownlint "**/*.md" && stylelint "**/*.css"',
        },
      },
      Makefile: 'lint:\n\t@echo checking\n\tshellcheck -x scripts/*.sh bin/tool\n',
    });
    const gates = byName(detectGates(root).gates);
    expect(gates.lint.narrow).to.deep.equal({
      command: ['markdownlint', '--ignore', 'node_modules', '--config', '.markdownlint.json'],
      parser: 'markdownlint-text',
    });
    expect(gates['lint_css'].narrow.command).to.deep.equal(['stylelint', '--max-warnings', '0']);
    expect(gates['lint_spell'].narrow.command).to.deep.equal(['cspell', 'lint', '--no-progress']);
    expect(gates['lint_md2'].narrow).to.equal(undefined);
    expect(gates['lint_both']?.narrow).to.equal(undefined);
    expect(gates['make.lint'].command).to.deep.equal(['make', 'lint']);
    // shellcheck's tty report is not read: the narrowed command prints json1.
    expect(gates['make.lint'].narrow).to.deep.equal({
      command: ['shellcheck', '-x', '--format', 'json1'],
      parser: 'shellcheck-json',
    });
    // A hook after an edit runs it on the edited file; a whole run stays the target.
    const plan = planRuns(
      [gates['make.lint']],
      root,
      { files: ['scripts/a.sh', 'README.md'], deleted: [] },
      true,
    );
    expect(plan.runs.map((run) => [run.gate.name, run.args, run.scope])).to.deep.equal([
      ['make.lint', { paths: ['scripts/a.sh'] }, ['scripts/a.sh']],
    ]);
  });

  it('gives a changed extensionless #! script to shellcheck in a changed scope and after an edit (rbenv/libexec)', async function () {
    if (!hasCommand('shellcheck', ['--version'])) this.skip(); // reason: ShellCheck not installed
    const root = gitRepo({
      '.shellcheckrc': 'disable=SC1090\n',
      'libexec/tool-a': '#!/usr/bin/env bash\necho "$1"\n',
      'README.md': '# x\n',
    });
    fs.writeFileSync(path.join(root, 'libexec/tool-b'), '#!/usr/bin/env bash\necho $1\n');
    fs.writeFileSync(path.join(root, 'README.md'), '# y\n');
    const gates = detectGates(root).gates;
    const plan = planRuns(
      gates,
      root,
      { files: ['libexec/tool-b', 'README.md'], deleted: [] },
      true,
    );
    expect(plan.runs.map((run) => [run.gate.name, run.args])).to.deep.equal([
      ['shellcheck', { paths: ['libexec/tool-b'] }],
    ]);
    const [tool] = createGateTools(gates, { root, env: envWithTools() });
    const changed = await tool.run({ scope: 'changed' }, toolContext());
    expect(changed.structuredContent.status).to.equal('failed');
    expect(
      changed.structuredContent.findings.map((f) => `${f.file}:${f.line} ${f.rule}`),
    ).to.deep.equal(['libexec/tool-b:2 SC2086']);
  });

  it('runs shellcheck on the changed file for --changed and paths, the target whole otherwise, and writes nothing', async function () {
    if (!hasCommand('shellcheck', ['--version'])) this.skip(); // reason: ShellCheck not installed
    const root = gitRepo({
      Makefile: 'lint:\n\tshellcheck -x scripts/*.sh\n',
      'scripts/a.sh': '#!/bin/sh\necho "$1"\n',
      'scripts/b.sh': '#!/bin/sh\necho $2\n',
    });
    fs.writeFileSync(path.join(root, 'scripts/a.sh'), '#!/bin/sh\necho $3\n');
    const before = treeSnapshot(root);
    const [tool] = createGateTools(detectGates(root).gates, { root, env: envWithTools() });
    const changed = await tool.run({ scope: 'changed' }, toolContext());
    expect(changed.structuredContent.command).to.deep.equal([
      'shellcheck',
      '-x',
      '--format',
      'json1',
      'scripts/a.sh',
    ]);
    expect(
      changed.structuredContent.findings.map((f) => `${f.file}:${f.line} ${f.rule}`),
    ).to.deep.equal(['scripts/a.sh:2 SC2086']);
    const named = await tool.run({ paths: ['scripts/b.sh'] }, toolContext());
    expect(named.structuredContent.findings.map((f) => `${f.file}:${f.line}`)).to.deep.equal([
      'scripts/b.sh:2',
    ]);
    const whole = await tool.run({}, toolContext());
    expect(whole.structuredContent.command).to.deep.equal(['make', 'lint']);
    expect(whole.structuredContent.status).to.equal('failed');
    expect(treeSnapshot(root)).to.deep.equal(before);
  });
});

// One gate per check means one per check (issue 29, item 4): two commands are one check
// only when tool, options that change findings and paths agree; otherwise both are served
// under distinct names, or the project's narrower run replaces detection's whole-tree
// guess, and `list` says why.
import { expect } from 'chai';
import { createGateTools, detectGates } from '../dist/gates/index.js';
import { checkIdentity } from '../dist/gates/detect/tool-command.js';
import {
  cleanupTemporary,
  hasCommand,
  makeRepo,
  runCli,
  toolContext,
  envWithTools,
} from './fixtures/gates-support.mjs';

const MYPY_CONFIG = '[project]\nname = "demo"\nversion = "0.1.0"\n\n[tool.mypy]\n';

/** A gate's tool run once, its findings as `file:line rule`. */
async function findings(gates, root, name) {
  const tool = createGateTools(gates, { root, env: envWithTools() }).find(
    (candidate) => candidate.name === name,
  );
  const result = await tool.run({}, toolContext());
  return {
    isError: result.isError,
    status: result.structuredContent.status,
    findings: result.structuredContent.findings.map((f) => `${f.file}:${f.line} ${f.rule}`),
  };
}

describe('one gate per check (issue 29, item 4)', function () {
  this.timeout(120000);
  afterEach(cleanupTemporary);

  it('a check is its tool, the options that change findings and its paths', () => {
    const marker = checkIdentity([
      'mypy',
      '--show-column-numbers',
      '--no-error-summary',
      '--no-pretty',
      '--no-color-output',
      '.',
    ]);
    expect(marker).to.deep.equal({ key: 'mypy:', options: [], paths: ['.'] });
    expect(
      checkIdentity(['uv', 'run', 'mypy', '--python-version', '3.10', 'src', 'tests/']),
    ).to.deep.equal({
      key: 'mypy:',
      options: ['--python-version=3.10'],
      paths: ['src', 'tests'],
    });
    // Output and cache options change nothing found; an option it does not know might.
    expect(
      checkIdentity(['ruff', 'check', '--output-format', 'json', '--force-exclude']),
    ).to.deep.equal({
      key: 'ruff:check',
      options: [],
      paths: ['.'],
    });
    expect(checkIdentity(['ruff', 'check', '--unknown-option', 'x', './src/'])).to.deep.equal({
      key: 'ruff:check',
      options: ['--unknown-option=x'],
      paths: ['src'],
    });
    // What the tool keeps is never neutral: eslint's --quiet drops warnings.
    expect(checkIdentity(['eslint', '--quiet', '--format', 'json', '.']).options).to.deep.equal([
      '--quiet',
    ]);
  });

  it('a tox env running mypy for another Python version is its own gate, and fails where CI fails (real mypy)', async function () {
    const root = makeRepo({
      'pyproject.toml': MYPY_CONFIG,
      'tox.ini': '[testenv:typing]\ncommands = mypy --python-version=3.10 src tests\n',
      // typing.Self is Python 3.11's: a 3.10 run finds it missing.
      'src/a.py':
        'from typing import Self\n\n\nclass A:\n    def me(self) -> Self:\n        return self\n',
      'tests/test_a.py': 'def test_a() -> None:\n    assert True\n',
    });
    const { gates, notServed } = detectGates(root);
    expect(gates.map((gate) => [gate.name, gate.source])).to.deep.equal([
      ['mypy', 'pyproject.toml'],
      ['typing', 'tox.ini'],
    ]);
    expect(notServed).to.deep.equal([]);
    expect(gates[1].command.slice(-3)).to.deep.equal(['--python-version=3.10', 'src', 'tests']);
    // list shows the description: why there are two.
    expect(gates[1].description).to.include(
      'its mypy (--python-version=3.10; paths src, tests) is not the check gate `mypy` runs (no options; paths .): both are served',
    );
    if (!hasCommand('mypy')) this.skip(); // reason: mypy is not installed here
    // The project's whole-tree run (this Python, 3.11) passes: the two are not one check.
    expect((await findings(gates, root, 'mypy')).isError).to.equal(false);
    const typing = await findings(gates, root, 'typing');
    expect(typing.isError).to.equal(true);
    expect(typing.findings).to.include('src/a.py:1 attr-defined');
  });

  it("a Makefile target's narrower mypy run replaces the whole-tree marker, and list says why (real mypy)", async function () {
    const root = makeRepo({
      'pyproject.toml': MYPY_CONFIG,
      Makefile: 'mypy:\n\tmypy pkg tests/mypy_checks.py\n',
      'pkg/__init__.py': '',
      'pkg/mod.py': 'def add(a: int, b: int) -> int:\n    return a + b\n',
      'tests/mypy_checks.py': 'from pkg.mod import add\n\nx: int = add(1, 2)\n',
      // Not what the project checks: `mypy .` reports it.
      'scripts/old.py': 'x: int = "not checked by the project"\n',
    });
    const { gates, notServed } = detectGates(root);
    expect(gates.map((gate) => [gate.name, gate.command.join(' ')])).to.deep.equal([
      ['make.mypy', 'make mypy'],
    ]);
    const why =
      'the Makefile target "mypy" (gate `make.mypy`) runs this check on pkg, tests/mypy_checks.py, as the project runs it: the whole tree would be checked for what the project does not check';
    expect(notServed).to.deep.equal([{ source: 'pyproject.toml', name: 'gate mypy', why }]);
    const listed = runCli(['list', '--root', root], { cwd: root });
    expect(listed.stdout).to.include(`pyproject.toml: gate mypy — ${why}`);
    if (!hasCommand('mypy')) this.skip(); // reason: mypy is not installed here
    if (!hasCommand('make')) this.skip(); // reason: make is not installed here
    const served = await findings(gates, root, 'make.mypy');
    expect(served, JSON.stringify(served)).to.deep.include({ isError: false, findings: [] });
  });

  it('the same check written twice is served once; a marker the project also runs whole stays', () => {
    const root = makeRepo({
      'pyproject.toml': `${MYPY_CONFIG}\n[tool.ruff]\n`,
      // `ruff check .` is the marker's check: not served again. `mypy src` narrows the marker,
      // but the tox env runs `mypy .` too, which the marker then serves.
      Makefile: 'lint:\n\truff check .\n',
      'tox.ini': '[testenv:type]\ncommands = mypy .\n[testenv:lint-src]\ncommands = mypy src\n',
      'src/a.py': '',
    });
    const { gates, notServed } = detectGates(root);
    expect(gates.map((gate) => gate.name)).to.deep.equal([
      'ruff',
      'ruff_format',
      'mypy',
      'lint-src',
    ]);
    expect(notServed.map((item) => `${item.source}: ${item.name}: ${item.why}`)).to.deep.equal([
      'Makefile: target lint: it runs only checks already run by gate `ruff`',
      'tox.ini: tox env type: it runs only checks already run by gate `mypy`',
    ]);
  });
});

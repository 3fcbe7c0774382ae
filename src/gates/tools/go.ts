import { goVetParser } from '../parsers/go-vet.js';
import { gofmtParser } from '../parsers/gofmt.js';
import path from 'node:path';
import type { ProjectFacts, ToolDescriptor } from './tool.js';

const GO_HINT =
  'install Go (https://go.dev/dl/; Debian: apt-get install golang-go) and put its bin directory on the PATH the host gives the server';

/** A gate name's word for a module's directory (`tools/cmd` gives `tools.cmd`). */
function moduleWord(directory: string): string {
  return directory.replace(/\//g, '.').replace(/[^A-Za-z0-9_.-]/g, '_');
}

/**
 * `-mod=readonly`, Go's own default since 1.16, said on the command line where it beats a
 * `GOFLAGS=-mod=mod` of the user's environment: with that, go vet rewrites go.mod (adds
 * the go line it lacks, tidies requirements) and a check never changes the tree. A module
 * that vendors is left to its default (vendor): readonly there would go to the network.
 */
function readOnlyModules(project: ProjectFacts, directory: string): string[] {
  const vendored = path.posix.join(directory, 'vendor', 'modules.txt');
  return project.exists(vendored) ? [] : ['-mod=readonly'];
}

export const goVet: ToolDescriptor = {
  name: 'go vet',
  programs: ['go'],
  recognise: { configFiles: ['go.mod'], nestedConfigFiles: ['go.mod'] },
  // `./...` stops at a nested module (a go.work does not change that): each module is a
  // gate of its own, run in its directory. -json names each finding's analyzer.
  gates: (project) =>
    project.directoriesWith('go.mod').map((directory) => {
      const command = ['go', 'vet', ...readOnlyModules(project, directory), '-json', './...'];
      return directory === '.'
        ? {
            name: 'vet',
            description: 'go vet over every package of the module',
            command,
            fix: null,
            parser: goVetParser.name,
            paths: 'none' as const,
            source: 'go.mod',
          }
        : {
            name: `vet.${moduleWord(directory)}`.slice(0, 60),
            description: `go vet over every package of the module in ${directory}/`,
            command,
            fix: null,
            parser: goVetParser.name,
            paths: 'none' as const,
            cwd: directory,
            source: `${directory}/go.mod`,
          };
    }),
  outputs: [{ parser: goVetParser }],
  versionArgs: ['version'],
  warm: { cold: 'native, starts fast' },
  install: { hint: GO_HINT },
};

export const gofmt: ToolDescriptor = {
  name: 'gofmt',
  programs: ['gofmt'],
  // gofmt walks the whole tree, nested modules included: one gate.
  recognise: { configFiles: ['go.mod'], nestedConfigFiles: ['go.mod'] },
  gates: (_project, source) => [
    {
      name: 'gofmt',
      description: 'Go formatting check (files gofmt would change)',
      command: ['gofmt', '-l', '-d', '.'],
      fix: ['gofmt', '-w', '.'],
      parser: gofmtParser.name,
      paths: 'append',
      source,
    },
  ],
  extensions: ['go'],
  outputs: [{ parser: gofmtParser }],
  // gofmt has no version flag; with -l and an empty stdin it checks nothing and exits 0.
  versionArgs: ['-l'],
  warm: { cold: 'native, starts fast' },
  install: { hint: GO_HINT },
};

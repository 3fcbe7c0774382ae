import { goVetParser } from '../parsers/go-vet.js';
import { gofmtParser } from '../parsers/gofmt.js';
import type { ToolDescriptor } from './tool.js';

const GO_HINT = 'install Go and put it on the PATH the host gives the server';

export const goVet: ToolDescriptor = {
  name: 'go vet',
  programs: ['go'],
  recognise: { configFiles: ['go.mod'] },
  gates: (_project, source) => [
    {
      name: 'vet',
      description: 'go vet over every package',
      command: ['go', 'vet', './...'],
      fix: null,
      parser: goVetParser.name,
      paths: 'none',
      source,
    },
  ],
  outputs: [{ parser: goVetParser }],
  versionArgs: ['version'],
  warm: { cold: 'native, starts fast' },
  install: { hint: GO_HINT },
};

export const gofmt: ToolDescriptor = {
  name: 'gofmt',
  programs: ['gofmt'],
  recognise: { configFiles: ['go.mod'] },
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

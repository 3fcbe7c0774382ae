import { cargoJsonParser } from '../parsers/cargo-json.js';
import { rustfmtParser } from '../parsers/rustfmt.js';
import type { ToolDescriptor } from './tool.js';

const RUSTUP_HINT =
  'install Rust with rustup (https://rustup.rs), or put ~/.cargo/bin on the PATH the host gives the server';

/** cargo clippy over every target, warnings denied; a workspace checks every member. */
export const clippy: ToolDescriptor = {
  name: 'clippy',
  programs: ['cargo'],
  recognise: { configFiles: ['Cargo.toml'] },
  gates: (project, source) => [
    {
      name: 'clippy',
      description: 'cargo clippy on all targets, warnings denied',
      command: [
        'cargo',
        'clippy',
        ...(/^\s*\[workspace\]/m.test(project.readText('Cargo.toml') ?? '') ? ['--workspace'] : []),
        '--all-targets',
        // Every target is checked even when one fails: cargo otherwise stops at the first
        // failure, and which target's findings are missing depends on the build order
        // (stable since cargo 1.74).
        '--keep-going',
        '--message-format=json',
        '--',
        '-D',
        'warnings',
      ],
      fix: null,
      parser: cargoJsonParser.name,
      paths: 'none',
      source,
      // cargo generates Cargo.lock for a crate that commits none; a check removes it.
      derivedFiles: ['Cargo.lock'],
    },
  ],
  writes: [
    {
      path: 'target',
      why: 'cargo builds into target/ (every crate clippy checks, dependencies included)',
      // A check never writes the tree, ignored target/ included: the build goes to a
      // directory kept per tree in the user's cache, so the next check is incremental.
      redirect: { env: 'CARGO_TARGET_DIR', kept: true },
    },
  ],
  outputs: [{ parser: cargoJsonParser, machineFormat: true }],
  warm: { cold: 'Rust-based, starts fast' },
  install: { hint: RUSTUP_HINT },
};

export const rustfmt: ToolDescriptor = {
  name: 'rustfmt',
  programs: ['rustfmt'],
  recognise: { configFiles: ['Cargo.toml'] },
  gates: (_project, source) => [
    {
      name: 'rustfmt',
      description: 'Rust formatting check over the whole workspace',
      command: ['cargo', 'fmt', '--all', '--check'],
      fix: ['cargo', 'fmt', '--all'],
      parser: rustfmtParser.name,
      paths: 'none',
      source,
    },
  ],
  extensions: ['rs'],
  outputs: [{ parser: rustfmtParser }],
  warm: { cold: 'Rust-based, starts fast' },
  install: { hint: RUSTUP_HINT },
};

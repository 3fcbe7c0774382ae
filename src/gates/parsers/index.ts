import { biomeJsonParser } from './biome-json.js';
import { cargoJsonParser } from './cargo-json.js';
import { eslintJsonParser } from './eslint-json.js';
import { genericParser } from './generic.js';
import { goVetParser } from './go-vet.js';
import { gofmtParser } from './gofmt.js';
import { oxlintJsonParser } from './oxlint-json.js';
import type { Parser } from './parser.js';
import { prettierParser } from './prettier.js';
import { ruffFormatParser } from './ruff-format.js';
import { ruffJsonParser } from './ruff-json.js';
import { rustfmtParser } from './rustfmt.js';
import { tscParser } from './tsc.js';

export type { GateOutput, ParseResult, Parser } from './parser.js';

const PARSERS: readonly Parser[] = [
  genericParser,
  eslintJsonParser,
  tscParser,
  prettierParser,
  biomeJsonParser,
  oxlintJsonParser,
  cargoJsonParser,
  rustfmtParser,
  ruffJsonParser,
  ruffFormatParser,
  goVetParser,
  gofmtParser,
];

const BY_NAME = new Map(PARSERS.map((parser) => [parser.name, parser]));

export const PARSER_NAMES: readonly string[] = PARSERS.map((parser) => parser.name);

export function findParser(name: string): Parser | undefined {
  return BY_NAME.get(name);
}

export function listParsers(): readonly Parser[] {
  return PARSERS;
}

import { actionlintJsonParser, actionlintParser } from './actionlint.js';
import { biomeJsonParser } from './biome-json.js';
import { blackParser } from './black.js';
import { biomeTextParser } from './biome-text.js';
import { cargoJsonParser } from './cargo-json.js';
import { codespellParser } from './codespell.js';
import { cspellParser } from './cspell.js';
import { combineParsers } from './combined.js';
import { editorconfigCheckerParser } from './editorconfig-checker.js';
import { eslintJsonParser } from './eslint-json.js';
import { flake8Parser } from './flake8.js';
import { genericParser } from './generic.js';
import { goVetParser } from './go-vet.js';
import { gofmtParser } from './gofmt.js';
import { golangciLintJsonParser } from './golangci-json.js';
import { hadolintParser } from './hadolint.js';
import { isortParser } from './isort.js';
import { knipParser } from './knip.js';
import { markdownlintJsonParser, markdownlintTextParser } from './markdownlint.js';
import { mypyParser } from './mypy.js';
import { oxfmtParser } from './oxfmt.js';
import { oxlintJsonParser } from './oxlint-json.js';
import { oxlintTextParser } from './oxlint-text.js';
import type { Parser } from './parser.js';
import { prettierParser } from './prettier.js';
import { pylintJsonParser, pylintTextParser } from './pylint.js';
import { pyrightJsonParser } from './pyright-json.js';
import { ruffFormatParser } from './ruff-format.js';
import { ruffJsonParser } from './ruff-json.js';
import { rustfmtParser } from './rustfmt.js';
import { sarifParser } from './sarif.js';
import { shellcheckJsonParser } from './shellcheck-json.js';
import { shfmtParser } from './shfmt.js';
import { eslintStylishParser, stylelintParser, tsdParser, xoParser } from './stylish.js';
import { stylelintJsonParser } from './stylelint-json.js';
import { tscParser } from './tsc.js';
import { vitestTypecheckParser } from './vitest-typecheck.js';
import { yamllintParser } from './yamllint.js';

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
  eslintStylishParser,
  biomeTextParser,
  oxlintTextParser,
  vitestTypecheckParser,
  stylelintParser,
  xoParser,
  oxfmtParser,
  mypyParser,
  pyrightJsonParser,
  blackParser,
  isortParser,
  codespellParser,
  shellcheckJsonParser,
  golangciLintJsonParser,
  sarifParser,
  stylelintJsonParser,
  markdownlintJsonParser,
  markdownlintTextParser,
  cspellParser,
  knipParser,
  tsdParser,
  flake8Parser,
  pylintJsonParser,
  pylintTextParser,
  shfmtParser,
  yamllintParser,
  actionlintJsonParser,
  actionlintParser,
  hadolintParser,
  editorconfigCheckerParser,
];

const BY_NAME = new Map(PARSERS.map((parser) => [parser.name, parser]));

export const PARSER_NAMES: readonly string[] = PARSERS.map((parser) => parser.name);

/** A parser by name; `a+b` reads one output with parsers a and b (a script chaining tools). */
export function findParser(name: string): Parser | undefined {
  const single = BY_NAME.get(name);
  if (single || !name.includes('+')) return single;
  const parts = name.split('+').map((part) => BY_NAME.get(part));
  if (parts.some((part) => part === undefined)) return undefined;
  return combineParsers(parts as Parser[]);
}

export function listParsers(): readonly Parser[] {
  return PARSERS;
}

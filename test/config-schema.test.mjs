// schema/mcp-gates.schema.json kept in step with the loader (src/gates/config.ts), and the
// loader's messages for files that are not JSON at all.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { GATE_KEYS, ROOT_KEYS, loadConfig, parseConfig } from '../dist/gates/config.js';
import { GATE_NAME_PATTERN, MAX_TIMEOUT_MS, MIN_TIMEOUT_MS } from '../dist/gates/gate-spec.js';
import { PARSER_NAMES } from '../dist/gates/parsers/index.js';
import { schemaReference } from '../dist/cli/commands/init.js';
import { CONFIG_SCHEMA, configSchemaErrors } from './helpers/config-schema.mjs';
import {
  REPO_ROOT,
  cleanupTemporary,
  makeRepo,
  makeTempDir,
  runCli,
} from './fixtures/gates-support.mjs';

const gate = (extra = {}) => ({ gates: { lint: { command: ['eslint', '.'], ...extra } } });

/** Parses the config with the loader: null when accepted, else the error. */
function loaderError(document) {
  try {
    parseConfig(document, 'mcp-gates.json');
    return null;
  } catch (error) {
    return error;
  }
}

describe('mcp-gates.json schema', () => {
  afterEach(cleanupTemporary);

  it('lists exactly the keys, parsers, name pattern and timeout range the loader accepts', () => {
    const gateSchema = CONFIG_SCHEMA.definitions.gate;
    expect(Object.keys(CONFIG_SCHEMA.properties)).to.have.members([...ROOT_KEYS]);
    expect(CONFIG_SCHEMA.required).to.deep.equal(['gates']);
    expect(Object.keys(gateSchema.properties)).to.have.members([...GATE_KEYS]);
    expect(gateSchema.properties.parser.enum).to.have.members([...PARSER_NAMES]);
    expect(CONFIG_SCHEMA.properties.gates.propertyNames.pattern).to.equal(GATE_NAME_PATTERN.source);
    expect(gateSchema.properties.timeoutMs).to.include({
      minimum: MIN_TIMEOUT_MS,
      maximum: MAX_TIMEOUT_MS,
    });
    for (const mode of gateSchema.properties.paths.enum)
      expect(loaderError(gate({ paths: mode })), mode).to.equal(null);
  });

  it('accepts the README example and a config with every key', () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const example = /## mcp-gates\.json\n\n```json\n([\s\S]*?)```/.exec(readme)[1];
    const full = {
      $schema: './node_modules/mcp-gates/schema/mcp-gates.schema.json',
      gates: {
        lint: {
          command: ['eslint', '.'],
          fix: null,
          description: 'd',
          parser: 'eslint-json',
          timeoutMs: 1000,
          paths: 'append',
        },
      },
    };
    for (const document of [JSON.parse(example), full]) {
      expect(loaderError(document)).to.equal(null);
      expect(configSchemaErrors(document)).to.equal(null);
    }
  });

  const refused = [
    ['an unknown top-level key', { ...gate(), extra: 1 }],
    ['no gates key', {}],
    ['no gates', { gates: {} }],
    ['a gate name with a space', { gates: { 'my lint': { command: ['x'] } } }],
    ['a gate name starting with a digit', { gates: { '1lint': { command: ['x'] } } }],
    ['a gate that is not an object', { gates: { lint: ['eslint'] } }],
    ['an unknown gate key', gate({ parsr: 'tsc' })],
    ['no command', { gates: { lint: { parser: 'tsc' } } }],
    ['a command string', { gates: { lint: { command: 'eslint .' } } }],
    ['an empty command', { gates: { lint: { command: [] } } }],
    ['a number in the command', { gates: { lint: { command: ['eslint', 1] } } }],
    ['a NUL byte', { gates: { lint: { command: ['eslint', 'a\u0000b'] } } }],
    ['a fix string', gate({ fix: 'eslint --fix' })],
    ['a description number', gate({ description: 3 })],
    ['an unknown parser', gate({ parser: 'eslint' })],
    ['a fractional timeout', gate({ timeoutMs: 1500.5 })],
    ['a timeout too short', gate({ timeoutMs: MIN_TIMEOUT_MS - 1 })],
    ['a timeout too long', gate({ timeoutMs: MAX_TIMEOUT_MS + 1 })],
    ['a timeout string', gate({ timeoutMs: '1000' })],
    ['an unknown paths mode', gate({ paths: 'prepend' })],
  ];
  for (const [what, document] of refused) {
    it(`refuses ${what}, as the loader does`, () => {
      expect(loaderError(document), 'the loader refuses it').to.not.equal(null);
      expect(configSchemaErrors(document), 'the schema refuses it').to.be.a('string');
    });
  }

  it('init writes a $schema that the loader ignores and the schema accepts', () => {
    const root = makeRepo({ 'package.json': { scripts: { lint: 'eslint .' } } });
    const result = runCli(['init', '--root', root]);
    expect(result.code, result.stderr).to.equal(0);
    const written = JSON.parse(fs.readFileSync(path.join(root, 'mcp-gates.json'), 'utf8'));
    expect(Object.keys(written)[0]).to.equal('$schema');
    expect(written.$schema).to.match(/^https:\/\/unpkg\.com\/mcp-gates@[^/]+\/schema\//);
    expect(configSchemaErrors(written)).to.equal(null);
    expect(loadConfig(root).map((entry) => entry.name)).to.deep.equal(['lint']);
  });

  it('$schema points at the project-local copy when the package is installed in the project', () => {
    const root = makeTempDir();
    const installed = path.join(root, 'node_modules', 'mcp-gates', 'schema');
    expect(schemaReference(root)).to.match(/^https:/);
    fs.mkdirSync(installed, { recursive: true });
    fs.copyFileSync(
      path.join(REPO_ROOT, 'schema', 'mcp-gates.schema.json'),
      path.join(installed, 'mcp-gates.schema.json'),
    );
    expect(schemaReference(root)).to.equal('./node_modules/mcp-gates/schema/mcp-gates.schema.json');
    // This repository: the shipped file itself.
    expect(schemaReference(REPO_ROOT)).to.equal('./schema/mcp-gates.schema.json');
  });
});

describe('mcp-gates.json that is not JSON: messages name the cause', () => {
  afterEach(cleanupTemporary);

  function jsonError(text) {
    const root = makeRepo({ 'mcp-gates.json': text });
    try {
      loadConfig(root);
    } catch (error) {
      return error;
    }
    throw new Error('expected loadConfig to throw');
  }

  const cases = [
    ['an empty file', '', /the file is empty\n {2}fix: delete it to use detection/],
    ['a file of blanks', ' \n\n', /the file is empty/],
    [
      'a missing closing brace',
      '{"gates": {"lint": {"command": ["eslint"]}}\n',
      /invalid JSON at line 2, column 1[\s\S]*fix: the file ends before the JSON does: add the missing \}/,
    ],
    ['a file cut short', '{"gates": {"lint": {"command": ["esl', /fix: close the string with a "/],
    [
      'a trailing comma',
      '{"gates": {"lint": {"command": ["eslint"],}}}',
      /fix: remove the comma before the closing \} or \]/,
    ],
    [
      'a comment',
      '{\n  // the gates\n  "gates": {"lint": {"command": ["eslint"]}}}',
      /invalid JSON at line 2, column 3[\s\S]*fix: remove the comment/,
    ],
    [
      'a missing colon',
      '{"gates" {"lint": {"command": ["eslint"]}}}',
      /fix: make it plain JSON: keys and strings in double quotes/,
    ],
  ];
  for (const [what, text, expected] of cases) {
    it(`${what}: ECONFIG_JSON with the matching fix`, () => {
      const error = jsonError(text);
      expect(error.code).to.equal('ECONFIG_JSON');
      expect(error.message).to.match(expected).and.not.include('unknown position');
    });
  }
});

import { pyrightJsonParser } from '../parsers/pyright-json.js';
import { PYTHON_EXTENSIONS } from './shared.js';
import type { ToolDescriptor } from './tool.js';

export const pyright: ToolDescriptor = {
  name: 'pyright',
  programs: ['pyright'],
  recognise: {
    configFiles: ['pyrightconfig.json'],
    configSections: [{ file: 'pyproject.toml', section: /^\s*\[tool\.pyright\]/m }],
    preCommitHooks: ['pyright'],
  },
  gates: (_project, source) => [
    {
      name: 'pyright',
      description: 'pyright typecheck',
      command: ['pyright', '--outputjson'],
      fix: null,
      parser: pyrightJsonParser.name,
      paths: 'append',
      source,
    },
  ],
  extensions: PYTHON_EXTENSIONS,
  outputs: [{ parser: pyrightJsonParser }],
  commands: {
    hooks: { pyright: { entry: ['pyright'] } },
    keepOptions: [
      '--project=',
      '-p=',
      '--pythonversion=',
      '--pythonplatform=',
      '--pythonpath=',
      '--venvpath=',
      '--level=',
      '--warnings',
    ],
  },
  install: {
    hint: 'install pyright in the project (npm install --save-dev pyright, or pip install pyright)',
  },
};

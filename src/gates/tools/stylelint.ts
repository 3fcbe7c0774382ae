import { stylelintParser } from '../parsers/stylish.js';
import { lintScriptKind, optionValue } from './shared.js';
import type { ToolDescriptor } from './tool.js';

export const stylelint: ToolDescriptor = {
  name: 'stylelint',
  programs: ['stylelint'],
  recognise: { scriptWords: ['stylelint'] },
  extensions: ['css', 'scss', 'sass', 'less'],
  outputs: [{ parser: stylelintParser }],
  script: {
    textParser: stylelintParser.name,
    commandParser(args) {
      const formatter = optionValue(args, '--formatter', '-f');
      return formatter === undefined || formatter === 'string' ? stylelintParser.name : undefined;
    },
    kind: lintScriptKind,
  },
  install: { npmPackage: 'stylelint' },
};

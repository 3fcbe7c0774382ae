import { PYTHON_EXTENSIONS } from './shared.js';
import type { ToolDescriptor } from './tool.js';

/** black: known for the files it checks; a configured gate running it gets only those. */
export const black: ToolDescriptor = {
  name: 'black',
  programs: ['black'],
  recognise: { preCommitHooks: ['black', 'black-jupyter'] },
  extensions: PYTHON_EXTENSIONS,
  outputs: [],
};

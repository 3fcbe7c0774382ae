import type { ToolDescriptor } from './tool.js';

/** shellcheck: known for the files it checks; a configured gate running it gets only those. */
export const shellcheck: ToolDescriptor = {
  name: 'shellcheck',
  programs: ['shellcheck'],
  recognise: { preCommitHooks: ['shellcheck'] },
  extensions: ['sh', 'bash'],
  outputs: [],
};

// The echo servers compared, each a tiny stdio server in bench/servers/.
import { fileURLToPath } from 'node:url';

const script = (name) => fileURLToPath(new URL(`../servers/${name}`, import.meta.url));

export const SERVERS = [
  {
    id: 'ours',
    label: 'mcp-gates, capture on',
    script: script('ours.mjs'),
    args: [],
    eras: ['legacy', 'modern'],
  },
  {
    id: 'ours-nocapture',
    label: 'mcp-gates, capture off',
    script: script('ours.mjs'),
    args: ['--no-capture'],
    eras: ['legacy', 'modern'],
  },
  {
    id: 'sdk-v1',
    label: 'SDK v1 (@modelcontextprotocol/sdk)',
    script: script('sdk-v1.mjs'),
    args: [],
    eras: ['legacy'],
  },
  {
    id: 'sdk-v2',
    label: 'SDK v2 (@modelcontextprotocol/server)',
    script: script('sdk-v2.mjs'),
    args: [],
    eras: ['legacy', 'modern'],
  },
  {
    id: 'floor',
    label: 'floor (readline, canned lines)',
    script: script('floor.mjs'),
    args: [],
    eras: ['legacy', 'modern'],
  },
];

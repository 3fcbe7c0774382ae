// The parse worker: reads one gate's output off the event loop (see parse-off-loop.ts).
import { parentPort } from 'node:worker_threads';
import { parseGateOutputSync, type ParseRequest } from './parse-step.js';

parentPort!.once('message', (request: ParseRequest) => {
  parentPort!.postMessage(parseGateOutputSync(request));
});

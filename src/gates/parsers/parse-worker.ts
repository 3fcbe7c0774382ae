// The parse worker: reads one gate's output off the event loop (see parse-off-loop.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { parseGateOutputSync, type ParseRequest } from './parse-step.js';

parentPort!.postMessage(parseGateOutputSync(workerData as ParseRequest));

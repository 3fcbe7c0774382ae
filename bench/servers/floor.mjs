// The floor: a bare readline loop answering canned lines, the id spliced in. It
// does no validation and echoes a fixed text: the cost of stdio and Node alone.
import readline from 'node:readline';

const ID = /"id":("(?:[^"\\]|\\.)*"|-?\d+)/;
const MODERN_CLAIM = '"io.modelcontextprotocol/protocolVersion"';
const SERVER_INFO =
  '"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"floor","version":"1.0.0"}}';

const INITIALIZE =
  '"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"floor","version":"1.0.0"}}}\n';
const DISCOVER = `"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":3600000,"cacheScope":"public",${SERVER_INFO}}}\n`;
const CALL = '"result":{"content":[{"type":"text","text":"hello"}]}}\n';
const CALL_MODERN = `"result":{"resultType":"complete","content":[{"type":"text","text":"hello"}],${SERVER_INFO}}}\n`;

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  const id = ID.exec(line);
  if (!id) return; // a notification
  let body;
  if (line.includes('"initialize"')) body = INITIALIZE;
  else if (line.includes('"server/discover"')) body = DISCOVER;
  else body = line.includes(MODERN_CLAIM) ? CALL_MODERN : CALL;
  process.stdout.write(`{"jsonrpc":"2.0","id":${id[1]},${body}`);
});

// The package's entry points as a consumer imports them, and serveStdio leaving the exit
// to its caller (a real process).
import { spawnSync } from 'node:child_process';
import { expect } from 'chai';

describe('package exports and serveStdio', function () {
  this.timeout(20000);

  it('exports the gates API as mcp-gates/gates, with its error class and codes', async () => {
    const gates = await import('mcp-gates/gates');
    for (const name of ['loadGates', 'createGateTools', 'runGate', 'watchGates', 'parseConfig']) {
      expect(gates[name], name).to.be.a('function');
    }
    const error = new gates.GatesError('ECONFIG_JSON', 'not JSON', { fix: 'write JSON' });
    expect(error).to.be.instanceOf(Error).and.include({ code: 'ECONFIG_JSON', fix: 'write JSON' });
    expect(() => gates.parseConfig({ gates: { lint: { command: 'eslint .' } } }, 'mcp-gates.json'))
      .to.throw(gates.GatesError)
      .with.property('code', 'ECONFIG_TYPE');
  });

  it('exports the server, its helpers and the capture errors from the main entry', async () => {
    const main = await import('mcp-gates');
    for (const name of ['McpServer', 'serveStdio', 'defineTool', 'CaptureError', 'LocalError']) {
      expect(main[name], name).to.be.a('function');
    }
  });

  it('serveStdio resolves at end of input and leaves the exit (and its code) to the caller', () => {
    const script = `
      import { McpServer, serveStdio } from 'mcp-gates';
      const server = new McpServer({ name: 's', version: '1' });
      await serveStdio(server, { capture: false });
      process.stderr.write('serveStdio resolved\\n');
      process.exitCode = 7;`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      input: '',
      encoding: 'utf8',
      cwd: new URL('..', import.meta.url),
      timeout: 10000,
    });
    expect(result.stderr).to.include('serveStdio resolved');
    expect(result.status).to.equal(7);
    expect(result.stdout).to.equal('');
  });
});

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { requireToolchain, startTestHost, type TestHost } from '@testkeeper/kernel/testing';
import { newProject, newScript, toolchainMissing } from './helpers.js';

describe('executions: log files that cannot be written', function () {
  this.timeout(180_000);
  let host: TestHost;
  before(async () => {
    host = await startTestHost();
  });
  after(async () => host?.close());

  it('fails the run and records it as an error, never as passed without its logs', async function () {
    requireToolchain(this, await toolchainMissing(host, 'cargo', 'rust_cargo'));
    const p = await newProject(host, 'No logs');
    const scriptId = await newScript(host, p, 'rust_cargo', 'checkout.rs');
    // A file where the project's execution directory should be: the log directory cannot be made.
    mkdirSync(path.join(host.dataDir, 'executions'), { recursive: true });
    writeFileSync(path.join(host.dataDir, 'executions', String(p)), '');
    const res = await host.call('run_native_test', { script_id: scriptId });
    expect(res.success).to.equal(false);
    const rows = await host.kernel.storage.query<{ id: number; status: string; error: string | null; receipt: string | null }>(
      'SELECT id, status, error, receipt FROM scripts_executions WHERE script_id = ?',
      [scriptId],
    );
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ status: 'error', receipt: null });
    expect(rows[0]!.error).to.match(/internal error while running: .*ENOTDIR/);
    const results = await host.kernel.storage.query('SELECT id FROM scripts_execution_results WHERE execution_row_id = ?', [rows[0]!.id]);
    expect(results).to.have.length(0);
  });
});

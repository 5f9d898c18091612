import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { requireToolchain, startTestHost, type TestHost } from '@testkeeper/kernel/testing';
import { waitGone } from '../sandbox/processes.js';
import { newProject, newScript, toolchainMissing } from './helpers.js';

describe('executions: a hanging test is killed at the run timeout', function () {
  this.timeout(180_000);
  let host: TestHost;

  before(async () => {
    host = await startTestHost({ config: { plugins: { settings: { scripts: { runTimeoutSeconds: 6 } } } } });
  });
  after(async () => host?.close());

  it('run_native_test ends timed_out and no process of the run survives (test binary, grandchild sleep)', async function () {
    requireToolchain(this, await toolchainMissing(host, 'cargo', 'rust_cargo'));
    const projectId = await newProject(host, 'Hang');
    const scriptId = await newScript(host, projectId, 'rust_cargo', 'hang.rs', 'Hangs');
    const t0 = Date.now();
    const res = await host.ok('run_native_test', { script_id: scriptId });
    expect(res.status).to.equal('timed_out');
    expect(res.error).to.match(/timed out after 6000 ms/);
    expect(Date.now() - t0).to.be.lessThan(60_000);
    const fwDir = path.join(host.dataDir, 'frameworks', String(projectId), 'rust_cargo');
    const [testPid, sleepPid] = readFileSync(path.join(fwDir, 'pids.txt'), 'utf8').trim().split(' ').map(Number);
    expect(await waitGone(testPid!), 'the test binary is gone').to.equal(true);
    expect(await waitGone(sleepPid!), 'the grandchild sleep is gone').to.equal(true);
    const e = await host.ok('get_execution', { execution_id: res.execution_id });
    expect(e.status).to.equal('timed_out');
  });

  it('a cancelled call kills the run and records it as cancelled', async function () {
    requireToolchain(this, await toolchainMissing(host, 'cargo', 'rust_cargo'));
    const projectId = await newProject(host, 'Cancel');
    const scriptId = await newScript(host, projectId, 'rust_cargo', 'hang.rs', 'Cancelled');
    const pidFile = path.join(host.dataDir, 'frameworks', String(projectId), 'rust_cargo', 'pids.txt');
    const abort = new AbortController();
    const call = host.client.callTool({ name: 'run_native_test', arguments: { script_id: scriptId } }, undefined, { signal: abort.signal, timeout: 120_000 });
    call.catch(() => undefined);
    const end = Date.now() + 60_000;
    while (!existsSync(pidFile) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 100));
    const [testPid, sleepPid] = readFileSync(pidFile, 'utf8').trim().split(' ').map(Number);
    abort.abort();
    expect(await waitGone(testPid!, 5000), 'the test binary is gone').to.equal(true);
    expect(await waitGone(sleepPid!, 5000), 'the grandchild sleep is gone').to.equal(true);
    // The call was cancelled, so read the record the run left.
    let rows: Array<{ status: string; error: string | null }> = [];
    for (let i = 0; i < 50; i++) {
      rows = await host.kernel.storage.manager.query(`SELECT status, error FROM scripts_executions WHERE script_id = ${scriptId}`);
      if (rows[0]?.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ status: 'cancelled' });
    expect(rows[0]!.error).to.match(/^cancelled/);
  });
});

import { expect } from 'chai';
import { Tokens } from '@testkeeper/kernel';
import { requireToolchain, startTestHost, type TestHost } from '@testkeeper/kernel/testing';
import { newProject, newScript, toolchainMissing } from './helpers.js';

describe('executions: verified runs go to project memory', function () {
  this.timeout(180_000);
  let host: TestHost;
  before(async () => {
    host = await startTestHost();
  });
  after(async () => host?.close());

  it('records a verified_run entry with the execution as provenance', async function () {
    const hasMemory = host.kernel.container.isRegistered(Tokens.ProjectMemory, true);
    requireToolchain(this, hasMemory ? null : 'project memory (Tokens.ProjectMemory) is not provided by the projects pack yet');
    requireToolchain(this, await toolchainMissing(host, 'go', 'go_test'));
    const p = await newProject(host, 'Memory');
    const scriptId = await newScript(host, p, 'go_test', 'checkout_test.go', 'Remembered');
    const run = await host.ok('run_native_test', { script_id: scriptId, base_url: 'http://127.0.0.1:8099/' });
    expect(run.status).to.equal('failed');
    const memory = await host.ok('get_project_memory', { project_id: p, limit: 20 });
    const text = JSON.stringify(memory);
    expect(text).to.include(run.execution_id);
    expect(text).to.include('Verified run of script');
    expect(text).to.include('2 passed, 1 failed, 1 skipped');
  });

  it('does not record runs that could not run (compile errors)', async function () {
    const hasMemory = host.kernel.container.isRegistered(Tokens.ProjectMemory, true);
    requireToolchain(this, hasMemory ? null : 'project memory (Tokens.ProjectMemory) is not provided by the projects pack yet');
    requireToolchain(this, await toolchainMissing(host, 'cargo', 'rust_cargo'));
    const p = await newProject(host, 'Memory broken');
    const scriptId = await newScript(host, p, 'rust_cargo', 'broken.rs');
    const run = await host.ok('run_native_test', { script_id: scriptId });
    expect(run.status).to.equal('error');
    expect(JSON.stringify(await host.ok('get_project_memory', { project_id: p, limit: 20 }))).to.not.include(run.execution_id);
  });
});

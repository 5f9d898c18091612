import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { onEachBackend, requireToolchain, startTestHost, type TestHost } from '@testkeeper/kernel/testing';
import { newProject, newScript, pollExecution, toolchainMissing } from './helpers.js';

onEachBackend(describe, before, 'executions: framework runs, statistics and project deletion', (backend) => {
  let host: TestHost;
  before(async function () {
    this.timeout(60_000);
    host = await startTestHost({ storage: backend });
  });
  after(async () => host?.close());

  it('runs rust_cargo and go_test frameworks of one project, each with its runner, and cleans up with the project', async function () {
    this.timeout(240_000);
    requireToolchain(this, await toolchainMissing(host, 'cargo', 'rust_cargo'));
    requireToolchain(this, await toolchainMissing(host, 'go', 'go_test'));
    const p = await newProject(host, 'Both');
    for (const [framework, file] of [['rust_cargo', 'checkout.rs'], ['go_test', 'checkout_test.go']] as const) {
      const id = await newScript(host, p, framework, file, `Checkout ${framework}`);
      await host.ok('add_script_to_framework', { script_id: id });
    }
    const started = await host.ok('trigger_framework_run', { project_id: p });
    expect(started.frameworks).to.have.members(['rust_cargo', 'go_test']);
    const e = await pollExecution(host, started.execution_id, 200_000);
    // BASE_URL is not set for framework runs, so the BASE_URL tests fail too.
    expect(e.status).to.equal('failed');
    const by = Object.fromEntries(e.results.map((r: any) => [r.framework, r]));
    expect(by.rust_cargo).to.include({ runner: 'cargo', passed: 1, failed: 2, skipped: 1, total: 4 });
    expect(by.go_test).to.include({ runner: 'go', passed: 1, failed: 2, skipped: 1, total: 4 });
    expect(e.outcome).to.include({ passed: 2, failed: 4, skipped: 2, total: 8 });
    expect(e.results.map((r: any) => r.result_id)).to.satisfy((ids: number[]) => new Set(ids).size === 2);
    const byResult = await host.ok('get_execution', { execution_id: by.go_test.result_id });
    expect(byResult).to.include({ execution_id: started.execution_id, result_id: by.go_test.result_id });

    const summary = await host.ok('get_project_summary', { project_id: p });
    expect(summary.statistics.executions).to.equal(1);

    const cache = path.join(host.dataDir, 'run-cache', String(p));
    const logs = path.join(host.dataDir, 'executions', String(p));
    expect(existsSync(path.join(cache, 'cargo-target'))).to.equal(true);
    expect(existsSync(path.join(cache, 'go-build'))).to.equal(true);
    expect(existsSync(logs)).to.equal(true);
    await host.ok('delete_project', { project_id: p });
    expect((await host.call('get_execution', { execution_id: started.execution_id })).error?.code).to.equal('not_found');
    expect((await host.call('get_execution', { execution_id: by.go_test.result_id })).error?.code).to.equal('not_found');
    expect(existsSync(cache), 'build caches are removed with the project').to.equal(false);
    expect(existsSync(logs), 'execution logs are removed with the project').to.equal(false);
  });
});

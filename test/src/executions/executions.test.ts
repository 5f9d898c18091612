import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { onEachBackend, requireToolchain, startTestHost, type TestClient, type TestHost } from '@testkeeper/kernel/testing';
import { newProject, newScript, pollExecution, toolchainMissing } from './helpers.js';

const BASE_URL = 'http://127.0.0.1:8099/shop';

onEachBackend(describe, before, 'executions: run_native_test, get_execution, trigger_framework_run', (backend) => {
  let host: TestHost;
  let bob: TestClient;
  let projectId: number;
  const saved: Record<string, string | undefined> = {};

  before(async function () {
    this.timeout(60_000);
    // Server secrets in the server's environment; no test subprocess may see them.
    for (const [k, v] of Object.entries({ TESTKEEPER_SECRET_KEY: 'tk-secret-value-123', DATABASE_URL: 'postgres://app:db-password-456@db/prod' })) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    host = await startTestHost({ storage: backend });
    bob = await host.clientFor('bob');
    projectId = await newProject(host);
  });
  after(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await host?.close();
  });

  describe('run_native_test with cargo', function () {
    this.timeout(180_000);
    let run: any;
    before(async function () {
      requireToolchain(this, await toolchainMissing(host, 'cargo', 'rust_cargo'));
      const scriptId = await newScript(host, projectId, 'rust_cargo', 'checkout.rs', 'Checkout flow');
      run = await host.ok('run_native_test', { script_id: scriptId, base_url: BASE_URL });
    });

    it('runs only the script file and returns the native run result', () => {
      expect(run.status).to.equal('failed');
      expect({ passed: run.passed, failed: run.failed, skipped: run.skipped, total: run.total }).to.deep.equal({ passed: 2, failed: 1, skipped: 1, total: 4 });
      expect(run.file).to.match(/^tests\/checkout_flow_\d+\.rs$/);
      expect(run.stdout).to.match(/test result: FAILED\. 2 passed; 1 failed; 1 ignored/);
      expect(run.stderr).to.match(/Running tests\/checkout_flow_\d+\.rs/);
      expect(run.console_logs).to.include('PASS base_url_points_at_the_deployment (0 ms)');
      expect(run.console_logs.find((l: string) => l.startsWith('FAIL discount_is_applied'))).to.match(/panicked at tests\/checkout_flow_\d+\.rs/);
      expect(run.duration).to.be.a('number').and.greaterThan(0);
      expect(run.execution_id).to.match(/^exe_[0-9a-f]{24}$/);
      expect(run.result_id).to.be.a('number');
    });

    it('records it as an execution: counted logs, artifacts and an opaque receipt by default', async () => {
      const e = await host.ok('get_execution', { execution_id: run.execution_id });
      expect(e).to.include({ execution_id: run.execution_id, kind: 'native_test', status: 'failed', project_id: projectId, base_url: BASE_URL });
      expect(e.outcome).to.include({ passed: 2, failed: 1, skipped: 1, total: 4 });
      expect(e.timing.started_at).to.be.a('string');
      expect(e.timing.finished_at).to.be.a('string');
      expect(e.results).to.have.length(1);
      expect(e.results[0]).to.include({ result_id: run.result_id, framework: 'rust_cargo', runner: 'cargo', status: 'failed' });
      expect(e.results[0].tests.map((t: any) => t.name)).to.have.members(['base_url_points_at_the_deployment', 'totals_add_up', 'discount_is_applied', 'pays_with_card']);
      expect(e.log_count).to.equal(run.console_logs.length);
      expect(e.artifact_count).to.equal(2);
      expect(e).to.not.have.any.keys('logs', 'artifacts');
      expect(Object.keys(e.receipt)).to.deep.equal(['reference']);
      expect(e.receipt.reference).to.match(/^rcpt_[0-9a-f]{32}$/);
    });

    it('returns logs, artifact paths and receipt details when asked; the log hash matches the files', async () => {
      const e = await host.ok('get_execution', { execution_id: run.execution_id, include_logs: true, include_artifacts: true, include_receipt_details: true });
      expect(e.logs.map((l: any) => l.message)).to.deep.equal(run.console_logs);
      const [outFile, errFile] = e.artifacts as string[];
      expect(readFileSync(outFile!, 'utf8')).to.equal(run.stdout);
      expect(readFileSync(errFile!, 'utf8')).to.equal(run.stderr);
      const r = e.receipt;
      expect(r.lineage).to.deep.include({ project_id: projectId, script_id: run.script_id, base_url: BASE_URL, frameworks: ['rust_cargo'] });
      expect(r.lineage.script_version).to.be.a('string');
      expect(r.lineage.runners[0]).to.include({ runner: 'cargo', framework: 'rust_cargo' });
      expect(r.lineage.runners[0].tool_version).to.match(/^cargo /);
      expect(r.revisions.framework_sha256.rust_cargo).to.match(/^[0-9a-f]{64}$/);
      expect(r.evidence).to.include({ status: 'failed', passed: 2, failed: 1, skipped: 1, total: 4 });
      expect(r.evidence.exit_codes).to.deep.equal([101]);
      const h = createHash('sha256');
      for (const p of [run.stdout, run.stderr, run.console_logs.join('\n')]) h.update(p).update('\0');
      expect(r.evidence.logs_sha256).to.equal(h.digest('hex'));
    });

    it('runs again warm: the unchanged file is not rewritten and nothing is recompiled', async () => {
      const file = path.join(host.dataDir, 'frameworks', String(projectId), 'rust_cargo', run.file);
      const before = statSync(file).mtimeMs;
      const again = await host.ok('run_native_test', { script_id: run.script_id, base_url: BASE_URL });
      expect(statSync(file).mtimeMs).to.equal(before);
      expect(again.stderr).to.not.match(/Compiling/);
      expect(again.total).to.equal(run.total);
      expect(again.execution_id).to.not.equal(run.execution_id);
    });

    it('accepts the integer result_id (also as a numeric string)', async () => {
      const byInt = await host.ok('get_execution', { execution_id: run.result_id });
      expect(byInt).to.include({ execution_id: run.execution_id, result_id: run.result_id });
      const byString = await host.ok('get_execution', { execution_id: String(run.result_id) });
      expect(byString.execution_id).to.equal(run.execution_id);
    });

    it("hides another user's execution exactly like a missing one", async () => {
      const foreign = await bob.call('get_execution', { execution_id: run.execution_id });
      const missing = await bob.call('get_execution', { execution_id: 'exe_000000000000000000000000' });
      expect(foreign.error?.code).to.equal('not_found');
      expect(foreign.error?.message).to.equal(`execution ${run.execution_id} was not found`);
      expect(missing.error?.message).to.equal('execution exe_000000000000000000000000 was not found');
      expect((await bob.call('get_execution', { execution_id: run.result_id })).error?.code).to.equal('not_found');
      expect((await bob.call('run_native_test', { script_id: run.script_id })).error?.message).to.equal(`script ${run.script_id} was not found`);
    });

    it('reports a compile error as an error execution', async () => {
      const scriptId = await newScript(host, projectId, 'rust_cargo', 'broken.rs');
      const res = await host.ok('run_native_test', { script_id: scriptId });
      expect(res.status).to.equal('error');
      expect(res.error).to.match(/^compile error: error\[E0308\]: mismatched types/);
      expect((await host.ok('get_execution', { execution_id: res.execution_id })).status).to.equal('error');
    });

    it('shows the test no server secret in its environment', async () => {
      const scriptId = await newScript(host, projectId, 'rust_cargo', 'env_dump.rs');
      const res = await host.ok('run_native_test', { script_id: scriptId, base_url: BASE_URL });
      expect(res.stdout).to.include(`BASE_URL=${BASE_URL}`).and.include('PATH=');
      for (const secret of ['tk-secret-value-123', 'db-password-456', 'TESTKEEPER_', 'DATABASE_URL']) expect(res.stdout).to.not.include(secret);
    });
  });

  describe('run_native_test with go', function () {
    this.timeout(180_000);
    before(async function () {
      requireToolchain(this, await toolchainMissing(host, 'go', 'go_test'));
    });

    it('runs the script package with go test -json and exports BASE_URL', async () => {
      const scriptId = await newScript(host, projectId, 'go_test', 'checkout_test.go', 'Go checkout');
      const res = await host.ok('run_native_test', { script_id: scriptId, base_url: BASE_URL });
      expect(res.status).to.equal('failed');
      expect({ passed: res.passed, failed: res.failed, skipped: res.skipped, total: res.total }).to.deep.equal({ passed: 2, failed: 1, skipped: 1, total: 4 });
      expect(res.console_logs.find((l: string) => l.includes('TestDiscount'))).to.match(/^FAIL .*TestDiscount \(\d+ ms\): .*discount: got 90, want 80/);
      expect(res.tool_version).to.match(/^go version/);
    });

    it('shows the test no server secret in its environment', async () => {
      const scriptId = await newScript(host, projectId, 'go_test', 'env_dump_test.go', 'Env dump');
      const res = await host.ok('run_native_test', { script_id: scriptId, base_url: BASE_URL });
      expect(res.status).to.equal('passed');
      expect(res.stdout).to.include(`BASE_URL=${BASE_URL}`);
      for (const secret of ['tk-secret-value-123', 'db-password-456', 'TESTKEEPER_', 'DATABASE_URL']) expect(res.stdout).to.not.include(secret);
    });
  });

  describe('run_native_test input checks', () => {
    it('sends pytest and browser scripts to run_tests', async () => {
      for (const framework of ['pytest', 'browser']) {
        const s = await host.ok('create_script', { project_id: projectId, name: `x ${framework}`, framework, code: 'def test_x():\n    pass\n' });
        const res = await host.call('run_native_test', { script_id: s.id });
        expect(res.error?.code).to.equal('invalid_argument');
        expect(res.error?.message).to.include(`is a ${framework} script`);
        expect(res.error?.hint).to.include('run_tests');
      }
    });

    it('rejects a base_url that is not http(s)', async () => {
      const res = await host.call('run_native_test', { script_id: 1, base_url: 'file:///etc/passwd' });
      expect(res.error?.code).to.equal('invalid_argument');
      expect(res.error?.message).to.match(/base_url/);
    });
  });

  describe('trigger_framework_run', function () {
    this.timeout(180_000);

    it('tells how to create a framework when the project has none', async () => {
      const empty = await newProject(host, 'Empty');
      const res = await host.call('trigger_framework_run', { project_id: empty });
      expect(res.error?.code).to.equal('invalid_argument');
      expect(res.error?.message).to.equal(`project ${empty} has no test framework yet`);
      expect(res.error?.hint).to.include('add_script_to_framework');
    });

    it("hides another user's project", async () => {
      const res = await bob.call('trigger_framework_run', { project_id: projectId });
      expect(res.error).to.deep.include({ code: 'not_found', message: `project ${projectId} was not found` });
    });

    it('runs every framework of the project in the background, one result per framework', async function () {
      requireToolchain(this, await toolchainMissing(host, 'pytest', 'pytest'));
      const p = await newProject(host, 'Frameworks');
      const py = await newScript(host, p, 'pytest', 'test_pytest_script.py', 'Py basics');
      await host.ok('add_script_to_framework', { script_id: py });
      const started = await host.ok('trigger_framework_run', { project_id: p });
      expect(started).to.include({ status: 'queued' });
      expect(started.frameworks).to.deep.equal(['pytest']);
      const done = await pollExecution(host, started.execution_id);
      expect(done.status).to.equal('failed');
      expect(done.kind).to.equal('framework_run');
      expect(done.outcome).to.include({ passed: 1, failed: 1, skipped: 0, total: 2 });
      expect(done.results).to.have.length(1);
      expect(done.results[0]).to.include({ framework: 'pytest', runner: 'pytest', status: 'failed' });
    });
  });
});

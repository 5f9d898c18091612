import { expect } from 'chai';
import { onEachBackend, startTestHost, type TestHost } from '@testkeeper/kernel/testing';
import { ExecutionStore } from '../../../plugins/scripts/dist/executions/execution-store.js';

/** The store's hot-path writes are plain SQL: they must read back exactly like TypeORM rows. */
onEachBackend(describe, before, 'executions: execution store writes', (backend) => {
  let host: TestHost;
  let store: ExecutionStore;

  before(async () => {
    host = await startTestHost({ storage: backend });
    store = new ExecutionStore(host.kernel.storage);
  });
  after(async () => host?.close());

  const newRow = () =>
    store.create({
      owner_id: 1,
      project_id: 7,
      kind: 'native_test',
      status: 'running',
      script_id: 3,
      test_case_id: null,
      frameworks: ['rust_cargo'],
      base_url: 'http://127.0.0.1:9/x',
      worker_id: 'host:1:abcd',
    });

  const result = {
    script_id: 3,
    framework: 'rust_cargo',
    runner: 'cargo',
    tool_version: 'cargo 1.0',
    status: 'passed',
    passed: 2,
    failed: 0,
    skipped: 1,
    total: 3,
    duration_ms: 12,
    exit_code: 0,
    error: null,
    tests: '[]',
  };
  const done = { status: 'passed' as const, passed: 2, failed: 0, skipped: 1, total: 3, duration_ms: 15, error: null, logs: [{ message: 'PASS a' }], artifacts: ['/x/1.log'], receipt: { reference: 'rcpt_1' } };

  it('create returns the row as stored, defaults included', async () => {
    const row = await newRow();
    const stored = await store.byId(row.id);
    expect(stored).to.not.equal(null);
    expect({ ...row }).to.deep.equal({ ...stored! });
    expect(row).to.include({ status: 'running', passed: 0, total: 0, logs: '[]', artifacts: '[]', receipt: null, job_id: null, finished_at: null });
    expect(row.started_at).to.equal(row.created_at);
  });

  it('complete stores results and the terminal state once the artifacts are written', async () => {
    const row = await newRow();
    const [saved] = await store.complete(row, [result], Promise.resolve(), done);
    const [stored] = await store.resultsOf(row.id);
    expect({ ...saved! }).to.deep.equal({ ...stored! });
    const after = (await store.byId(row.id))!;
    expect(after).to.include({ status: 'passed', passed: 2, skipped: 1, total: 3, duration_ms: 15, artifacts: '["/x/1.log"]', receipt: '{"reference":"rcpt_1"}' });
    expect(after.finished_at).to.be.a('string');
  });

  it('complete writes nothing when the artifact files could not be written', async () => {
    const row = await newRow();
    const failed = Promise.reject(new Error('disk full'));
    failed.catch(() => undefined);
    let error: unknown;
    await store.complete(row, [result], failed, done).catch((err: unknown) => (error = err));
    expect((error as Error)?.message).to.equal('disk full');
    expect(await store.resultsOf(row.id)).to.have.length(0);
    expect(await store.byId(row.id)).to.include({ status: 'running', finished_at: null, receipt: null });
  });
});

import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { ToolError, type JobRecord } from '@testkeeper/kernel';
import { onEachBackend } from '@testkeeper/kernel/testing';
import type { Kernel } from '@testkeeper/kernel/host';
import { eventually, jobsOf, newStore, sleep, type JobServiceLike } from './boot.js';

onEachBackend(describe, before, 'job queue (Tokens.Jobs)', (backend) => {
  let store: Awaited<ReturnType<typeof newStore>>;
  let kernel: Kernel;
  let jobs: JobServiceLike;

  before(async () => {
    store = await newStore(backend);
    kernel = await store.boot();
    jobs = jobsOf(kernel);
  });
  after(async () => {
    await kernel?.close();
    await store?.drop();
  });

  it('runs a job to passed with its result; another owner sees null', async () => {
    jobs.define<{ n: number }, { doubled: number }>('t.double', async (job) => ({ doubled: job.payload.n * 2 }));
    const queued = await jobs.enqueue('t.double', { n: 21 }, 1);
    expect(queued).to.include({ kind: 't.double', owner_id: 1, state: 'queued', attempts: 0 });
    expect(queued.id).to.match(/^job_[0-9a-f]{32}$/);
    const done = await jobs.waitFor(queued.id, 10_000);
    expect(done).to.include({ state: 'passed', error: null, attempts: 1 });
    expect(done!.result).to.deep.equal({ doubled: 42 });
    expect(done!.started_at).to.be.a('string');
    expect(done!.finished_at).to.be.a('string');
    expect(await jobs.get(queued.id, 2)).to.equal(null);
    expect(await jobs.get('job_missing', 1)).to.equal(null);
    expect((await jobs.get(queued.id, 1))!.state).to.equal('passed');
  });

  it('records failures: a ToolError message, never internals', async () => {
    jobs.define('t.fail', async (job: JobRecord<{ tool: boolean }>) => {
      if (job.payload.tool) throw new ToolError('invalid_argument', 'the test case has no steps');
      throw new Error('SELECT secret FROM somewhere failed at /srv/app.js:1');
    });
    const a = await jobs.waitFor((await jobs.enqueue('t.fail', { tool: true }, 1)).id, 10_000);
    expect(a).to.include({ state: 'failed', error: 'the test case has no steps' });
    const b = await jobs.waitFor((await jobs.enqueue('t.fail', { tool: false }, 1)).id, 10_000);
    expect(b!.state).to.equal('failed');
    expect(b!.error).to.match(/^failed unexpectedly \(reference job_/).and.not.contain('SELECT');
  });

  it('times out a job that runs too long and aborts its signal', async () => {
    let aborted = false;
    jobs.define(
      't.slow',
      (_job, control) =>
        new Promise((resolve) => {
          control.signal.addEventListener('abort', () => {
            aborted = true;
            resolve('late');
          });
        }),
      { timeoutMs: 300 },
    );
    const done = await jobs.waitFor((await jobs.enqueue('t.slow', {}, 1)).id, 10_000);
    expect(done).to.include({ state: 'timed_out' });
    expect(done!.error).to.contain('did not finish');
    expect(aborted).to.equal(true);
  });

  it('stores progress while running', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    jobs.define('t.progress', async (_job, control) => {
      await control.progress(1, 3, 'parsing steps');
      await gate;
      return 'ok';
    });
    const { id } = await jobs.enqueue('t.progress', {}, 1);
    const seen = await eventually(async () => (await jobs.get(id, 1))?.progress, 10_000, 'progress');
    expect(seen).to.deep.equal({ progress: 1, total: 3, message: 'parsing steps' });
    expect((await jobs.get(id, 1))!.state).to.equal('running');
    release();
    expect((await jobs.waitFor(id, 10_000))!.state).to.equal('passed');
  });

  it('never runs two jobs of one concurrency key at once, and keeps their order', async () => {
    let running = 0;
    let maxRunning = 0;
    const order: string[] = [];
    jobs.define<{ user: number; tag: string }, null>(
      't.keyed',
      async (job) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        order.push(job.payload.tag);
        await sleep(150);
        running--;
        return null;
      },
      { concurrencyKey: (p) => `user:${p.user}` },
    );
    const ids: string[] = [];
    for (const tag of ['a', 'b', 'c']) ids.push((await jobs.enqueue('t.keyed', { user: 7, tag }, 7)).id);
    // While a is running, b and c wait (queued), they are not started in parallel.
    await eventually(async () => (await jobs.get(ids[0]!, 7))?.state === 'running', 10_000, 'first running');
    expect((await jobs.get(ids[1]!, 7))!.state).to.equal('queued');
    const results = await Promise.all(ids.map((id) => jobs.waitFor(id, 20_000)));
    expect(results.map((r) => r!.state)).to.deep.equal(['passed', 'passed', 'passed']);
    expect(maxRunning).to.equal(1);
    expect(order).to.deep.equal(['a', 'b', 'c']);
    // Strictly one after another: each started after the previous finished.
    for (let i = 1; i < results.length; i++) expect(results[i]!.started_at! >= results[i - 1]!.finished_at!).to.equal(true);
  });

  it('runs jobs of different keys in parallel', async () => {
    let running = 0;
    let maxRunning = 0;
    jobs.define<{ user: number }, null>(
      't.par',
      async () => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await sleep(1500);
        running--;
        return null;
      },
      { concurrencyKey: (p) => `user:${p.user}` },
    );
    const ids = [(await jobs.enqueue('t.par', { user: 1 }, 1)).id, (await jobs.enqueue('t.par', { user: 2 }, 2)).id];
    await jobs.waitFor(ids[0]!, 20_000);
    await jobs.waitFor(ids[1]!, 20_000);
    expect(maxRunning).to.equal(2);
  });

  it('rejects an undefined kind and a duplicate definition', async () => {
    let err: unknown;
    try {
      await jobs.enqueue('t.nobody', {}, 1);
    } catch (e) {
      err = e;
    }
    expect((err as Error).message).to.contain('not defined');
    expect(() => jobs.define('t.double', async () => null)).to.throw(/defined twice/);
    expect(() => jobs.define('Bad Kind', async () => null)).to.throw(/lower-case/);
  });

  it('marks a running job of a dead local process as failed: interrupted', async () => {
    const dead = await deadPid();
    const row = await insertRunning(kernel, `${(await import('node:os')).hostname()}:${dead}:abc123`, new Date(Date.now() + 3_600_000));
    expect(await jobs.recover()).to.include(row);
    const rec = await jobs.get(row, 1);
    expect(rec).to.include({ state: 'failed', error: 'interrupted' });
  });

  it('marks a running job with an expired lease (remote worker) as failed: interrupted', async () => {
    const live = await insertRunning(kernel, 'other-host:1:aaaaaa', new Date(Date.now() + 3_600_000));
    const stale = await insertRunning(kernel, 'other-host:1:bbbbbb', new Date(Date.now() - 1000));
    const recovered = await jobs.recover();
    expect(recovered).to.include(stale).and.not.include(live);
    expect((await jobs.get(live, 1))!.state).to.equal('running');
  });
});

/** A pid that just exited on this host. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.on('exit', r));
  return child.pid!;
}

async function insertRunning(kernel: Kernel, workerId: string, leaseUntil: Date): Promise<string> {
  const id = `job_${Math.random().toString(16).slice(2).padEnd(32, '0').slice(0, 32)}`;
  const now = new Date().toISOString();
  await kernel.storage.write((em) =>
    em
      .createQueryBuilder()
      .insert()
      .into('kernel_jobs')
      .values({
        id,
        kind: 't.orphan',
        owner_id: 1,
        state: 'running',
        payload: '{}',
        worker_id: workerId,
        lease_until: leaseUntil.toISOString(),
        attempts: 1,
        created_at: now,
        started_at: now,
      })
      .execute(),
  );
  return id;
}

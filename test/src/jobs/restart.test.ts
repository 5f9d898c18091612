import { expect } from 'chai';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onEachBackend } from '@testkeeper/kernel/testing';
import { eventually, jobsOf, newStore, sleep } from './boot.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Starts the crash child and resolves with the job ids once its first job is running. */
function startChild(overrides: unknown): Promise<{ ids: string[]; kill(): Promise<void> }> {
  const child = spawn(process.execPath, [path.join(here, 'fixtures', 'crash-child.js'), JSON.stringify(overrides)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`child exited early (${code}): ${err}`)));
    child.stdout.on('data', (d) => {
      out += d;
      if (!out.includes('\n')) return;
      const { ids } = JSON.parse(out);
      child.removeAllListeners('exit');
      resolve({
        ids,
        kill: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      });
    });
  });
}

onEachBackend(describe, before, 'jobs across restarts', (backend) => {
  it('after kill -9: the running job is failed (interrupted), queued ones run; nothing stuck', async function () {
    this.timeout(60_000);
    const store = await newStore(backend);
    try {
      const child = await startChild(store.overrides);
      await child.kill();
      const kernel = await store.boot();
      try {
        const jobs = jobsOf(kernel);
        // Recovery happens at boot, before any handler is defined.
        expect(await jobs.get(child.ids[0]!, 1)).to.include({ state: 'failed', error: 'interrupted' });
        expect((await jobs.get(child.ids[1]!, 1))!.state).to.equal('queued');
        jobs.define<{ n: number }, string>('t.crash', async (job) => `ran ${job.payload.n} after restart`, { concurrencyKey: () => 'one-at-a-time' });
        const [b, c] = await Promise.all([jobs.waitFor(child.ids[1]!, 20_000), jobs.waitFor(child.ids[2]!, 20_000)]);
        expect(b).to.include({ state: 'passed', result: 'ran 1 after restart' });
        expect(c).to.include({ state: 'passed', result: 'ran 2 after restart' });
      } finally {
        await kernel.close();
      }
    } finally {
      await store.drop();
    }
  });

  it('a clean shutdown interrupts a job that outlives the grace period, and it stays failed', async function () {
    this.timeout(30_000);
    const store = await newStore(backend);
    process.env.TESTKEEPER_JOB_GRACE_MS = '200';
    try {
      let kernel = await store.boot();
      let jobs = jobsOf(kernel);
      let aborted = false;
      jobs.define('t.hang', (_j, control) => new Promise((_, reject) => control.signal.addEventListener('abort', () => ((aborted = true), reject(new Error('aborted'))))));
      const { id } = await jobs.enqueue('t.hang', {}, 1);
      await eventually(async () => (await jobs.get(id, 1))?.state === 'running', 10_000, 'running');
      await kernel.close();
      expect(aborted).to.equal(true);
      kernel = await store.boot();
      jobs = jobsOf(kernel);
      expect(await jobs.get(id, 1)).to.include({ state: 'failed', error: 'interrupted' });
      await sleep(100);
      await kernel.close();
    } finally {
      delete process.env.TESTKEEPER_JOB_GRACE_MS;
      await store.drop();
    }
  });
});

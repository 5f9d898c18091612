import type { Logger } from '../plugin-api/services.js';
import type { JobDelivery, JobService } from './job-service.js';
import type { JobStore } from './job-store.js';

interface Message {
  jobId: string;
}

/** pg-boss keeps its own tables in this schema of the same database. */
const BOSS_SCHEMA = 'testkeeper_boss';

/**
 * PostgreSQL delivery through pg-boss, so every process on the database (servers and
 * `testkeeper worker`s) shares the work. A message only names a `kernel_jobs` row; the row's
 * guarded claim decides who runs it, so a duplicate message is harmless. pg-boss is imported
 * here, lazily: a SQLite start never loads it.
 */
export async function createPgBossDelivery(
  service: JobService,
  store: JobStore,
  logger: Logger,
  opts: { url: string; workersPerKind: number; busyRetrySeconds: number; resendEveryMs: number },
): Promise<JobDelivery> {
  const { default: PgBoss } = await import('pg-boss');
  const boss = new PgBoss({ connectionString: opts.url, schema: BOSS_SCHEMA, max: 2 + opts.workersPerKind, schedule: false });
  boss.on('error', (err) => logger.error({ err }, 'pg-boss error'));
  await boss.start();
  let stopped = false;

  // No pg-boss retries (a retry is a new claim decision of ours); its expiry outlives our timeout.
  const send = (kind: string, jobId: string, startAfter?: number) =>
    boss.send(kind, { jobId } satisfies Message, {
      singletonKey: jobId,
      retryLimit: 0,
      expireInSeconds: Math.ceil(service.timeoutFor(kind) / 1000) + 60,
      ...(startAfter ? { startAfter } : {}),
    });

  const handle = async (kind: string, jobs: Array<{ data: Message }>) => {
    for (const job of jobs) {
      const outcome = await service.process(job.data.jobId);
      // Another job with the same concurrency key is ahead: offer this one again shortly.
      if (outcome.claim === 'busy' && !stopped) await send(kind, job.data.jobId, opts.busyRetrySeconds);
      await outcome.done;
    }
  };

  const workers = new Map<string, string[]>();
  // pg-boss creates a table partition per queue; creating two at once (or during its maintenance)
  // can deadlock in PostgreSQL, so queues are created one at a time and retried on deadlock.
  let creating: Promise<unknown> = Promise.resolve();
  const createQueue = (kind: string) => {
    const attempt = async () => {
      for (let i = 0; ; i++) {
        try {
          // `short`: at most one waiting message per singletonKey (= job id), so re-offering a job
          // (busy key, periodic resend) never piles up duplicate messages.
          return await boss.createQueue(kind, { name: kind, policy: 'short' });
        } catch (err) {
          if ((err as { code?: string }).code !== '40P01' || i >= 4) throw err;
          await new Promise((r) => setTimeout(r, 100 * (i + 1)));
        }
      }
    };
    const next = creating.then(attempt, attempt);
    creating = next.catch(() => undefined);
    return next;
  };

  const setUp = async (kind: string) => {
    await createQueue(kind);
    const ids: string[] = [];
    for (let i = 0; i < opts.workersPerKind; i++) {
      ids.push(await boss.work<Message>(kind, { pollingIntervalSeconds: 0.5, batchSize: 1 }, (jobs) => handle(kind, jobs)));
    }
    workers.set(kind, ids);
    await resendQueued(kind);
  };

  /** Rows queued while no worker listened, or whose message was lost in a crash, are offered again. */
  const resendQueued = async (kind: string) => {
    for (const row of await store.queued([kind], 1000)) await send(kind, row.id);
  };
  const sweep = setInterval(() => {
    for (const kind of workers.keys()) void resendQueued(kind).catch((err) => logger.warn({ err, kind }, 'resending queued jobs failed'));
  }, opts.resendEveryMs);
  sweep.unref();

  const ready = new Map<string, Promise<void>>();
  return {
    kindDefined(kind) {
      const p = setUp(kind);
      p.catch((err) => logger.error({ err, kind }, 'pg-boss queue setup failed'));
      ready.set(kind, p);
    },
    async enqueued(kind, jobId) {
      await ready.get(kind);
      await send(kind, jobId);
      // Wake this process's idle workers now instead of at their next poll.
      for (const id of workers.get(kind) ?? []) boss.notifyWorker(id);
    },
    finished() {},
    async stop() {
      stopped = true;
      clearInterval(sweep);
      await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    },
  };
}

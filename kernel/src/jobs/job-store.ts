import { randomUUID } from 'node:crypto';
import type { JobRecord, JobState } from '../plugin-api/jobs.js';
import type { StorageService } from '../plugin-api/services.js';
import { JobRow } from './job-row.js';

export const TERMINAL_STATES: readonly JobState[] = ['passed', 'failed', 'error', 'timed_out', 'cancelled'];
export const isTerminal = (state: string) => (TERMINAL_STATES as readonly string[]).includes(state);

export type ClaimOutcome = 'claimed' | 'busy' | 'gone';

const parse = (text: string | null) => (text === null ? null : JSON.parse(text));

export function toJobRecord<P, R>(row: JobRow): JobRecord<P, R> {
  return {
    id: row.id,
    kind: row.kind,
    owner_id: row.owner_id,
    state: row.state as JobState,
    payload: parse(row.payload) as P,
    result: parse(row.result) as R | null,
    error: row.error,
    progress: parse(row.progress),
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    attempts: row.attempts,
  };
}

/** The `kernel_jobs` table: every state change is one guarded statement. */
export class JobStore {
  constructor(private readonly storage: StorageService) {}

  async insert(kind: string, ownerId: number, payload: unknown, concurrencyKey: string | null): Promise<JobRow> {
    return this.storage.write(async (em) => {
      const repo = em.getRepository(JobRow);
      return repo.save(
        repo.create({
          id: `job_${randomUUID().replaceAll('-', '')}`,
          kind,
          owner_id: ownerId,
          state: 'queued',
          payload: JSON.stringify(payload ?? null),
          result: null,
          error: null,
          progress: null,
          concurrency_key: concurrencyKey,
          worker_id: null,
          lease_until: null,
          attempts: 0,
          created_at: new Date().toISOString(),
          started_at: null,
          finished_at: null,
        }),
      );
    });
  }

  find(id: string): Promise<JobRow | null> {
    return this.storage.repo(JobRow).findOne({ where: { id } });
  }

  /** Queued jobs of the given kinds, oldest first. */
  async queued(kinds: string[], limit: number): Promise<JobRow[]> {
    if (kinds.length === 0) return [];
    return this.storage
      .repo(JobRow)
      .createQueryBuilder('j')
      .where('j.state = :queued AND j.kind IN (:...kinds)', { queued: 'queued', kinds })
      .orderBy('j.created_at', 'ASC')
      .addOrderBy('j.id', 'ASC')
      .take(limit)
      .getMany();
  }

  /**
   * queued → running for this worker, unless another job with the same concurrency key is running
   * or queued before it (then `busy`: one at a time, in order). On PostgreSQL an advisory lock on
   * the key makes the check and the claim one step across processes.
   */
  async claim(row: JobRow, workerId: string, leaseMs: number): Promise<ClaimOutcome> {
    return this.storage.write(async (em) => {
      const key = row.concurrency_key;
      if (key !== null) {
        if (this.storage.dialect === 'postgres') await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`kernel_jobs:${key}`]);
        const ahead = await em
          .getRepository(JobRow)
          .createQueryBuilder('j')
          .where('j.concurrency_key = :key AND j.id <> :id', { key, id: row.id })
          .andWhere(
            "(j.state = 'running' OR (j.state = 'queued' AND (j.created_at < :created OR (j.created_at = :created AND j.id < :id))))",
            { created: row.created_at },
          )
          .getCount();
        if (ahead > 0) return 'busy';
      }
      const now = new Date();
      const res = await em
        .createQueryBuilder()
        .update(JobRow)
        .set({
          state: 'running',
          worker_id: workerId,
          lease_until: new Date(now.getTime() + leaseMs).toISOString(),
          started_at: now.toISOString(),
          attempts: () => 'attempts + 1',
        })
        .where("id = :id AND state = 'queued'", { id: row.id })
        .execute();
      return res.affected === 1 ? 'claimed' : 'gone';
    });
  }

  async heartbeat(id: string, workerId: string, leaseMs: number): Promise<void> {
    await this.storage.write((em) =>
      em
        .createQueryBuilder()
        .update(JobRow)
        .set({ lease_until: new Date(Date.now() + leaseMs).toISOString() })
        .where("id = :id AND state = 'running' AND worker_id = :workerId", { id, workerId })
        .execute(),
    );
  }

  async progress(id: string, workerId: string, progress: unknown): Promise<void> {
    await this.storage.write((em) =>
      em
        .createQueryBuilder()
        .update(JobRow)
        .set({ progress: JSON.stringify(progress) })
        .where("id = :id AND state = 'running' AND worker_id = :workerId", { id, workerId })
        .execute(),
    );
  }

  /** running → terminal, only by the worker that holds it (a recovered job stays recovered). */
  async finish(id: string, workerId: string, state: JobState, result: unknown, error: string | null): Promise<boolean> {
    const res = await this.storage.write((em) =>
      em
        .createQueryBuilder()
        .update(JobRow)
        .set({ state, result: result === undefined ? null : JSON.stringify(result), error, finished_at: new Date().toISOString(), lease_until: null })
        .where("id = :id AND state = 'running' AND worker_id = :workerId", { id, workerId })
        .execute(),
    );
    return res.affected === 1;
  }

  /** Running jobs to check for dead workers. */
  running(): Promise<JobRow[]> {
    return this.storage.repo(JobRow).find({ where: { state: 'running' } });
  }

  /** Marks one running job failed with reason `interrupted`, if it is still held by that worker. */
  async interrupt(id: string, workerId: string | null): Promise<boolean> {
    const res = await this.storage.write((em) =>
      em
        .createQueryBuilder()
        .update(JobRow)
        .set({ state: 'failed', error: 'interrupted', finished_at: new Date().toISOString(), lease_until: null })
        .where("id = :id AND state = 'running'", { id })
        .andWhere(workerId === null ? 'worker_id IS NULL' : 'worker_id = :workerId', { workerId })
        .execute(),
    );
    return res.affected === 1;
  }
}

import { inject, injectable, Tokens, type StorageService } from '@testkeeper/kernel';
import { In } from 'typeorm';
import { ExecutionResultRow, ExecutionRow, type ExecutionState } from './entities.js';
import { newExecutionId } from './worker-identity.js';

export interface NewExecution {
  owner_id: number;
  project_id: number;
  kind: 'native_test' | 'framework_run';
  status: 'queued' | 'running';
  script_id: number | null;
  test_case_id: number | null;
  frameworks: string[];
  base_url: string | null;
  worker_id: string | null;
}

export type NewResult = Omit<ExecutionResultRow, 'id' | 'execution_row_id' | 'owner_id' | 'created_at'>;

export interface Completion {
  status: ExecutionState;
  passed: number;
  failed: number;
  skipped: number;
  total: number;
  duration_ms: number;
  error: string | null;
  logs: unknown[];
  artifacts: string[];
  receipt: unknown;
}

/** The one place that reads and writes execution rows. */
@injectable()
export class ExecutionStore {
  constructor(@inject(Tokens.Storage) private readonly storage: StorageService) {}

  async create(input: NewExecution): Promise<ExecutionRow> {
    const now = new Date().toISOString();
    return this.storage.write((em) =>
      em.getRepository(ExecutionRow).save(
        em.getRepository(ExecutionRow).create({
          ...input,
          execution_id: newExecutionId(),
          frameworks: JSON.stringify(input.frameworks),
          started_at: input.status === 'running' ? now : null,
          created_at: now,
        }),
      ),
    );
  }

  async attachJob(id: number, jobId: string): Promise<void> {
    await this.storage.write((em) => em.getRepository(ExecutionRow).update({ id }, { job_id: jobId }));
  }

  /** queued → running for exactly one worker; false when it was already taken or ended. */
  async claim(id: number, workerId: string): Promise<boolean> {
    return this.storage.write(async (em) => {
      const res = await em
        .createQueryBuilder()
        .update(ExecutionRow)
        .set({ status: 'running', worker_id: workerId, started_at: new Date().toISOString() })
        .where('id = :id AND status = :queued', { id, queued: 'queued' })
        .execute();
      return res.affected === 1;
    });
  }

  /** Stores the results and the terminal state together, so a reader never sees half of it. */
  async complete(row: ExecutionRow, results: NewResult[], done: Completion): Promise<ExecutionResultRow[]> {
    return this.storage.write(async (em) => {
      const now = new Date().toISOString();
      const saved: ExecutionResultRow[] = [];
      for (const r of results) {
        saved.push(await em.getRepository(ExecutionResultRow).save(em.getRepository(ExecutionResultRow).create({ ...r, execution_row_id: row.id, owner_id: row.owner_id, created_at: now })));
      }
      await em.getRepository(ExecutionRow).update(
        { id: row.id },
        {
          status: done.status,
          passed: done.passed,
          failed: done.failed,
          skipped: done.skipped,
          total: done.total,
          duration_ms: done.duration_ms,
          error: done.error,
          logs: JSON.stringify(done.logs),
          artifacts: JSON.stringify(done.artifacts),
          receipt: JSON.stringify(done.receipt),
          finished_at: now,
        },
      );
      return saved;
    });
  }

  /** Ends a run its process can no longer finish (server killed, job ended without it). */
  async markInterrupted(id: number, reason: string): Promise<boolean> {
    return this.storage.write(async (em) => {
      const res = await em
        .createQueryBuilder()
        .update(ExecutionRow)
        .set({ status: 'error', error: reason, finished_at: new Date().toISOString() })
        .where('id = :id AND status IN (:...open)', { id, open: ['queued', 'running'] })
        .execute();
      return res.affected === 1;
    });
  }

  byPublicId(executionId: string): Promise<ExecutionRow | null> {
    return this.storage.repo(ExecutionRow).findOne({ where: { execution_id: executionId } });
  }

  byId(id: number): Promise<ExecutionRow | null> {
    return this.storage.repo(ExecutionRow).findOne({ where: { id } });
  }

  result(resultId: number): Promise<ExecutionResultRow | null> {
    return this.storage.repo(ExecutionResultRow).findOne({ where: { id: resultId } });
  }

  resultsOf(rowId: number): Promise<ExecutionResultRow[]> {
    return this.storage.repo(ExecutionResultRow).find({ where: { execution_row_id: rowId }, order: { id: 'ASC' } });
  }

  open(): Promise<ExecutionRow[]> {
    return this.storage.repo(ExecutionRow).find({ where: { status: In(['queued', 'running']) } });
  }

  async countForProject(projectId: number): Promise<{ count: number; last: string | null }> {
    // get_project_summary's hot path: plain SQL (see StorageService.query).
    const [row] = await this.storage.query<{ count: string | number; last: string | null }>(
      'SELECT COUNT(*) AS count, MAX(created_at) AS last FROM scripts_executions WHERE project_id = ?',
      [projectId],
    );
    return { count: Number(row?.count ?? 0), last: row?.last ?? null };
  }
}

import { inject, injectable, Tokens, type StorageService } from '@testkeeper/kernel';
import { In, type EntityManager } from 'typeorm';
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

  /**
   * Plain SQL on the run_native_test hot path: TypeORM's save() reloads the row and builds the
   * query each time, which costs more than the insert itself.
   */
  async create(input: NewExecution): Promise<ExecutionRow> {
    const now = new Date().toISOString();
    const row: Omit<ExecutionRow, 'id'> = {
      execution_id: newExecutionId(),
      owner_id: input.owner_id,
      project_id: input.project_id,
      kind: input.kind,
      status: input.status,
      script_id: input.script_id,
      test_case_id: input.test_case_id,
      frameworks: JSON.stringify(input.frameworks),
      base_url: input.base_url,
      job_id: null,
      worker_id: input.worker_id,
      passed: 0,
      failed: 0,
      skipped: 0,
      total: 0,
      duration_ms: null,
      error: null,
      logs: '[]',
      artifacts: '[]',
      receipt: null,
      created_at: now,
      started_at: input.status === 'running' ? now : null,
      finished_at: null,
    };
    const id = await this.storage.write((em) => this.insert(em, 'scripts_executions', row));
    return Object.assign(new ExecutionRow(), { id, ...row });
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

  /**
   * Stores the results and the terminal state together, so a reader never sees half of it. The
   * transaction commits only after `artifactsWritten` (the files the record names) has settled, and
   * rolls back when it fails.
   */
  async complete(row: ExecutionRow, results: NewResult[], artifactsWritten: Promise<void>, done: Completion): Promise<ExecutionResultRow[]> {
    return this.storage.write(async (em) => {
      const now = new Date().toISOString();
      const saved: ExecutionResultRow[] = [];
      for (const r of results) {
        const values = { ...r, execution_row_id: row.id, owner_id: row.owner_id, created_at: now };
        saved.push(Object.assign(new ExecutionResultRow(), { id: await this.insert(em, 'scripts_execution_results', values), ...values }));
      }
      await this.storage.query(
        `UPDATE scripts_executions SET status = ?, passed = ?, failed = ?, skipped = ?, total = ?, duration_ms = ?, error = ?,
           logs = ?, artifacts = ?, receipt = ?, finished_at = ? WHERE id = ?`,
        [done.status, done.passed, done.failed, done.skipped, done.total, done.duration_ms, done.error, JSON.stringify(done.logs), JSON.stringify(done.artifacts), JSON.stringify(done.receipt), now, row.id],
        em,
      );
      await artifactsWritten;
      return saved;
    });
  }

  /** INSERT … RETURNING id (SQLite ≥ 3.35 and PostgreSQL); column names come from our own objects. */
  private async insert(em: EntityManager, table: string, values: object): Promise<number> {
    const cols = Object.keys(values);
    const [inserted] = await this.storage.query<{ id: number | string }>(
      `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')}) RETURNING id`,
      Object.values(values),
      em,
    );
    return Number(inserted!.id);
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

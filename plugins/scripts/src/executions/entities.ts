import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const EXECUTION_STATES = ['queued', 'running', 'passed', 'failed', 'error', 'timed_out', 'cancelled'] as const;
export type ExecutionState = (typeof EXECUTION_STATES)[number];
export const TERMINAL_STATES: readonly ExecutionState[] = ['passed', 'failed', 'error', 'timed_out', 'cancelled'];

/**
 * One execution (`scripts_executions`): a run of one script or of a whole framework. `execution_id`
 * is the public string id; JSON columns are text so both dialects store them alike.
 */
@Entity('scripts_executions')
export class ExecutionRow {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 40 })
  execution_id!: string;

  @Column({ type: 'integer' })
  owner_id!: number;

  @Column({ type: 'integer' })
  project_id!: number;

  /** `native_test` (run_native_test) or `framework_run` (trigger_framework_run). */
  @Column({ type: 'varchar', length: 40 })
  kind!: string;

  @Column({ type: 'varchar', length: 20 })
  status!: ExecutionState;

  @Column({ type: 'integer', nullable: true })
  script_id!: number | null;

  @Column({ type: 'integer', nullable: true })
  test_case_id!: number | null;

  /** JSON array of the frameworks this execution runs. */
  @Column({ type: 'text', default: '[]' })
  frameworks!: string;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  base_url!: string | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  job_id!: string | null;

  /** `host:pid:instance` of the process running it; lets a restarted server find runs it lost. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  worker_id!: string | null;

  @Column({ type: 'integer', default: 0 })
  passed!: number;

  @Column({ type: 'integer', default: 0 })
  failed!: number;

  @Column({ type: 'integer', default: 0 })
  skipped!: number;

  @Column({ type: 'integer', default: 0 })
  total!: number;

  @Column({ type: 'integer', nullable: true })
  duration_ms!: number | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  /** JSON array of `{ at, stream, message }`. */
  @Column({ type: 'text', default: '[]' })
  logs!: string;

  /** JSON array of file paths (stdout/stderr logs per result). */
  @Column({ type: 'text', default: '[]' })
  artifacts!: string;

  /** JSON receipt: lineage, revisions, terminal evidence. Null until the run ends. */
  @Column({ type: 'text', nullable: true })
  receipt!: string | null;

  @Column({ type: 'varchar', length: 40 })
  created_at!: string;

  @Column({ type: 'varchar', length: 40, nullable: true })
  started_at!: string | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  finished_at!: string | null;
}

/** One script's (or one framework's) result inside an execution; its id is the public `result_id`. */
@Entity('scripts_execution_results')
export class ExecutionResultRow {
  @PrimaryGeneratedColumn()
  id!: number;

  /** scripts_executions.id */
  @Column({ type: 'integer' })
  execution_row_id!: number;

  @Column({ type: 'integer' })
  owner_id!: number;

  @Column({ type: 'integer', nullable: true })
  script_id!: number | null;

  @Column({ type: 'varchar', length: 40 })
  framework!: string;

  @Column({ type: 'varchar', length: 40 })
  runner!: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  tool_version!: string | null;

  @Column({ type: 'varchar', length: 20 })
  status!: string;

  @Column({ type: 'integer', default: 0 })
  passed!: number;

  @Column({ type: 'integer', default: 0 })
  failed!: number;

  @Column({ type: 'integer', default: 0 })
  skipped!: number;

  @Column({ type: 'integer', default: 0 })
  total!: number;

  @Column({ type: 'integer', default: 0 })
  duration_ms!: number;

  @Column({ type: 'integer', nullable: true })
  exit_code!: number | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  /** JSON array of per-test outcomes. */
  @Column({ type: 'text', default: '[]' })
  tests!: string;

  @Column({ type: 'varchar', length: 40 })
  created_at!: string;
}

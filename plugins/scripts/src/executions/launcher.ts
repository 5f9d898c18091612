import { inject, injectable, Tokens, type Logger } from '@testkeeper/kernel';
import { TERMINAL_STATES, type ExecutionRow } from './entities.js';
import { ExecutionExecutor, type Progress, type RunPlan } from './executor.js';
import { ExecutionStore } from './execution-store.js';
import { ExecutionsRuntime } from './runtime.js';
import { workerMayBeAlive } from './worker-identity.js';

export const EXECUTION_JOB = 'scripts.execution';

interface ExecutionJob {
  execution_row_id: number;
  plan: RunPlan;
}

/**
 * Starts queued executions in the background (through the kernel job queue when it is there,
 * otherwise in this process) and ends executions whose process died, so none stays `running`.
 */
@injectable()
export class ExecutionLauncher {
  private readonly inFlight = new Map<number, { abort: AbortController; done: Promise<unknown> }>();

  constructor(
    private readonly store: ExecutionStore,
    private readonly executor: ExecutionExecutor,
    private readonly runtime: ExecutionsRuntime,
    @inject(Tokens.Logger) private readonly logger: Logger,
  ) {}

  defineJobs(): void {
    this.runtime.jobs?.define<ExecutionJob, { execution_row_id: number; status: string }>(
      EXECUTION_JOB,
      async (job, control) => ({
        execution_row_id: job.payload.execution_row_id,
        status: await this.runQueued(job.payload, control.signal, (done, total, message) => control.progress(done, total, message)),
      }),
      { timeoutMs: this.runtime.timeoutMs * 4 + 60_000 },
    );
  }

  async launch(row: ExecutionRow, plan: RunPlan): Promise<void> {
    const payload: ExecutionJob = { execution_row_id: row.id, plan };
    if (this.runtime.jobs) {
      try {
        const job = await this.runtime.jobs.enqueue(EXECUTION_JOB, payload, row.owner_id);
        await this.store.attachJob(row.id, job.id);
      } catch (err) {
        await this.store.markInterrupted(row.id, `could not be queued: ${(err as Error).message}`);
        throw err;
      }
      return;
    }
    const abort = new AbortController();
    const done = this.runQueued(payload, abort.signal)
      .catch(async (err) => {
        this.logger.error({ err, execution: row.execution_id }, 'execution failed');
        await this.store.markInterrupted(row.id, `internal error while running: ${(err as Error).message}`);
      })
      .finally(() => this.inFlight.delete(row.id));
    this.inFlight.set(row.id, { abort, done });
  }

  /** Runs an execution at most once: a retried job finds it already claimed or ended and stops. */
  private async runQueued(payload: ExecutionJob, signal: AbortSignal, progress?: Progress): Promise<string> {
    if (!(await this.store.claim(payload.execution_row_id, this.runtime.workerId))) return 'already_handled';
    const row = await this.store.byId(payload.execution_row_id);
    if (!row) return 'gone';
    return (await this.executor.run(row, payload.plan, signal, progress)).status;
  }

  /**
   * Ends an open execution that can no longer finish: its running process is gone, its job ended
   * without it, or (without a job) the process that queued it is gone. A queued job still waiting
   * in the durable queue is left alone: it will run.
   */
  async reconcile(row: ExecutionRow): Promise<ExecutionRow> {
    if (TERMINAL_STATES.includes(row.status)) return row;
    let reason: string | null = null;
    if (row.status === 'running' && row.worker_id && !workerMayBeAlive(row.worker_id)) {
      reason = 'interrupted: the server process running it stopped before the run finished';
    } else if (row.job_id && this.runtime.jobs) {
      const job = await this.runtime.jobs.get(row.job_id, row.owner_id);
      if (!job) reason = 'interrupted: its background job no longer exists';
      else if (TERMINAL_STATES.includes(job.state as never)) reason = `interrupted: its background job ended (${job.state}) before the run finished${job.error ? `: ${job.error}` : ''}`;
    } else if (row.status === 'queued' && !row.job_id && row.worker_id && !workerMayBeAlive(row.worker_id)) {
      reason = 'interrupted: the server process that queued it stopped before the run started';
    }
    if (!reason) return row;
    if (await this.store.markInterrupted(row.id, reason)) this.logger.warn({ execution: row.execution_id, reason }, 'execution marked interrupted');
    return (await this.store.byId(row.id)) ?? row;
  }

  /** At start: no execution of a dead process stays queued or running. */
  async sweep(): Promise<void> {
    for (const row of await this.store.open()) await this.reconcile(row);
  }

  /** At shutdown: in-process runs are cancelled (their process group killed) and recorded as such. */
  async dispose(): Promise<void> {
    for (const { abort } of this.inFlight.values()) abort.abort();
    await Promise.allSettled([...this.inFlight.values()].map((f) => f.done));
  }

  /** Test hook: resolves when every in-process run has ended. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.inFlight.values()].map((f) => f.done));
  }
}

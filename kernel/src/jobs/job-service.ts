import { EventEmitter } from 'node:events';
import { ToolError } from '../plugin-api/errors.js';
import type { JobControl, JobKindOptions, JobQueue, JobRecord, JobState } from '../plugin-api/jobs.js';
import type { Logger } from '../plugin-api/services.js';
import type { JobRow } from './job-row.js';
import { isTerminal, toJobRecord, type ClaimOutcome, type JobStore } from './job-store.js';
import { isDeadLocalWorker } from './worker-identity.js';

type Handler = (job: JobRecord<any, any>, control: JobControl) => Promise<unknown>;

interface KindEntry {
  handler: Handler;
  options: JobKindOptions<any>;
}

/** How jobs reach a process that can run them: in-process polling (SQLite) or pg-boss (PostgreSQL). */
export interface JobDelivery {
  kindDefined(kind: string): void;
  enqueued(kind: string, jobId: string): Promise<void>;
  /** A job finished here: a concurrency key may be free now. */
  finished(kind: string): void;
  stop(): Promise<void>;
}

export interface JobServiceOptions {
  workerId: string;
  /** A running job's lease; renewed every third of it. */
  leaseMs: number;
  defaultTimeoutMs: number;
  /** How long dispose waits for running jobs before interrupting them. */
  graceMs: number;
  /** How often running jobs of dead workers are looked for. */
  recoverEveryMs: number;
  /**
   * Processing starts at the first use of the queue, at `startProcessing()`, or this long after
   * boot, so a short CLI command (`token create`) never picks up work it would then abandon.
   */
  autoStartMs: number;
}

export interface ProcessOutcome {
  claim: ClaimOutcome | 'skipped';
  /** Resolves when the claimed job reached a terminal state. */
  done: Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/**
 * The durable job queue (Tokens.Jobs). The `kernel_jobs` row is the truth; deliveries only wake
 * workers. A job runs at most once: `claim` is a guarded queued → running update, and a finished,
 * timed-out or recovered job is never touched by its old worker again.
 */
export class JobService implements JobQueue {
  private readonly kinds = new Map<string, KindEntry>();
  private readonly active = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private readonly events = new EventEmitter();
  private delivery: JobDelivery | null = null;
  private starting: Promise<void> | null = null;
  private recoverTimer: NodeJS.Timeout | null = null;
  private autoStartTimer: NodeJS.Timeout | null = null;
  private stopping = false;

  constructor(
    private readonly store: JobStore,
    private readonly logger: Logger,
    readonly options: JobServiceOptions,
    private readonly createDelivery: (service: JobService) => Promise<JobDelivery>,
  ) {
    this.events.setMaxListeners(0);
  }

  /** At boot: recovers jobs of dead workers and schedules processing. */
  async start(): Promise<void> {
    await this.recover().catch((err) => this.logger.error({ err }, 'job recovery failed'));
    this.recoverTimer = setInterval(() => void this.recover().catch((err) => this.logger.error({ err }, 'job recovery failed')), this.options.recoverEveryMs);
    this.recoverTimer.unref();
    this.autoStartTimer = setTimeout(() => void this.startProcessing().catch((err) => this.logger.error({ err }, 'job processing did not start')), this.options.autoStartMs);
    this.autoStartTimer.unref();
  }

  /** Starts delivering jobs to this process's handlers (idempotent). */
  startProcessing(): Promise<void> {
    this.starting ??= (async () => {
      if (this.autoStartTimer) clearTimeout(this.autoStartTimer);
      const delivery = await this.createDelivery(this);
      if (this.stopping) return void (await delivery.stop());
      this.delivery = delivery;
      for (const kind of this.kinds.keys()) delivery.kindDefined(kind);
    })();
    return this.starting;
  }

  get definedKinds(): string[] {
    return [...this.kinds.keys()];
  }

  get activeCount(): number {
    return this.active.size;
  }

  define<P, R>(kind: string, handler: (job: JobRecord<P, R>, control: JobControl) => Promise<R>, options: JobKindOptions<P> = {}): void {
    if (!/^[a-z][a-z0-9_.-]{0,99}$/.test(kind)) throw new Error(`Job kind "${kind}" must be lower-case letters, digits, '.', '_' or '-'`);
    if (this.kinds.has(kind)) throw new Error(`Job kind "${kind}" is defined twice`);
    this.kinds.set(kind, { handler: handler as Handler, options });
    this.delivery?.kindDefined(kind);
  }

  async enqueue<P>(kind: string, payload: P, ownerId: number): Promise<JobRecord<P>> {
    const entry = this.kinds.get(kind);
    if (!entry) throw new Error(`Job kind "${kind}" is not defined; define it in the plugin's onInit`);
    const key = entry.options.concurrencyKey?.(payload, ownerId) ?? null;
    const row = await this.store.insert(kind, ownerId, payload, key === null ? null : `${kind}:${key}`);
    await this.startProcessing();
    await this.delivery?.enqueued(kind, row.id);
    return toJobRecord<P, never>(row);
  }

  /** The timeout of a kind's jobs. */
  timeoutFor(kind: string): number {
    return this.kinds.get(kind)?.options.timeoutMs ?? this.options.defaultTimeoutMs;
  }

  async get<P = unknown, R = unknown>(id: string, ownerId: number): Promise<JobRecord<P, R> | null> {
    void this.startProcessing().catch(() => undefined);
    const row = await this.store.find(id);
    return row && row.owner_id === ownerId ? toJobRecord<P, R>(row) : null;
  }

  watch(id: string, listener: (progress: NonNullable<JobRecord['progress']>) => void): () => void {
    this.events.on(`progress:${id}`, listener);
    return () => this.events.off(`progress:${id}`, listener);
  }

  async waitFor(id: string, timeoutMs: number): Promise<JobRecord | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const row = await this.store.find(id);
      if (!row) return null;
      const left = deadline - Date.now();
      if (isTerminal(row.state) || left <= 0) return toJobRecord(row);
      // Woken at once by a local finish; the short poll covers jobs run by other processes.
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          this.events.off(`done:${id}`, done);
          resolve();
        }, Math.min(left, 200));
        this.events.once(`done:${id}`, done);
      });
    }
  }

  /**
   * Claims a job and runs it. `busy` means another job with its concurrency key is ahead; the
   * delivery offers it again later.
   */
  async process(id: string): Promise<ProcessOutcome> {
    const skipped: ProcessOutcome = { claim: 'skipped', done: Promise.resolve() };
    if (this.stopping) return skipped;
    const row = await this.store.find(id);
    const entry = row ? this.kinds.get(row.kind) : undefined;
    if (!row || !entry || row.state !== 'queued') return skipped;
    const claim = await this.store.claim(row, this.options.workerId, this.options.leaseMs);
    if (claim !== 'claimed') return { claim, done: Promise.resolve() };
    const controller = new AbortController();
    const done = this.run(row, entry, controller).finally(() => {
      this.active.delete(row.id);
      this.events.emit(`done:${row.id}`);
      this.delivery?.finished(row.kind);
    });
    this.active.set(row.id, { controller, done });
    return { claim, done };
  }

  private async run(row: JobRow, entry: KindEntry, controller: AbortController): Promise<void> {
    const { workerId, leaseMs } = this.options;
    const timeoutMs = this.timeoutFor(row.kind);
    const record = { ...toJobRecord(row), state: 'running' as JobState, started_at: new Date().toISOString(), attempts: row.attempts + 1 };
    const heartbeat = setInterval(() => void this.store.heartbeat(row.id, workerId, leaseMs).catch(() => undefined), Math.max(50, leaseMs / 3));
    heartbeat.unref();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
      timer.unref();
    });
    const control: JobControl = {
      signal: controller.signal,
      progress: async (progress, total, message) => {
        if (controller.signal.aborted) return;
        const value = { progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) };
        this.events.emit(`progress:${row.id}`, value);
        await this.store.progress(row.id, workerId, value);
      },
    };
    let state: JobState;
    let result: unknown = null;
    let error: string | null = null;
    try {
      const outcome = await Promise.race([entry.handler(record, control).then((value) => ({ value })), timedOut]);
      if (outcome === 'timeout') {
        controller.abort(new Error('timed out'));
        state = 'timed_out';
        error = `did not finish within ${Math.round(timeoutMs / 1000)} s`;
      } else {
        state = 'passed';
        result = outcome.value ?? null;
      }
    } catch (err) {
      state = 'failed';
      // Only messages written for users reach clients; anything else is logged with the job id.
      error = err instanceof ToolError ? err.message : controller.signal.aborted ? 'interrupted' : `failed unexpectedly (reference ${row.id})`;
      if (!(err instanceof ToolError)) this.logger.error({ err, job: row.id, kind: row.kind }, 'job failed unexpectedly');
    } finally {
      clearInterval(heartbeat);
      clearTimeout(timer);
    }
    if (controller.signal.aborted && this.stopping) return; // dispose marks it interrupted
    const written = await this.store.finish(row.id, workerId, state, result, error).catch((err) => {
      this.logger.error({ err, job: row.id }, 'could not record the job outcome');
      return false;
    });
    if (!written) this.logger.warn({ job: row.id, state }, 'job outcome not recorded: it was recovered by another worker');
  }

  /** Running jobs whose worker died (same host, process gone) or whose lease ran out → failed `interrupted`. */
  async recover(): Promise<string[]> {
    const now = new Date().toISOString();
    const recovered: string[] = [];
    for (const row of await this.store.running()) {
      if (row.worker_id === this.options.workerId) continue;
      const expired = row.lease_until === null || row.lease_until < now;
      if (!expired && !isDeadLocalWorker(row.worker_id)) continue;
      if (await this.store.interrupt(row.id, row.worker_id)) {
        recovered.push(row.id);
        this.events.emit(`done:${row.id}`);
      }
    }
    if (recovered.length) this.logger.warn({ jobs: recovered }, 'jobs of a stopped worker marked failed (interrupted)');
    return recovered;
  }

  /** Stops taking jobs, lets running ones finish for a grace period, then interrupts the rest. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (this.recoverTimer) clearInterval(this.recoverTimer);
    if (this.autoStartTimer) clearTimeout(this.autoStartTimer);
    await this.starting?.catch(() => undefined);
    const running = [...this.active.values()].map((a) => a.done);
    await Promise.race([Promise.allSettled(running), sleep(this.options.graceMs)]);
    for (const [id, a] of this.active) {
      a.controller.abort(new Error('server stopping'));
      await this.store.interrupt(id, this.options.workerId).catch(() => undefined);
      this.events.emit(`done:${id}`);
    }
    await this.delivery?.stop();
  }
}

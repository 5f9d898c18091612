import type { Logger } from '../plugin-api/services.js';
import type { JobDelivery, JobService } from './job-service.js';
import type { JobStore } from './job-store.js';

/**
 * In-process delivery (SQLite): a drain loop over queued rows, run when a job is enqueued or
 * finishes and on a slow timer (jobs enqueued by another process on the same file).
 */
export class LocalDelivery implements JobDelivery {
  private draining = false;
  private again = false;
  private stopped = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly service: JobService,
    private readonly store: JobStore,
    private readonly logger: Logger,
    private readonly opts: { maxParallel: number; pollMs: number },
  ) {
    this.timer = setInterval(() => this.kick(), opts.pollMs);
    this.timer.unref();
  }

  kindDefined(): void {
    // Handlers are defined in plugins' onInit; queued jobs from before a restart start now.
    setImmediate(() => this.kick());
  }

  async enqueued(): Promise<void> {
    this.kick();
  }

  finished(): void {
    this.kick();
  }

  kick(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = true;
    this.drain()
      .catch((err) => this.logger.error({ err }, 'job drain failed'))
      .finally(() => {
        this.draining = false;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async drain(): Promise<void> {
    const free = this.opts.maxParallel - this.service.activeCount;
    if (free <= 0) return;
    let started = 0;
    for (const row of await this.store.queued(this.service.definedKinds, 100)) {
      if (this.stopped || started >= free) return;
      const { claim } = await this.service.process(row.id);
      if (claim === 'claimed') started++;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
  }
}

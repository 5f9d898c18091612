import { Tokens } from '../plugin-api/tokens.js';
import type { Kernel } from '../runtime/kernel.js';
import { JobService } from './job-service.js';

/**
 * `testkeeper worker`: processes jobs of every loaded plugin and nothing else. On PostgreSQL any
 * number of workers (and servers) share the queue through pg-boss; on SQLite the server already
 * runs jobs itself, so a worker only helps when the server is not running.
 */
export async function runJobWorker(kernel: Kernel, print: (line: string) => void): Promise<void> {
  const jobs = kernel.container.resolve(Tokens.Jobs);
  if (!(jobs instanceof JobService)) throw new Error('the job queue of this kernel cannot run as a worker');
  if (kernel.storage.dialect === 'sqlite') kernel.logger.warn('worker on SQLite: the server processes jobs itself; use PostgreSQL to share work between processes');
  await jobs.startProcessing();
  print(JSON.stringify({ worker: jobs.options.workerId, storage: kernel.storage.dialect, kinds: jobs.definedKinds }));
  // `on`, not `once`: a signal-exit hook (some libraries install one) re-raises a signal that has no listener left,
  // which would kill the worker before it closes the kernel.
  await new Promise<void>((resolve) => {
    process.on('SIGINT', () => resolve());
    process.on('SIGTERM', () => resolve());
  });
  await kernel.close();
  process.exit(0);
}

import { randomBytes } from 'node:crypto';
import os from 'node:os';

/** Kernel instances alive in this process (tests run several in one process). */
const liveInstances = new Set<string>();

/** `host:pid:instance` of one running pack instance; stored on the executions it runs. */
export function newWorkerId(): string {
  const instance = randomBytes(4).toString('hex');
  liveInstances.add(instance);
  return `${os.hostname()}:${process.pid}:${instance}`;
}

export function retireWorkerId(workerId: string): void {
  liveInstances.delete(workerId.split(':')[2] ?? '');
}

/**
 * Whether the process that owns a run may still be running it. Only runs of this host can be
 * judged; a run on another machine is assumed alive (its job lease decides).
 */
export function workerMayBeAlive(workerId: string | null): boolean {
  if (!workerId) return true;
  const [host, pidText, instance] = workerId.split(':');
  if (host !== os.hostname()) return true;
  const pid = Number(pidText);
  if (pid === process.pid) return liveInstances.has(instance ?? '');
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function newExecutionId(): string {
  return `exe_${randomBytes(12).toString('hex')}`;
}

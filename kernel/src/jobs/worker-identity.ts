import { randomBytes } from 'node:crypto';
import os from 'node:os';

/** `host:pid:instance` — who runs a job. The instance part tells two kernels in one process apart. */
export function newWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/**
 * True when a worker id names a process on this host that no longer exists. A crashed local
 * server's jobs are then recovered at once instead of after their lease runs out.
 */
export function isDeadLocalWorker(workerId: string | null): boolean {
  if (!workerId) return true;
  const parts = workerId.split(':');
  const pid = Number(parts[parts.length - 2]);
  const host = parts.slice(0, -2).join(':');
  if (host !== os.hostname() || !Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

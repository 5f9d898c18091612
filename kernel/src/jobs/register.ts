import type { DependencyContainer } from 'tsyringe';
import type { KernelConfig } from '../config/schema.js';
import type { Logger, StorageService } from '../plugin-api/services.js';
import { Tokens } from '../plugin-api/tokens.js';
import { JobService } from './job-service.js';
import { JobStore } from './job-store.js';
import { LocalDelivery } from './local-delivery.js';
import { newWorkerId } from './worker-identity.js';

/** Durations in ms; env overrides exist for operators and for crash tests. */
function durations(env: NodeJS.ProcessEnv) {
  const num = (name: string, fallback: number) => {
    const v = Number(env[name]);
    return Number.isFinite(v) && v > 0 ? v : fallback;
  };
  return {
    leaseMs: num('TESTKEEPER_JOB_LEASE_MS', 30_000),
    defaultTimeoutMs: num('TESTKEEPER_JOB_TIMEOUT_MS', 10 * 60_000),
    graceMs: num('TESTKEEPER_JOB_GRACE_MS', 5_000),
    autoStartMs: num('TESTKEEPER_JOB_AUTOSTART_MS', 3_000),
  };
}

/**
 * The durable job queue (Tokens.Jobs). On SQLite jobs run in this process; on PostgreSQL they are
 * delivered through pg-boss so `testkeeper worker` processes share them. Returns the disposer.
 */
export async function registerJobs(
  c: DependencyContainer,
  deps: { config: KernelConfig; logger: Logger; storage: StorageService },
): Promise<() => Promise<void>> {
  const d = durations(process.env);
  const store = new JobStore(deps.storage);
  const logger = deps.logger.child({ service: 'jobs' });
  const options = { workerId: newWorkerId(), ...d, recoverEveryMs: Math.max(1000, d.leaseMs / 2) };
  const postgres = deps.storage.dialect === 'postgres';
  const service = new JobService(store, logger, options, async (svc) => {
    if (!postgres) return new LocalDelivery(svc, store, logger, { maxParallel: 4, pollMs: 1000 });
    const { createPgBossDelivery } = await import('./pgboss-delivery.js');
    return createPgBossDelivery(svc, store, logger, { url: deps.config.storage.url!, workersPerKind: 2, busyRetrySeconds: 1, resendEveryMs: 30_000 });
  });
  await service.start();
  c.registerInstance(Tokens.Jobs, service);
  return () => service.stop();
}

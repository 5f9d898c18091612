import type { DependencyContainer } from 'tsyringe';
import type { KernelConfig } from '../config/schema.js';
import type { Logger } from '../plugin-api/services.js';
import type { TypeormStorage } from '../storage/storage-service.js';

export interface KernelServiceDeps {
  config: KernelConfig;
  logger: Logger;
  storage: TypeormStorage;
}

/** Something a kernel service needs at shutdown. */
export type Disposer = () => Promise<void> | void;

/**
 * Registers the kernel's shared services (secrets, models, jobs, sandbox) in the root container.
 * Each service adds one line here. Returns disposers run at close, in reverse order.
 */
export async function registerKernelServices(_c: DependencyContainer, _deps: KernelServiceDeps): Promise<Disposer[]> {
  const disposers: Disposer[] = [];
  return disposers;
}

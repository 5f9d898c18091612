import type { DependencyContainer } from 'tsyringe';
import type { KernelConfig } from '../config/schema.js';
import type { Logger } from '../plugin-api/services.js';
import type { TypeormStorage } from '../storage/storage-service.js';
import { registerSandbox } from '../sandbox/register.js';
import { registerSecrets } from '../secrets/register.js';
import { registerModels } from '../models/register.js';
import { registerJobs } from '../jobs/register.js';
import { ModelProviders } from '../plugin-api/models.js';
import type { ExtensionRegistry } from './extension-registry.js';
import type { SecretStore } from '../plugin-api/secrets.js';

export interface KernelServiceDeps {
  config: KernelConfig;
  logger: Logger;
  storage: TypeormStorage;
  /** Lets kernel services own extension points (e.g. `kernel.models`). */
  extensions: ExtensionRegistry;
}

/** Something a kernel service needs at shutdown. */
export type Disposer = () => Promise<void> | void;

/**
 * Registers the kernel's shared services (secrets, models, jobs, sandbox) in the root container.
 * Each service adds one line here. Returns disposers run at close, in reverse order.
 */
export async function registerKernelServices(c: DependencyContainer, deps: KernelServiceDeps): Promise<{ disposers: Disposer[]; secrets: SecretStore }> {
  const disposers: Disposer[] = [];
  registerSandbox(c, deps);
  const secrets = registerSecrets(c, deps);
  deps.extensions.declare(ModelProviders, 'kernel');
  registerModels(c, { ...deps, secrets, contributions: () => deps.extensions.view(ModelProviders) });
  disposers.push(await registerJobs(c, deps));
  return { disposers, secrets };
}

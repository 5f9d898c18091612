import path from 'node:path';
import type { DependencyContainer } from 'tsyringe';
import type { KernelConfig } from '../config/schema.js';
import type { Logger } from '../plugin-api/services.js';
import { Tokens } from '../plugin-api/tokens.js';
import { ProcessSandbox } from './process-sandbox.js';
import { RunRegistry } from './run-registry.js';
import { removeOrphanRunTmpDirs } from './run-tmpdirs.js';

/** Tokens.Sandbox; first kills process groups a crashed earlier server left running (and removes its TMPDIRs). */
export function registerSandbox(c: DependencyContainer, deps: { config: KernelConfig; logger: Logger }): void {
  const registry = new RunRegistry(path.join(deps.config.dataDir, 'sandbox-runs'));
  const killed = registry.reapOrphans();
  if (killed.length) deps.logger.warn({ process_groups: killed }, 'killed test processes left by a server that stopped');
  void removeOrphanRunTmpDirs().then((n) => {
    if (n) deps.logger.info({ directories: n }, 'removed test TMPDIRs left by a server that stopped');
  });
  c.registerInstance(Tokens.Sandbox, new ProcessSandbox(process.env, registry));
}

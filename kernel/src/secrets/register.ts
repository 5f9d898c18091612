import type { DependencyContainer } from 'tsyringe';
import type { KernelConfig } from '../config/schema.js';
import type { Logger, StorageService } from '../plugin-api/services.js';
import { Tokens } from '../plugin-api/tokens.js';
import { loadSecretKey } from './key.js';
import { AesSecretStore } from './secret-store.js';
import { scrubLogs } from './log-scrub.js';

/** Builds the secrets store (Tokens.Secrets) with the key from config/env or the key file, and masks its values in logs. */
export function registerSecrets(c: DependencyContainer, deps: { config: KernelConfig; logger: Logger; storage: StorageService }): AesSecretStore {
  // TESTKEEPER_SECRET_KEY arrives through the config loader as `secrets.key`.
  const key = loadSecretKey({ configured: deps.config.secrets.key, dataDir: deps.config.dataDir, logger: deps.logger });
  const store = new AesSecretStore(key, deps.storage);
  c.registerInstance(Tokens.Secrets, store);
  scrubLogs(deps.logger, (t) => store.scrub(t));
  return store;
}

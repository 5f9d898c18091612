import { Tokens, type Logger, type Ownership, type ProjectCleanupContribution, type ProjectStatisticsContribution, type StorageService } from '@testkeeper/kernel';
import type { TestHost } from '@testkeeper/kernel/testing';
import type { Contribution, ProjectContributions } from '../../../plugins/projects/dist/services/project-extensions.js';
import { ProjectStore } from '../../../plugins/projects/dist/services/project-store.js';

/** A logger that keeps error calls, for asserting that failures are logged rather than raised. */
export function recordingLogger() {
  const errors: Array<{ obj: Record<string, unknown>; msg: string }> = [];
  const logger = { error: (obj: Record<string, unknown>, msg: string) => void errors.push({ obj, msg }) } as unknown as Logger;
  return { logger, errors };
}

/** Contribution lists standing in for what other packs registered. */
export function fakeContributions(opts: {
  cleanups?: Array<[string, ProjectCleanupContribution]>;
  statistics?: Array<[string, ProjectStatisticsContribution]>;
}): ProjectContributions {
  const wrap = <T>(list: Array<[string, T]> = []): Array<Contribution<T>> => list.map(([pluginId, value], i) => ({ id: `${pluginId}-${i}`, pluginId, value }));
  return { cleanups: () => wrap(opts.cleanups), statistics: () => wrap(opts.statistics) };
}

export function storeFor(host: TestHost, storage: StorageService = host.kernel.storage): ProjectStore {
  return new ProjectStore(storage, host.kernel.container.resolve(Tokens.Ownership) as Ownership, { now: () => new Date() });
}

/** Runs a statement through `em` on either backend (`?` placeholders). */
export { sqlOn as sql } from '../support/sql.js';

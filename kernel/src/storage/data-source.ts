import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DataSource } from 'typeorm';
import type { KernelConfig } from '../config/schema.js';
import { BootError } from '../plugin-api/errors.js';

export type Dialect = 'sqlite' | 'postgres';

export function dialectOf(config: KernelConfig): Dialect {
  const url = config.storage.url;
  if (!url) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgres';
  throw new BootError('config_invalid', `storage.url must be a postgres:// URL (got ${url.split(':')[0]}:); leave it unset for the embedded SQLite database`);
}

/**
 * Builds (but does not open) the DataSource. The pg driver is only loaded by TypeORM when the
 * dialect is postgres, so a SQLite start never pays for it.
 */
export function createDataSource(config: KernelConfig, entities: Function[]): DataSource {
  const dialect = dialectOf(config);
  if (dialect === 'postgres') {
    return new DataSource({
      type: 'postgres',
      url: config.storage.url,
      entities,
      synchronize: false,
      logging: config.storage.logging,
      extra: { max: 10 },
    });
  }
  mkdirSync(config.dataDir, { recursive: true });
  const database = config.storage.sqliteFile === ':memory:' ? ':memory:' : path.join(config.dataDir, config.storage.sqliteFile);
  return new DataSource({
    type: 'better-sqlite3',
    database,
    entities,
    synchronize: false,
    logging: config.storage.logging,
    enableWAL: true,
    prepareDatabase: (db: { pragma(s: string): unknown }) => {
      db.pragma('busy_timeout = 5000');
      db.pragma('foreign_keys = ON');
      db.pragma('synchronous = NORMAL');
    },
  });
}

/** The storage URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/** Opens the database, turning a connection failure into a readable boot error. */
export async function openDataSource(ds: DataSource, config: KernelConfig): Promise<void> {
  try {
    await ds.initialize();
  } catch (err) {
    const where = config.storage.url ? redactUrl(config.storage.url) : path.join(config.dataDir, config.storage.sqliteFile);
    throw new BootError('storage_unavailable', `Cannot open the database at ${where}: ${(err as Error).message}; check storage.url / TESTKEEPER_STORAGE_URL (or the data directory's permissions)`);
  }
}

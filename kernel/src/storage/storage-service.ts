import type { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { StorageService } from '../plugin-api/services.js';
import type { Dialect } from './data-source.js';
import { SerialQueue } from './serial-queue.js';

export class TypeormStorage implements StorageService {
  private readonly queue = new SerialQueue();

  constructor(
    readonly dataSource: DataSource,
    readonly dialect: Dialect,
  ) {}

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  repo<T extends ObjectLiteral>(entity: EntityTarget<T>) {
    return this.dataSource.getRepository(entity);
  }

  query<R = Record<string, unknown>>(sql: string, params: unknown[] = [], em: EntityManager = this.manager): Promise<R[]> {
    return em.query(this.dialect === 'postgres' ? toPositional(sql) : sql, params) as Promise<R[]>;
  }

  write<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    const tx = () => this.dataSource.transaction(work);
    // better-sqlite3 has one connection: two open transactions would collide, so queue them.
    return this.dialect === 'sqlite' ? this.queue.run(() => retryWhileBusy(tx)) : tx();
  }

  async guardedUpdate<T extends ObjectLiteral>(
    em: EntityManager,
    entity: EntityTarget<T>,
    id: number,
    expectedVersion: string,
    values: Partial<T>,
    nextVersion: string,
  ): Promise<boolean> {
    const result = await em
      .createQueryBuilder()
      .update(entity)
      .set({ ...values, version: nextVersion } as never)
      .where('id = :id AND version = :expected', { id, expected: expectedVersion })
      .execute();
    return result.affected === 1;
  }
}

/**
 * Another process (the CLI next to a running server) may hold the SQLite write lock. A deferred
 * transaction that must upgrade from read to write gets SQLITE_BUSY at once instead of waiting, so
 * the whole transaction (already rolled back) is retried a few times with a growing pause.
 */
async function retryWhileBusy<T>(tx: () => Promise<T>, attempts = 6): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await tx();
    } catch (err) {
      const busy = /SQLITE_BUSY|database is locked/.test(String((err as Error)?.message));
      if (!busy || i >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 25 * 2 ** i));
    }
  }
}

/** `a = ? AND b = ?` → `a = $1 AND b = $2` (PostgreSQL's placeholders). */
export function toPositional(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

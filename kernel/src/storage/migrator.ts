import { Table, type DataSource, type MigrationInterface } from 'typeorm';
import { BootError } from '../plugin-api/errors.js';

type MigrationClass = new () => MigrationInterface;

/**
 * Runs one owner's migrations (the kernel's or a plugin's) in order, each in its own transaction,
 * tracked in that owner's `<owner>_migrations` table. Names come from the class name, which must
 * stay stable once released.
 */
export async function runMigrations(ds: DataSource, owner: string, migrations: MigrationClass[]): Promise<string[]> {
  const table = `${owner.replace(/-/g, '_')}_migrations`;
  const qr = ds.createQueryRunner();
  const applied: string[] = [];
  try {
    if (!(await qr.hasTable(table))) {
      await qr.createTable(
        new Table({
          name: table,
          columns: [
            { name: 'name', type: 'varchar', length: '200', isPrimary: true },
            { name: 'applied_at', type: 'varchar', length: '40' },
          ],
        }),
        true,
      );
    }
    const done = new Set<string>((await qr.query(`SELECT name FROM ${table}`)).map((r: { name: string }) => r.name));
    for (const M of migrations) {
      const name = M.name;
      if (done.has(name)) continue;
      await qr.startTransaction();
      try {
        await new M().up(qr);
        await qr.query(`INSERT INTO ${table} (name, applied_at) VALUES (${param(ds, 1)}, ${param(ds, 2)})`, [
          name,
          new Date().toISOString(),
        ]);
        await qr.commitTransaction();
        applied.push(name);
      } catch (err) {
        await qr.rollbackTransaction();
        throw new BootError('migration_failed', `Migration ${owner}/${name} failed: ${(err as Error).message}`);
      }
    }
  } finally {
    await qr.release();
  }
  return applied;
}

/** Positional parameter placeholder for the dialect. */
export function param(ds: DataSource, n: number): string {
  return ds.options.type === 'postgres' ? `$${n}` : '?';
}

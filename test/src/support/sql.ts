import type { TestHost } from '@testkeeper/kernel/testing';

type Queryable = { query(text: string, params?: unknown[]): Promise<any> };

/** Runs SQL with `?` placeholders through `em` on either backend (PostgreSQL wants `$1, $2, ...`). */
export function sqlOn(host: TestHost, em: Queryable, text: string, params: unknown[] = []): Promise<any> {
  let i = 0;
  const q = host.backend === 'postgres' ? text.replace(/\?/g, () => `$${++i}`) : text;
  return em.query(q, params);
}

/** The same, on the host's own storage, straight to the database (not through a tool). */
export function sql(host: TestHost, text: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  return sqlOn(host, host.kernel.storage.manager, text, params);
}

export async function countRows(host: TestHost, table: string, where = '1 = 1', params: unknown[] = []): Promise<number> {
  const rows = await sql(host, `SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`, params);
  return Number(rows[0]!.n);
}

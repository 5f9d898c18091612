import { expect } from 'chai';
import type { TestClient, TestHost } from '@testkeeper/kernel/testing';

/** Creates a project through the projects pack (no similar-project prompt). */
export async function newProject(client: TestClient, name: string): Promise<number> {
  const p = await client.ok('create_project', { name, force_create: true });
  return p.project_id as number;
}

/** Runs SQL with `?` placeholders on either backend. */
export async function sql(host: TestHost, text: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  let i = 0;
  const q = host.backend === 'postgres' ? text.replace(/\?/g, () => `$${++i}`) : text;
  return host.kernel.storage.manager.query(q, params);
}

export async function countRows(host: TestHost, table: string, where = '1 = 1', params: unknown[] = []): Promise<number> {
  const rows = await sql(host, `SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`, params);
  return Number(rows[0]!.n);
}

/** A call that must fail with `code`; returns the error. */
export async function expectError(client: TestClient, tool: string, args: Record<string, unknown>, code: string) {
  const env = await client.call(tool, args);
  expect(env.success, `${tool} should fail with ${code}, got ${JSON.stringify(env)}`).to.equal(false);
  expect(env.isError).to.equal(true);
  expect(env.error?.code, JSON.stringify(env.error)).to.equal(code);
  return env.error!;
}

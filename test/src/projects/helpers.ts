import { expect } from 'chai';
import type { TestClient, TestHost } from '@testkeeper/kernel/testing';

/** Rows in the projects table, straight from the database (not through a tool). */
export async function countProjects(host: TestHost): Promise<number> {
  const rows = (await host.kernel.storage.manager.query('SELECT COUNT(*) AS n FROM projects_projects')) as Array<{ n: number | string }>;
  return Number(rows[0].n);
}

/** The stored row of a project, straight from the database. */
export async function storedProject(host: TestHost, id: number): Promise<Record<string, unknown> | undefined> {
  const sql = host.backend === 'postgres' ? 'SELECT * FROM projects_projects WHERE id = $1' : 'SELECT * FROM projects_projects WHERE id = ?';
  const rows = (await host.kernel.storage.manager.query(sql, [id])) as Array<Record<string, unknown>>;
  return rows[0];
}

/** Calls a tool that must fail with `code`; returns the error object. */
export async function expectToolError(client: TestClient, tool: string, args: Record<string, unknown>, code: string) {
  const env = await client.call(tool, args);
  expect(env.success, `${tool} should fail with ${code}, got ${JSON.stringify(env)}`).to.equal(false);
  expect(env.isError).to.equal(true);
  expect(env.error?.code).to.equal(code);
  return env.error!;
}

/** Creates a project, skipping the similar-project check unless the test asks for it. */
export function createProject(client: TestClient, args: Record<string, unknown>): Promise<any> {
  return client.ok('create_project', { force_create: true, ...args });
}

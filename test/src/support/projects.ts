import type { TestClient } from '@testkeeper/kernel/testing';

let seq = 0;

/** A project name not used before in this test run. */
export function uniqueName(prefix: string): string {
  return `${prefix} ${++seq} ${Date.now().toString(36)}`;
}

/** Creates a project, skipping the similar-project check unless the test asks for it; returns the tool's result. */
export function createProject(client: TestClient, args: Record<string, unknown>): Promise<any> {
  return client.ok('create_project', { force_create: true, ...args });
}

/** A fresh project of the client's user; returns its id. */
export async function newProject(client: TestClient, name = uniqueName('Project')): Promise<number> {
  const res = await createProject(client, { name });
  if (typeof res.project_id !== 'number') throw new Error(`create_project returned no project_id: ${JSON.stringify(res)}`);
  return res.project_id;
}

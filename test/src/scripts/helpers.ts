import type { TestClient, TestHost } from '@testkeeper/kernel/testing';

let seq = 0;

/** A fresh project of the client's user, through create_project. */
export async function newProject(client: TestClient, name = `Scripts project ${++seq} ${Date.now().toString(36)}`): Promise<number> {
  const res = await client.ok<{ project_id?: number; project?: { project_id: number } }>('create_project', { name, force_create: true });
  const id = res.project_id ?? res.project?.project_id;
  if (typeof id !== 'number') throw new Error(`create_project returned no project id: ${JSON.stringify(res)}`);
  return id;
}

export const PY_SCRIPT = ['def test_adds():', '    assert 1 + 1 == 2', ''].join('\n');

export const TS_SCRIPT = [
  "import { test, expect } from '@playwright/test';",
  '',
  "test('home', async ({ page }) => {",
  "  await page.goto('/');",
  '  await expect(page).toHaveTitle(/Home/);',
  '});',
  '',
].join('\n');

export async function newScript(client: TestClient, projectId: number, over: Record<string, unknown> = {}) {
  return client.ok('create_script', { project_id: projectId, name: 'Home page', framework: 'browser', code: TS_SCRIPT, ...over });
}

export type { TestHost };

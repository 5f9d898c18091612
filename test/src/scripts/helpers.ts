import type { TestClient, TestHost } from '@testkeeper/kernel/testing';

export { newProject } from '../support/projects.js';

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

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ScriptRunners, type ScriptRunner } from '@testkeeper/kernel';
import type { TestClient, TestHost } from '@testkeeper/kernel/testing';
import { NATIVE_FIXTURES } from '../runner-native/fixtures.js';
import { newProject as newNamedProject, uniqueName } from '../support/projects.js';

export function scriptSource(name: string): string {
  return readFileSync(path.join(NATIVE_FIXTURES, 'scripts', name), 'utf8');
}

/** A fresh project whose name starts with `name` and is unique in the run. */
export const newProject = (client: TestClient, name = 'Shop'): Promise<number> => newNamedProject(client, uniqueName(name));

export async function newScript(client: TestClient, projectId: number, framework: string, file: string, name = file): Promise<number> {
  const s = await client.ok('create_script', { project_id: projectId, name, framework, code: scriptSource(file) });
  return s.id;
}

/** null when the runner's toolchain is there, else why not (for requireToolchain). */
export async function toolchainMissing(host: TestHost, runnerId: string, framework: string): Promise<string | null> {
  const runner = host.kernel.extensions.view(ScriptRunners).get(runnerId) as ScriptRunner | undefined;
  if (!runner) return `runner ${runnerId} is not installed`;
  const a = await runner.availability(framework);
  return a.available ? null : `${framework}: ${a.reason}`;
}

export async function pollExecution(client: TestClient, executionId: string, timeoutMs = 120_000): Promise<any> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const e = await client.ok('get_execution', { execution_id: executionId });
    if (!['queued', 'running'].includes(e.status) || Date.now() > end) return e;
    await new Promise((r) => setTimeout(r, 200));
  }
}

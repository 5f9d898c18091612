import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { requireToolchain } from '@testkeeper/kernel/testing';
import { isAlive, waitGone } from '../sandbox/processes.js';
import { NATIVE_FIXTURES } from '../runner-native/fixtures.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CLI = path.join(ROOT, 'kernel/dist/cli.js');

/** A real server process over stdio, so it can be killed with SIGKILL. */
async function startServer(dataDir: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--stdio'],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), TESTKEEPER_DATA_DIR: dataDir, TESTKEEPER_LOG_LEVEL: 'silent' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'crash-test', version: '1.0.0' });
  await client.connect(transport);
  const ok = async (name: string, args: Record<string, unknown>) => {
    const res = await client.callTool({ name, arguments: args });
    const env = (res.structuredContent ?? JSON.parse((res.content as Array<{ text: string }>)[0]!.text)) as { success: boolean; result: any; error?: unknown };
    if (!env.success) throw new Error(`${name}: ${JSON.stringify(env.error)}`);
    return env.result;
  };
  return { client, transport, ok, pid: transport.pid! };
}

function pytestMissing(): string | null {
  try {
    execFileSync('python3', ['-m', 'pytest', '--version'], { stdio: 'ignore' });
    return null;
  } catch {
    return 'python3 -m pytest is not available';
  }
}

describe('executions: kill -9 of the server during a run', function () {
  this.timeout(120_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tk-crash-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('leaves no execution running and no test process alive after the restart', async function () {
    requireToolchain(this, pytestMissing());
    const first = await startServer(dataDir);
    let testPid = 0;
    let sleepPid = 0;
    let executionId = '';
    try {
      const project = await first.ok('create_project', { name: 'Crash', force_create: true });
      const projectId = project.project_id ?? project.id;
      const code = readFileSync(path.join(NATIVE_FIXTURES, 'pytest-hang', 'test_hang.py'), 'utf8');
      const script = await first.ok('create_script', { project_id: projectId, name: 'Hang', framework: 'pytest', code });
      await first.ok('add_script_to_framework', { script_id: script.id });
      executionId = (await first.ok('trigger_framework_run', { project_id: projectId })).execution_id;
      const pidFile = path.join(dataDir, 'frameworks', String(projectId), 'pytest', 'pids.txt');
      const end = Date.now() + 60_000;
      while (!existsSync(pidFile) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
      expect(existsSync(pidFile), 'the hanging test started').to.equal(true);
      await new Promise((r) => setTimeout(r, 200));
      [testPid, sleepPid] = readFileSync(pidFile, 'utf8').trim().split(' ').map(Number) as [number, number];
      expect((await first.ok('get_execution', { execution_id: executionId })).status).to.equal('running');
    } finally {
      process.kill(first.pid, 'SIGKILL');
      expect(await waitGone(first.pid, 10_000), 'the server is gone').to.equal(true);
      await first.client.close().catch(() => undefined);
    }

    // The run's process group outlives the killed server until the next start reaps it.
    expect(isAlive(testPid), 'the test process survived the server kill').to.equal(true);
    const second = await startServer(dataDir);
    try {
      const e = await second.ok('get_execution', { execution_id: executionId });
      expect(e.status).to.equal('error');
      expect(e.outcome.error).to.match(/^interrupted: /);
      expect(e.timing.finished_at).to.be.a('string');
      expect(await waitGone(testPid, 10_000), 'the orphaned pytest process was killed at restart').to.equal(true);
      expect(await waitGone(sleepPid, 10_000), 'its grandchild sleep was killed at restart').to.equal(true);
    } finally {
      await second.client.close();
    }
  });
});

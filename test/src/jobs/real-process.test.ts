import { expect } from 'chai';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { onEachBackend, postgresUnavailableReason, requireToolchain } from '@testkeeper/kernel/testing';
import { eventually, newStore } from './boot.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const cli = path.join(root, 'kernel/dist/cli.js');

/** Environment of a CLI child: only what it needs, pointing at this test's data. */
function cliEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), TESTKEEPER_LOG_LEVEL: 'warn', ...extra };
}

/** `serve --stdio` as a real child process, driven by the SDK's client. */
async function connectServer(env: Record<string, string>, opts: { blockSampling?: boolean } = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'serve', '--stdio'], env: cliEnv(env), cwd: root, stderr: 'pipe' });
  const client = new Client({ name: 'crash-test', version: '1.0.0' }, { capabilities: opts.blockSampling ? { sampling: {} } : {} });
  // A model call that never answers keeps the first generation job running until the kill.
  if (opts.blockSampling) client.setRequestHandler(CreateMessageRequestSchema, () => new Promise(() => {}));
  await client.connect(transport);
  const ok = async (name: string, args: Record<string, unknown>) => {
    const res = await client.callTool({ name, arguments: args });
    const env = res.structuredContent as { success: boolean; result?: any; error?: unknown };
    if (!env.success) throw new Error(`${name}: ${JSON.stringify(env.error)}`);
    return env.result;
  };
  return { client, transport, ok };
}

onEachBackend(describe, before, 'real processes: jobs survive kill -9 of the server (CLI serve --stdio)', (backend) => {
  it('the running generation job ends failed/interrupted, queued ones complete after restart', async function () {
    this.timeout(90_000);
    const store = await newStore(backend);
    try {
      const env: Record<string, string> = { TESTKEEPER_DATA_DIR: store.dataDir, ...(store.url ? { TESTKEEPER_STORAGE_URL: store.url } : {}) };
      const first = await connectServer(env, { blockSampling: true });
      const project = await first.ok('create_project', { name: 'Crash project', force_create: true });
      const projectId = project.project_id ?? project.project?.project_id;
      const tc = await first.ok('create_test_case', { project_id: projectId, title: 'Login', steps: [{ step: 'Go to /login', expected: '"Sign in" is visible' }], auto_generate_steps: false });
      const jobs: string[] = [];
      for (let i = 0; i < 3; i++) jobs.push((await first.ok('generate_code_for_test_case', { test_case_id: tc.id, wait_seconds: 0 })).job_id);
      await eventually(async () => (await first.ok('check_generation_status', { job_id: jobs[0] })).status === 'running', 20_000, 'first job running');
      expect((await first.ok('check_generation_status', { job_id: jobs[1] })).status).to.equal('queued');

      const pid = first.transport.pid!;
      const exited = new Promise((r) => first.transport.onclose = () => r(undefined));
      process.kill(pid, 'SIGKILL');
      await exited;

      const second = await connectServer(env);
      try {
        const crashed = await second.ok('check_generation_status', { job_id: jobs[0] });
        expect(crashed).to.include({ status: 'failed', reason: 'interrupted' });
        for (const id of jobs.slice(1)) {
          const done = await eventually(async () => {
            const s = await second.ok('check_generation_status', { job_id: id });
            return s.status === 'completed' ? s : null;
          }, 30_000, `job ${id} completed`);
          expect(done.pending_test.code).to.contain('await page.goto("/login");');
        }
        const pending = await second.ok('list_pending_tests', { project_id: projectId });
        expect(pending.total).to.equal(2);
      } finally {
        await second.client.close();
      }
    } finally {
      await store.drop();
    }
  });
});

describe('real processes: a SQLite start', () => {
  it('runs jobs in-process and never loads pg-boss', async function () {
    this.timeout(30_000);
    const store = await newStore('sqlite');
    try {
      const child = spawn(process.execPath, [path.join(root, 'test/dist/jobs/fixtures/sqlite-boot-child.js'), store.dataDir], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      await new Promise((r) => child.on('exit', r));
      expect(JSON.parse(out)).to.deep.equal({ state: 'passed', pgBossModules: 0 });
    } finally {
      await store.drop();
    }
  });
});

describe('real processes: `testkeeper worker` on PostgreSQL', () => {
  before(async function () {
    requireToolchain(this, await postgresUnavailableReason());
  });

  it('processes queued jobs it finds in the shared database, each exactly once, and stops on SIGTERM', async function () {
    this.timeout(90_000);
    // The in-process kernel only prepares data; it must not process jobs itself.
    process.env.TESTKEEPER_JOB_AUTOSTART_MS = '3600000';
    const store = await newStore('postgres');
    const kernel = await store.boot();
    delete process.env.TESTKEEPER_JOB_AUTOSTART_MS;
    try {
      const user = await kernel.users.ensureUser('local');
      const caller = { userId: user.id, username: user.username, via: 'stdio' as const };
      const call = async (name: string, args: Record<string, unknown>) => {
        const { envelope } = await kernel.invoker.invoke(name, args, { caller });
        if (!envelope.success) throw new Error(`${name}: ${JSON.stringify(envelope.error)}`);
        return envelope.result as any;
      };
      const project = await call('create_project', { name: 'Worker project', force_create: true });
      const projectId = project.project_id ?? project.project?.project_id;
      const tc = await call('create_test_case', { project_id: projectId, title: 'Search', steps: [{ step: 'Go to /search' }], auto_generate_steps: false });
      const ids = ['a', 'b', 'c'].map((x) => `job_${x.repeat(32)}`);
      const now = new Date().toISOString();
      for (const id of ids) {
        await kernel.storage.write((em) =>
          em.createQueryBuilder().insert().into('kernel_jobs').values({
            id,
            kind: 'scripts.generate',
            owner_id: user.id,
            state: 'queued',
            payload: JSON.stringify({ test_case_id: tc.id, framework: 'browser', mode: 'propose', caller }),
            concurrency_key: `scripts.generate:user:${user.id}`,
            attempts: 0,
            created_at: now,
          }).execute(),
        );
      }

      const worker = spawn(process.execPath, [cli, 'worker'], { cwd: root, env: cliEnv({ TESTKEEPER_DATA_DIR: store.dataDir, TESTKEEPER_STORAGE_URL: store.url! }), stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      worker.stderr.on('data', (d) => (stderr += d));
      const banner = await new Promise<{ worker: string; storage: string; kinds: string[] }>((resolve, reject) => {
        let out = '';
        worker.stdout.on('data', (d) => {
          out += d;
          if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!));
        });
        worker.on('exit', (code) => reject(new Error(`worker exited (${code}): ${stderr}`)));
      });
      expect(banner.storage).to.equal('postgres');
      expect(banner.kinds).to.include('scripts.generate');

      const rows = await eventually(async () => {
        const r: Array<{ id: string; state: string; worker_id: string; attempts: number }> = await kernel.storage.manager.query(
          'SELECT id, state, worker_id, attempts FROM kernel_jobs ORDER BY id',
        );
        return r.every((x) => x.state === 'passed') ? r : null;
      }, 30_000, 'worker to finish the jobs');
      expect(rows.map((r) => r.id)).to.deep.equal(ids);
      for (const r of rows) expect(r).to.include({ worker_id: banner.worker, attempts: 1 });
      expect((await call('list_pending_tests', { project_id: projectId })).total).to.equal(3);

      const code = await new Promise((r) => {
        worker.removeAllListeners('exit');
        worker.once('exit', (c) => r(c));
        worker.kill('SIGTERM');
      });
      expect(code, stderr).to.equal(0);
    } finally {
      await kernel.close();
      await store.drop();
    }
  });
});

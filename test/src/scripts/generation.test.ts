import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { onEachBackend, startTestHost, type TestClient, type TestHost } from '@testkeeper/kernel/testing';
import { frameworkDir } from '@testkeeper/plugin-scripts/frameworks';
import { newProject } from './helpers.js';

const STEPS = [
  { step: 'Go to /login', expected: 'The title should contain "Sign in"' },
  { step: 'Type "alice" into the "Username" field' },
  { step: 'Click the "Sign in" button', expected: 'User should see "Welcome"' },
  { step: 'Admire the colours' },
];

async function newTestCase(client: TestClient, projectId: number, title = 'Login', steps: unknown[] = STEPS): Promise<number> {
  const tc = await client.ok('create_test_case', { project_id: projectId, title, steps, auto_generate_steps: false });
  return tc.id;
}

async function untilDone(client: TestClient, jobId: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const s = await client.ok('check_generation_status', { job_id: jobId });
    if (['completed', 'failed', 'timed_out'].includes(s.status)) return s;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${s.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

onEachBackend(describe, before, 'code generation and pending tests', (backend) => {
  let host: TestHost;
  let bob: TestClient;
  let projectId: number;
  let tcId: number;

  before(async () => {
    host = await startTestHost({ storage: backend });
    bob = await host.clientFor('bob');
    projectId = await newProject(host);
    tcId = await newTestCase(host, projectId);
  });
  after(async () => host?.close());

  it('propose: completes with a pending test, deterministic engine, untranslated steps listed', async () => {
    const res = await host.ok('generate_code_for_test_case', { test_case_id: tcId, wait_seconds: 20 });
    expect(res).to.include({ status: 'completed', mode: 'propose', framework: 'browser', engine: 'deterministic', test_case_id: tcId });
    expect(res.job_id).to.match(/^job_/);
    expect(res.untranslated).to.deep.equal(['Step 4: Admire the colours']);
    expect(res.check).to.deep.include({ ok: true });
    expect(res.pending_test).to.include({ status: 'pending', project_id: projectId, test_case_id: tcId, engine: 'deterministic' });
    expect(res.pending_test.code).to.contain('await page.getByLabel("Username").fill("alice");');
    const again = await host.ok('check_generation_status', { job_id: res.job_id });
    expect(again).to.deep.include({ status: 'completed', pending_test: res.pending_test });
  });

  it('accept_pending_tests writes proposals into the framework once; accepting again never duplicates', async () => {
    const p = await newProject(host);
    const tc = await newTestCase(host, p, 'Search');
    const a = (await host.ok('generate_code_for_test_case', { test_case_id: tc, wait_seconds: 20 })).pending_test;
    const b = (await host.ok('generate_code_for_test_case', { test_case_id: tc, framework: 'pytest', wait_seconds: 20 })).pending_test;
    const listed = await host.ok('list_pending_tests', { project_id: p });
    expect(listed.items.map((i: any) => i.pending_test_id)).to.deep.equal([a.pending_test_id, b.pending_test_id]);
    expect(listed.items[0]).to.not.have.property('code');

    const one = await host.ok('accept_pending_tests', { project_id: p, pending_test_id: a.pending_test_id });
    expect(one.accepted).to.have.length(1);
    expect(one.accepted[0]).to.include({ pending_test_id: a.pending_test_id, framework: 'browser' });
    const file = path.join(frameworkDir(host.dataDir, p, 'browser'), one.accepted[0].file);
    expect(readFileSync(file, 'utf8')).to.equal(a.code);

    const all = await host.ok('accept_pending_tests', { project_id: p });
    expect(all.accepted.map((x: any) => x.pending_test_id)).to.deep.equal([b.pending_test_id]);
    expect(existsSync(path.join(frameworkDir(host.dataDir, p, 'pytest'), all.accepted[0].file))).to.equal(true);

    const twice = await host.ok('accept_pending_tests', { project_id: p, pending_test_id: a.pending_test_id });
    expect(twice.accepted).to.deep.equal([]);
    expect(twice.already_accepted).to.deep.equal([{ pending_test_id: a.pending_test_id, script_id: one.accepted[0].script_id }]);
    expect((await host.ok('accept_pending_tests', { project_id: p })).accepted).to.deep.equal([]);
    const scripts = await host.ok('list_scripts', { project_id: p });
    expect(scripts.total).to.equal(2);
    expect((await host.ok('list_pending_tests', { project_id: p })).total).to.equal(0);
  });

  it('concurrent accepts of the same proposals create each script once', async () => {
    const p = await newProject(host);
    const tc = await newTestCase(host, p, 'Race');
    for (let i = 0; i < 3; i++) await host.ok('generate_code_for_test_case', { test_case_id: tc, wait_seconds: 20 });
    const results = await Promise.all(Array.from({ length: 5 }, () => host.ok('accept_pending_tests', { project_id: p })));
    expect(results.reduce((n, r) => n + r.accepted.length, 0)).to.equal(3);
    expect((await host.ok('list_scripts', { project_id: p })).total).to.equal(3);
  });

  it('save: creates the script directly, linked to the test case', async () => {
    const res = await host.ok('generate_code_for_test_case', { test_case_id: tcId, mode: 'save', framework: 'pytest', wait_seconds: 20 });
    expect(res).to.include({ status: 'completed', mode: 'save', framework: 'pytest' });
    expect(res.script).to.include({ test_case_id: tcId, project_id: projectId, framework: 'pytest', name: 'Login' });
    const got = await host.ok('get_script', { script_id: res.script.id });
    expect(got.code).to.contain('def test_login(page: Page) -> None:');
    const related = await host.ok('get_test_case', { test_case_id: tcId });
    expect(related.scripts.map((s: any) => s.id)).to.include(res.script.id);
    const filtered = await host.ok('list_scripts', { project_id: projectId, test_case_id: tcId });
    expect(filtered.items.map((s: any) => s.id)).to.include(res.script.id);
  });

  it('returns a job id at once with wait_seconds 0, and runs one job at a time per user', async () => {
    const started = await Promise.all([0, 1, 2, 3].map(() => host.ok('generate_code_for_test_case', { test_case_id: tcId, wait_seconds: 0 })));
    for (const s of started) expect(['queued', 'running', 'completed']).to.include(s.status);
    expect(started.some((s) => s.status !== 'completed')).to.equal(true);
    const done = await Promise.all(started.map((s) => untilDone(host, s.job_id)));
    expect(done.map((d) => d.status)).to.deep.equal(['completed', 'completed', 'completed', 'completed']);
    const spans = done.map((d) => [d.started_at, d.finished_at] as [string, string]).sort((x, y) => x[0].localeCompare(y[0]));
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0] >= spans[i - 1]![1], 'jobs of one user overlapped').to.equal(true);
  });

  it('sends progress notifications when the caller gives a progressToken', async () => {
    const seen: Array<{ progress: number; total?: number; message?: string }> = [];
    const res = await host.client.callTool({ name: 'generate_code_for_test_case', arguments: { test_case_id: tcId, wait_seconds: 20 } }, undefined, {
      onprogress: (p) => void seen.push(p),
    });
    expect((res.structuredContent as any).result.status).to.equal('completed');
    expect(seen.length).to.be.greaterThan(0);
    expect(seen.every((p) => p.total === 4)).to.equal(true);
    const progress = seen.map((p) => p.progress);
    expect(progress, 'progress only grows').to.deep.equal([...progress].sort((a, b) => a - b));
    expect(seen.map((p) => p.message)).to.include('saving the proposal');
  });

  it('rejects bad input', async () => {
    const empty = await newTestCase(host, projectId, 'No steps', []);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'invalid_argument'],
      [{ test_case_id: 'x' }, 'invalid_argument'],
      [{ test_case_id: tcId, framework: 'go_test' }, 'invalid_argument'],
      [{ test_case_id: tcId, mode: 'guess' }, 'invalid_argument'],
      [{ test_case_id: tcId, wait_seconds: 99 }, 'invalid_argument'],
      [{ test_case_id: empty }, 'invalid_argument'],
      [{ test_case_id: 999999 }, 'not_found'],
    ];
    for (const [args, code] of cases) expect((await host.call('generate_code_for_test_case', args)).error?.code, JSON.stringify(args)).to.equal(code);
    expect((await host.call('generate_code_for_test_case', { test_case_id: tcId, framework: 'rust_cargo' })).error?.hint).to.contain('browser, pytest');
    expect((await host.call('check_generation_status', {})).error?.code).to.equal('invalid_argument');
    expect((await host.call('check_generation_status', { job_id: '' })).error?.code).to.equal('invalid_argument');
    expect((await host.call('list_pending_tests', { project_id: projectId, include_code: 'yes' })).error?.code).to.equal('invalid_argument');
    for (const args of [{}, { project_id: 'x' }, { project_id: projectId, pending_test_id: '' }, { project_id: projectId, pending_test_id: 5 }]) {
      expect((await host.call('accept_pending_tests', args)).error?.code, JSON.stringify(args)).to.equal('invalid_argument');
    }
    expect((await host.call('list_pending_tests', {})).error?.code).to.equal('invalid_argument');
    expect((await host.call('accept_pending_tests', { project_id: projectId, pending_test_id: 'pt_nope' })).error).to.deep.include({ code: 'not_found', message: 'pending test pt_nope was not found' });
  });

  it('bob gets the same not_found as for missing ids', async () => {
    const res = await host.ok('generate_code_for_test_case', { test_case_id: tcId, wait_seconds: 20 });
    const foreignTc = await bob.call('generate_code_for_test_case', { test_case_id: tcId });
    expect(foreignTc.error).to.deep.include({ code: 'not_found', message: `test case ${tcId} was not found` });
    const foreignJob = await bob.call('check_generation_status', { job_id: res.job_id });
    const missingJob = await bob.call('check_generation_status', { job_id: 'job_0000' });
    expect(foreignJob.error).to.deep.include({ code: 'not_found', message: `generation job ${res.job_id} was not found` });
    expect(missingJob.error?.code).to.equal('not_found');
    expect(foreignJob.error?.hint).to.equal(missingJob.error?.hint);
    for (const [tool, args] of [
      ['list_pending_tests', { project_id: projectId }],
      ['accept_pending_tests', { project_id: projectId }],
      ['accept_pending_tests', { project_id: projectId, pending_test_id: res.pending_test.pending_test_id }],
    ] as const) {
      expect((await bob.call(tool, args)).error, tool).to.deep.include({ code: 'not_found', message: `project ${projectId} was not found` });
    }
    // A foreign project's pending id under bob's own project is also just not found.
    const bobProject = await newProject(bob);
    const cross = await bob.call('accept_pending_tests', { project_id: bobProject, pending_test_id: res.pending_test.pending_test_id });
    expect(cross.error).to.deep.include({ code: 'not_found', message: `pending test ${res.pending_test.pending_test_id} was not found` });
  });
});

onEachBackend(describe, before, 'code generation with a model (MCP sampling)', (backend) => {
  let host: TestHost;
  let projectId: number;
  let reply: (prompt: string) => Promise<string>;

  before(async () => {
    host = await startTestHost({
      storage: backend,
      sampling: async (req): Promise<CreateMessageResult> => {
        const prompt = (req.messages[0]!.content as { text: string }).text;
        return { model: 'fake-model-1', role: 'assistant', content: { type: 'text', text: await reply(prompt) } };
      },
    });
    projectId = await newProject(host);
  });
  after(async () => host?.close());

  it("uses the model's code when it compiles and records the engine", async () => {
    const code = "import { test, expect } from '@playwright/test';\n\ntest('login', async ({ page }) => {\n  await page.goto('/login');\n});\n";
    reply = async () => JSON.stringify({ code, untranslated: ['Step 4: Admire the colours'] });
    const tc = await newTestCase(host, projectId);
    const res = await host.ok('generate_code_for_test_case', { test_case_id: tc, wait_seconds: 20 });
    expect(res).to.include({ status: 'completed', engine: 'mcp_sampling', model: 'fake-model-1' });
    expect(res.pending_test.code).to.equal(code);
  });

  it("falls back to the deterministic engine when the model's code does not compile", async () => {
    reply = async () => JSON.stringify({ code: 'test("x", async ({ page }) => { await page.goto(' });
    const tc = await newTestCase(host, projectId);
    const res = await host.ok('generate_code_for_test_case', { test_case_id: tc, wait_seconds: 20 });
    expect(res).to.include({ status: 'completed', engine: 'deterministic' });
    expect(res.fallback_reason).to.contain('did not compile');
    expect(res.pending_test.code).to.contain('await page.goto("/login");');
  });

  it('a job whose test case is deleted while queued fails with the reason', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    reply = async () => {
      await gate;
      return JSON.stringify({ code: 'not json code' });
    };
    const first = await newTestCase(host, projectId, 'First');
    const second = await newTestCase(host, projectId, 'Second');
    const a = await host.ok('generate_code_for_test_case', { test_case_id: first, wait_seconds: 0 });
    const b = await host.ok('generate_code_for_test_case', { test_case_id: second, wait_seconds: 0 });
    // b waits behind a (one job per user); delete its test case meanwhile.
    await new Promise((r) => setTimeout(r, 300));
    expect((await host.ok('check_generation_status', { job_id: b.job_id })).status).to.equal('queued');
    await host.ok('delete_test_case', { test_case_id: second });
    release();
    expect((await untilDone(host, a.job_id)).status).to.equal('completed');
    const failed = await untilDone(host, b.job_id);
    expect(failed).to.include({ status: 'failed', reason: `test case ${second} was not found` });
  });
});

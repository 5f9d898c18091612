import { expect } from 'chai';
import { Tokens } from '@testkeeper/kernel';
import { onEachBackend, startTestHost, type TestClient, type TestHost } from '@testkeeper/kernel/testing';
import { countRows, expectError, newProject } from './helpers.js';

onEachBackend(describe, before, 'test cases: project memory', (backend) => {
  let host: TestHost;
  let bob: TestClient;
  let projectId: number;
  let caseId: number;
  before(async () => {
    host = await startTestHost({ storage: backend });
    bob = await host.clientFor('bob');
    projectId = await newProject(host, 'Memory app');
    caseId = (await host.ok('create_test_case', { project_id: projectId, title: 'Checkout', steps: [{ step: 'x' }] })).id;
  });
  after(async () => host?.close());

  const learn = (text: string, extra: Record<string, unknown> = {}) => host.ok('record_project_learning', { project_id: projectId, text, ...extra });

  it('records learnings with provenance and returns them newest first', async () => {
    const a = await learn('The login button has data-testid="login-submit"; text selectors are flaky.', { source_ref: 'execution ex-41' });
    const b = await learn('Checkout needs the Stripe test card 4242 4242 4242 4242.', { test_case_id: caseId });
    expect(a).to.deep.equal({ recorded: true, memory_id: a.memory_id });
    const mem = await host.ok('get_project_memory', { project_id: projectId });
    expect(mem.ranking).to.equal('newest_first');
    expect(mem.entries.map((e: { id: number }) => e.id)).to.deep.equal([b.memory_id, a.memory_id]);
    const entry = mem.entries[1];
    expect(entry).to.deep.include({ kind: 'learning', test_case_id: null });
    expect(entry.provenance).to.include({ recorded_by: 'agent:alice', source_ref: 'execution ex-41' });
    expect(Date.parse(entry.provenance.recorded_at)).to.be.closeTo(Date.now(), 60_000);
    expect(mem.entries[0].test_case_id).to.equal(caseId);
  });

  it('stores the same learning once', async () => {
    const again = await learn('the login button has data-testid="login-submit"; text selectors are flaky');
    expect(again.recorded).to.equal(false);
    expect(again.note).to.match(/already recorded/);
    // Case, punctuation and spacing do not make a new learning.
    const variant = await learn('The LOGIN button has data-testid = "login-submit" -- text selectors are flaky!');
    expect(variant.recorded).to.equal(false);
  });

  it('ranks by relevance to query with the full-text index, and filters by test case', async () => {
    await learn('Search results load lazily; wait for the spinner to disappear.');
    await learn('The password reset email arrives after about 30 seconds in staging.');
    const mem = await host.ok('get_project_memory', { project_id: projectId, query: 'password reset email' });
    expect(mem.ranking).to.equal('full_text');
    expect(mem.entries[0].text).to.match(/password reset email/);
    expect(mem.entries[0].score).to.be.a('number');
    const byCase = await host.ok('get_project_memory', { project_id: projectId, test_case_id: caseId });
    expect(byCase.entries.map((e: { text: string }) => e.text)).to.deep.equal(['Checkout needs the Stripe test card 4242 4242 4242 4242.']);
  });

  it('lets intent re-rank what the query found', async () => {
    await learn('Login form: selectors changed in the redesign; repair old scripts with data-testid.');
    await learn('Login form: the error banner text is "Invalid credentials".');
    const plain = await host.ok('get_project_memory', { project_id: projectId, query: 'login form', limit: 5 });
    const repair = await host.ok('get_project_memory', { project_id: projectId, query: 'login form', intent: 'repair scripts', limit: 5 });
    expect(repair.ranking).to.equal('full_text+intent');
    expect(repair.entries[0].text).to.match(/repair old scripts/);
    expect(plain.entries.map((e: { id: number }) => e.id)).to.have.members(repair.entries.map((e: { id: number }) => e.id));
  });

  it('counts downstream_reuse only as project totals', async () => {
    await host.ok('get_project_memory', { project_id: projectId, downstream_reuse: true });
    await host.ok('get_project_memory', { project_id: projectId, downstream_reuse: true });
    const res = await host.ok('get_project_memory', { project_id: projectId, downstream_reuse: false });
    expect(res.downstream_reuse).to.deep.equal({ reused: 2, not_reused: 1 });
    expect(await countRows(host, 'projects_memory_reuse')).to.equal(1);
  });

  it('is writable by other packs through Tokens.ProjectMemory', async () => {
    const writer = host.kernel.container.resolve(Tokens.ProjectMemory);
    const owner = host.caller.userId;
    const { id } = await writer.record({ project_id: projectId, owner_id: owner, kind: 'verified_run', text: 'Checkout script passed on staging.', test_case_id: caseId, source: 'tool:run_tests', source_ref: 'ex-99' });
    const mem = await host.ok('get_project_memory', { project_id: projectId, test_case_id: caseId, query: 'staging' });
    expect(mem.entries[0]).to.deep.include({ id, kind: 'verified_run' });
    expect(mem.entries[0].provenance).to.include({ recorded_by: 'tool:run_tests', source_ref: 'ex-99' });
  });

  it('rejects bad input and foreign ids without writing', async () => {
    const before = await countRows(host, 'projects_memory');
    const err = await expectError(host, 'get_project_memory', { project_id: projectId, intent: 'repair' }, 'invalid_argument');
    expect(err.message).to.match(/intent is only valid together with query/);
    await expectError(host, 'get_project_memory', { project_id: projectId, limit: 21 }, 'invalid_argument');
    await expectError(host, 'get_project_memory', { project_id: projectId, query: '???' }, 'invalid_argument');
    await expectError(host, 'record_project_learning', { project_id: projectId, text: '   ' }, 'invalid_argument');
    await expectError(host, 'record_project_learning', { project_id: projectId, text: 'x'.repeat(4001) }, 'invalid_argument');
    const other = await newProject(host, 'Memory other');
    const wrongProject = await expectError(host, 'record_project_learning', { project_id: other, text: 'misfiled', test_case_id: caseId }, 'not_found');
    expect(wrongProject.message).to.equal(`test case ${caseId} was not found`);
    await expectError(bob, 'get_project_memory', { project_id: projectId }, 'not_found');
    await expectError(bob, 'record_project_learning', { project_id: projectId, text: 'sneaky' }, 'not_found');
    expect(await countRows(host, 'projects_memory')).to.equal(before);
  });
});

onEachBackend(describe, before, 'test cases: get_project_agent_instructions', (backend) => {
  let host: TestHost;
  let bob: TestClient;
  let projectId: number;
  before(async () => {
    host = await startTestHost({ storage: backend });
    bob = await host.clientFor('bob');
    const p = await host.ok('create_project', { name: 'Storefront', main_url: 'https://shop.example.com', force_create: true });
    projectId = p.project_id;
    await host.ok('create_test_case', { project_id: projectId, title: 'Checkout', category: 'Payments', steps: [{ step: 'x' }] });
  });
  after(async () => host?.close());

  it('returns a prompt, a skill file with front matter, a revision and only allowlisted facts', async () => {
    const res = await host.ok('get_project_agent_instructions', { project_id: projectId });
    expect(res.workflow).to.equal('preview');
    expect(res.revision).to.match(/^[0-9a-f]{16}$/);
    expect(res.prompt).to.include('Storefront').and.include('run_tests.base_url').and.include('select no deployment');
    expect(res.note).to.match(/select no deployment and change no settings/);
    expect(res.skill_file.path).to.match(/^skills\/testkeeper-storefront-preview\/SKILL\.md$/i);
    expect(res.skill_file.content).to.match(/^---\nname: testkeeper-[a-z0-9-]+-preview\ndescription: ".+"\n---\n/);
    expect(Object.keys(res.facts).sort()).to.deep.equal(['categories', 'key', 'main_url', 'memory_entries', 'name', 'project_id', 'project_type', 'test_case_count']);
    expect(res.facts).to.include({ test_case_count: 1, main_url: 'https://shop.example.com' });
    expect(res.facts.categories).to.deep.equal(['Payments']);
  });

  it('keeps the revision while the content is the same and changes it when the content changes', async () => {
    const a = await host.ok('get_project_agent_instructions', { project_id: projectId });
    const b = await host.ok('get_project_agent_instructions', { project_id: projectId });
    expect(b.revision).to.equal(a.revision);
    await host.ok('create_test_case', { project_id: projectId, title: 'Refund', category: 'Payments', steps: [{ step: 'x' }] });
    const c = await host.ok('get_project_agent_instructions', { project_id: projectId });
    expect(c.revision).not.to.equal(a.revision);
  });

  it('selects variants by workflow and changes no settings', async () => {
    const before = await host.ok('get_project_summary', { project_id: projectId, fields: ['project'] });
    const reg = await host.ok('get_project_agent_instructions', { project_id: projectId, workflow: 'regression' });
    const feat = await host.ok('get_project_agent_instructions', { project_id: projectId, workflow: 'new_feature' });
    expect(reg.prompt).to.include('existing tests');
    expect(feat.prompt).to.include('create_test_case');
    expect(new Set([reg.revision, feat.revision]).size).to.equal(2);
    const after = await host.ok('get_project_summary', { project_id: projectId, fields: ['project'] });
    expect(after).to.deep.equal(before);
  });

  it('rejects unknown workflows and foreign projects', async () => {
    const err = await expectError(host, 'get_project_agent_instructions', { project_id: projectId, workflow: 'deploy' }, 'invalid_argument');
    expect(err.message).to.match(/preview/);
    await expectError(bob, 'get_project_agent_instructions', { project_id: projectId }, 'not_found');
    const tools = (await host.client.listTools()).tools.find((t) => t.name === 'get_project_agent_instructions');
    expect(tools?.annotations?.readOnlyHint).to.equal(true);
  });
});
